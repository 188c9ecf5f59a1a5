// Linked into every test process for its load-time effect only (see BrokenPipes.c); it declares nothing.

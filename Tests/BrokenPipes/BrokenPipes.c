// A test process writes to sockets and pipes whose far end a test closes on purpose (a server that drops a slow
// client, a child that exits before reading its input). The write must fail with EPIPE, not end the whole test
// process with SIGPIPE's default action. SwiftNIO ignores SIGPIPE only once it opens its first socket; this runs when
// the test binary loads, before any test.
#include <signal.h>

#include "BrokenPipes.h"

__attribute__((constructor)) static void my_day_tests_ignore_broken_pipes(void) { signal(SIGPIPE, SIG_IGN); }

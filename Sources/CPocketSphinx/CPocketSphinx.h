// Debian's PocketSphinx 5prealpha and SphinxBase, as Swift sees them.
#include <pocketsphinx.h>
#include <sphinxbase/cmn.h>
#include <sphinxbase/feat.h>

#ifndef MYDAY_POCKETSPHINX_SHIM_H
#define MYDAY_POCKETSPHINX_SHIM_H

#include <pocketsphinx.h>

/// A decoder for 16 kHz mono audio with the given acoustic model folder, language model and
/// dictionary; NULL when they cannot be loaded. (`cmd_ln_init` is variadic, so Swift cannot call it.)
ps_decoder_t *myday_ps_init(const char *hmm, const char *lm, const char *dict);

/// The length of the decoder's cepstral-mean vector.
int myday_ps_cmn_length(ps_decoder_t *ps);

/// Copies the decoder's current cepstral mean into `out` (of `myday_ps_cmn_length` floats).
void myday_ps_cmn_get(ps_decoder_t *ps, float *out);

/// Sets the decoder's cepstral mean from `values`, so the next audio starts from a known state.
void myday_ps_cmn_set(ps_decoder_t *ps, const float *values);

#endif

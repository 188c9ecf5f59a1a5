#include "PocketSphinxShim.h"

#include <sphinxbase/cmn.h>
#include <sphinxbase/feat.h>
#include <stdlib.h>

ps_decoder_t *myday_ps_init(const char *hmm, const char *lm, const char *dict) {
    cmd_ln_t *config = cmd_ln_init(NULL, ps_args(), TRUE,
                                   "-hmm", hmm, "-lm", lm, "-dict", dict,
                                   "-samprate", "16000", "-logfn", "/dev/null",
                                   NULL);
    if (config == NULL) {
        return NULL;
    }
    ps_decoder_t *decoder = ps_init(config);
    cmd_ln_free_r(config);
    return decoder;
}

int myday_ps_cmn_length(ps_decoder_t *ps) {
    return ps_get_feat(ps)->cmn_struct->veclen;
}

void myday_ps_cmn_get(ps_decoder_t *ps, float *out) {
    cmn_t *cmn = ps_get_feat(ps)->cmn_struct;
    mfcc_t values[64];
    int length = cmn->veclen < 64 ? cmn->veclen : 64;
    cmn_live_get(cmn, values);
    for (int i = 0; i < length; i++) {
        out[i] = (float)values[i];
    }
}

void myday_ps_cmn_set(ps_decoder_t *ps, const float *values) {
    cmn_t *cmn = ps_get_feat(ps)->cmn_struct;
    mfcc_t converted[64];
    int length = cmn->veclen < 64 ? cmn->veclen : 64;
    for (int i = 0; i < length; i++) {
        converted[i] = (mfcc_t)values[i];
    }
    cmn_live_set(cmn, converted);
}

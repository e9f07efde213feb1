// pe_rope and pe_rope_apply called with a pe_rope_config (its fields in the public argument order)
// and no LongRoPE lists: shared by the native tests (test_rope.c) and the fuzz harness
// (tests/fuzz/fuzz_kernels.c), so both call the kernels the same way.
#ifndef PE_TEST_ROPE_CONFIG_H
#define PE_TEST_ROPE_CONFIG_H

#include "pe.h"
#include "rope.h"

static inline pe_status rope_c(float *angles, float *cos_out, float *sin_out, double *inv_freq, double *af,
                               const pe_rope_config *c) {
    return pe_rope(angles, cos_out, sin_out, inv_freq, af, c->length, c->dim, c->base, c->partial_rotary_factor,
                   c->max_position_embeddings, c->rope_type, c->factor, c->original_max_position_embeddings,
                   c->beta_fast, c->beta_slow, c->truncate, c->mscale, c->mscale_all_dim, c->attention_factor,
                   c->low_freq_factor, c->high_freq_factor, NULL, NULL);
}

static inline pe_status apply_c(float *out, const float *x, double *inv_freq, double *af, int32_t heads, int32_t layout,
                                const pe_rope_config *c) {
    return pe_rope_apply(out, x, inv_freq, af, heads, layout, c->length, c->dim, c->base, c->partial_rotary_factor,
                         c->max_position_embeddings, c->rope_type, c->factor, c->original_max_position_embeddings,
                         c->beta_fast, c->beta_slow, c->truncate, c->mscale, c->mscale_all_dim, c->attention_factor,
                         c->low_freq_factor, c->high_freq_factor, NULL, NULL);
}

#endif   // PE_TEST_ROPE_CONFIG_H

// The inputs of the attention kernel (c/attention.c): q and k from the content, the per-head
// relative-bias rows, and the cos/sin of M-RoPE's angles.
//
// q and k (docs/reference.md, kind `attention`; G(s, p, c) is the standard normal generator of c/random.h,
// entry (p, c) for the 64-bit seed s; S(t) = seed + t·2^32 the seed of stream t):
//   random  q[h, i, c] = G(S(1), h·2^20 + i, c) + T[i, c],  k[h, i, c] = G(S(2), h·2^20 + i, c) + T[i, c]
//   tokens  x_i = e(word_i) + T[i],  e(w)[c] = G(fnv1a64(UTF-8 bytes of w) + seed, 0, c)
//           q[h, i] = W_q[h]·x_i, k[h, i] = W_k[h]·x_i,  W_q[h][r, c] = G(S(4), h·2^20 + r, c)/√dim,
//           W_k the same with S(5)   (r the output channel; same word → same vector)
//   none    q_i = k_i = T[i] (additive), the all-ones vector (rotary), 0 (bias or no encoding)
// with T the additive table (length, dim), or 0 without one. Each G value is rounded to float32
// once (after the 1/√dim); sums and products are float32.
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "attention.h"
#include "relative.h"   // pe_t5_bucket, pe_distance_bias, pe_alibi_slopes, pe_bias_mode

#define STREAM(seed, t) ((seed) + ((uint64_t)(t) << 32))
#define HEAD_ROWS 1048576u   // generator rows per head: row h·2^20 + i

// --- relative biases -----------------------------------------------------------------------------

pe_status pe_attention_bias_alibi(float *bias, int32_t length, int32_t heads, int32_t mode) {
    if (bias == NULL) return PE_ERR_ARG(1);
    if (length < 1 || length > PE_MAX_BIAS_LENGTH) return PE_ERR_ARG(2);
    if (heads < 1 || heads > PE_MAX_ALIBI_HEADS) return PE_ERR_ARG(3);
    if (mode != PE_BIAS_CAUSAL && mode != PE_BIAS_SYMMETRIC) return PE_ERR_ARG(4);
    const int32_t width = 2 * length - 1;
    if ((int64_t)heads * width > PE_MAX_ELEMENTS) return PE_ERR_TOO_LARGE;
    double m[PE_MAX_ALIBI_HEADS];
    pe_alibi_slopes(m, heads);
    for (int32_t h = 0; h < heads; h++) {
        float *plane = bias + (size_t)h * (size_t)width + (length - 1);   // plane[r], r = j − i
        for (int32_t r = -(length - 1); r < length; r++) {
            const int32_t d = r < 0 ? -r : r;
            plane[r] = r > 0 && mode == PE_BIAS_CAUSAL ? -INFINITY : (float)(0.0 - m[h] * (double)d);
        }
    }
    return PE_OK;
}

pe_status pe_attention_bias_t5(float *bias, int32_t length, int32_t heads, int32_t num_buckets, int32_t max_distance,
                               int32_t bidirectional, double seed) {
    if (bias == NULL) return PE_ERR_ARG(1);
    if (length < 1 || length > PE_MAX_BIAS_LENGTH) return PE_ERR_ARG(2);
    if (heads < 1 || heads > PE_MAX_ATTENTION_HEADS) return PE_ERR_ARG(3);
    if (num_buckets < 4 || num_buckets > PE_MAX_T5_BUCKETS) return PE_ERR_ARG(4);
    if (bidirectional != 0 && bidirectional != 1) return PE_ERR_ARG(6);
    const int32_t max_exact = (bidirectional ? num_buckets / 2 : num_buckets) / 2;
    if (max_distance <= max_exact || max_distance > PE_MAX_LENGTH) return PE_ERR_ARG(5);
    if (!pe_random_seed_ok(seed)) return PE_ERR_ARG(7);
    const int32_t width = 2 * length - 1;
    const uint64_t s = STREAM((uint64_t)seed, PE_STREAM_BIAS);
    for (int32_t h = 0; h < heads; h++) {
        float *plane = bias + (size_t)h * (size_t)width + (length - 1);
        for (int32_t r = -(length - 1); r < length; r++) {
            const int32_t b = pe_t5_bucket(r, num_buckets, max_distance, bidirectional);
            plane[r] = (float)pe_random_normal(s, (uint32_t)h, (uint32_t)b);   // T[h, bucket]
        }
    }
    return PE_OK;
}

pe_status pe_attention_bias_shaw(float *bias, int32_t length, int32_t heads, int32_t max_relative_position,
                                 double seed) {
    if (bias == NULL) return PE_ERR_ARG(1);
    if (length < 1 || length > PE_MAX_BIAS_LENGTH) return PE_ERR_ARG(2);
    if (heads < 1 || heads > PE_MAX_ATTENTION_HEADS) return PE_ERR_ARG(3);
    if (max_relative_position < 0 || max_relative_position > PE_MAX_LENGTH) return PE_ERR_ARG(4);
    if (!pe_random_seed_ok(seed)) return PE_ERR_ARG(5);
    const int32_t width = 2 * length - 1, k = max_relative_position;
    const uint64_t s = STREAM((uint64_t)seed, PE_STREAM_BIAS);
    for (int32_t h = 0; h < heads; h++) {
        float *plane = bias + (size_t)h * (size_t)width + (length - 1);
        for (int32_t r = -(length - 1); r < length; r++) {
            const int32_t index = (r < -k ? -k : r > k ? k : r) + k;   // clip(r, −k, k) + k
            plane[r] = (float)pe_random_normal(s, (uint32_t)h, (uint32_t)index);
        }
    }
    return PE_OK;
}

pe_status pe_attention_bias_distance(float *bias, int32_t length, int32_t function, double strength, double scale,
                                     int32_t mode) {
    if (bias == NULL) return PE_ERR_ARG(1);
    if (length < 1 || length > PE_MAX_BIAS_LENGTH) return PE_ERR_ARG(2);
    if (function < PE_DIST_LINEAR || function > PE_DIST_EXPONENTIAL) return PE_ERR_ARG(3);
    if (!(strength >= 0.0 && strength <= 1000.0)) return PE_ERR_ARG(4);
    if (!(scale >= 0.01 && scale <= 1e6)) return PE_ERR_ARG(5);
    if (mode != PE_BIAS_CAUSAL && mode != PE_BIAS_SYMMETRIC) return PE_ERR_ARG(6);
    float *plane = bias + (length - 1);
    for (int32_t r = -(length - 1); r < length; r++)
        plane[r] = r > 0 && mode == PE_BIAS_CAUSAL ? -INFINITY
                                                   : (float)pe_distance_bias(r < 0 ? -r : r, function, strength, scale);
    return PE_OK;
}

pe_status pe_attention_cos_sin(float *cos_out, float *sin_out, const float *angles, int32_t n) {
    if (cos_out == NULL) return PE_ERR_ARG(1);
    if (sin_out == NULL) return PE_ERR_ARG(2);
    if (angles == NULL) return PE_ERR_ARG(3);
    if (n < 0) return PE_ERR_ARG(4);
    if (n > PE_MAX_ELEMENTS) return PE_ERR_TOO_LARGE;
    for (int32_t t = 0; t < n; t++) {
        cos_out[t] = (float)cos((double)angles[t]);
        sin_out[t] = (float)sin((double)angles[t]);
    }
    return PE_OK;
}

// --- tokens --------------------------------------------------------------------------------------

uint64_t pe_fnv1a64(const uint8_t *bytes, int32_t n) {
    uint64_t h = 0xCBF29CE484222325ull;
    for (int32_t t = 0; t < n; t++) h = (h ^ bytes[t]) * 0x100000001B3ull;
    return h;
}

// --- q and k ---------------------------------------------------------------------------------------

// Random q and k (heads, length, dim) with the additive table (or NULL) added.
static void random_qk(float *q, float *k, int32_t heads, int32_t length, int32_t dim, uint64_t seed,
                      const float *add_table, const pe_attention_ops *ops) {
    const size_t plane = (size_t)length * (size_t)dim;
    for (int32_t h = 0; h < heads; h++)
        for (int32_t i = 0; i < length; i++) {
            const size_t at = (size_t)h * plane + (size_t)i * (size_t)dim;
            const uint32_t p = (uint32_t)h * HEAD_ROWS + (uint32_t)i;
            const float *row = add_table != NULL ? add_table + (size_t)i * (size_t)dim : NULL;
            ops->normal(q + at, STREAM(seed, PE_STREAM_Q), p, dim, 1.0, row);
            ops->normal(k + at, STREAM(seed, PE_STREAM_K), p, dim, 1.0, row);
        }
}

pe_status pe_attention_random(float *q, float *k, int32_t heads, int32_t length, int32_t dim, double seed) {
    if (q == NULL) return PE_ERR_ARG(1);
    if (k == NULL) return PE_ERR_ARG(2);
    if (heads < 1 || heads > PE_MAX_ATTENTION_HEADS) return PE_ERR_ARG(3);
    if (length < 1 || length > PE_MAX_ATTENTION_LENGTH) return PE_ERR_ARG(4);
    if (dim < 1 || dim > PE_MAX_ATTENTION_DIM) return PE_ERR_ARG(5);
    if (!pe_random_seed_ok(seed)) return PE_ERR_ARG(6);
    if ((int64_t)heads * length * dim > PE_MAX_ATTENTION_QK) return PE_ERR_TOO_LARGE;
    random_qk(q, k, heads, length, dim, (uint64_t)seed, NULL, pe_attention_ops_default());
    return PE_OK;
}

// out[t, r] = Σ_c x[t, c]·w[r, c] for t < count, r < dim (float32, channel order): the "scores"
// of the rows of x against the dim rows of w (packed into panels for the SIMD variant).
static void project_rows(float *out, const float *x, int32_t count, const float *w, const float *panels, int32_t dim,
                         const pe_attention_ops *ops) {
    for (int32_t t = 0; t < count; t += PE_ATTENTION_TILE) {
        const int32_t rows = count - t < PE_ATTENTION_TILE ? count - t : PE_ATTENTION_TILE;
        ops->scores(out + (size_t)t * (size_t)dim, dim, x + (size_t)t * (size_t)dim, w, panels, NULL, rows, dim, 0, dim,
                    1.0f);
    }
}

void pe_attention_qk(float *q, float *k, float *panels, float *x, float *w, const float *add_table, const uint8_t *text,
                     const int32_t *words, int32_t length, int32_t dim, int32_t heads, int32_t content,
                     int32_t encoding, uint64_t s, const pe_attention_ops *ops) {
    const size_t plane = (size_t)length * (size_t)dim;   // one head of q or k: (length, dim)
    if (content == PE_CONTENT_RANDOM) {
        random_qk(q, k, heads, length, dim, s, add_table, ops);
    } else if (content == PE_CONTENT_PREPARED) {
        if (add_table != NULL)   // q + T, k + T in float32, as the generator adds it
            for (int32_t h = 0; h < 2 * heads; h++)
                for (size_t t = 0; t < plane; t++) q[(size_t)h * plane + t] += add_table[t];
    } else if (content == PE_CONTENT_NONE) {
        for (int32_t i = 0; i < length; i++) {
            float *row = q + (size_t)i * (size_t)dim;   // head 0, then copied
            if (add_table != NULL) memcpy(row, add_table + (size_t)i * (size_t)dim, sizeof(float) * (size_t)dim);
            else
                for (int32_t c = 0; c < dim; c++) row[c] = encoding == PE_ENCODING_ROTARY ? 1.0f : 0.0f;
        }
        for (int32_t h = 1; h < heads; h++) memcpy(q + (size_t)h * plane, q, sizeof(float) * plane);
        memcpy(k, q, sizeof(float) * (size_t)heads * plane);
    } else {
        for (int32_t i = 0; i < length; i++) {
            const uint64_t word_seed = pe_fnv1a64(text + words[i], words[i + 1] - words[i]) + s;
            ops->normal(x + (size_t)i * (size_t)dim, word_seed, 0, dim, 1.0,
                        add_table != NULL ? add_table + (size_t)i * (size_t)dim : NULL);
        }
        const double w_scale = 1.0 / sqrt((double)dim);
        for (int32_t h = 0; h < heads; h++)
            for (int32_t proj = 0; proj < 2; proj++) {
                const uint64_t ws = STREAM(s, proj == 0 ? PE_STREAM_WQ : PE_STREAM_WK);
                for (int32_t r = 0; r < dim; r++)
                    ops->normal(w + (size_t)r * (size_t)dim, ws, (uint32_t)h * HEAD_ROWS + (uint32_t)r, dim, w_scale,
                                NULL);
                if (ops->packs) pe_attention_pack(panels, w, dim, dim);
                // q[h, i, r] = Σ_c W[r, c]·x_i[c]: the "scores" of x_i against the rows of W.
                float *dst = (proj == 0 ? q : k) + (size_t)h * plane;
                project_rows(dst, x, length, w, panels, dim, ops);
            }
    }
}

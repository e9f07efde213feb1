// Native tests of the attention kernel (c/attention.c, c/attention_inputs.c), gcc + SIMDe under
// ASan/UBSan (run.sh):
//   1. exp: the SIMD and scalar polynomial agree bit for bit, and are within 2 ulp of float64 exp
//      over every 2^-10 step of [−87.3, 0] plus random arguments; a subnormal near e^x down to
//      −87.68, then 0 (also at −∞ and NaN).
//   2. softmax rows and scores tiles: SIMD vs scalar reference at every tail length, bit for bit
//      (the Gaussian rows of q and k: test_random.c).
//   3. The whole kernel, SIMD vs scalar, for every encoding class, content, causal or not, odd and
//      even sizes, 1–3 heads: bit for bit when the Gaussian rows come from the same function.
//   4. Against a float64 evaluation of the definitions written out here (q, k from the documented
//      generator, the mask, the softmax), including entropy and local mass.
//   5. Properties: rows sum to 1, the causal upper triangle is 0, rows with every entry masked
//      are 0 (never NaN), huge logits give one-hot rows without overflow.
//   6. The bias helpers against the bias kinds, and every bad argument's status.
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "absolute.h"
#include "attention.h"
#include "pe.h"
#include "relative.h"
#include "test_util.h"

static uint32_t lcg_state = 2024u;
static uint32_t lcg(void) {
    lcg_state = lcg_state * 1664525u + 1013904223u;
    return lcg_state;
}
static float uniform(float lo, float hi) { return lo + (hi - lo) * (float)(lcg() >> 8) * (1.0f / 16777216.0f); }

static int same_bits(const float *a, const float *b, size_t n) { return memcmp(a, b, n * sizeof(float)) == 0; }

// Distance in float32 ulps between two finite floats of the same sign (or zero).
static double ulps(float a, double exact) {
    double e = fabs(exact);
    if (e < FLT_MIN) return fabs((double)a - exact) / (FLT_MIN * FLT_EPSILON);
    int ex;
    frexp(e, &ex);
    double ulp = ldexp(1.0, ex - 24);
    return fabs((double)a - exact) / ulp;
}

// --- 1. exp ----------------------------------------------------------------------------------

static void test_exp(void) {
    double worst = 0.0;
    float worst_x = 0.0f;
    int mismatches = 0;
    for (int32_t t = 0; t <= 87 * 1024 + 300; t++) {
        float xs[4];
        for (int l = 0; l < 4; l++) xs[l] = t == 0 && l == 0 ? 0.0f : -(float)t / 1024.0f - (float)l * 0.0001f;
        float simd[4];
        wasm_v128_store(simd, pe_attention_exp_x4(wasm_v128_load(xs)));
        for (int l = 0; l < 4; l++) {
            float s = pe_attention_exp(xs[l]);
            if (memcmp(&s, &simd[l], 4) != 0) mismatches++;
            if (xs[l] >= -87.33654f) {
                double u = ulps(s, exp((double)xs[l]));
                if (u > worst) {
                    worst = u;
                    worst_x = xs[l];
                }
            }
        }
    }
    for (int t = 0; t < 200000; t++) {
        float x = uniform(-87.3f, 0.0f);
        double u = ulps(pe_attention_exp(x), exp((double)x));
        if (u > worst) {
            worst = u;
            worst_x = x;
        }
    }
    printf("  exp: max error %.3f ulp (at x = %.6g) over [-87.3, 0]\n", worst, (double)worst_x);
    CHECK(worst < 2.0, "exp within 2 ulp of float64 exp, got %.3f ulp at %g", worst, (double)worst_x);
    CHECK(mismatches == 0, "exp: SIMD == scalar bit for bit (%d mismatches)", mismatches);
    CHECK(pe_attention_exp(0.0f) == 1.0f, "exp(0) = 1 exactly");
    CHECK(pe_attention_exp(-0.0f) == 1.0f, "exp(-0) = 1 exactly");
    CHECK(pe_attention_exp(-INFINITY) == 0.0f, "exp(-inf) = 0");
    CHECK(pe_attention_exp(-88.0f) == 0.0f, "exp(-88) = 0");
    CHECK(pe_attention_exp(-87.69f) == 0.0f, "exp below -126.5 ln 2 = 0");
    CHECK(pe_attention_exp(-1e30f) == 0.0f, "exp(-1e30) = 0");
    CHECK(pe_attention_exp(NAN) == 0.0f, "exp(NaN) = 0");
    // Between -126.5 ln 2 and ln(FLT_MIN): a subnormal within 1 % of e^x (its last bits are few).
    for (float x = -87.67f; x < -87.34f; x += 0.01f) {
        const float e = pe_attention_exp(x);
        CHECK(e > 0.0f && e < FLT_MIN && fabs(e / exp((double)x) - 1.0) < 0.01, "exp(%g) = %g, a subnormal near %g",
              (double)x, (double)e, exp((double)x));
    }
    float special[4] = {-INFINITY, -1e30f, -87.69f, -87.33f}, got[4];
    wasm_v128_store(got, pe_attention_exp_x4(wasm_v128_load(special)));
    CHECK(got[0] == 0.0f && got[1] == 0.0f && got[2] == 0.0f && got[3] > 0.0f, "SIMD exp of -inf, -1e30, -87.69 is 0");
    float band[4] = {-87.4f, -87.5f, -87.6f, NAN};
    float sb[4];
    wasm_v128_store(sb, pe_attention_exp_x4(wasm_v128_load(band)));
    for (int l = 0; l < 4; l++) {
        float e = pe_attention_exp(band[l]);
        CHECK(memcmp(&e, &sb[l], 4) == 0, "SIMD exp == scalar at %g", (double)band[l]);
    }
}

// --- 2. building blocks ------------------------------------------------------------------------

static void test_softmax_simd_matches_scalar(void) {
    enum { MAX_N = 70 };
    float a[MAX_N + 4], b[MAX_N + 4];
    for (int n = 0; n <= MAX_N; n++)
        for (int variant = 0; variant < 6; variant++) {
            for (int j = 0; j < n; j++) {
                float v = uniform(-8.0f, 8.0f);
                if (variant == 1 && lcg() % 3 == 0) v = -INFINITY;   // masked entries
                if (variant == 2) v = uniform(-1e30f, 1e30f);        // huge logits
                if (variant == 3) v = -INFINITY;                     // every entry masked
                if (variant == 4) v = (lcg() & 1) ? 0.0f : -0.0f;    // signed zeros
                if (variant == 5) v = uniform(-200.0f, 0.0f);        // underflowing exps
                a[j] = b[j] = v;
            }
            a[n] = b[n] = 12345.0f;   // a sentinel just past the row
            float ea = pe_attention_softmax_scalar(a, n), eb = pe_attention_softmax_simd(b, n);
            CHECK(same_bits(a, b, (size_t)n) && memcmp(&ea, &eb, 4) == 0, "softmax SIMD == scalar (n=%d, variant %d)",
                  n, variant);
            CHECK(a[n] == 12345.0f && b[n] == 12345.0f, "softmax stays in its row (n=%d)", n);
            double sum = 0.0;
            int nan = 0;
            for (int j = 0; j < n; j++) {
                sum += a[j];
                if (isnan(a[j])) nan++;
            }
            int open = 0;   // entries not masked
            for (int j = 0; j < n; j++) open += b[j] != 0.0f || a[j] != 0.0f;
            CHECK(nan == 0 && !isnan(ea), "softmax never NaN (n=%d variant %d)", n, variant);
            if (open > 0) CHECK(fabs(sum - 1.0) < 1e-6, "row sums to 1 (n=%d variant %d): %.9f", n, variant, sum);
            if (variant == 3) CHECK(sum == 0.0 && ea == 0.0f, "an all-masked row is zeros with entropy 0 (n=%d)", n);
        }
}

static void test_scores_simd_matches_scalar(void) {
    enum { MAX_KEYS = 41, MAX_DIM = 21 };
    static float q[4 * MAX_DIM], k[MAX_KEYS * MAX_DIM], panels[48 * MAX_DIM];
    static float bias[2 * MAX_KEYS + 8], oa[4 * MAX_KEYS], ob[4 * MAX_KEYS];
    int bad = 0, cases = 0;
    for (int dim = 1; dim <= MAX_DIM; dim++)
        for (int nk = 1; nk <= MAX_KEYS; nk += (nk < 12 ? 1 : 3)) {
            for (int t = 0; t < 4 * dim; t++) q[t] = uniform(-2.0f, 2.0f);
            for (int t = 0; t < nk * dim; t++) k[t] = uniform(-2.0f, 2.0f);
            for (int t = 0; t < 2 * MAX_KEYS + 8; t++) bias[t] = uniform(-1.0f, 1.0f);
            pe_attention_pack(panels, k, nk, dim);
            for (int rows = 1; rows <= 4; rows++)
                for (int step = 0; step <= 1; step++)
                    for (int with_bias = 0; with_bias <= 1; with_bias++) {
                        int end0 = step ? (nk - rows + 1 > 1 ? nk - rows + 1 : 1) : nk;
                        if (end0 + step * (rows - 1) > nk) continue;
                        const float *b0 = with_bias ? bias + MAX_KEYS : NULL;
                        for (int t = 0; t < 4 * MAX_KEYS; t++) oa[t] = ob[t] = -7.0f;
                        pe_attention_scores_scalar(oa, MAX_KEYS, q, k, panels, b0, rows, end0, step, dim, 0.37f);
                        pe_attention_scores_simd(ob, MAX_KEYS, q, k, panels, b0, rows, end0, step, dim, 0.37f);
                        cases++;
                        if (!same_bits(oa, ob, 4 * MAX_KEYS)) bad++;
                        // The entries past each row's end are untouched.
                        for (int r = 0; r < rows; r++)
                            for (int j = end0 + r * step; j < MAX_KEYS; j++)
                                if (ob[r * MAX_KEYS + j] != -7.0f) bad++;
                    }
        }
    CHECK(bad == 0, "scores SIMD == scalar and nothing past the row end written (%d of %d cases bad)", bad, cases);
}

// --- 3, 4. the whole kernel ------------------------------------------------------------------

typedef struct {
    int32_t length, dim, heads, causal, encoding, content, rotary_dim, layout, bias_heads;
    double seed;
} config;

static const char *TEXT = "the cat 고양이가 the mat 위에 sat cat 앉았다";

// Byte offsets of the whitespace-separated words of TEXT, up to `count` words (repeating it).
static int32_t make_words(uint8_t *bytes, int32_t *words, int32_t count) {
    int32_t pos = 0, w = 0;
    words[0] = 0;
    while (w < count) {
        const char *s = TEXT;
        while (*s && w < count) {
            while (*s == ' ') s++;
            if (!*s) break;
            while (*s && *s != ' ') bytes[pos++] = (uint8_t)*s++;
            words[++w] = pos;
        }
    }
    return pos;
}

typedef struct {
    float *out, *ent, *mass, *scratch, *table, *cos, *sin, *bias;
    uint8_t *text;
    int32_t *words;
} buffers;

static buffers alloc_buffers(const config *c) {
    buffers b;
    size_t L = (size_t)c->length, D = (size_t)c->dim, H = (size_t)c->heads;
    b.out = malloc(sizeof(float) * H * L * L);
    b.ent = malloc(sizeof(float) * H * L);
    b.mass = malloc(sizeof(float) * H * L);
    b.scratch = malloc(sizeof(float) * (size_t)pe_attention_scratch_floats(c->length, c->dim, c->heads, c->content));
    b.table = malloc(sizeof(float) * L * D);
    b.cos = malloc(sizeof(float) * L * D);
    b.sin = malloc(sizeof(float) * L * D);
    b.bias = malloc(sizeof(float) * H * (2 * L - 1));
    b.text = malloc(64 * L + 1);
    b.words = malloc(sizeof(int32_t) * (L + 1));
    for (size_t t = 0; t < L * D; t++) b.table[t] = uniform(-1.0f, 1.0f);
    for (size_t t = 0; t < L * D / 2 + 1; t++) {   // a rotation: cos² + sin² = 1
        float a = uniform(-3.0f, 3.0f);
        b.cos[t] = cosf(a);
        b.sin[t] = sinf(a);
    }
    for (size_t t = 0; t < H * (2 * L - 1); t++) b.bias[t] = uniform(-3.0f, 1.0f);
    make_words(b.text, b.words, c->length);
    return b;
}

static void free_buffers(buffers *b) {
    free(b->out);
    free(b->ent);
    free(b->mass);
    free(b->scratch);
    free(b->table);
    free(b->cos);
    free(b->sin);
    free(b->bias);
    free(b->text);
    free(b->words);
}

static pe_status run(const config *c, buffers *b, const pe_attention_ops *ops) {
    return pe_attention_variant(b->out, b->ent, b->mass, b->scratch, b->table, b->cos, b->sin, b->bias, b->text,
                                b->words, c->length, c->dim, c->heads, c->causal, c->encoding, c->rotary_dim, c->layout,
                                c->bias_heads, c->content, c->seed, ops);
}

// The SIMD set with the scalar Gaussian rows: then everything is bit for bit the scalar reference.
static pe_attention_ops simd_with_scalar_normal(void) {
    pe_attention_ops ops = *pe_attention_ops_default();
    ops.normal = pe_random_row_scalar;
    return ops;
}

// q and k of one head as the header defines them, in float64 (from the float32 table, cos, sin).
static void reference_qk(const config *c, const buffers *b, int32_t h, double *q, double *k) {
    const int32_t L = c->length, D = c->dim;
    const uint64_t s = (uint64_t)c->seed;
    for (int32_t i = 0; i < L; i++)
        for (int32_t ch = 0; ch < D; ch++) {
            double t = c->encoding == PE_ENCODING_ADDITIVE ? b->table[i * D + ch] : 0.0;
            double qv, kv;
            if (c->content == PE_CONTENT_RANDOM) {
                uint32_t p = (uint32_t)h * 1048576u + (uint32_t)i;
                qv = pe_random_normal(s + (1ull << 32), p, (uint32_t)ch) + t;
                kv = pe_random_normal(s + (2ull << 32), p, (uint32_t)ch) + t;
            } else if (c->content == PE_CONTENT_NONE) {
                qv = kv = c->encoding == PE_ENCODING_ADDITIVE ? t : c->encoding == PE_ENCODING_ROTARY ? 1.0 : 0.0;
            } else {
                const uint8_t *w = b->text + b->words[i];
                uint64_t ws = pe_fnv1a64(w, b->words[i + 1] - b->words[i]) + s;
                qv = kv = 0.0;
                for (int32_t cc = 0; cc < D; cc++) {
                    double x = (double)(float)pe_random_normal(ws, 0, (uint32_t)cc) +
                               (c->encoding == PE_ENCODING_ADDITIVE ? b->table[i * D + cc] : 0.0);
                    uint32_t row = (uint32_t)h * 1048576u + (uint32_t)ch;
                    qv += (double)(float)(pe_random_normal(s + (4ull << 32), row, (uint32_t)cc) / sqrt(D)) * x;
                    kv += (double)(float)(pe_random_normal(s + (5ull << 32), row, (uint32_t)cc) / sqrt(D)) * x;
                }
            }
            q[i * D + ch] = qv;
            k[i * D + ch] = kv;
        }
    if (c->encoding == PE_ENCODING_ROTARY) {
        const int32_t n = c->rotary_dim / 2;
        for (int32_t i = 0; i < L; i++)
            for (int32_t pr = 0; pr < n; pr++) {
                int32_t a = c->layout == PE_ROPE_HALF ? pr : 2 * pr,
                        bb = c->layout == PE_ROPE_HALF ? pr + n : 2 * pr + 1;
                double cs = b->cos[i * n + pr], sn = b->sin[i * n + pr];
                double *v[2] = {q + i * D, k + i * D};
                for (int t = 0; t < 2; t++) {
                    double xa = v[t][a], xb = v[t][bb];
                    v[t][a] = xa * cs - xb * sn;
                    v[t][bb] = xb * cs + xa * sn;
                }
            }
    }
}

static void check_reference(const config *c, const buffers *b, const char *what) {
    const int32_t L = c->length, D = c->dim;
    double *q = malloc(sizeof(double) * L * D), *k = malloc(sizeof(double) * L * D), *s = malloc(sizeof(double) * L);
    double worst = 0.0, worst_ent = 0.0, worst_mass = 0.0;
    for (int32_t h = 0; h < c->heads; h++) {
        reference_qk(c, b, h, q, k);
        const float *plane = b->bias + (c->bias_heads == 1 ? 0 : h) * (2 * L - 1);
        for (int32_t i = 0; i < L; i++) {
            double m = -INFINITY;
            for (int32_t j = 0; j < L; j++) {
                double v = 0.0;
                for (int32_t ch = 0; ch < D; ch++) v += q[i * D + ch] * k[j * D + ch];
                v /= sqrt((double)D);
                if (c->encoding == PE_ENCODING_BIAS) v += plane[j - i + L - 1];
                if (c->causal && j > i) v = -INFINITY;
                s[j] = v;
                if (v > m) m = v;
            }
            double z = 0.0, ent = 0.0, mass = 0.0;
            for (int32_t j = 0; j < L; j++) z += s[j] == -INFINITY ? 0.0 : exp(s[j] - m);
            for (int32_t j = 0; j < L; j++) {
                double w = s[j] == -INFINITY ? 0.0 : exp(s[j] - m) / z;
                if (w > 0.0) ent -= w * log(w);
                if (abs(i - j) < PE_ATTENTION_WINDOW) mass += w;
                double e = fabs(w - (double)b->out[(h * L + i) * L + j]);
                if (e > worst) worst = e;
            }
            double ee = fabs(ent - b->ent[h * L + i]), em = fabs(mass - b->mass[h * L + i]);
            if (ee > worst_ent) worst_ent = ee;
            if (em > worst_mass) worst_mass = em;
        }
    }
    CHECK(worst < 2e-6, "%s: weights within 2e-6 of float64 (got %.3g)", what, worst);
    CHECK(worst_ent < 1e-5 && worst_mass < 2e-6, "%s: entropy (%.3g) and local mass (%.3g) match float64", what,
          worst_ent, worst_mass);
    free(q);
    free(k);
    free(s);
}

static void check_properties(const config *c, const buffers *b, const char *what) {
    const int32_t L = c->length, H = c->heads;
    int nan = 0, upper = 0, sums = 0;
    for (int32_t h = 0; h < H; h++)
        for (int32_t i = 0; i < L; i++) {
            double sum = 0.0;
            for (int32_t j = 0; j < L; j++) {
                float w = b->out[(h * L + i) * L + j];
                if (isnan(w) || w < 0.0f) nan++;
                if (c->causal && j > i && w != 0.0f) upper++;
                sum += w;
            }
            if (fabs(sum - 1.0) > 1e-6) sums++;
        }
    CHECK(nan == 0 && upper == 0 && sums == 0, "%s: no NaN/negative (%d), causal upper 0 (%d), rows sum to 1 (%d bad)",
          what, nan, upper, sums);
}

static void test_kernel_variants(void) {
    const int lengths[] = {1, 2, 3, 4, 5, 7, 8, 9, 13, 16, 17, 33};
    const int dims[] = {1, 2, 3, 4, 6, 7, 8, 12, 17, 32};
    int compared = 0, bad = 0;
    for (int enc = PE_ENCODING_NONE; enc <= PE_ENCODING_BIAS; enc++)
        for (int content = PE_CONTENT_RANDOM; content <= PE_CONTENT_NONE; content++)
            for (size_t li = 0; li < sizeof lengths / sizeof lengths[0]; li++)
                for (size_t di = 0; di < sizeof dims / sizeof dims[0]; di++) {
                    config c = {lengths[li],
                                dims[di],
                                1 + (int32_t)((li + di) % 3),
                                (int32_t)((li + di) % 2),
                                enc,
                                content,
                                0,
                                (int32_t)(di % 2),
                                1,
                                7.0};
                    if (enc == PE_ENCODING_ROTARY) {
                        if (c.dim < 2) continue;
                        c.rotary_dim = (c.dim / 2) * 2 - (li % 2 && c.dim >= 4 ? 2 : 0);   // partial sometimes
                    }
                    if (enc == PE_ENCODING_BIAS) c.bias_heads = li % 2 ? c.heads : 1;
                    buffers a = alloc_buffers(&c), b = alloc_buffers(&c);
                    memcpy(b.table, a.table, sizeof(float) * c.length * c.dim);
                    memcpy(b.cos, a.cos, sizeof(float) * c.length * c.dim);
                    memcpy(b.sin, a.sin, sizeof(float) * c.length * c.dim);
                    memcpy(b.bias, a.bias, sizeof(float) * c.heads * (2 * c.length - 1));
                    pe_attention_ops mixed = simd_with_scalar_normal();
                    pe_status sa = run(&c, &a, pe_attention_ops_scalar()), sb = run(&c, &b, &mixed);
                    size_t n = (size_t)c.heads * c.length * c.length;
                    compared++;
                    if (sa != PE_OK || sb != PE_OK || !same_bits(a.out, b.out, n) ||
                        !same_bits(a.ent, b.ent, (size_t)c.heads * c.length) ||
                        !same_bits(a.mass, b.mass, (size_t)c.heads * c.length)) {
                        bad++;
                        if (bad < 5)
                            printf("  mismatch: enc %d content %d L %d D %d H %d causal %d\n", enc, content, c.length,
                                   c.dim, c.heads, c.causal);
                    }
                    char what[96];
                    snprintf(what, sizeof what, "enc %d content %d L %d D %d H %d causal %d", enc, content, c.length,
                             c.dim, c.heads, c.causal);
                    check_properties(&c, &a, what);
                    if (li % 3 == 0 || c.length <= 9) check_reference(&c, &a, what);
                    // The full SIMD set (series Gaussian) stays within a few float32 ulps.
                    run(&c, &b, pe_attention_ops_default());
                    double worst = 0.0;
                    for (size_t t = 0; t < n; t++) worst = fmax(worst, fabs((double)a.out[t] - b.out[t]));
                    CHECK(worst < 1e-6, "%s: SIMD Gaussian within 1e-6 (%.3g)", what, worst);
                    free_buffers(&a);
                    free_buffers(&b);
                }
    CHECK(bad == 0, "kernel SIMD == scalar bit for bit (%d of %d configurations differ)", bad, compared);
}

static void test_masked_and_huge(void) {
    // Every bias entry −∞: no key is allowed anywhere; the rows are defined as zeros.
    config c = {9, 4, 2, 0, PE_ENCODING_BIAS, PE_CONTENT_RANDOM, 0, 0, 2, 0.0};
    buffers b = alloc_buffers(&c);
    for (int t = 0; t < 2 * (2 * 9 - 1); t++) b.bias[t] = -INFINITY;
    for (int causal = 0; causal <= 1; causal++) {
        c.causal = causal;
        CHECK(run(&c, &b, pe_attention_ops_default()) == PE_OK, "all-masked runs");
        int nonzero = 0;
        for (int t = 0; t < 2 * 81; t++)
            if (b.out[t] != 0.0f) nonzero++;
        for (int t = 0; t < 18; t++)
            if (b.ent[t] != 0.0f || b.mass[t] != 0.0f) nonzero++;
        CHECK(nonzero == 0, "rows with every entry masked are zeros, entropy and mass 0 (causal %d)", causal);
    }
    // Half the keys masked by the bias: the others share the weight.
    for (int t = 0; t < 2 * 17; t++) b.bias[t] = t % 2 ? -INFINITY : 0.0f;
    c.causal = 0;
    run(&c, &b, pe_attention_ops_default());
    check_properties(&c, &b, "half masked by bias");
    free_buffers(&b);

    // Huge logits: q_i = k_i = 1e4·(i + 1) in every channel (an integer-like table), dim 64:
    // scores up to 1e10; rows must be one-hot at the largest key, no overflow, no NaN.
    config h = {40, 64, 1, 0, PE_ENCODING_ADDITIVE, PE_CONTENT_NONE, 0, 0, 1, 0.0};
    buffers hb = alloc_buffers(&h);
    for (int i = 0; i < 40; i++)
        for (int ch = 0; ch < 64; ch++) hb.table[i * 64 + ch] = 1e4f * (float)(i + 1);
    for (int causal = 0; causal <= 1; causal++) {
        h.causal = causal;
        CHECK(run(&h, &hb, pe_attention_ops_default()) == PE_OK, "huge logits run");
        check_properties(&h, &hb, causal ? "huge logits, causal" : "huge logits");
        int onehot = 1;
        for (int i = 0; i < 40; i++) {
            int top = causal ? i : 39;
            if (hb.out[i * 40 + top] != 1.0f) onehot = 0;
        }
        CHECK(onehot, "huge logits: each row one-hot at its largest key (causal %d)", causal);
    }
    free_buffers(&hb);
}

// Content PREPARED: pe_attention_random's q and k passed back in scratch give the same bits as
// content random, with and without an additive table.
static void test_prepared(void) {
    for (int enc = PE_ENCODING_NONE; enc <= PE_ENCODING_BIAS; enc++)
        for (int L = 1; L <= 19; L += 6) {
            config c = {L, 12, 3, L % 2, enc, PE_CONTENT_RANDOM, 12, 0, 3, 77.0};
            buffers a = alloc_buffers(&c), b = alloc_buffers(&c);
            memcpy(b.table, a.table, sizeof(float) * L * 12);
            memcpy(b.cos, a.cos, sizeof(float) * L * 12);
            memcpy(b.sin, a.sin, sizeof(float) * L * 12);
            memcpy(b.bias, a.bias, sizeof(float) * 3 * (2 * L - 1));
            CHECK(run(&c, &a, pe_attention_ops_default()) == PE_OK, "random runs");
            size_t plane = (size_t)3 * L * 12;
            CHECK(pe_attention_random(b.scratch, b.scratch + plane, 3, L, 12, 77.0) == PE_OK, "pe_attention_random ok");
            config p = c;
            p.content = PE_CONTENT_PREPARED;
            CHECK(run(&p, &b, pe_attention_ops_default()) == PE_OK, "prepared runs");
            CHECK(same_bits(a.out, b.out, (size_t)3 * L * L) && same_bits(a.ent, b.ent, (size_t)3 * L),
                  "prepared content == random content bit for bit (encoding %d, L %d)", enc, L);
            free_buffers(&a);
            free_buffers(&b);
        }
}

// --- 6. bias helpers and arguments ---------------------------------------------------------------

static void test_bias_helpers(void) {
    enum { L = 23, H = 5 };
    static float rel[H * (2 * L - 1)], full[H * L * L], slopes[H];
    for (int mode = 0; mode <= 1; mode++) {
        CHECK(pe_attention_bias_alibi(rel, L, H, mode) == PE_OK, "alibi bias ok");
        CHECK(pe_alibi(full, slopes, L, H, mode) == PE_OK, "pe_alibi ok");
        int bad = 0;
        for (int h = 0; h < H; h++)
            for (int i = 0; i < L; i++)
                for (int j = 0; j < L; j++)
                    if (memcmp(&rel[h * (2 * L - 1) + j - i + L - 1], &full[(h * L + i) * L + j], 4) != 0) bad++;
        CHECK(bad == 0, "alibi relative bias = pe_alibi's table (mode %d): %d bad", mode, bad);
        CHECK(pe_attention_bias_distance(rel, L, PE_DIST_LOG, 2.0, 3.0, mode) == PE_OK, "distance ok");
        CHECK(pe_distance(full, L, PE_DIST_LOG, 2.0, 3.0, mode) == PE_OK, "pe_distance ok");
        bad = 0;
        for (int i = 0; i < L; i++)
            for (int j = 0; j < L; j++)
                if (memcmp(&rel[j - i + L - 1], &full[i * L + j], 4) != 0) bad++;
        CHECK(bad == 0, "distance relative bias = pe_distance's table (mode %d)", mode);
    }
    for (int bi = 0; bi <= 1; bi++) {
        CHECK(pe_attention_bias_t5(rel, L, H, 16, 20, bi, 3.0) == PE_OK, "t5 bias ok");
        int bad = 0;
        for (int h = 0; h < H; h++)
            for (int r = -(L - 1); r < L; r++) {
                int bucket = pe_t5_bucket(r, 16, 20, bi);
                float want = (float)pe_random_normal(3ull + (3ull << 32), (uint32_t)h, (uint32_t)bucket);
                if (rel[h * (2 * L - 1) + r + L - 1] != want) bad++;
            }
        CHECK(bad == 0, "t5 bias = T[h, bucket(r)] (bidirectional %d)", bi);
    }
    CHECK(pe_attention_bias_shaw(rel, L, H, 4, 9.0) == PE_OK, "shaw bias ok");
    int bad = 0;
    for (int h = 0; h < H; h++)
        for (int r = -(L - 1); r < L; r++) {
            int index = (r < -4 ? -4 : r > 4 ? 4 : r) + 4;
            if (rel[h * (2 * L - 1) + r + L - 1] !=
                (float)pe_random_normal(9ull + (3ull << 32), (uint32_t)h, (uint32_t)index))
                bad++;
        }
    CHECK(bad == 0, "shaw bias = S[h, clip(r) + k]");
    float angles[5] = {0.0f, 1.0f, -2.5f, 1000.0f, 3e6f}, cs[5], sn[5];
    CHECK(pe_attention_cos_sin(cs, sn, angles, 5) == PE_OK, "cos_sin ok");
    bad = 0;
    for (int t = 0; t < 5; t++)
        if (cs[t] != (float)cos((double)angles[t]) || sn[t] != (float)sin((double)angles[t])) bad++;
    CHECK(bad == 0, "cos_sin of float32 angles in float64");
    CHECK(pe_fnv1a64((const uint8_t *)"", 0) == 0xCBF29CE484222325ull, "FNV-1a of nothing is the offset basis");
    CHECK(pe_fnv1a64((const uint8_t *)"a", 1) == 0xAF63DC4C8601EC8Cull, "FNV-1a 64 of \"a\" (published test vector)");
    CHECK(pe_fnv1a64((const uint8_t *)"foobar", 6) == 0x85944171F73967E8ull,
          "FNV-1a 64 of \"foobar\" (published test vector)");
}

// pe_attention with a config and buffers (the public entry point; run() calls the variant).
static pe_status attend(const config *c, const buffers *b) {
    return pe_attention(b->out, b->ent, b->mass, b->scratch, b->table, b->cos, b->sin, b->bias, b->text, b->words,
                        c->length, c->dim, c->heads, c->causal, c->encoding, c->rotary_dim, c->layout, c->bias_heads,
                        c->content, c->seed);
}

static void test_bad_arguments(void) {
    const config c = {6, 4, 2, 1, PE_ENCODING_NONE, PE_CONTENT_RANDOM, 4, 0, 2, 0.0};
    buffers b = alloc_buffers(&c);
    // pe_attention on copies k of c and p of b, changed by the assignments given (`k.dim = 0`, `p.cos = NULL`, …)
    config k;
    buffers p;
#define ATT(...) (k = c, p = b, __VA_ARGS__, attend(&k, &p))
    CHECK(ATT(p.out = NULL) == PE_ERR_ARG(1), "out NULL");
    CHECK(ATT(p.ent = NULL, p.mass = NULL) == PE_OK, "entropy and mass may be NULL");
    CHECK(ATT(p.scratch = NULL) == PE_ERR_ARG(4), "scratch NULL");
    CHECK(ATT(p.table = NULL, k.encoding = PE_ENCODING_ADDITIVE) == PE_ERR_ARG(5), "table NULL when additive");
    CHECK(ATT(p.table = p.cos = p.sin = p.bias = NULL, p.text = NULL, p.words = NULL) == PE_OK,
          "unused pointers may be NULL");
    CHECK(ATT(p.cos = NULL, k.encoding = PE_ENCODING_ROTARY) == PE_ERR_ARG(6), "cos NULL when rotary");
    CHECK(ATT(p.sin = NULL, k.encoding = PE_ENCODING_ROTARY) == PE_ERR_ARG(7), "sin NULL when rotary");
    CHECK(ATT(p.bias = NULL, k.encoding = PE_ENCODING_BIAS) == PE_ERR_ARG(8), "bias NULL when bias");
    CHECK(ATT(p.text = NULL, k.content = PE_CONTENT_TOKENS) == PE_ERR_ARG(9), "text NULL for tokens");
    CHECK(ATT(p.words = NULL, k.content = PE_CONTENT_TOKENS) == PE_ERR_ARG(10), "words NULL for tokens");
    int32_t empty[7] = {0, 1, 1, 2, 3, 4, 5};
    CHECK(ATT(p.words = empty, k.content = PE_CONTENT_TOKENS) == PE_ERR_ARG(10), "an empty word");
    int32_t negative[7] = {-1, 1, 2, 3, 4, 5, 6};
    CHECK(ATT(p.words = negative, k.content = PE_CONTENT_TOKENS) == PE_ERR_ARG(10), "a negative offset");
    CHECK(ATT(k.length = 0) == PE_ERR_ARG(11), "length 0");
    CHECK(ATT(k.length = 8193, k.heads = 1) == PE_ERR_ARG(11), "length 8193");
    CHECK(ATT(k.dim = 0) == PE_ERR_ARG(12), "dim 0");
    CHECK(ATT(k.dim = 513) == PE_ERR_ARG(12), "dim 513");
    CHECK(ATT(k.heads = 0) == PE_ERR_ARG(13), "heads 0");
    CHECK(ATT(k.heads = 65) == PE_ERR_ARG(13), "heads 65");
    CHECK(ATT(k.causal = 2) == PE_ERR_ARG(14), "causal 2");
    CHECK(ATT(k.encoding = 4) == PE_ERR_ARG(15), "encoding 4");
    CHECK(ATT(k.encoding = -1) == PE_ERR_ARG(15), "encoding -1");
    CHECK(ATT(k.encoding = PE_ENCODING_ROTARY, k.rotary_dim = 3) == PE_ERR_ARG(16), "rotary_dim odd");
    CHECK(ATT(k.encoding = PE_ENCODING_ROTARY, k.rotary_dim = 6) == PE_ERR_ARG(16), "rotary_dim > dim");
    CHECK(ATT(k.encoding = PE_ENCODING_ROTARY, k.rotary_dim = 0) == PE_ERR_ARG(16), "rotary_dim 0");
    CHECK(ATT(k.encoding = PE_ENCODING_ROTARY, k.layout = 2) == PE_ERR_ARG(17), "layout 2");
    CHECK(ATT(k.encoding = PE_ENCODING_BIAS, k.bias_heads = 3) == PE_ERR_ARG(18), "bias_heads 3 with 2 heads");
    CHECK(ATT(k.content = 4) == PE_ERR_ARG(19), "content 4");
    CHECK(ATT(k.content = -1) == PE_ERR_ARG(19), "content -1");
    CHECK(ATT(k.seed = -1.0) == PE_ERR_ARG(20), "seed -1");
    CHECK(ATT(k.seed = 0.5) == PE_ERR_ARG(20), "seed 0.5");
    CHECK(ATT(k.seed = 4294967296.0) == PE_ERR_ARG(20), "seed 2^32");
    CHECK(ATT(k.seed = NAN) == PE_ERR_ARG(20), "seed NaN");
    CHECK(ATT(k.length = 8192) == PE_ERR_TOO_LARGE, "heads·length² too large");
    CHECK(ATT(k.length = 1024, k.dim = 512, k.heads = 64) == PE_ERR_TOO_LARGE, "heads·length·dim too large");
#undef ATT
    CHECK(run(&c, &b, NULL) == PE_ERR_ARG(21), "ops NULL");
    CHECK(pe_attention_scratch_floats(6, 4, 2, 0) == 2 * 2 * 6 * 4 + 8 * 4, "scratch size, random");
    CHECK(pe_attention_scratch_floats(6, 12, 2, 1) == 2 * 2 * 6 * 12 + 16 * 12 + 6 * 12 + 144, "scratch size, tokens");
    CHECK(pe_attention_scratch_floats(0, 4, 2, 0) == -1 && pe_attention_scratch_floats(6, 4, 2, 4) == -1,
          "scratch size of bad arguments");
    float q1[8], k1[8];
    CHECK(pe_attention_random(NULL, k1, 1, 2, 4, 0.0) == PE_ERR_ARG(1), "random q NULL");
    CHECK(pe_attention_random(q1, NULL, 1, 2, 4, 0.0) == PE_ERR_ARG(2), "random k NULL");
    CHECK(pe_attention_random(q1, k1, 0, 2, 4, 0.0) == PE_ERR_ARG(3), "random heads 0");
    CHECK(pe_attention_random(q1, k1, 1, 0, 4, 0.0) == PE_ERR_ARG(4), "random length 0");
    CHECK(pe_attention_random(q1, k1, 1, 2, 513, 0.0) == PE_ERR_ARG(5), "random dim 513");
    CHECK(pe_attention_random(q1, k1, 1, 2, 4, 0.25) == PE_ERR_ARG(6), "random seed 0.25");
    CHECK(pe_attention_random(q1, k1, 64, 1024, 512, 0.0) == PE_ERR_TOO_LARGE, "random too large");
    free_buffers(&b);

    static float rel[64 * 200];
    CHECK(pe_attention_bias_alibi(NULL, 5, 2, 0) == PE_ERR_ARG(1), "alibi bias NULL");
    CHECK(pe_attention_bias_alibi(rel, 0, 2, 0) == PE_ERR_ARG(2), "alibi length 0");
    CHECK(pe_attention_bias_alibi(rel, 5, 0, 0) == PE_ERR_ARG(3), "alibi heads 0");
    CHECK(pe_attention_bias_alibi(rel, 5, 2, 2) == PE_ERR_ARG(4), "alibi mode 2");
    CHECK(pe_attention_bias_t5(NULL, 5, 2, 32, 128, 1, 0.0) == PE_ERR_ARG(1), "t5 bias NULL");
    CHECK(pe_attention_bias_t5(rel, 8193, 2, 32, 128, 1, 0.0) == PE_ERR_ARG(2), "t5 length");
    CHECK(pe_attention_bias_t5(rel, 5, 65, 32, 128, 1, 0.0) == PE_ERR_ARG(3), "t5 heads");
    CHECK(pe_attention_bias_t5(rel, 5, 2, 3, 128, 1, 0.0) == PE_ERR_ARG(4), "t5 num_buckets");
    CHECK(pe_attention_bias_t5(rel, 5, 2, 32, 8, 1, 0.0) == PE_ERR_ARG(5), "t5 max_distance ≤ max_exact");
    CHECK(pe_attention_bias_t5(rel, 5, 2, 32, 128, 2, 0.0) == PE_ERR_ARG(6), "t5 bidirectional 2");
    CHECK(pe_attention_bias_t5(rel, 5, 2, 32, 128, 1, 1.5) == PE_ERR_ARG(7), "t5 seed 1.5");
    CHECK(pe_attention_bias_shaw(NULL, 5, 2, 4, 0.0) == PE_ERR_ARG(1), "shaw bias NULL");
    CHECK(pe_attention_bias_shaw(rel, 0, 2, 4, 0.0) == PE_ERR_ARG(2), "shaw length");
    CHECK(pe_attention_bias_shaw(rel, 5, 0, 4, 0.0) == PE_ERR_ARG(3), "shaw heads");
    CHECK(pe_attention_bias_shaw(rel, 5, 2, -1, 0.0) == PE_ERR_ARG(4), "shaw k");
    CHECK(pe_attention_bias_shaw(rel, 5, 2, 4, -2.0) == PE_ERR_ARG(5), "shaw seed");
    CHECK(pe_attention_bias_distance(NULL, 5, 0, 1.0, 1.0, 0) == PE_ERR_ARG(1), "distance NULL");
    CHECK(pe_attention_bias_distance(rel, 0, 0, 1.0, 1.0, 0) == PE_ERR_ARG(2), "distance length");
    CHECK(pe_attention_bias_distance(rel, 5, 4, 1.0, 1.0, 0) == PE_ERR_ARG(3), "distance function");
    CHECK(pe_attention_bias_distance(rel, 5, 0, NAN, 1.0, 0) == PE_ERR_ARG(4), "distance strength");
    CHECK(pe_attention_bias_distance(rel, 5, 0, 1.0, 0.0, 0) == PE_ERR_ARG(5), "distance scale");
    CHECK(pe_attention_bias_distance(rel, 5, 0, 1.0, 1.0, 7) == PE_ERR_ARG(6), "distance mode");
    float a1[2], a2[2], ang[2] = {0.0f, 1.0f};
    CHECK(pe_attention_cos_sin(NULL, a2, ang, 2) == PE_ERR_ARG(1), "cos_sin cos NULL");
    CHECK(pe_attention_cos_sin(a1, NULL, ang, 2) == PE_ERR_ARG(2), "cos_sin sin NULL");
    CHECK(pe_attention_cos_sin(a1, a2, NULL, 2) == PE_ERR_ARG(3), "cos_sin angles NULL");
    CHECK(pe_attention_cos_sin(a1, a2, ang, -1) == PE_ERR_ARG(4), "cos_sin n < 0");
}

int main(void) {
    test_exp();
    test_softmax_simd_matches_scalar();
    test_scores_simd_matches_scalar();
    test_kernel_variants();
    test_masked_and_huge();
    test_prepared();
    test_bias_helpers();
    test_bad_arguments();
    return test_summary("attention");
}

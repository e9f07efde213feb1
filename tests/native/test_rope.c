// Native tests of the rope kernels: built with gcc + SIMDe under ASan/UBSan (run.sh).
//   1. SIMD vs scalar reference, bit for bit, at every tail length (angles, rotation, whole
//      tables, whole applications), in place and apart.
//   2. cos/sin against float64 for every position < 2^20; the angle table is float32(p·inv_freq).
//   3. Properties of each rope_type's frequencies (linear = default/factor, the llama3 bands,
//      dynamic below/above max_position_embeddings, yarn with factor 1 = default, ...).
//   4. Application against a float64 evaluation, and the layout identity.
//   5. Every bad argument returns its status code.
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pe.h"
#include "rope.h"
#include "rope_config.h"
#include "sincos.h"
#include "sinusoidal.h"
#include "test_util.h"

static const double PI = 3.141592653589793;

// A config with every optional value unset.
static pe_rope_config config(int32_t length, int32_t dim, double base, int32_t type, double factor) {
    pe_rope_config c = {length, dim, base, 1.0, 0, type, factor, 0, 32.0, 1.0, 1, NAN, NAN, NAN, NAN, NAN};
    return c;
}

// Deterministic values in [-4, 4).
static void fill(float *x, size_t n, uint32_t seed) {
    uint32_t s = seed * 2654435761u + 1u;
    for (size_t k = 0; k < n; k++) {
        s = s * 1664525u + 1013904223u;
        x[k] = (float)((double)(s >> 8) / (double)(1u << 24) * 8.0 - 4.0);
    }
}

// --- SIMD vs scalar ------------------------------------------------------------------------------

static void test_simd_matches_scalar_kernels(void) {
    enum { MAX_N = 41 };
    static float a[4 * MAX_N * 2 + 8], b[4 * MAX_N * 2 + 8], x[4 * MAX_N * 2 + 8];
    double inv[MAX_N];
    float cs[MAX_N], sn[MAX_N];
    for (int n = 1; n <= MAX_N; n++) {
        for (int i = 0; i < n; i++) {
            inv[i] = pow(10000.0, -2.0 * i / (2.0 * n)) * (1.0 + 1e-3 * i);
            cs[i] = (float)cos(0.37 * i + 0.1);
            sn[i] = (float)sin(0.37 * i + 0.1);
        }
        const int32_t firsts[] = {0, 1, 999983, (1 << 20) - 4};
        for (int k = 0; k < 4; k++) {
            memset(a, 0xAB, sizeof a);
            memset(b, 0xAB, sizeof b);
            pe_rope_angles_scalar(a, inv, n, firsts[k], 3);
            pe_rope_angles_simd(b, inv, n, firsts[k], 3);
            CHECK(memcmp(a, b, sizeof a) == 0, "angles simd == scalar (n=%d, first=%d)", n, firsts[k]);
        }
        for (int layout = 0; layout < 2; layout++) {
            fill(x, sizeof x / sizeof x[0], (uint32_t)n);
            memset(a, 0xAB, sizeof a);
            memset(b, 0xAB, sizeof b);
            pe_rope_rotate_scalar(a, x, cs, sn, n, layout, n);
            pe_rope_rotate_simd(b, x, cs, sn, n, layout, n);
            CHECK(memcmp(a, b, sizeof a) == 0, "rotate simd == scalar (n=%d, layout=%d)", n, layout);
            // In place gives the same values.
            memcpy(b, x, sizeof x);
            pe_rope_rotate_simd(b, b, cs, sn, n, layout, n);
            CHECK(memcmp(a, b, sizeof(float) * 2 * n) == 0, "rotate in place (n=%d, layout=%d)", n, layout);
        }
    }
}

static void test_simd_matches_scalar_tables(void) {
    enum { MAX_LEN = 19, MAX_DIM = 84 };
    static float a_ang[MAX_LEN * MAX_DIM], b_ang[MAX_LEN * MAX_DIM];
    static float a_cos[MAX_LEN * MAX_DIM], b_cos[MAX_LEN * MAX_DIM];
    static float a_sin[MAX_LEN * MAX_DIM], b_sin[MAX_LEN * MAX_DIM];
    double a_inv[MAX_DIM], b_inv[MAX_DIM], a_af, b_af;
    for (int type = 0; type <= PE_ROPE_NTK; type++)
        for (int dim = 4; dim <= MAX_DIM; dim += 2)
            for (int length = 1; length <= MAX_LEN; length += 9) {
                pe_rope_config c = config(length, dim, 10000.0, type, 4.0);
                c.max_position_embeddings = 8;
                c.original_max_position_embeddings = 8;
                c.low_freq_factor = 1.0;
                c.high_freq_factor = 4.0;
                memset(a_ang, 0, sizeof a_ang);
                memset(b_ang, 0, sizeof b_ang);
                CHECK(pe_rope_variant(a_ang, a_cos, a_sin, a_inv, &a_af, &c, pe_rope_angles_scalar,
                                      pe_rotate_table_scalar, NULL) == PE_OK,
                      "ok");
                CHECK(pe_rope_variant(b_ang, b_cos, b_sin, b_inv, &b_af, &c, pe_rope_angles_simd, pe_rotate_table_simd,
                                      NULL) == PE_OK,
                      "ok");
                size_t count = (size_t)length * (size_t)(dim / 2);
                CHECK(memcmp(a_ang, b_ang, sizeof(float) * count) == 0 &&
                          memcmp(a_cos, b_cos, sizeof(float) * count) == 0 &&
                          memcmp(a_sin, b_sin, sizeof(float) * count) == 0,
                      "simd tables == scalar tables (type %d, dim %d, length %d)", type, dim, length);
                CHECK(memcmp(a_inv, b_inv, sizeof(double) * (dim / 2)) == 0 && a_af == b_af, "same inv_freq");
            }
    // Wider than one frequency block (256 pairs): 550 pairs, 11 rows.
    enum { W_LEN = 11, W_PAIRS = 550 };
    static float wa[3][W_LEN * W_PAIRS], wb[3][W_LEN * W_PAIRS];
    static double winv[W_PAIRS];
    pe_rope_config c = config(W_LEN, 2 * W_PAIRS, 500000.0, PE_ROPE_DEFAULT, NAN);
    CHECK(pe_rope_variant(wa[0], wa[1], wa[2], winv, &a_af, &c, pe_rope_angles_scalar, pe_rotate_table_scalar, NULL) ==
              PE_OK,
          "ok");
    CHECK(pe_rope_variant(wb[0], wb[1], wb[2], winv, &b_af, &c, pe_rope_angles_simd, pe_rotate_table_simd, NULL) ==
              PE_OK,
          "ok");
    CHECK(memcmp(wa, wb, sizeof wa) == 0, "simd tables == scalar tables across frequency blocks");
    double worst = 0.0;
    for (int p = 0; p < W_LEN; p++)
        for (int i = 0; i < W_PAIRS; i++)
            worst = fmax(worst, fabs(wb[1][p * W_PAIRS + i] - cos(p * winv[i])) +
                                    fabs(wb[2][p * W_PAIRS + i] - sin(p * winv[i])));
    CHECK(worst < 1e-7, "wide table values (%.3e)", worst);
}

static void test_simd_matches_scalar_apply(void) {
    enum { MAX_HEADS = 3, MAX_LEN = 37, MAX_DIM = 43 };
    static float x[MAX_HEADS * MAX_LEN * MAX_DIM], a[MAX_HEADS * MAX_LEN * MAX_DIM], b[MAX_HEADS * MAX_LEN * MAX_DIM];
    double inv[MAX_DIM], af;
    const double partials[] = {1.0, 0.5, 0.25};
    for (int layout = 0; layout < 2; layout++)
        for (int dim = 2; dim <= MAX_DIM; dim++)
            for (int pi = 0; pi < 3; pi++) {
                pe_rope_config c = config(MAX_LEN, dim, 10000.0, PE_ROPE_YARN, 4.0);
                c.partial_rotary_factor = partials[pi];
                c.max_position_embeddings = 16;
                int rotary = pe_rope_rotary_dim(&c);
                if (rotary < 2 || rotary % 2) continue;
                for (int heads = 1; heads <= MAX_HEADS; heads += 2)
                    for (int length = 1; length <= MAX_LEN; length += 18) {
                        c.length = length;
                        size_t count = (size_t)heads * length * dim;
                        fill(x, count, (uint32_t)(dim * 7 + heads));
                        memset(a, 0xAB, sizeof a);
                        memset(b, 0xAB, sizeof b);
                        CHECK(pe_rope_apply_variant(a, x, inv, &af, heads, layout, &c, pe_rotate_table_scalar,
                                                    pe_rope_rotate_scalar, NULL) == PE_OK,
                              "ok");
                        CHECK(pe_rope_apply_variant(b, x, inv, &af, heads, layout, &c, pe_rotate_table_simd,
                                                    pe_rope_rotate_simd, NULL) == PE_OK,
                              "ok");
                        CHECK(memcmp(a, b, sizeof a) == 0,
                              "apply simd == scalar (layout %d, dim %d, rotary %d, heads %d, length %d)", layout, dim,
                              rotary, heads, length);
                        memcpy(b, x, sizeof(float) * count);   // in place
                        CHECK(apply_c(b, b, inv, &af, heads, layout, &c) == PE_OK, "in place ok");
                        CHECK(memcmp(a, b, sizeof(float) * count) == 0, "in place == apart (layout %d, dim %d)", layout,
                              dim);
                    }
            }
    // Wider than one frequency block (256 pairs), partial rotary, both layouts.
    enum { W_LEN = 5, W_DIM = 1030 };
    static float wx[2 * W_LEN * W_DIM], wa[2 * W_LEN * W_DIM], wb[2 * W_LEN * W_DIM];
    static double winv[W_DIM];
    for (int layout = 0; layout < 2; layout++) {
        pe_rope_config c = config(W_LEN, W_DIM, 500000.0, PE_ROPE_DEFAULT, NAN);
        c.partial_rotary_factor = 1000.0 / W_DIM + 1e-9;   // rotary_dim 1000: 500 pairs
        CHECK(pe_rope_rotary_dim(&c) == 1000, "rotary 1000");
        fill(wx, sizeof wx / sizeof wx[0], 5);
        CHECK(pe_rope_apply_variant(wa, wx, winv, &af, 2, layout, &c, pe_rotate_table_scalar, pe_rope_rotate_scalar,
                                    NULL) == PE_OK,
              "ok");
        CHECK(pe_rope_apply_variant(wb, wx, winv, &af, 2, layout, &c, pe_rotate_table_simd, pe_rope_rotate_simd,
                                    NULL) == PE_OK,
              "ok");
        CHECK(memcmp(wa, wb, sizeof wa) == 0, "simd == scalar across frequency blocks (layout %d)", layout);
        int same_tail = 1;
        for (int r = 0; r < 2 * W_LEN; r++)
            for (int k = 1000; k < W_DIM; k++) same_tail &= wa[r * W_DIM + k] == wx[r * W_DIM + k];
        CHECK(same_tail, "channels past rotary_dim pass through (layout %d)", layout);
    }
}

// --- accuracy ------------------------------------------------------------------------------------

// cos/sin tables of every position < 2^20 against float64 cos/sin of p·inv_freq (the kernel's own
// float64 inv_freq); the angle table against float32(p·inv_freq).
static void test_accuracy_all_positions(void) {
    const int length = 1 << 20, dim = 64, n = dim / 2;
    float *ang = malloc(sizeof(float) * (size_t)length * n);
    float *cs = malloc(sizeof(float) * (size_t)length * n);
    float *sn = malloc(sizeof(float) * (size_t)length * n);
    double inv[32], af;
    const int types[] = {PE_ROPE_DEFAULT, PE_ROPE_YARN, PE_ROPE_LLAMA3};
    const double bases[] = {10000.0, 1000000.0, 500000.0};
    for (int t = 0; t < 3; t++) {
        pe_rope_config c = config(length, dim, bases[t], types[t], 8.0);
        c.original_max_position_embeddings = 8192;
        c.low_freq_factor = 1.0;
        c.high_freq_factor = 4.0;
        CHECK(rope_c(ang, cs, sn, inv, &af, &c) == PE_OK, "ok");
        double worst = 0.0;
        int angles_exact = 1;
        for (int p = 0; p < length; p++)
            for (int i = 0; i < n; i++) {
                size_t k = (size_t)p * n + i;
                double angle = (double)p * inv[i];
                double err = fmax(fabs((double)cs[k] - cos(angle)), fabs((double)sn[k] - sin(angle)));
                if (err > worst) worst = err;
                angles_exact &= ang[k] == (float)angle;
            }
        printf("  cos/sin, all positions < 2^20, rope_type %d base %.0f: max abs err %.3e\n", types[t], bases[t],
               worst);
        CHECK(worst <= 2e-7, "max abs error <= 2e-7 (got %.3e)", worst);
        CHECK(worst <= 4e-8, "within about half a float32 ulp (got %.3e)", worst);
        CHECK(angles_exact, "angle table is float32 of the float64 product (type %d)", types[t]);
    }
    free(ang);
    free(cs);
    free(sn);
}

// --- frequencies ---------------------------------------------------------------------------------

static void test_frequencies(void) {
    double def[64], inv[64], af;
    static float scratch[1 << 16];
    pe_rope_config c = config(1, 128, 10000.0, PE_ROPE_DEFAULT, NAN);
    CHECK(rope_c(scratch, NULL, NULL, def, &af, &c) == PE_OK && af == 1.0, "default");
    double worst = 0.0;
    for (int i = 0; i < 64; i++) worst = fmax(worst, fabs(def[i] / pow(10000.0, -2.0 * i / 128.0) - 1.0));
    CHECK(worst < 1e-15, "default inv_freq = base^(-2i/d) (rel %.2e)", worst);

    c.rope_type = PE_ROPE_LINEAR;
    c.factor = 4.0;
    CHECK(rope_c(scratch, NULL, NULL, inv, &af, &c) == PE_OK && af == 1.0, "linear");
    int ok = 1;
    for (int i = 0; i < 64; i++) ok &= inv[i] == def[i] / 4.0;
    CHECK(ok, "linear = default / factor");

    c.rope_type = PE_ROPE_NTK;
    CHECK(rope_c(scratch, NULL, NULL, inv, &af, &c) == PE_OK && af == 1.0, "ntk");
    double base2 = 10000.0 * pow(4.0, 128.0 / 126.0);
    worst = 0.0;
    for (int i = 0; i < 64; i++) worst = fmax(worst, fabs(inv[i] / pow(base2, -2.0 * i / 128.0) - 1.0));
    CHECK(worst < 1e-14 && inv[0] == 1.0, "ntk: base' = base·factor^(d/(d-2)) (rel %.2e)", worst);
    CHECK(inv[63] < def[63], "ntk lowers frequencies");

    // dynamic: no change up to max_position_embeddings, NTK-like above it.
    c.rope_type = PE_ROPE_DYNAMIC;
    c.max_position_embeddings = 64;
    c.length = 64;
    CHECK(rope_c(scratch, NULL, NULL, inv, &af, &c) == PE_OK, "dynamic at m");
    CHECK(memcmp(inv, def, sizeof(double) * 64) == 0, "dynamic with length <= max_position_embeddings = default");
    c.length = 256;   // s/m = 4: base' = base·(4·4 − 3)^(d/(d-2))
    CHECK(rope_c(scratch, NULL, NULL, inv, &af, &c) == PE_OK, "dynamic above m");
    base2 = 10000.0 * pow(13.0, 128.0 / 126.0);
    worst = 0.0;
    for (int i = 0; i < 64; i++) worst = fmax(worst, fabs(inv[i] / pow(base2, -2.0 * i / 128.0) - 1.0));
    CHECK(worst < 1e-14, "dynamic above max_position_embeddings (rel %.2e)", worst);
    c.max_position_embeddings = 0;   // falls back to original_max_position_embeddings
    c.original_max_position_embeddings = 64;
    double inv2[64];
    CHECK(rope_c(scratch, NULL, NULL, inv2, &af, &c) == PE_OK && memcmp(inv, inv2, sizeof inv2) == 0,
          "dynamic: original_max_position_embeddings when max_position_embeddings is unset");

    // yarn: factor 1 is the default table; the ramp keeps high frequencies and scales low ones.
    c = config(1, 128, 10000.0, PE_ROPE_YARN, 1.0);
    c.original_max_position_embeddings = 4096;
    CHECK(rope_c(scratch, NULL, NULL, inv, &af, &c) == PE_OK && af == 1.0, "yarn factor 1");
    ok = 1;
    for (int i = 0; i < 64; i++) ok &= fabs(inv[i] / def[i] - 1.0) < 1e-15;
    CHECK(ok, "yarn with factor 1 = default");
    c.factor = 16.0;
    CHECK(rope_c(scratch, NULL, NULL, inv, &af, &c) == PE_OK, "yarn 16");
    CHECK(fabs(af - (0.1 * log(16.0) + 1.0)) < 1e-15, "yarn attention factor 0.1·ln(factor) + 1 (%.17g)", af);
    double lo = floor(128.0 * log(4096.0 / (32.0 * 2 * PI)) / (2 * log(10000.0)));
    double hi = ceil(128.0 * log(4096.0 / (1.0 * 2 * PI)) / (2 * log(10000.0)));
    ok = 1;
    for (int i = 0; i < 64; i++) {
        if (i <= lo) ok &= inv[i] == def[i];
        if (i >= hi) ok &= fabs(inv[i] / (def[i] / 16.0) - 1.0) < 1e-15;
        if (i > lo && i < hi) ok &= inv[i] < def[i] && inv[i] > def[i] / 16.0;
    }
    CHECK(ok, "yarn: extrapolate below %g, interpolate from %g, blend between", lo, hi);
    c.mscale = 0.707;
    c.mscale_all_dim = 0.707;
    CHECK(rope_c(scratch, NULL, NULL, inv, &af, &c) == PE_OK && af == 1.0, "yarn mscale == mscale_all_dim: factor 1");
    c.mscale_all_dim = 0.0;   // 0 counts as unset (as in transformers)
    CHECK(rope_c(scratch, NULL, NULL, inv, &af, &c) == PE_OK && fabs(af - (0.1 * log(16.0) + 1.0)) < 1e-15,
          "mscale_all_dim 0");
    c.attention_factor = 0.5;
    CHECK(rope_c(scratch, NULL, NULL, inv, &af, &c) == PE_OK && af == 0.5, "explicit attention_factor");
    c.attention_factor = NAN;
    c.truncate = 0;
    double untruncated[64];
    CHECK(rope_c(scratch, NULL, NULL, untruncated, &af, &c) == PE_OK, "yarn truncate off");
    int differs = 0;
    for (int i = 0; i < 64; i++) differs |= untruncated[i] != inv[i];
    CHECK(differs, "truncate changes the ramp");

    // llama3: the three bands of Llama 3.1 (factor 8, low 1, high 4, original 8192, base 500000).
    c = config(1, 128, 500000.0, PE_ROPE_LLAMA3, 8.0);
    c.original_max_position_embeddings = 8192;
    c.low_freq_factor = 1.0;
    c.high_freq_factor = 4.0;
    pe_rope_config d = config(1, 128, 500000.0, PE_ROPE_DEFAULT, NAN);
    CHECK(rope_c(scratch, NULL, NULL, def, &af, &d) == PE_OK, "default 500000");
    CHECK(rope_c(scratch, NULL, NULL, inv, &af, &c) == PE_OK && af == 1.0, "llama3");
    int bands[3] = {0, 0, 0};
    ok = 1;
    for (int i = 0; i < 64; i++) {
        double wavelen = 2 * PI / def[i];
        if (wavelen < 2048.0) {
            ok &= inv[i] == def[i];
            bands[0]++;
        } else if (wavelen > 8192.0) {
            ok &= inv[i] == def[i] / 8.0;
            bands[2]++;
        } else {
            double s = (8192.0 / wavelen - 1.0) / 3.0;
            ok &= fabs(inv[i] / ((1 - s) * def[i] / 8.0 + s * def[i]) - 1.0) < 1e-15;
            bands[1]++;
        }
    }
    CHECK(ok && bands[0] > 0 && bands[1] > 0 && bands[2] > 0, "llama3 bands (%d high, %d smooth, %d low)", bands[0],
          bands[1], bands[2]);
    // Either side of the low band edge: with d = 4 and base 100 the wavelengths are 2π and 20π.
    c = config(1, 4, 100.0, PE_ROPE_LLAMA3, 8.0);   // inv = 1, 0.1: wavelengths 2π, 20π
    c.low_freq_factor = 1.0;
    c.high_freq_factor = 4.0;
    c.original_max_position_embeddings = 63;   // low edge 63 (> 20π = 62.83), high edge 15.75
    CHECK(rope_c(scratch, NULL, NULL, inv, &af, &c) == PE_OK, "llama3 small");
    double s = (63.0 / (20 * PI) - 1.0) / 3.0;
    CHECK(inv[0] == 1.0 && fabs(inv[1] / ((1 - s) * 0.1 / 8.0 + s * 0.1) - 1.0) < 1e-15,
          "llama3 just inside the low edge is smooth");
    c.original_max_position_embeddings = 62;   // low edge 62 < 20π: low band
    CHECK(rope_c(scratch, NULL, NULL, inv, &af, &c) == PE_OK && inv[1] == 0.1 / 8.0,
          "llama3 just past the low edge is scaled");
}

// --- application ---------------------------------------------------------------------------------

static void test_apply_values(void) {
    enum { HEADS = 2, LEN = 40, DIM = 24 };
    static float x[HEADS * LEN * DIM], out[HEADS * LEN * DIM];
    double inv[DIM], af;
    for (int layout = 0; layout < 2; layout++) {
        pe_rope_config c = config(LEN, DIM, 10000.0, PE_ROPE_YARN, 8.0);
        c.partial_rotary_factor = 0.75;   // rotary_dim 18
        c.max_position_embeddings = 16;
        fill(x, sizeof x / sizeof x[0], 99);
        CHECK(apply_c(out, x, inv, &af, HEADS, layout, &c) == PE_OK, "apply ok");
        const int rotary = 18, n = 9;
        double worst = 0.0;
        for (int h = 0; h < HEADS; h++)
            for (int p = 0; p < LEN; p++) {
                const float *xr = x + (h * LEN + p) * DIM;
                const float *orow = out + (h * LEN + p) * DIM;
                for (int i = 0; i < n; i++) {
                    int a = layout == PE_ROPE_HALF ? i : 2 * i, b = layout == PE_ROPE_HALF ? i + n : 2 * i + 1;
                    double cs = af * cos(p * inv[i]), sn = af * sin(p * inv[i]);
                    worst = fmax(worst, fabs(orow[a] - (xr[a] * cs - xr[b] * sn)));
                    worst = fmax(worst, fabs(orow[b] - (xr[b] * cs + xr[a] * sn)));
                }
                for (int k = rotary; k < DIM; k++) worst = fmax(worst, fabs(orow[k] - xr[k]));
            }
        printf("  apply vs float64 (layout %d, |x| < 4, attention factor %.4f): max abs err %.3e\n", layout, af, worst);
        CHECK(worst < 2e-6, "apply within 2e-6 of float64 (got %.3e)", worst);
    }
    // Layout identity: interleaved on x equals half on x with channels permuted (2i -> i, 2i+1 -> i+n).
    pe_rope_config c = config(LEN, DIM, 10000.0, PE_ROPE_LINEAR, 2.0);
    static float perm[LEN * DIM], out_half[LEN * DIM], out_inter[LEN * DIM];
    fill(x, LEN * DIM, 3);
    const int n = DIM / 2;
    for (int p = 0; p < LEN; p++)
        for (int i = 0; i < n; i++) {
            perm[p * DIM + i] = x[p * DIM + 2 * i];
            perm[p * DIM + n + i] = x[p * DIM + 2 * i + 1];
        }
    CHECK(apply_c(out_inter, x, inv, &af, 1, PE_ROPE_INTERLEAVED, &c) == PE_OK, "ok");
    CHECK(apply_c(out_half, perm, inv, &af, 1, PE_ROPE_HALF, &c) == PE_OK, "ok");
    int same = 1;
    for (int p = 0; p < LEN; p++)
        for (int i = 0; i < n; i++)
            same &= out_half[p * DIM + i] == out_inter[p * DIM + 2 * i] &&
                    out_half[p * DIM + n + i] == out_inter[p * DIM + 2 * i + 1];
    CHECK(same, "half of permuted channels == interleaved, permuted (bit for bit)");
    // Position 0 is the identity (times the attention factor, 1 here).
    CHECK(memcmp(out_inter, x, sizeof(float) * DIM) == 0, "row 0 unchanged");
}

// --- bad arguments -------------------------------------------------------------------------------

#define SPEC_ARG(k) PE_ERR_ARG(5 + (k))
#define APPLY_ARG(k) PE_ERR_ARG(6 + (k))

static void test_bad_arguments(void) {
    static float t[4096], u[4096], v[4096];
    double inv[64], af;
    pe_rope_config ok = config(4, 8, 10000.0, PE_ROPE_DEFAULT, NAN);
    CHECK(rope_c(NULL, NULL, NULL, inv, &af, &ok) == PE_ERR_ARG(1), "no table");
    CHECK(rope_c(t, u, NULL, inv, &af, &ok) == PE_ERR_ARG(3), "cos without sin");
    CHECK(rope_c(t, NULL, u, inv, &af, &ok) == PE_ERR_ARG(2), "sin without cos");
    CHECK(rope_c(t, NULL, NULL, NULL, &af, &ok) == PE_ERR_ARG(4), "NULL inv_freq");
    CHECK(rope_c(t, NULL, NULL, inv, NULL, &ok) == PE_ERR_ARG(5), "NULL attention factor");

    struct {
        const char *what;
        pe_rope_config c;
        int arg;
    } cases[] = {
        {"length 0", {0, 8, 1e4, 1, 0, 0, NAN, 0, 32, 1, 1, NAN, NAN, NAN, NAN, NAN}, 1},
        {"length too big", {PE_MAX_LENGTH + 1, 8, 1e4, 1, 0, 0, NAN, 0, 32, 1, 1, NAN, NAN, NAN, NAN, NAN}, 1},
        {"dim 1", {4, 1, 1e4, 1, 0, 0, NAN, 0, 32, 1, 1, NAN, NAN, NAN, NAN, NAN}, 2},
        {"dim odd", {4, 7, 1e4, 1, 0, 0, NAN, 0, 32, 1, 1, NAN, NAN, NAN, NAN, NAN}, 2},
        {"dim too big", {4, PE_MAX_DIM + 2, 1e4, 1, 0, 0, NAN, 0, 32, 1, 1, NAN, NAN, NAN, NAN, NAN}, 2},
        {"base 1", {4, 8, 1.0, 1, 0, 0, NAN, 0, 32, 1, 1, NAN, NAN, NAN, NAN, NAN}, 3},
        {"base NaN", {4, 8, NAN, 1, 0, 0, NAN, 0, 32, 1, 1, NAN, NAN, NAN, NAN, NAN}, 3},
        {"base inf", {4, 8, INFINITY, 1, 0, 0, NAN, 0, 32, 1, 1, NAN, NAN, NAN, NAN, NAN}, 3},
        {"partial 0", {4, 8, 1e4, 0.0, 0, 0, NAN, 0, 32, 1, 1, NAN, NAN, NAN, NAN, NAN}, 4},
        {"partial > 1", {4, 8, 1e4, 1.5, 0, 0, NAN, 0, 32, 1, 1, NAN, NAN, NAN, NAN, NAN}, 4},
        {"partial NaN", {4, 8, 1e4, NAN, 0, 0, NAN, 0, 32, 1, 1, NAN, NAN, NAN, NAN, NAN}, 4},
        {"odd rotary_dim", {4, 8, 1e4, 0.375, 0, 0, NAN, 0, 32, 1, 1, NAN, NAN, NAN, NAN, NAN}, 4},
        {"rotary_dim 0", {4, 8, 1e4, 0.1, 0, 0, NAN, 0, 32, 1, 1, NAN, NAN, NAN, NAN, NAN}, 4},
        {"max_position_embeddings < 0", {4, 8, 1e4, 1, -1, 0, NAN, 0, 32, 1, 1, NAN, NAN, NAN, NAN, NAN}, 5},
        {"rope_type -1", {4, 8, 1e4, 1, 0, -1, NAN, 0, 32, 1, 1, NAN, NAN, NAN, NAN, NAN}, 6},
        {"rope_type 7", {4, 8, 1e4, 1, 0, 7, NAN, 0, 32, 1, 1, NAN, NAN, NAN, NAN, NAN}, 6},
        {"linear factor NaN", {4, 8, 1e4, 1, 0, 1, NAN, 0, 32, 1, 1, NAN, NAN, NAN, NAN, NAN}, 7},
        {"linear factor 0", {4, 8, 1e4, 1, 0, 1, 0.0, 0, 32, 1, 1, NAN, NAN, NAN, NAN, NAN}, 7},
        {"linear factor -1", {4, 8, 1e4, 1, 0, 1, -1.0, 0, 32, 1, 1, NAN, NAN, NAN, NAN, NAN}, 7},
        {"ntk factor inf", {4, 8, 1e4, 1, 0, 5, INFINITY, 0, 32, 1, 1, NAN, NAN, NAN, NAN, NAN}, 7},
        {"ntk rotary_dim 2", {4, 2, 1e4, 1, 0, 5, 2.0, 0, 32, 1, 1, NAN, NAN, NAN, NAN, NAN}, 2},
        {"dynamic partial rotary_dim 2", {4, 8, 1e4, 0.25, 16, 2, 2.0, 0, 32, 1, 1, NAN, NAN, NAN, NAN, NAN}, 4},
        {"dynamic without m", {4, 8, 1e4, 1, 0, 2, 2.0, 0, 32, 1, 1, NAN, NAN, NAN, NAN, NAN}, 5},
        {"original < 0", {4, 8, 1e4, 1, 16, 3, 2.0, -5, 32, 1, 1, NAN, NAN, NAN, NAN, NAN}, 8},
        {"yarn without o", {4, 8, 1e4, 1, 0, 3, 2.0, 0, 32, 1, 1, NAN, NAN, NAN, NAN, NAN}, 8},
        {"yarn beta_fast 0", {4, 8, 1e4, 1, 16, 3, 2.0, 0, 0, 1, 1, NAN, NAN, NAN, NAN, NAN}, 9},
        {"yarn beta_fast NaN", {4, 8, 1e4, 1, 16, 3, 2.0, 0, NAN, 1, 1, NAN, NAN, NAN, NAN, NAN}, 9},
        {"yarn beta_slow 0", {4, 8, 1e4, 1, 16, 3, 2.0, 0, 32, 0, 1, NAN, NAN, NAN, NAN, NAN}, 10},
        {"yarn beta_slow > beta_fast", {4, 8, 1e4, 1, 16, 3, 2.0, 0, 2, 3, 1, NAN, NAN, NAN, NAN, NAN}, 10},
        {"yarn truncate 2", {4, 8, 1e4, 1, 16, 3, 2.0, 0, 32, 1, 2, NAN, NAN, NAN, NAN, NAN}, 11},
        {"yarn mscale < 0", {4, 8, 1e4, 1, 16, 3, 2.0, 0, 32, 1, 1, -1, NAN, NAN, NAN, NAN}, 12},
        {"yarn mscale inf", {4, 8, 1e4, 1, 16, 3, 2.0, 0, 32, 1, 1, INFINITY, NAN, NAN, NAN, NAN}, 12},
        {"yarn mscale_all_dim < 0", {4, 8, 1e4, 1, 16, 3, 2.0, 0, 32, 1, 1, 1, -1, NAN, NAN, NAN}, 13},
        {"yarn attention_factor 0", {4, 8, 1e4, 1, 16, 3, 2.0, 0, 32, 1, 1, NAN, NAN, 0, NAN, NAN}, 14},
        {"llama3 without original", {4, 8, 1e4, 1, 16, 4, 8.0, 0, 32, 1, 1, NAN, NAN, NAN, 1, 4}, 8},
        {"llama3 low 0", {4, 8, 1e4, 1, 16, 4, 8.0, 8192, 32, 1, 1, NAN, NAN, NAN, 0, 4}, 15},
        {"llama3 low NaN", {4, 8, 1e4, 1, 16, 4, 8.0, 8192, 32, 1, 1, NAN, NAN, NAN, NAN, 4}, 15},
        {"llama3 high < low", {4, 8, 1e4, 1, 16, 4, 8.0, 8192, 32, 1, 1, NAN, NAN, NAN, 2, 1.5}, 16},
        {"llama3 high NaN", {4, 8, 1e4, 1, 16, 4, 8.0, 8192, 32, 1, 1, NAN, NAN, NAN, 1, NAN}, 16},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        CHECK(rope_c(t, NULL, NULL, inv, &af, &cases[k].c) == SPEC_ARG(cases[k].arg), "pe_rope: %s", cases[k].what);
        CHECK(apply_c(u, v, inv, &af, 1, 0, &cases[k].c) == APPLY_ARG(cases[k].arg), "pe_rope_apply: %s",
              cases[k].what);
    }
    // Values a type does not read are not checked.
    pe_rope_config loose = config(4, 8, 1e4, PE_ROPE_LINEAR, 2.0);
    loose.beta_fast = -1;
    loose.mscale = -5;
    loose.truncate = 7;
    loose.low_freq_factor = NAN;
    CHECK(rope_c(t, NULL, NULL, inv, &af, &loose) == PE_OK, "linear ignores yarn and llama3 values");
    pe_rope_config big = config(PE_MAX_LENGTH, PE_MAX_DIM, 1e4, PE_ROPE_DEFAULT, NAN);
    CHECK(rope_c(t, NULL, NULL, inv, &af, &big) == PE_ERR_TOO_LARGE, "table too large");
    pe_rope_config wide = config(4096, 16384, 1e4, PE_ROPE_DEFAULT, NAN);
    CHECK(apply_c(u, v, inv, &af, 2, 0, &wide) == PE_ERR_TOO_LARGE, "application too large");
    // Regression (tests/fuzz): an attention factor past FLT_MAX made the float32 af·cos, af·sin
    // tables infinite, and pe_rope_apply turned even a zero vector into NaN (0·∞).
    pe_rope_config big_af = config(4, 8, 1e4, PE_ROPE_YARN, 8.0);
    big_af.original_max_position_embeddings = 4;
    big_af.attention_factor = 1e39;
    CHECK(rope_c(t, NULL, NULL, inv, &af, &big_af) == SPEC_ARG(14), "attention_factor 1e39");
    CHECK(apply_c(u, v, inv, &af, 1, 0, &big_af) == APPLY_ARG(14), "apply: attention_factor 1e39");
    big_af.attention_factor = NAN;
    big_af.mscale = 1e300;   // derived: g(8, 1e300) / g(8, 1e-300) ≈ 2e299
    big_af.mscale_all_dim = 1e-300;
    CHECK(apply_c(u, v, inv, &af, 1, 0, &big_af) == APPLY_ARG(7), "apply: derived attention factor 2e299");
    big_af.mscale = NAN;
    big_af.mscale_all_dim = NAN;
    big_af.attention_factor = 3.4e38;   // the largest accepted: zeros stay zeros
    memset(v, 0, sizeof(float) * 32);
    CHECK(apply_c(u, v, inv, &af, 1, 0, &big_af) == PE_OK && u[0] == 0.0f && u[31] == 0.0f,
          "apply: attention_factor 3.4e38");
    // Regression (tests/fuzz): heads·length·dim overflowed int64 (2^31·2^20·2^14, UBSan) before
    // the size check; now refused as too large.
    pe_rope_config widest = config(PE_MAX_LENGTH, PE_MAX_DIM, 1e4, PE_ROPE_DEFAULT, NAN);
    CHECK(apply_c(u, v, inv, &af, INT32_MAX, 0, &widest) == PE_ERR_TOO_LARGE, "2^31 − 1 heads");
    CHECK(apply_c(u, v, inv, &af, PE_MAX_ELEMENTS + 1, 0, &ok) == PE_ERR_TOO_LARGE, "2^26 + 1 heads of 4 × 8");

    CHECK(apply_c(NULL, v, inv, &af, 1, 0, &ok) == PE_ERR_ARG(1), "apply NULL out");
    CHECK(apply_c(u, NULL, inv, &af, 1, 0, &ok) == PE_ERR_ARG(2), "apply NULL x");
    CHECK(apply_c(u, v, NULL, &af, 1, 0, &ok) == PE_ERR_ARG(3), "apply NULL inv_freq");
    CHECK(apply_c(u, v, inv, NULL, 1, 0, &ok) == PE_ERR_ARG(4), "apply NULL attention factor");
    CHECK(apply_c(u, v, inv, &af, 0, 0, &ok) == PE_ERR_ARG(5), "apply heads 0");
    CHECK(apply_c(u, v, inv, &af, -3, 0, &ok) == PE_ERR_ARG(5), "apply heads < 0");
    CHECK(apply_c(u, v, inv, &af, 1, 2, &ok) == PE_ERR_ARG(6), "apply layout 2");
    CHECK(apply_c(u, v, inv, &af, 1, -1, &ok) == PE_ERR_ARG(6), "apply layout -1");
    CHECK(apply_c(u + 1, u, inv, &af, 1, 0, &ok) == PE_ERR_ARG(1), "apply partial overlap");
    CHECK(pe_rope_variant(t, NULL, NULL, inv, &af, &ok, NULL, pe_rotate_table_scalar, NULL) == PE_ERR_ARG(7),
          "NULL angles fn");
    CHECK(pe_rope_variant(t, NULL, NULL, inv, &af, &ok, pe_rope_angles_scalar, NULL, NULL) == PE_ERR_ARG(8),
          "NULL table fn");
    CHECK(pe_rope_apply_variant(u, v, inv, &af, 1, 0, &ok, NULL, pe_rope_rotate_scalar, NULL) == PE_ERR_ARG(8),
          "NULL table fn");
    CHECK(pe_rope_apply_variant(u, v, inv, &af, 1, 0, &ok, pe_rotate_table_scalar, NULL, NULL) == PE_ERR_ARG(9),
          "NULL rotate fn");
    // Still works afterwards.
    CHECK(rope_c(t, u, v, inv, &af, &ok) == PE_OK && t[0] == 0.0f && u[0] == 1.0f && v[0] == 0.0f && t[4] == 1.0f &&
              fabs(v[4] - sin(1.0)) < 1e-7,
          "still works");
}

// --- longrope ------------------------------------------------------------------------------------

// pe_rope with a config and LongRoPE lists.
static pe_status rope_lists(double *inv_freq, double *af, const pe_rope_config *c, const double *s, const double *l) {
    static float angles[64 * 64];
    return pe_rope(angles, NULL, NULL, inv_freq, af, c->length, c->dim, c->base, c->partial_rotary_factor,
                   c->max_position_embeddings, c->rope_type, c->factor, c->original_max_position_embeddings,
                   c->beta_fast, c->beta_slow, c->truncate, c->mscale, c->mscale_all_dim, c->attention_factor,
                   c->low_freq_factor, c->high_freq_factor, s, l);
}

// LongRoPE (transformers' _compute_longrope_parameters): inv_freq_i = 1/(ext_i·base^(2i/d)) with
// ext = short_factor up to the original context and long_factor past it; attention factor
// √(1 + ln s/ln o), s = max_position_embeddings / o (Phi-3.5: 131072 / 4096 = 32 → 1.1902).
static void test_longrope(void) {
    const double shortf[4] = {1.0, 1.5, 2.0, 4.0}, longf[4] = {1.25, 3.0, 8.0, 16.0};
    double inv[4], def[4], af;
    pe_rope_config c = config(64, 8, 10000.0, PE_ROPE_LONGROPE, NAN);
    c.original_max_position_embeddings = 64;
    c.max_position_embeddings = 2048;
    pe_rope_config d = config(64, 8, 10000.0, PE_ROPE_DEFAULT, NAN);
    CHECK(rope_lists(def, &af, &d, NULL, NULL) == PE_OK, "default");
    CHECK(rope_lists(inv, &af, &c, shortf, longf) == PE_OK, "longrope at length == o");
    int exact = 1;
    for (int i = 0; i < 4; i++) exact &= inv[i] == 1.0 / (shortf[i] * pow(10000.0, (double)(2 * i) / 8.0));
    CHECK(exact, "length <= o: short_factor");
    CHECK(fabs(af - sqrt(1.0 + log(32.0) / log(64.0))) < 1e-15, "attention factor from 2048 / 64: %.17g", af);
    c.length = 65;
    CHECK(rope_lists(inv, &af, &c, shortf, longf) == PE_OK, "longrope past o");
    exact = 1;
    for (int i = 0; i < 4; i++) exact &= inv[i] == 1.0 / (longf[i] * pow(10000.0, (double)(2 * i) / 8.0));
    CHECK(exact, "length > o: long_factor");
    // Phi-3.5-mini: o = 4096, max_position_embeddings = 131072.
    c.original_max_position_embeddings = 4096;
    c.max_position_embeddings = 131072;
    CHECK(rope_lists(inv, &af, &c, shortf, longf) == PE_OK && fabs(af - 1.1902380714238083) < 1e-15,
          "Phi-3.5 attention factor %.17g", af);
    // Without max_position_embeddings the scale is factor (else 1); an explicit attention_factor wins.
    c.max_position_embeddings = 0;
    CHECK(rope_lists(inv, &af, &c, shortf, longf) == PE_OK && af == 1.0, "no scale: af 1");
    c.factor = 16.0;
    CHECK(rope_lists(inv, &af, &c, shortf, longf) == PE_OK && fabs(af - sqrt(1.0 + log(16.0) / log(4096.0))) < 1e-15,
          "scale from factor");
    c.attention_factor = 0.75;
    CHECK(rope_lists(inv, &af, &c, shortf, longf) == PE_OK && af == 0.75, "explicit attention_factor");
    // o from max_position_embeddings when original is unset; lists of ones give the default.
    const double ones[4] = {1, 1, 1, 1};
    pe_rope_config m = config(64, 8, 10000.0, PE_ROPE_LONGROPE, NAN);
    m.max_position_embeddings = 32;
    CHECK(rope_lists(inv, &af, &m, ones, longf) == PE_OK && inv[3] == 1.0 / (16.0 * pow(10000.0, 0.75)),
          "o = max_position_embeddings, length 64 > 32: long");
    m.length = 32;
    CHECK(rope_lists(inv, &af, &m, ones, longf) == PE_OK && memcmp(inv, def, sizeof inv) == 0 && af == 1.0,
          "short factors of 1 = default");
    // Bad lists and values.
    const double zero[4] = {1, 0, 1, 1}, nan[4] = {1, 1, NAN, 1};
    CHECK(rope_lists(inv, &af, &m, NULL, longf) == SPEC_ARG(17), "NULL short_factor");
    CHECK(rope_lists(inv, &af, &m, ones, NULL) == SPEC_ARG(18), "NULL long_factor");
    CHECK(rope_lists(inv, &af, &m, zero, longf) == SPEC_ARG(17), "short_factor entry 0");
    CHECK(rope_lists(inv, &af, &m, ones, nan) == SPEC_ARG(18), "long_factor entry NaN");
    CHECK(pe_rope_check(&m) == PE_ERR_ARG(17), "pe_rope_check refuses longrope without lists");
    CHECK(pe_rope_inv_freq(inv, &af, &m) == PE_ERR_ARG(17), "pe_rope_inv_freq refuses longrope without lists");
    m.max_position_embeddings = 0;
    CHECK(rope_lists(inv, &af, &m, ones, longf) == SPEC_ARG(8), "no original context");
    m.max_position_embeddings = 32;
    m.factor = -1.0;
    CHECK(rope_lists(inv, &af, &m, ones, longf) == SPEC_ARG(7), "factor -1");
    m.factor = NAN;
    m.attention_factor = 0.0;
    CHECK(rope_lists(inv, &af, &m, ones, longf) == SPEC_ARG(14), "attention_factor 0");
    // o = 1 with a scale > 1: ln o = 0, the derived attention factor is infinite and refused.
    m.attention_factor = NAN;
    m.original_max_position_embeddings = 1;
    m.max_position_embeddings = 4;
    CHECK(rope_lists(inv, &af, &m, ones, longf) == SPEC_ARG(7), "o = 1: derived attention factor refused");
    // The application reads the same lists (long past o) and scales by the attention factor.
    static float x[2 * 40 * 8], out[2 * 40 * 8];
    fill(x, 2 * 40 * 8, 9);
    pe_rope_config a = config(40, 8, 10000.0, PE_ROPE_LONGROPE, NAN);
    a.original_max_position_embeddings = 16;
    a.max_position_embeddings = 64;
    CHECK(pe_rope_apply(out, x, inv, &af, 2, PE_ROPE_HALF, a.length, a.dim, a.base, 1.0, 64, PE_ROPE_LONGROPE, NAN, 16,
                        32, 1, 1, NAN, NAN, NAN, NAN, NAN, shortf, longf) == PE_OK,
          "apply longrope");
    CHECK(inv[1] == 1.0 / (3.0 * pow(10000.0, 0.25)) && fabs(af - sqrt(1.0 + log(4.0) / log(16.0))) < 1e-15,
          "apply: long factors, af");
    CHECK(fabsf(out[0] - (float)(x[0] * af)) < 1e-6f, "apply: row 0 is x times af");
    CHECK(pe_rope_apply(out, x, inv, &af, 2, PE_ROPE_HALF, a.length, a.dim, a.base, 1.0, 64, PE_ROPE_LONGROPE, NAN, 16,
                        32, 1, 1, NAN, NAN, NAN, NAN, NAN, shortf, NULL) == APPLY_ARG(18),
          "apply: NULL long_factor");
}

// Regression (tests/fuzz, fuzz_kernels): frequencies far above 1 rad per position, as a tiny
// scaling factor gives (yarn or linear inv_freq / factor). pe_turns_from_omega converted an
// out-of-range double to uint32_t (undefined behaviour; UBSan: "outside the range of
// representable values") once the low part of ω/2π held whole turns.
static void test_huge_frequencies(void) {
    // The fixed-point start stays exact for large ω (2π is known to 107 bits, so up to ~1e13).
    const double omegas[] = {1e7, 3e7, 1e9, 1e10, 1e12};
    for (size_t k = 0; k < sizeof omegas / sizeof omegas[0]; k++) {
        pe_turns t = pe_turns_from_omega(omegas[k]);
        for (uint32_t p = 1; p <= 5; p++) {
            double s, c;
            pe_sincos_at(p, t, &s, &c);
            long double angle = (long double)p * omegas[k];
            CHECK(fabsl(s - sinl(angle)) < 1e-9L && fabsl(c - cosl(angle)) < 1e-9L, "sincos at p = %u, omega %g", p,
                  omegas[k]);
        }
    }
    // Beyond that the phase is only as good as 2π's 107 bits, but always a finite sin/cos pair.
    const double huge[] = {1e20, 1e300, 1.7976931348623157e308, -1e300, 4.9e-324};
    for (size_t k = 0; k < sizeof huge / sizeof huge[0]; k++) {
        pe_turns t = pe_turns_from_omega(huge[k]);
        double s, c;
        pe_sincos_at(12345u, t, &s, &c);
        CHECK(isfinite(s) && isfinite(c) && fabs(s * s + c * c - 1.0) < 1e-12, "sincos of omega %g", huge[k]);
    }
    static float a[4096], co[4096], si[4096];
    double inv[8], af;
    // The fuzz input: yarn, factor 2.2e-270 (inv_freq up to ~1e269).
    pe_rope_config yarn = config(16, 8, 1e4, PE_ROPE_YARN, 2.2e-270);
    yarn.original_max_position_embeddings = 240;
    CHECK(rope_c(a, co, si, inv, &af, &yarn) == PE_OK, "yarn with factor 2.2e-270");
    int bounded = 1;
    for (int k = 0; k < 16 * 4; k++) bounded &= fabsf(co[k]) <= 1.0f && fabsf(si[k]) <= 1.0f;
    CHECK(bounded, "yarn with a tiny factor: cos and sin in [-1, 1]");
    // linear, factor 1e-9: inv_freq_0 = 1e9 rad per position, accurate at every row.
    pe_rope_config linear = config(1024, 8, 1e4, PE_ROPE_LINEAR, 1e-9);
    CHECK(rope_c(a, co, si, inv, &af, &linear) == PE_OK, "linear with factor 1e-9");
    double worst = 0.0;
    for (int p = 0; p < 1024; p++)
        for (int i = 0; i < 4; i++) {
            long double angle = (long double)p * inv[i];
            worst = fmax(worst, (double)fabsl(co[p * 4 + i] - cosl(angle)));
            worst = fmax(worst, (double)fabsl(si[p * 4 + i] - sinl(angle)));
        }
    CHECK(worst <= 2e-7, "linear with factor 1e-9: max error %g", worst);
}

// Near float32's limit: the fast path's bound, SIMD against scalar, a rotation whose float32
// products overflow but whose value fits (float64 fallback, same in both builds, in place too),
// and finite x rotated beyond FLT_MAX (PE_ERR_ARG(2), also for pe_rope_apply_tables).
static void test_float32_limit(void) {
    CHECK(pe_rope_x_limit(1.0) < FLT_MAX / 2 && pe_rope_x_limit(1.0) > FLT_MAX / 2 * 0.9999f, "limit at af 1: %g",
          (double)pe_rope_x_limit(1.0));
    CHECK(pe_rope_x_limit(1e-300) == FLT_MAX, "limit at a tiny af: FLT_MAX");
    enum { N = 23 };
    float v[N];
    for (int n = 0; n <= N; n++)
        for (int at = 0; at < n; at++) {
            for (int k = 0; k < N; k++) v[k] = (float)k;
            v[at] = -2e38f;
            CHECK(pe_rope_within_scalar(v, n, 1e38f) == 0 && pe_rope_within_simd(v, n, 1e38f) == 0,
                  "over the limit at %d of %d", at, n);
            v[at] = NAN;
            CHECK(pe_rope_within_scalar(v, n, 1e38f) == 1 && pe_rope_within_simd(v, n, 1e38f) == 1,
                  "NaN within at %d of %d", at, n);
        }

    // Pair 0 turns by θ = π/8 at position 1 (longrope, short factor 8/π), attention factor 1000,
    // and x at angle π/8 with |x|·1000 = 1.25·FLT_MAX: x_a·(1000·cos θ) overflows in float32, the
    // result |x|·1000·(cos π/4, sin π/4) = 0.88·FLT_MAX does not.
    const double theta = PI / 8, r = 1.25 * FLT_MAX / 1000.0;
    pe_rope_config c = config(2, 2, 10000.0, PE_ROPE_LONGROPE, NAN);
    c.original_max_position_embeddings = 8;
    c.attention_factor = 1000.0;
    const double short_factor[1] = {1.0 / theta}, long_factor[1] = {1.0};
    const pe_rope_lists lists = {short_factor, long_factor};
    float x[4] = {1.0f, 2.0f, (float)(r * cos(theta)), (float)(r * sin(theta))}, a[4], b[4];
    double inv[1], af;
    for (int layout = 0; layout < 2; layout++) {
        CHECK(pe_rope_apply_variant(a, x, inv, &af, 1, layout, &c, pe_rotate_table_scalar, pe_rope_rotate_scalar,
                                    &lists) == PE_OK,
              "products overflow, result fits: ok (layout %d)", layout);
        CHECK(pe_rope_apply_variant(b, x, inv, &af, 1, layout, &c, pe_rotate_table_simd, pe_rope_rotate_simd, &lists) ==
                  PE_OK,
              "ok (simd)");
        CHECK(memcmp(a, b, sizeof a) == 0, "simd == scalar near the limit (layout %d)", layout);
        CHECK(isfinite(a[2]) && isfinite(a[3]) && fabs(a[2] / FLT_MAX - 0.8839) < 1e-3 &&
                  fabs(a[3] / FLT_MAX - 0.8839) < 1e-3,
              "rotated to 0.88·FLT_MAX: %g %g", (double)a[2], (double)a[3]);
        CHECK(a[0] == 1000.0f && a[1] == 2000.0f, "position 0: x · af");
        memcpy(b, x, sizeof x);
        CHECK(pe_rope_apply(b, b, inv, &af, 1, layout, 2, 2, 10000.0, 1.0, 0, PE_ROPE_LONGROPE, NAN, 8, 32.0, 1.0, 1,
                            NAN, NAN, 1000.0, NAN, NAN, short_factor, long_factor) == PE_OK &&
                  memcmp(a, b, sizeof a) == 0,
              "in place == apart near the limit (layout %d)", layout);
    }

    // Beyond float32: 3e38 at position 1 gives (cos 1 + sin 1)·3e38 = 4.1e38.
    pe_rope_config plain = config(2, 2, 10000.0, PE_ROPE_DEFAULT, NAN);
    float big[4] = {3e38f, 3e38f, 3e38f, 3e38f};
    CHECK(pe_rope_apply_variant(a, big, inv, &af, 1, PE_ROPE_HALF, &plain, pe_rotate_table_scalar,
                                pe_rope_rotate_scalar, NULL) == PE_ERR_ARG(2),
          "beyond float32: PE_ERR_ARG(2)");
    CHECK(pe_rope_apply_variant(a, big, inv, &af, 1, PE_ROPE_HALF, &plain, pe_rotate_table_simd, pe_rope_rotate_simd,
                                NULL) == PE_ERR_ARG(2),
          "beyond float32: PE_ERR_ARG(2) (simd)");
    CHECK(af == 1.0 && inv[0] == 1.0, "inv_freq and the attention factor are set on overflow");
    const float cos_t[2] = {1.0f, 0.5403023f}, sin_t[2] = {0.0f, 0.84147096f};
    CHECK(pe_rope_apply_tables(a, big, cos_t, sin_t, 1, 2, 2, 2, PE_ROPE_HALF) == PE_ERR_ARG(2),
          "tables: beyond float32: PE_ERR_ARG(2)");
    // Non-finite x is not an overflow: its pair stays non-finite, the others rotate.
    float inf_x[4] = {INFINITY, 1.0f, 1.0f, 1.0f};
    CHECK(pe_rope_apply_variant(a, inf_x, inv, &af, 1, PE_ROPE_HALF, &plain, pe_rotate_table_simd, pe_rope_rotate_simd,
                                NULL) == PE_OK &&
              isinf(a[0]) && isfinite(a[2]) && isfinite(a[3]),
          "infinite x: ok, its own pair only");
}

int main(void) {
    printf("rope (%s)\n", pe_simd_enabled() ? "SIMD via SIMDe" : "scalar");
    test_bad_arguments();
    test_frequencies();
    test_simd_matches_scalar_kernels();
    test_simd_matches_scalar_tables();
    test_simd_matches_scalar_apply();
    test_apply_values();
    test_accuracy_all_positions();
    test_huge_frequencies();
    test_longrope();
    test_float32_limit();
    return test_summary("native rope");
}

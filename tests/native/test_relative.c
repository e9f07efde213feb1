// Native tests of the relative family (c/relative.c: t5, shaw, distance, alibi), gcc + SIMDe under
// ASan/UBSan (run.sh):
//   1. The Toeplitz fill, SIMD vs scalar reference bit for bit, at every size 1..80 (all tails).
//   2. Every table entry against its per-entry formula, at many lengths.
//   3. T5 buckets pinned to the values transformers computes (torch, see tests/fixtures), and
//      their invariants for every relative position up to ±2^20.
//   4. ALiBi slopes: get_slopes' structure for every head count 1..1024.
//   5. Every bad argument returns its status code.
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pe.h"
#include "relative.h"
#include "test_util.h"

static uint32_t lcg_state = 12345u;
static uint32_t lcg(void) {
    lcg_state = lcg_state * 1664525u + 1013904223u;
    return lcg_state;
}

static void test_toeplitz_simd_matches_scalar(void) {
    enum { MAX_N = 80 };
    static float a[MAX_N * MAX_N], b[MAX_N * MAX_N];
    for (int n = 1; n <= MAX_N; n++) {
        for (int k = 0; k < n * n; k++) {
            uint32_t bits = lcg();
            memcpy(&a[k], &bits, 4);   // any bit pattern, NaNs included: a copy must keep it
        }
        a[0] = a[n * n - 1];   // rows 0 and n−1 agree at r = 0, as in a real table
        memcpy(b, a, sizeof(float) * n * n);
        pe_toeplitz_fill_scalar(a, n);
        pe_toeplitz_fill_simd(b, n);
        CHECK(memcmp(a, b, sizeof(float) * n * n) == 0, "toeplitz simd == scalar (n=%d)", n);
        // And the scalar fill is what it claims: entry [i, j] equals the value at r = j − i.
        int ok = 1;
        for (int i = 0; i < n && ok; i++)
            for (int j = 0; j < n; j++) {
                int r = j - i;
                float want = r > 0 ? a[r] : a[(n - 1) * n + (r + n - 1)];
                if (memcmp(&a[i * n + j], &want, 4) != 0) ok = 0;
            }
        CHECK(ok, "toeplitz entries depend on j - i only (n=%d)", n);
    }
}

static void test_t5_table_matches_buckets(void) {
    static float out[301 * 301];
    const int configs[][2] = {{32, 128}, {64, 256}, {18, 128}, {4, 2}, {7, 300}, {320, 128}, {4096, 1048576}};
    for (size_t c = 0; c < sizeof configs / sizeof configs[0]; c++)
        for (int bi = 0; bi <= 1; bi++) {
            int nb = configs[c][0], md = configs[c][1];
            int max_exact = (bi ? nb / 2 : nb) / 2;
            if (md <= max_exact) continue;
            for (int n = 1; n <= 301; n += (n < 40 ? 1 : 65)) {
                CHECK(pe_t5(out, n, nb, md, bi) == PE_OK, "t5 ok");
                int bad = 0;
                for (int i = 0; i < n; i++)
                    for (int j = 0; j < n; j++)
                        if (out[i * n + j] != (float)pe_t5_bucket(j - i, nb, md, bi)) bad++;
                CHECK(bad == 0, "t5 table == bucket(j - i) (nb %d md %d bi %d n %d): %d bad", nb, md, bi, n, bad);
            }
        }
}

// Values computed by transformers' _relative_position_bucket in torch (tests/fixtures/t5/manifest.json).
static void test_t5_pinned(void) {
    const int bidi[][2] = {{8, 24},   {15, 25},  {16, 26},   {31, 27}, {32, 28}, {63, 29},
                           {64, 30},  {127, 31}, {128, 31},  {-7, 7},  {-8, 8},  {-16, 10},
                           {-32, 12}, {-64, 14}, {-128, 15}, {0, 0},   {1, 17}};
    for (size_t k = 0; k < sizeof bidi / sizeof bidi[0]; k++)
        CHECK(pe_t5_bucket(bidi[k][0], 32, 128, 1) == bidi[k][1], "default bidirectional r=%d -> %d (got %d)",
              bidi[k][0], bidi[k][1], pe_t5_bucket(bidi[k][0], 32, 128, 1));
    const int uni[][2] = {{5, 0}, {0, 0}, {-15, 15}, {-16, 16}, {-32, 21}, {-64, 26}, {-128, 31}, {-129, 31}};
    for (size_t k = 0; k < sizeof uni / sizeof uni[0]; k++)
        CHECK(pe_t5_bucket(uni[k][0], 32, 128, 0) == uni[k][1], "default unidirectional r=%d -> %d (got %d)", uni[k][0],
              uni[k][1], pe_t5_bucket(uni[k][0], 32, 128, 0));
    // Where the reference's float32 log differs from float64 arithmetic (float64 says 13, 15, 53, 122).
    CHECK(pe_t5_bucket(8, 18, 128, 1) == 14, "(18, 128) r=8 is 14 as in the float32 reference");
    CHECK(pe_t5_bucket(-8, 18, 128, 1) == 5, "(18, 128) r=-8 is 5");
    CHECK(pe_t5_bucket(64, 18, 128, 1) == 17, "(18, 128) r=64 is 17");
    CHECK(pe_t5_bucket(-16, 9, 128, 0) == 6, "(9, 128) uni r=-16 is 6");
    CHECK(pe_t5_bucket(-60, 72, 100, 0) == 53, "(72, 100) uni r=-60 is 53");
    CHECK(pe_t5_bucket(3602, 124, 5000, 1) == 121, "(124, 5000) r=3602 is 121");
}

// Invariants over every relative position in [-2^20, 2^20]: range, monotone in distance on each
// side, exact below max_exact, the last bucket from max_distance on.
static void test_t5_invariants(void) {
    const int configs[][2] = {{32, 128}, {64, 256}, {4, 2}, {5, 3}, {320, 128}, {4096, 1048576}, {100, 1000}};
    for (size_t c = 0; c < sizeof configs / sizeof configs[0]; c++)
        for (int bi = 0; bi <= 1; bi++) {
            int nb = configs[c][0], md = configs[c][1];
            int half = bi ? nb / 2 : nb, max_exact = half / 2;
            if (md <= max_exact) continue;
            int bad = 0, prev_pos = -1, prev_neg = -1;
            for (int d = 0; d <= (1 << 20); d++) {
                int neg = pe_t5_bucket(-d, nb, md, bi), pos = pe_t5_bucket(d, nb, md, bi);
                if (neg < 0 || neg >= half || neg < prev_neg) bad++;
                if (d < max_exact && neg != d) bad++;
                if (d >= md && neg != half - 1) bad++;
                if (bi) {
                    if (d > 0 && (pos < half || pos >= 2 * half || pos < prev_pos)) bad++;
                    if (d > 0 && pos - half != neg) bad++;   // the two sides mirror each other
                } else if (pos != 0) {
                    bad++;
                }
                prev_neg = neg;
                if (d > 0) prev_pos = pos;
            }
            CHECK(bad == 0, "t5 invariants (nb %d md %d bi %d): %d violations", nb, md, bi, bad);
        }
}

static void test_alibi_slopes(void) {
    static double s[PE_MAX_ALIBI_HEADS], twice[PE_MAX_ALIBI_HEADS];
    for (int n = 1; n <= PE_MAX_ALIBI_HEADS; n++) {
        CHECK(pe_alibi_slopes(s, n) == PE_OK, "slopes ok");
        int c = 1;
        while (c * 2 <= n) c *= 2;
        int bad = 0;
        for (int h = 0; h < c; h++)   // the power-of-two part: 2^(−8(h+1)/c), strictly decreasing
            if (fabs(s[h] / pow(2.0, -8.0 * (h + 1) / c) - 1.0) > 1e-13 || (h > 0 && !(s[h] < s[h - 1]))) bad++;
        if (c < n) {   // the rest: every other slope of the 2c-head list
            pe_alibi_slopes(twice, 2 * c);
            for (int k = 0; k < n - c; k++)
                if (s[c + k] != twice[2 * k]) bad++;
        }
        CHECK(bad == 0, "alibi slopes structure for %d heads", n);
    }
    pe_alibi_slopes(s, 8);
    for (int h = 0; h < 8; h++) CHECK(s[h] == ldexp(1.0, -(h + 1)), "8 heads: slope %d is 2^-%d", h, h + 1);
    const double six[] = {0x1p-2, 0x1p-4, 0x1p-6, 0x1p-8, 0x1p-1, 0x1p-3};
    pe_alibi_slopes(s, 6);
    for (int h = 0; h < 6; h++) CHECK(s[h] == six[h], "6 heads: slope %d", h);
}

static void test_alibi_table(void) {
    enum { H = 5, N = 41 };
    static float out[H * N * N];
    float slopes[H];
    double m[H];
    pe_alibi_slopes(m, H);
    for (int mode = 0; mode <= 1; mode++)
        for (int n = 1; n <= N; n++) {
            CHECK(pe_alibi(out, slopes, n, H, mode) == PE_OK, "alibi ok");
            int bad = 0;
            for (int h = 0; h < H; h++) {
                if (slopes[h] != (float)m[h]) bad++;
                for (int i = 0; i < n; i++)
                    for (int j = 0; j < n; j++) {
                        float v = out[(h * n + i) * n + j];
                        float want = (mode == PE_BIAS_CAUSAL && j > i) ? -INFINITY : (float)(0.0 - m[h] * abs(i - j));
                        if (v != want || (i == j && signbit(v))) bad++;
                    }
            }
            CHECK(bad == 0, "alibi entries (mode %d, n %d): %d bad", mode, n, bad);
        }
}

static void test_shaw_distance_tables(void) {
    enum { N = 37 };
    static float out[N * N];
    for (int k = 0; k <= 40; k += 3)
        for (int n = 1; n <= N; n += 4) {
            CHECK(pe_shaw(out, n, k) == PE_OK, "shaw ok");
            int bad = 0;
            for (int i = 0; i < n; i++)
                for (int j = 0; j < n; j++) {
                    int r = j - i, clipped = r < -k ? -k : r > k ? k : r;
                    if (out[i * n + j] != (float)(clipped + k)) bad++;
                }
            CHECK(bad == 0, "shaw entries (k %d, n %d)", k, n);
        }
    const double strengths[] = {0.0, 1.0, 2.5, 1000.0}, scales[] = {0.01, 1.0, 8.0, 1e6};
    for (int fn = 0; fn <= 3; fn++)
        for (int mode = 0; mode <= 1; mode++)
            for (int s = 0; s < 4; s++) {
                CHECK(pe_distance(out, N, fn, strengths[s], scales[s], mode) == PE_OK, "distance ok");
                int bad = 0;
                for (int i = 0; i < N; i++)
                    for (int j = 0; j < N; j++) {
                        float v = out[i * N + j];
                        if (mode == PE_BIAS_CAUSAL && j > i) {
                            if (v != -INFINITY) bad++;
                            continue;
                        }
                        int d = abs(i - j);
                        double u = d / scales[s], b;
                        if (fn == PE_DIST_LINEAR) b = -strengths[s] * u;
                        else if (fn == PE_DIST_LOG)
                            b = -strengths[s] * log1p(u);
                        else if (fn == PE_DIST_GAUSSIAN)
                            b = -strengths[s] * 0.5 * u * u;
                        else
                            b = strengths[s] * expm1(-u);
                        if (fabs(v - b) > 6e-8 * fabs(b) || (d == 0 && (v != 0.0f || signbit(v)))) bad++;
                        if (d > 0 && strengths[s] > 0 && !(v < 0)) bad++;   // penalties only
                    }
                CHECK(bad == 0, "distance entries (fn %d, mode %d, set %d): %d bad", fn, mode, s, bad);
            }
}

static void test_bad_arguments(void) {
    static float out[64];
    float slopes[8];
    CHECK(pe_alibi(NULL, slopes, 2, 2, 0) == PE_ERR_ARG(1), "alibi NULL out");
    CHECK(pe_alibi(out, NULL, 2, 2, 0) == PE_ERR_ARG(2), "alibi NULL slopes");
    CHECK(pe_alibi(out, slopes, 0, 2, 0) == PE_ERR_ARG(3), "alibi length 0");
    CHECK(pe_alibi(out, slopes, 8193, 1, 0) == PE_ERR_ARG(3), "alibi length 8193");
    CHECK(pe_alibi(out, slopes, 2, 0, 0) == PE_ERR_ARG(4), "alibi heads 0");
    CHECK(pe_alibi(out, slopes, 2, 1025, 0) == PE_ERR_ARG(4), "alibi heads 1025");
    CHECK(pe_alibi(out, slopes, 2, 2, 2) == PE_ERR_ARG(5), "alibi mode 2");
    CHECK(pe_alibi(out, slopes, 2, 2, -1) == PE_ERR_ARG(5), "alibi mode -1");
    CHECK(pe_alibi(out, slopes, 8192, 2, 0) == PE_ERR_TOO_LARGE, "alibi too large");
    CHECK(pe_alibi_slopes(NULL, 2) == PE_ERR_ARG(1) && pe_alibi_slopes((double[1]){0}, 0) == PE_ERR_ARG(2),
          "slopes args");
    CHECK(pe_t5(NULL, 2, 32, 128, 1) == PE_ERR_ARG(1), "t5 NULL");
    CHECK(pe_t5(out, 0, 32, 128, 1) == PE_ERR_ARG(2), "t5 length 0");
    CHECK(pe_t5(out, 8193, 32, 128, 1) == PE_ERR_ARG(2), "t5 length 8193");
    CHECK(pe_t5(out, 2, 3, 128, 1) == PE_ERR_ARG(3), "t5 num_buckets 3");
    CHECK(pe_t5(out, 2, 4097, 128, 1) == PE_ERR_ARG(3), "t5 num_buckets 4097");
    CHECK(pe_t5(out, 2, 32, 8, 1) == PE_ERR_ARG(4), "t5 max_distance = max_exact");
    CHECK(pe_t5(out, 2, 32, 16, 0) == PE_ERR_ARG(4), "t5 max_distance = max_exact (unidirectional)");
    CHECK(pe_t5(out, 2, 32, 9, 1) == PE_OK && pe_t5(out, 2, 32, 17, 0) == PE_OK, "t5 max_distance just above");
    CHECK(pe_t5(out, 2, 32, PE_MAX_LENGTH + 1, 1) == PE_ERR_ARG(4), "t5 max_distance too big");
    CHECK(pe_t5(out, 2, 32, 128, 2) == PE_ERR_ARG(5), "t5 bidirectional 2");
    CHECK(pe_shaw(NULL, 2, 1) == PE_ERR_ARG(1) && pe_shaw(out, 0, 1) == PE_ERR_ARG(2), "shaw out, length");
    CHECK(pe_shaw(out, 2, -1) == PE_ERR_ARG(3) && pe_shaw(out, 2, PE_MAX_LENGTH + 1) == PE_ERR_ARG(3), "shaw k");
    CHECK(pe_distance(NULL, 2, 0, 1, 1, 0) == PE_ERR_ARG(1), "distance NULL");
    CHECK(pe_distance(out, 8193, 0, 1, 1, 0) == PE_ERR_ARG(2), "distance length");
    CHECK(pe_distance(out, 2, 4, 1, 1, 0) == PE_ERR_ARG(3) && pe_distance(out, 2, -1, 1, 1, 0) == PE_ERR_ARG(3),
          "distance function");
    CHECK(pe_distance(out, 2, 0, NAN, 1, 0) == PE_ERR_ARG(4) && pe_distance(out, 2, 0, -0.1, 1, 0) == PE_ERR_ARG(4) &&
              pe_distance(out, 2, 0, 1000.5, 1, 0) == PE_ERR_ARG(4),
          "distance strength");
    CHECK(pe_distance(out, 2, 0, 1, 0.001, 0) == PE_ERR_ARG(5) &&
              pe_distance(out, 2, 0, 1, INFINITY, 0) == PE_ERR_ARG(5) &&
              pe_distance(out, 2, 0, 1, NAN, 0) == PE_ERR_ARG(5),
          "distance scale");
    CHECK(pe_distance(out, 2, 0, 1, 1, 2) == PE_ERR_ARG(6), "distance mode");
    CHECK(pe_shaw(out, 3, 1) == PE_OK && out[1] == 2.0f && out[3] == 0.0f, "still works");
}

// Each profile holds exactly the table's distinct entries: profile[r + n − 1] = table[0][r] for
// r ≥ 0 and table[n − 1][n − 1 + r] for r ≤ 0, bit for bit, at every length up to 70 and at the
// largest; and it refuses what the table refuses.
static int same_bits(float a, float b) { return memcmp(&a, &b, sizeof a) == 0; }

static int profile_matches(const float *table, const float *profile, int32_t n) {
    for (int32_t r = -(n - 1); r < n; r++) {
        const float t = r >= 0 ? table[r] : table[(size_t)(n - 1) * (size_t)n + (size_t)(n - 1 + r)];
        if (!same_bits(t, profile[r + n - 1])) return 0;
    }
    return 1;
}

static void test_profiles(void) {
    static float table[8192 * 8];
    static float profile[2 * 8192 * 4];
    float slopes[4];
    float slopes2[4];
    const int32_t lengths[] = {1, 2, 3, 7, 16, 33, 70, 1024, 8192};
    for (size_t li = 0; li < sizeof lengths / sizeof lengths[0]; li++) {
        const int32_t n = lengths[li];
        float *big = n * n > 8192 * 8 ? malloc(sizeof(float) * (size_t)n * (size_t)n * 4) : table;
        CHECK(pe_t5(big, n, 32, 128, 1) == PE_OK && pe_t5_profile(profile, n, 32, 128, 1) == PE_OK &&
                  profile_matches(big, profile, n),
              "t5 profile, n = %d", n);
        CHECK(pe_t5(big, n, 18, 128, 0) == PE_OK && pe_t5_profile(profile, n, 18, 128, 0) == PE_OK &&
                  profile_matches(big, profile, n),
              "t5 unidirectional profile, n = %d", n);
        CHECK(pe_shaw(big, n, 5) == PE_OK && pe_shaw_profile(profile, n, 5) == PE_OK &&
                  profile_matches(big, profile, n),
              "shaw profile, n = %d", n);
        for (int32_t f = PE_DIST_LINEAR; f <= PE_DIST_EXPONENTIAL; f++) {
            for (int32_t mode = 0; mode <= 1; mode++) {
                CHECK(pe_distance(big, n, f, 2.5, 3.0, mode) == PE_OK &&
                          pe_distance_profile(profile, n, f, 2.5, 3.0, mode) == PE_OK &&
                          profile_matches(big, profile, n),
                      "distance profile, n = %d, function %d, mode %d", n, f, mode);
            }
        }
        if ((int64_t)n * n * 3 <= PE_MAX_ELEMENTS) {
            for (int32_t mode = 0; mode <= 1; mode++) {
                int ok = pe_alibi(big, slopes, n, 3, mode) == PE_OK &&
                         pe_alibi_profile(profile, slopes2, n, 3, mode) == PE_OK;
                for (int32_t h = 0; ok && h < 3; h++) {
                    ok = same_bits(slopes[h], slopes2[h]) &&
                         profile_matches(big + (size_t)h * (size_t)n * (size_t)n,
                                         profile + (size_t)h * (size_t)(2 * n - 1), n);
                }
                CHECK(ok, "alibi profile, n = %d, mode %d", n, mode);
            }
        }
        if (big != table) free(big);
    }
    CHECK(pe_t5_profile(NULL, 4, 32, 128, 1) == PE_ERR_ARG(1) &&
              pe_t5_profile(profile, 0, 32, 128, 1) == PE_ERR_ARG(2) &&
              pe_t5_profile(profile, 4, 32, 8, 1) == PE_ERR_ARG(4),
          "t5 profile refuses");
    CHECK(pe_shaw_profile(profile, 8193, 1) == PE_ERR_ARG(2) && pe_shaw_profile(profile, 4, -1) == PE_ERR_ARG(3),
          "shaw profile refuses");
    CHECK(pe_distance_profile(profile, 4, 0, NAN, 1, 0) == PE_ERR_ARG(4) &&
              pe_distance_profile(profile, 4, 0, 1, 1, 7) == PE_ERR_ARG(6),
          "distance profile refuses");
    CHECK(pe_alibi_profile(profile, NULL, 4, 2, 0) == PE_ERR_ARG(2) &&
              pe_alibi_profile(profile, slopes, 4, 0, 0) == PE_ERR_ARG(4),
          "alibi profile refuses");
}

int main(void) {
    printf("relative kinds (%s)\n", pe_simd_enabled() ? "SIMD via SIMDe" : "scalar");
    test_profiles();
    test_toeplitz_simd_matches_scalar();
    test_t5_table_matches_buckets();
    test_t5_pinned();
    test_t5_invariants();
    test_alibi_slopes();
    test_alibi_table();
    test_shaw_distance_tables();
    test_bad_arguments();
    return test_summary("native relative");
}

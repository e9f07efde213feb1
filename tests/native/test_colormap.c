// Native tests of the colour maps (c/colormap.c), built with gcc + SIMDe under ASan/UBSan (run.sh).
//   1. SIMD vs scalar reference, bit for bit, at every count 0..67 (every tail of the 4-wide
//      loop), with NaN and ±Infinity in every lane position, default and custom special colours.
//   2. The mapping itself: ends, clamping, monotonicity, the table's known entries, specials.
//   3. Every bad argument returns its status code.
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "colormap.h"
#include "pe.h"
#include "test_util.h"

static uint32_t rng_state = 12345u;
static float rnd(float lo, float hi) { return xorshift_uniform(&rng_state, lo, hi); }

static const uint8_t *entry(int map, int k) { return pe_colormap_table(map) + 4 * k; }

static void test_simd_matches_scalar(void) {
    enum { MAX_N = 67 };
    static float values[MAX_N];
    static uint8_t ref[4 * MAX_N + 8], simd[4 * MAX_N + 8];
    const uint8_t custom[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    const float ranges[][2] = {{-1.0f, 1.0f},        {0.0f, 1.0f},       {-7.5f, 1e-3f},
                               {1e6f, 1e6f + 64.0f}, {-3e38f, -2.9e38f}, {0.1f, 0.1000001f}};
    int mismatches = 0;
    for (int map = 0; map < PE_COLORMAP_COUNT; map++)
        for (size_t r = 0; r < sizeof ranges / sizeof ranges[0]; r++)
            for (int n = 0; n <= MAX_N; n++)
                for (int special_kind = 0; special_kind < 4; special_kind++) {
                    float vmin = ranges[r][0], vmax = ranges[r][1], span = vmax - vmin;
                    for (int i = 0; i < n; i++) {
                        // Mostly inside [vmin, vmax], some outside, exact ends, non-finite sprinkled
                        // at every lane position (special_kind picks which one).
                        values[i] = rnd(vmin - 0.25f * span, vmax + 0.25f * span);
                        if (i % 7 == 3) values[i] = vmin;
                        if (i % 11 == 5) values[i] = vmax;
                        if (special_kind && i % 4 == (n + special_kind) % 4 && i % 3 == 0)
                            values[i] = special_kind == 1 ? NAN : special_kind == 2 ? -INFINITY : INFINITY;
                    }
                    const uint8_t *special = special_kind == 3 ? custom : pe_colormap_default_special(map);
                    memset(ref, 0xAB, sizeof ref);
                    memset(simd, 0xAB, sizeof simd);
                    pe_colorize_scalar(ref, values, n, map, vmin, vmax, special);
                    pe_colorize_simd(simd, values, n, map, vmin, vmax, special);
                    if (memcmp(ref, simd, sizeof ref) != 0) mismatches++;
                }
    CHECK(mismatches == 0, "SIMD and scalar differ in %d cases", mismatches);

    // A large buffer through the public entry point against the scalar reference.
    enum { BIG = 100003 };
    float *big = malloc(BIG * sizeof *big);
    uint8_t *a = malloc(4 * BIG), *b = malloc(4 * BIG);
    for (int i = 0; i < BIG; i++) big[i] = i % 1000 == 0 ? -INFINITY : sinf(0.001f * (float)i);
    CHECK(pe_colorize(a, big, BIG, PE_COLORMAP_DIVERGING, -1.0f, 1.0f, NULL) == PE_OK, "big colorize");
    pe_colorize_scalar(b, big, BIG, PE_COLORMAP_DIVERGING, -1.0f, 1.0f,
                       pe_colormap_default_special(PE_COLORMAP_DIVERGING));
    CHECK(memcmp(a, b, 4 * BIG) == 0, "pe_colorize differs from the scalar reference on %d values", BIG);
    free(big);
    free(a);
    free(b);
}

static void test_mapping(void) {
    uint8_t px[4 * 16];
    // Table ends from matplotlib: viridis #440154 … #fde725, cividis #00224e … #fee838, RdBu_r
    // #053061 … #67001f.
    CHECK(!memcmp(entry(PE_COLORMAP_VIRIDIS, 0), (uint8_t[]){68, 1, 84, 255}, 4), "viridis low end");
    CHECK(!memcmp(entry(PE_COLORMAP_VIRIDIS, 255), (uint8_t[]){253, 231, 37, 255}, 4), "viridis high end");
    CHECK(!memcmp(entry(PE_COLORMAP_CIVIDIS, 0), (uint8_t[]){0, 34, 78, 255}, 4), "cividis low end");
    CHECK(!memcmp(entry(PE_COLORMAP_CIVIDIS, 255), (uint8_t[]){254, 232, 56, 255}, 4), "cividis high end");
    CHECK(!memcmp(entry(PE_COLORMAP_DIVERGING, 0), (uint8_t[]){5, 48, 97, 255}, 4), "diverging low end");
    CHECK(!memcmp(entry(PE_COLORMAP_DIVERGING, 255), (uint8_t[]){103, 0, 31, 255}, 4), "diverging high end");
    // The diverging middle is near white, and its two halves mirror blue and red.
    const uint8_t *mid = entry(PE_COLORMAP_DIVERGING, 128);
    CHECK(mid[0] > 235 && mid[1] > 235 && mid[2] > 235, "diverging middle is near white (%d %d %d)", mid[0], mid[1],
          mid[2]);
    CHECK(entry(PE_COLORMAP_DIVERGING, 40)[2] > entry(PE_COLORMAP_DIVERGING, 40)[0], "diverging low half is blue");
    CHECK(entry(PE_COLORMAP_DIVERGING, 215)[0] > entry(PE_COLORMAP_DIVERGING, 215)[2], "diverging high half is red");
    // Every table entry is opaque.
    for (int map = 0; map < PE_COLORMAP_COUNT; map++)
        for (int k = 0; k < 256; k++) CHECK(entry(map, k)[3] == 255, "map %d entry %d opaque", map, k);

    // vmin → entry 0, vmax → entry 255, below and above clamp, the middle → entry 128.
    const float v[] = {0.0f, 1.0f, -5.0f, 5.0f, 0.5f, 0.4999f, 1.0f / 256.0f, 0.99999f};
    const int k[] = {0, 255, 0, 255, 128, 127, 1, 255};
    CHECK(pe_colorize(px, v, 8, PE_COLORMAP_VIRIDIS, 0.0f, 1.0f, NULL) == PE_OK, "colorize ok");
    for (int i = 0; i < 8; i++)
        CHECK(!memcmp(px + 4 * i, entry(PE_COLORMAP_VIRIDIS, k[i]), 4), "value %g → entry %d", v[i], k[i]);

    // Monotone: increasing values never step back in the table (checked through the index each
    // pixel matches; viridis entries are distinct).
    int last = -1, monotone = 1;
    for (int i = 0; i <= 4096; i++) {
        float x = -1.0f + 2.0f * (float)i / 4096.0f;
        pe_colorize(px, &x, 1, PE_COLORMAP_VIRIDIS, -1.0f, 1.0f, NULL);
        int idx = -1;
        for (int j = 0; j < 256; j++)
            if (!memcmp(px, entry(PE_COLORMAP_VIRIDIS, j), 4)) {
                idx = j;
                break;
            }
        if (idx < last) monotone = 0;
        last = idx;
    }
    CHECK(monotone && last == 255, "monotone over [vmin, vmax] and ends at 255");

    // Non-finite values: defaults, and custom colours.
    const float special_values[] = {NAN, -INFINITY, INFINITY, 0.0f};
    for (int map = 0; map < PE_COLORMAP_COUNT; map++) {
        const uint8_t *d = pe_colormap_default_special(map);
        pe_colorize(px, special_values, 4, map, -1.0f, 1.0f, NULL);
        CHECK(!memcmp(px, d, 12), "map %d default specials", map);
        CHECK(px[4 + 3] == 0, "−Infinity is transparent by default");
        CHECK(!memcmp(px + 12, entry(map, 128), 4), "0 in [−1, 1] is the middle entry");
    }
    const uint8_t custom[12] = {10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120};
    pe_colorize(px, special_values, 4, PE_COLORMAP_CIVIDIS, -1.0f, 1.0f, custom);
    CHECK(!memcmp(px, custom, 12), "custom special colours");

    // count 0 writes nothing and accepts values == NULL.
    memset(px, 7, sizeof px);
    // Regression (tests/fuzz): count 0 with values NULL once did NULL + 0 inside the kernels (UB
    // that clang's UBSan reports, gcc's does not); now it returns before touching either pointer.
    CHECK(pe_colorize(px, NULL, 0, PE_COLORMAP_VIRIDIS, 0.0f, 1.0f, NULL) == PE_OK, "count 0");
    CHECK(px[0] == 7, "count 0 writes nothing");
    CHECK(pe_colorize(px, NULL, 0, PE_COLORMAP_DIVERGING, -1.0f, 1.0f, px + 4) == PE_OK,
          "count 0, own special colours");
    CHECK(pe_colorize(px, NULL, 0, PE_COLORMAP_COUNT, 0.0f, 1.0f, NULL) == PE_ERR_ARG(4),
          "count 0 still checks the map");
    CHECK(px[0] == 7, "count 0 writes nothing");
}

static void test_bad_arguments(void) {
    uint8_t px[16];
    float v[4] = {0};
    CHECK(pe_colorize(NULL, v, 4, 0, 0.0f, 1.0f, NULL) == PE_ERR_ARG(1), "out NULL");
    CHECK(pe_colorize(px, NULL, 4, 0, 0.0f, 1.0f, NULL) == PE_ERR_ARG(2), "values NULL");
    CHECK(pe_colorize(px, v, -1, 0, 0.0f, 1.0f, NULL) == PE_ERR_ARG(3), "count < 0");
    CHECK(pe_colorize(px, v, PE_MAX_ELEMENTS + 1, 0, 0.0f, 1.0f, NULL) == PE_ERR_ARG(3), "count too large");
    CHECK(pe_colorize(px, v, 4, -1, 0.0f, 1.0f, NULL) == PE_ERR_ARG(4), "map -1");
    CHECK(pe_colorize(px, v, 4, PE_COLORMAP_COUNT, 0.0f, 1.0f, NULL) == PE_ERR_ARG(4), "map too large");
    CHECK(pe_colorize(px, v, 4, 0, NAN, 1.0f, NULL) == PE_ERR_ARG(5), "vmin NaN");
    CHECK(pe_colorize(px, v, 4, 0, -INFINITY, 1.0f, NULL) == PE_ERR_ARG(5), "vmin -Inf");
    CHECK(pe_colorize(px, v, 4, 0, 0.0f, INFINITY, NULL) == PE_ERR_ARG(6), "vmax Inf");
    CHECK(pe_colorize(px, v, 4, 0, 0.0f, NAN, NULL) == PE_ERR_ARG(6), "vmax NaN");
    CHECK(pe_colorize(px, v, 4, 0, 1.0f, 1.0f, NULL) == PE_ERR_ARG(6), "vmax == vmin");
    CHECK(pe_colorize(px, v, 4, 0, 1.0f, 0.0f, NULL) == PE_ERR_ARG(6), "vmax < vmin");
    CHECK(pe_colorize(px, v, 4, 0, -3e38f, 3e38f, NULL) == PE_ERR_ARG(6), "vmax − vmin overflows");
    CHECK(pe_colorize(px, v, 4, 0, 0.0f, 1e-44f, NULL) == PE_ERR_ARG(6), "256 / (vmax − vmin) overflows");
    CHECK(pe_colormap_table(3) == NULL && pe_colormap_table(-1) == NULL, "unknown table");
}

int main(void) {
    test_simd_matches_scalar();
    test_mapping();
    test_bad_arguments();
    return test_summary("native colormap");
}

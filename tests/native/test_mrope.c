// Native tests of the M-RoPE kernel: a known sequence, and every bad argument.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pe.h"
#include "test_util.h"

static void test_known_ids(void) {
    // text 2, image t=2 h=4 w=2 (merge 2 → 2 × 2 × 1 = 4 tokens), text 1
    const int32_t segments[] = {PE_SEG_TEXT, 2, 0, 0, PE_SEG_IMAGE, 2, 4, 2, PE_SEG_TEXT, 1, 0, 0};
    const double seconds[] = {1, 1, 1};
    const int32_t section[] = {1, 1, 2};
    float ids[3 * 7], angles[7 * 4];
    CHECK(pe_mrope(ids, angles, segments, seconds, 3, 7, 8, 10000.0, section, 2, 0.0) == PE_OK, "ok");
    const float t[] = {0, 1, 2, 2, 3, 3, 4}, h[] = {0, 1, 2, 3, 2, 3, 4}, w[] = {0, 1, 2, 2, 2, 2, 4};
    CHECK(memcmp(ids, t, sizeof t) == 0, "t ids");
    CHECK(memcmp(ids + 7, h, sizeof h) == 0, "h ids");
    CHECK(memcmp(ids + 14, w, sizeof w) == 0, "w ids");
    // token 5 (t 3, h 3, w 2): frequency 0 uses t, 1 uses h, 2 and 3 use w
    CHECK(angles[5 * 4 + 0] == 3.0f, "angle of frequency 0 is t · 1");
    CHECK(fabs(angles[5 * 4 + 1] - 3.0 * pow(10000.0, -0.25)) < 1e-6, "frequency 1 uses h");
    CHECK(fabs(angles[5 * 4 + 3] - 2.0 * pow(10000.0, -0.75)) < 1e-6, "frequency 3 uses w");
    // NULL angles: ids only
    CHECK(pe_mrope(ids, NULL, segments, seconds, 3, 7, 8, 10000.0, section, 2, 0.0) == PE_OK, "ids only");
}

static void test_bad_arguments(void) {
    const int32_t text[] = {PE_SEG_TEXT, 4, 0, 0};
    const int32_t odd_image[] = {PE_SEG_IMAGE, 1, 3, 4};
    const int32_t bad_type[] = {7, 1, 2, 2};
    const int32_t video[] = {PE_SEG_VIDEO, 2, 2, 2};
    const double one[] = {1}, zero[] = {0}, nan_s[] = {NAN};
    const int32_t section[] = {1, 1, 2}, bad_section[] = {1, 1, 1}, negative[] = {-1, 3, 2};
    float ids[64], angles[64];
    CHECK(pe_mrope(NULL, angles, text, one, 1, 4, 8, 1e4, section, 2, 0) == PE_ERR_ARG(1), "NULL ids");
    CHECK(pe_mrope(ids, angles, NULL, one, 1, 4, 8, 1e4, section, 2, 0) == PE_ERR_ARG(3), "NULL segments");
    CHECK(pe_mrope(ids, angles, text, NULL, 1, 4, 8, 1e4, section, 2, 0) == PE_ERR_ARG(4), "NULL seconds");
    CHECK(pe_mrope(ids, angles, text, one, 0, 4, 8, 1e4, section, 2, 0) == PE_ERR_ARG(5), "count 0");
    CHECK(pe_mrope(ids, angles, text, one, 1, 5, 8, 1e4, section, 2, 0) == PE_ERR_ARG(6), "n disagrees");
    CHECK(pe_mrope(ids, angles, text, one, 1, 4, 7, 1e4, section, 2, 0) == PE_ERR_ARG(7), "odd dim");
    CHECK(pe_mrope(ids, angles, text, one, 1, 4, 8, 1.0, section, 2, 0) == PE_ERR_ARG(8), "base 1");
    CHECK(pe_mrope(ids, angles, text, one, 1, 4, 8, 1e4, bad_section, 2, 0) == PE_ERR_ARG(9), "section sum");
    CHECK(pe_mrope(ids, angles, text, one, 1, 4, 8, 1e4, negative, 2, 0) == PE_ERR_ARG(9), "section < 0");
    CHECK(pe_mrope(ids, angles, text, one, 1, 4, 8, 1e4, NULL, 2, 0) == PE_ERR_ARG(9), "NULL section");
    CHECK(pe_mrope(ids, angles, text, one, 1, 4, 8, 1e4, section, 0, 0) == PE_ERR_ARG(10), "merge 0");
    CHECK(pe_mrope(ids, angles, text, one, 1, 4, 8, 1e4, section, 2, NAN) == PE_ERR_ARG(11), "tps NaN");
    CHECK(pe_mrope(ids, angles, odd_image, one, 1, 2, 8, 1e4, section, 2, 0) == PE_ERR_ARG(3), "h %% merge");
    CHECK(pe_mrope(ids, angles, bad_type, one, 1, 1, 8, 1e4, section, 2, 0) == PE_ERR_ARG(3), "segment type");
    CHECK(pe_mrope(ids, angles, video, zero, 1, 2, 8, 1e4, section, 2, 2) == PE_ERR_ARG(3), "seconds 0");
    CHECK(pe_mrope(ids, angles, video, nan_s, 1, 2, 8, 1e4, section, 2, 2) == PE_ERR_ARG(3), "seconds NaN");
    // Regression (tests/fuzz): Qwen2.5-VL time ids are float32 products, and a tokens_per_second
    // or second_per_grid_t past FLT_MAX made the id of frame 0 0 · ∞ = NaN, accepted as PE_OK.
    const int32_t one_frame[] = {PE_SEG_VIDEO, 1, 2, 2};
    const double two[] = {2.0}, past_float[] = {1e39};
    CHECK(pe_mrope(ids, angles, one_frame, two, 1, 1, 8, 1e4, section, 2, 1e113) == PE_ERR_ARG(11), "tps 1e113");
    CHECK(pe_mrope(ids, angles, one_frame, two, 1, 1, 8, 1e4, section, 2, 3.5e38) == PE_ERR_ARG(11),
          "tps past FLT_MAX");
    CHECK(pe_mrope(ids, angles, one_frame, two, 1, 1, 8, 1e4, section, 2, INFINITY) == PE_ERR_ARG(11), "tps +Inf");
    CHECK(pe_mrope(ids, angles, one_frame, past_float, 1, 1, 8, 1e4, section, 2, 2.0) == PE_ERR_ARG(3), "seconds 1e39");
    CHECK(pe_mrope(ids, angles, one_frame, two, 1, 1, 8, 1e4, section, 2, 3.4e38) == PE_OK && ids[0] == 0.0f &&
              ids[1] == 0.0f && ids[2] == 0.0f,
          "tps 3.4e38: frame 0 has time id 0");
    CHECK(pe_mrope(ids, angles, one_frame, past_float, 1, 1, 8, 1e4, section, 2, -INFINITY) == PE_ERR_ARG(3) &&
              pe_mrope(ids, angles, one_frame, two, 1, 1, 8, 1e4, section, 2, -INFINITY) == PE_OK,
          "tps -Inf: Qwen2-VL ids");
    const int32_t huge[] = {PE_SEG_IMAGE, 4096, 4096, 4096};
    CHECK(pe_mrope(ids, angles, huge, one, 1, 1, 8, 1e4, section, 1, 0) == PE_ERR_TOO_LARGE, "too many tokens");
}

// The transformers conventions: 0.5 s per frame at 2 tokens/s, and text after the video.
static void test_conventions(void) {
    // text 1, video t=4 h=2 w=4 (merge 2 → 4 frames of 1 × 2), text 2: n = 1 + 8 + 2
    const int32_t segments[] = {PE_SEG_TEXT, 1, 0, 0, PE_SEG_VIDEO, 4, 2, 4, PE_SEG_TEXT, 2, 0, 0};
    const double seconds[] = {1, 0.5, 1};
    const int32_t section[] = {1, 1, 2};
    float ids[3 * 11];
    // pe_mrope_versioned on this input at `tps` tokens/s; IDS_ARE: its first 11 ids are `want`
#define VERSIONED(tps, convention) \
    pe_mrope_versioned(ids, NULL, segments, seconds, 3, 11, 8, 1e4, section, 2, tps, convention)
#define IDS_ARE(want) (memcmp(ids, want, sizeof want) == 0)
    // 4.49–4.51: time f · 0.5 · 2 = f; text after resumes at max (1 + 3) + 1
    const float t449[] = {0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 6};
    CHECK(VERSIONED(2.0, PE_MROPE_4_49) == PE_OK && IDS_ARE(t449), "4.49: fractional seconds kept");
    CHECK(pe_mrope(ids, NULL, segments, seconds, 3, 11, 8, 1e4, section, 2, 2.0) == PE_OK && IDS_ARE(t449),
          "pe_mrope is 4.49");
    // 4.52: 0.5 truncated to 0: every frame at 1; the block's largest id is w = 2, so text at 3
    const float t452[] = {0, 1, 1, 1, 1, 1, 1, 1, 1, 3, 4};
    CHECK(VERSIONED(2.0, PE_MROPE_4_52) == PE_OK && IDS_ARE(t452), "4.52: seconds truncated first");
    // 5.x: time ids as 4.52; text at 1 + max(1, 2) = 3 (here the same as 4.52)
    CHECK(VERSIONED(2.0, PE_MROPE_5_X) == PE_OK && IDS_ARE(t452), "5.x at 0.5 s");
    // Qwen2-VL ids (no tokens_per_second): 4.x resume after frame 3 (id 4), 5.x at 1 + 2 = 3
    const float t4x[] = {0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 6}, t5x[] = {0, 1, 1, 2, 2, 3, 3, 4, 4, 3, 4};
    CHECK(VERSIONED(0.0, PE_MROPE_4_52) == PE_OK && IDS_ARE(t4x), "4.52 Qwen2-VL frames");
    CHECK(VERSIONED(0.0, PE_MROPE_5_X) == PE_OK && IDS_ARE(t5x), "5.x ignores t when text resumes");
    CHECK(VERSIONED(2.0, 3) == PE_ERR_ARG(12), "convention 3");
    CHECK(VERSIONED(2.0, -1) == PE_ERR_ARG(12), "convention -1");
#undef VERSIONED
#undef IDS_ARE
}

int main(void) {
    printf("mrope\n");
    test_known_ids();
    test_bad_arguments();
    test_conventions();
    return test_summary("native mrope");
}

// Native tests of the .npy / .safetensors readers (c/matrix.c, c/npy.c, c/safetensors.c), gcc +
// SIMDe under ASan/UBSan (run.sh). Every input is copied into a heap block of exactly its size, so
// AddressSanitizer reports any read past the end.
//   1. Valid files of every supported version, dtype, byte order and order.
//   2. Every truncation of valid files, the header read in two steps (PE_MATRIX_NEED_MORE).
//   3. Seeded random corruption of valid files: a status and a message, never a bad read.
//   4. float16/bfloat16 conversion of every bit pattern; SIMD vs scalar conversion at every tail.
//   5. Bad arguments, tiny message buffers, the names listing.
//   6. Repeated tensor names and overlapping data_offsets, refused wherever they lie.
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matrix.h"
#include "pe.h"
#include "test_util.h"

enum { MSG = 256 };

typedef struct {
    uint8_t bytes[8192];
    size_t size;
} file_t;

static void put(file_t *f, const void *data, size_t n) {
    memcpy(f->bytes + f->size, data, n);
    f->size += n;
}

// A .npy file: magic, version, header length (2 or 4 bytes), dict padded with spaces + '\n', data.
static void make_npy(file_t *f, int version, const char *dict, const void *data, size_t data_bytes) {
    f->size = 0;
    const uint8_t magic[8] = {0x93, 'N', 'U', 'M', 'P', 'Y', (uint8_t)version, 0};
    put(f, magic, 8);
    size_t pre = version == 1 ? 10 : 12, n = strlen(dict);
    size_t total = n + 1 + (64 - (pre + n + 1) % 64) % 64;
    uint8_t len[4] = {(uint8_t)total, (uint8_t)(total >> 8), (uint8_t)(total >> 16), (uint8_t)(total >> 24)};
    put(f, len, version == 1 ? 2 : 4);
    put(f, dict, n);
    while (f->size < pre + total - 1) put(f, " ", 1);
    put(f, "\n", 1);
    put(f, data, data_bytes);
}

static void make_safetensors(file_t *f, const char *header, const void *data, size_t data_bytes) {
    f->size = 0;
    uint64_t n = strlen(header);
    uint8_t len[8];
    for (int k = 0; k < 8; k++) len[k] = (uint8_t)(n >> (8 * k));
    put(f, len, 8);
    put(f, header, n);
    put(f, data, data_bytes);
}

// pe_matrix_load on an exact-size heap copy of bytes[0 .. n).
static pe_status load(const uint8_t *bytes, size_t n, const char *name, float *out, size_t capacity, double *info,
                      char *message) {
    uint8_t *copy = malloc(n > 0 ? n : 1);
    memcpy(copy, bytes, n);
    pe_status status = pe_matrix_load(out, capacity, info, message, MSG, copy, n, (const uint8_t *)name,
                                      name != NULL ? (int32_t)strlen(name) : -1);
    free(copy);
    return status;
}

static void test_valid_files(void) {
    static float out[64];
    double info[PE_MI_COUNT];
    char message[MSG];
    file_t f;
    const float values[6] = {1.5f, -2.0f, 3.25f, 0.0f, 1e-3f, 65504.0f};
    for (int version = 1; version <= 3; version++) {
        make_npy(&f, version, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", values, sizeof values);
        pe_status st = load(f.bytes, f.size, NULL, out, 64, info, message);
        CHECK(st == PE_OK, "npy v%d f32 loads (%s)", version, message);
        CHECK(info[PE_MI_ROWS] == 2 && info[PE_MI_COLS] == 3 && info[PE_MI_VERSION] == version &&
                  info[PE_MI_FORMAT] == PE_MATRIX_NPY && info[PE_MI_DTYPE] == PE_DTYPE_F32,
              "npy v%d info", version);
        CHECK(memcmp(out, values, sizeof values) == 0, "npy v%d values", version);
    }
    // Fortran order, big-endian float64: file order is column by column.
    uint8_t be[48];
    const double col_major[6] = {1, 4, 2, 5, 3, 6};   // the matrix [[1, 2, 3], [4, 5, 6]]
    for (int k = 0; k < 6; k++) {
        uint64_t bits;
        memcpy(&bits, &col_major[k], 8);
        for (int b = 0; b < 8; b++) be[k * 8 + b] = (uint8_t)(bits >> (56 - 8 * b));
    }
    make_npy(&f, 2, "{'descr': '>f8', 'fortran_order': True, 'shape': (2, 3), }", be, sizeof be);
    CHECK(load(f.bytes, f.size, NULL, out, 64, info, message) == PE_OK, "npy >f8 Fortran loads (%s)", message);
    for (int k = 0; k < 6; k++) CHECK(out[k] == (float)(k + 1), "npy >f8 Fortran value %d", k);
    // Leading dimensions of 1 (timm saves a ViT's pos_embed as [1, 197, 768]): the matrix of the
    // last two, in C and in Fortran order; a leading dimension other than 1 is still refused.
    make_npy(&f, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1, 2, 3), }", values, sizeof values);
    CHECK(load(f.bytes, f.size, NULL, out, 64, info, message) == PE_OK, "npy (1, 1, 2, 3) loads (%s)", message);
    CHECK(info[PE_MI_ROWS] == 2 && info[PE_MI_COLS] == 3 && memcmp(out, values, sizeof values) == 0,
          "npy (1, 1, 2, 3) is 2 × 3");
    make_npy(&f, 2, "{'descr': '>f8', 'fortran_order': True, 'shape': (1, 2, 3), }", be, sizeof be);
    CHECK(load(f.bytes, f.size, NULL, out, 64, info, message) == PE_OK, "npy Fortran (1, 2, 3) loads (%s)", message);
    for (int k = 0; k < 6; k++) CHECK(out[k] == (float)(k + 1), "npy Fortran (1, 2, 3) value %d", k);
    make_npy(&f, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 1, 3), }", values, sizeof values);
    CHECK(
        load(f.bytes, f.size, NULL, out, 64, info, message) == PE_ERR_MATRIX &&
            strcmp(
                message,
                "the .npy array has shape (2, 1, 3) (3-D); a 2-D matrix is required (leading dimensions of 1 are dropped)") ==
                0,
        "npy (2, 1, 3) refused: %s", message);
    make_safetensors(&f, "{\"pos_embed\":{\"dtype\":\"F32\",\"shape\":[1,2,3],\"data_offsets\":[0,24]}}", values,
                     sizeof values);
    CHECK(load(f.bytes, f.size, NULL, out, 64, info, message) == PE_OK && info[PE_MI_ROWS] == 2 &&
              info[PE_MI_COLS] == 3 && memcmp(out, values, sizeof values) == 0,
          "safetensors [1, 2, 3] is 2 × 3 (%s)", message);
    // float16: 1.0, -2.0, 65504, smallest subnormal
    const uint16_t halves[4] = {0x3C00, 0xC000, 0x7BFF, 0x0001};
    make_npy(&f, 1, "{'descr': '<f2', 'fortran_order': False, 'shape': (4, 1), }", halves, sizeof halves);
    CHECK(load(f.bytes, f.size, NULL, out, 64, info, message) == PE_OK, "npy f2 loads");
    CHECK(out[0] == 1.0f && out[1] == -2.0f && out[2] == 65504.0f && out[3] == 0x1p-24f, "npy f2 values");
    // safetensors, two tensors plus metadata, picked by name
    const float st[5] = {1, 2, 3, 4, 5};
    make_safetensors(
        &f,
        "{\"__metadata__\":{\"format\":\"pt\"},\"a\":{\"dtype\":\"F32\",\"shape\":[1,2],\"data_offsets\":[0,8]},"
        "\"wpe.weight\":{\"dtype\":\"F32\",\"shape\":[3,1],\"data_offsets\":[8,20]}}  ",
        st, sizeof st);
    CHECK(load(f.bytes, f.size, "wpe.weight", out, 64, info, message) == PE_OK, "safetensors loads (%s)", message);
    CHECK(info[PE_MI_ROWS] == 3 && info[PE_MI_COLS] == 1 && info[PE_MI_TENSORS] == 2 && out[0] == 3 && out[2] == 5,
          "safetensors values");
    CHECK(load(f.bytes, f.size, NULL, out, 64, info, message) == PE_ERR_MATRIX &&
              info[PE_MI_ERROR_FIELD] == PE_MATRIX_ERROR_NAME && strstr(message, "holds 2 tensors") != NULL,
          "safetensors without a name: %s", message);
    CHECK(load(f.bytes, f.size, "wpe", out, 64, info, message) == PE_ERR_MATRIX &&
              info[PE_MI_ERROR_FIELD] == PE_MATRIX_ERROR_NAME &&
              strcmp(message, "no tensor named \"wpe\" in the file") == 0,
          "wrong name: %s", message);
    CHECK(load(f.bytes, f.size, "wpe.weight", out, 2, info, message) == PE_ERR_ARG(2), "capacity too small");
    // names
    char names[64];
    CHECK(pe_matrix_names(names, sizeof names, info, message, MSG, f.bytes, (int32_t)f.size, (double)f.size) == PE_OK &&
              info[PE_MI_TENSORS] == 2 && info[PE_MI_NAMES] == 2 && memcmp(names, "a\0wpe.weight\0", 13) == 0,
          "names listed");
    CHECK(pe_matrix_names(names, 5, info, message, MSG, f.bytes, (int32_t)f.size, (double)f.size) == PE_OK &&
              info[PE_MI_TENSORS] == 2 && info[PE_MI_NAMES] == 1,
          "names that do not fit are counted only");
}

static void test_every_truncation(void) {
    static float out[64];
    double info[PE_MI_COUNT];
    char message[MSG];
    file_t files[3];
    const float values[6] = {1, 2, 3, 4, 5, 6};
    make_npy(&files[0], 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 2), }", values, sizeof values);
    make_npy(&files[1], 3, "{'descr': '>f4', 'fortran_order': True, 'shape': (2, 3), }", values, sizeof values);
    make_safetensors(&files[2], "{\"x\":{\"dtype\":\"F32\",\"shape\":[2,3],\"data_offsets\":[0,24]}}", values,
                     sizeof values);
    for (int k = 0; k < 3; k++) {
        int bad = 0;
        for (size_t n = 0; n < files[k].size; n++) {
            pe_status st = load(files[k].bytes, n, NULL, out, 64, info, message);
            if (st != PE_ERR_MATRIX || strlen(message) < 10 || info[PE_MI_ERROR_FIELD] != PE_MATRIX_ERROR_FILE) bad++;
        }
        CHECK(bad == 0, "every truncation of file %d is refused with a message (%d not)", k, bad);
        CHECK(load(files[k].bytes, files[k].size, NULL, out, 64, info, message) == PE_OK, "the whole file %d loads", k);
        // Parsing from a prefix of the file: PE_MATRIX_NEED_MORE says how much, then it succeeds.
        for (int32_t prefix = 0; prefix < (int32_t)files[k].size; prefix++) {
            uint8_t *copy = malloc((size_t)prefix + 1);
            memcpy(copy, files[k].bytes, (size_t)prefix);
            pe_status st = pe_matrix_parse(info, message, MSG, copy, prefix, (double)files[k].size, NULL, -1);
            int32_t have = prefix;
            for (int round = 0; st == PE_MATRIX_NEED_MORE && round < 4; round++) {
                int32_t need = (int32_t)info[PE_MI_NEED];
                if (!(need > have && need <= (int32_t)files[k].size)) break;
                free(copy);
                copy = malloc((size_t)need);
                memcpy(copy, files[k].bytes, (size_t)need);
                have = need;
                st = pe_matrix_parse(info, message, MSG, copy, need, (double)files[k].size, NULL, -1);
            }
            if (st != PE_OK) bad++;
            free(copy);
        }
        CHECK(bad == 0, "parsing file %d from any prefix succeeds after the reads it asks for", k);
    }
}

// Random byte edits (and cuts) of valid files: every outcome is PE_OK with finite values, or
// PE_ERR_MATRIX with a message; AddressSanitizer checks every read.
static void test_random_corruption(void) {
    static float out[4096];
    double info[PE_MI_COUNT];
    char message[MSG];
    file_t seeds[4], f;
    const float values[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    make_npy(&seeds[0], 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }", values, sizeof values);
    make_npy(&seeds[1], 2, "{'descr': '<f8', 'fortran_order': True, 'shape': (2, 3), }", values, sizeof values);
    make_safetensors(
        &seeds[2],
        "{\"__metadata__\":{\"k\":\"v\\u00e9\"},\"w\":{\"dtype\":\"BF16\",\"shape\":[2,2],\"data_offsets\":[0,8]},"
        "\"b\":{\"dtype\":\"F16\",\"shape\":[4,5],\"data_offsets\":[8,48]}}",
        values, 48);
    make_safetensors(
        &seeds[3],
        "{\"s\":{\"dtype\":\"F64\",\"shape\":[3,2],\"data_offsets\":[0,48]},\"\\ud83d\\ude00\":{\"dtype\":\"I8\",\"shape\":[],\"data_offsets\":[48,49]}}",
        values, 48);
    uint32_t state = 2024u;
    int ok = 0, refused = 0, bad = 0;
    for (int t = 0; t < 40000; t++) {
        const file_t *s = &seeds[t % 4];
        memcpy(&f, s, sizeof f);
        state = state * 1664525u + 1013904223u;
        int edits = 1 + (int)(state >> 30);
        for (int e = 0; e < edits; e++) {
            state = state * 1664525u + 1013904223u;
            f.bytes[(state >> 8) % f.size] = (uint8_t)(state >> 24);
        }
        state = state * 1664525u + 1013904223u;
        size_t n = (state >> 28) < 2 ? (state >> 4) % f.size : f.size;
        const char *name = t % 4 == 2 ? "w" : NULL;
        pe_status st = load(f.bytes, n, name, out, 4096, info, message);
        if (st == PE_OK) {
            ok++;
            for (int k = 0; k < (int)(info[PE_MI_ROWS] * info[PE_MI_COLS]); k++)
                if (!isfinite(out[k])) bad++;
        } else if (st == PE_ERR_MATRIX && strlen(message) > 0) {
            refused++;
        } else {
            bad++;
        }
    }
    printf("  random corruption: %d loaded, %d refused\n", ok, refused);
    CHECK(bad == 0 && ok > 1000 && refused > 10000, "corrupted files load or are refused cleanly (%d bad)", bad);
}

static float half_reference(uint16_t h) {
    int e = (h >> 10) & 31, m = h & 1023;
    float v = e == 0 ? ldexpf((float)m, -24) : ldexpf(1.0f + m / 1024.0f, e - 15);
    return (h & 0x8000) ? -v : v;
}

static void test_half_and_bfloat(void) {
    static uint16_t all[65536];
    static float out[65536];
    double info[PE_MI_COUNT];
    char message[MSG];
    for (int k = 0; k < 65536; k++) all[k] = (uint16_t)k;
    int bad = 0, refused = 0;
    for (int k = 0; k < 65536; k++) {   // one at a time, so every non-finite pattern is refused
        pe_status st =
            pe_matrix_convert(out, info, message, MSG, (const uint8_t *)&all[k], 2, PE_DTYPE_F16, 0, 0, 1, 1);
        int finite = ((k >> 10) & 31) != 31;
        if (finite && (st != PE_OK || out[0] != half_reference((uint16_t)k) || !!signbit(out[0]) != !!(k & 0x8000)))
            bad++;
        if (!finite && st == PE_ERR_MATRIX) refused++;
    }
    CHECK(bad == 0 && refused == 2048,
          "float16: every finite pattern exact, every NaN/infinity refused (%d bad, %d refused)", bad, refused);
    bad = refused = 0;
    for (int k = 0; k < 65536; k++) {
        uint16_t bits = (uint16_t)k;
        pe_status st = pe_matrix_convert(out, info, message, MSG, (const uint8_t *)&bits, 2, PE_DTYPE_BF16, 0, 0, 1, 1);
        uint32_t want = (uint32_t)k << 16, got;
        memcpy(&got, &out[0], 4);
        int finite = ((k >> 7) & 255) != 255;
        if (finite && (st != PE_OK || got != want)) bad++;
        if (!finite && st == PE_ERR_MATRIX) refused++;
    }
    CHECK(bad == 0 && refused == 256, "bfloat16: every finite pattern exact, non-finite refused (%d bad, %d refused)",
          bad, refused);
}

static void test_convert_simd_matches_scalar(void) {
    enum { MAX_N = 70 };
    static float a[MAX_N], b[MAX_N];
    static double d[MAX_N];
    static float s[MAX_N];
    uint32_t state = 7u;
    for (int n = 0; n <= MAX_N; n++) {
        for (int k = 0; k < n; k++) {
            state = state * 1664525u + 1013904223u;
            d[k] = ldexp((double)state, (int)(state % 200) - 150) * ((state & 1) ? -1 : 1);
            s[k] = (float)d[k];
        }
        for (int poison = -1; poison < n; poison++) {   // −1: none; else one bad value at `poison`
            double dd[MAX_N];
            float ss[MAX_N];
            memcpy(dd, d, sizeof dd);
            memcpy(ss, s, sizeof ss);
            if (poison >= 0) {
                dd[poison] = poison % 3 == 0 ? NAN : poison % 3 == 1 ? 1e39 : -INFINITY;
                ss[poison] = poison % 2 ? NAN : INFINITY;
            }
            memset(a, 0, sizeof a);
            memset(b, 0, sizeof b);
            int64_t ra = pe_convert_f64le_scalar(a, (const uint8_t *)dd, n),
                    rb = pe_convert_f64le_simd(b, (const uint8_t *)dd, n);
            CHECK(ra == rb && ra == (poison < 0 ? n : poison) && memcmp(a, b, sizeof(float) * (size_t)ra) == 0,
                  "f64 simd == scalar (n=%d, poison=%d)", n, poison);
            ra = pe_convert_f32le_scalar(a, (const uint8_t *)ss, n);
            rb = pe_convert_f32le_simd(b, (const uint8_t *)ss, n);
            CHECK(ra == rb && ra == (poison < 0 ? n : poison) && memcmp(a, b, sizeof(float) * (size_t)ra) == 0,
                  "f32 simd == scalar (n=%d, poison=%d)", n, poison);
        }
    }
    // Unaligned input (offset by one byte), as a safetensors tensor may be.
    static uint8_t raw[8 * MAX_N + 1];
    memcpy(raw + 1, d, 8 * MAX_N);
    CHECK(pe_convert_f64le_simd(b, raw + 1, MAX_N) == MAX_N && pe_convert_f64le_scalar(a, raw + 1, MAX_N) == MAX_N &&
              memcmp(a, b, sizeof a) == 0,
          "unaligned f64 input");
    // The float32 range boundary: FLT_MAX and the largest double rounding to it pass; above, refused.
    const double edge[4] = {3.4028234663852886e38, 0x1.fffffefffffffp127, 0x1.ffffffp127, -0x1.ffffffp127};
    CHECK(pe_convert_f64le_simd(a, (const uint8_t *)edge, 4) == 2 && a[0] == a[1],
          "f64 at the float32 range edge (simd)");
    CHECK(pe_convert_f64le_scalar(a, (const uint8_t *)edge, 4) == 2, "f64 at the float32 range edge (scalar)");
}

static void test_bad_arguments_and_messages(void) {
    static float out[8];
    double info[PE_MI_COUNT];
    char message[MSG];
    const uint8_t bytes[16] = {0};
    CHECK(pe_matrix_parse(NULL, message, MSG, bytes, 16, 16, NULL, -1) == PE_ERR_ARG(1), "parse NULL info");
    CHECK(pe_matrix_parse(info, NULL, MSG, bytes, 16, 16, NULL, -1) == PE_ERR_ARG(2), "parse NULL message");
    CHECK(pe_matrix_parse(info, message, -1, bytes, 16, 16, NULL, -1) == PE_ERR_ARG(3), "parse cap < 0");
    CHECK(pe_matrix_parse(info, message, MSG, NULL, 16, 16, NULL, -1) == PE_ERR_ARG(4), "parse NULL bytes");
    CHECK(pe_matrix_parse(info, message, MSG, bytes, -1, 16, NULL, -1) == PE_ERR_ARG(5), "parse size < 0");
    CHECK(pe_matrix_parse(info, message, MSG, bytes, 16, 15, NULL, -1) == PE_ERR_ARG(6), "parse file_size < size");
    CHECK(pe_matrix_parse(info, message, MSG, bytes, 16, NAN, NULL, -1) == PE_ERR_ARG(6), "parse file_size NaN");
    CHECK(pe_matrix_parse(info, message, MSG, bytes, 16, 16.5, NULL, -1) == PE_ERR_ARG(6),
          "parse file_size fractional");
    CHECK(pe_matrix_parse(info, message, MSG, bytes, 16, 1e300, NULL, -1) == PE_ERR_ARG(6), "parse file_size huge");
    CHECK(pe_matrix_parse(info, message, MSG, bytes, 16, 16, NULL, 3) == PE_ERR_ARG(7), "parse NULL name");
    CHECK(pe_matrix_parse(info, message, MSG, bytes, 16, 16, NULL, -2) == PE_ERR_ARG(8), "parse name_len < -1");
    CHECK(pe_matrix_parse(info, NULL, 0, NULL, 0, 0, NULL, -1) == PE_ERR_MATRIX,
          "empty input, no message buffer: refused");
    CHECK(pe_matrix_convert(NULL, info, message, MSG, bytes, 16, 1, 0, 0, 2, 2) == PE_ERR_ARG(1), "convert NULL out");
    CHECK(pe_matrix_convert(out, NULL, message, MSG, bytes, 16, 1, 0, 0, 2, 2) == PE_ERR_ARG(2), "convert NULL info");
    CHECK(pe_matrix_convert(out, info, message, MSG, NULL, 16, 1, 0, 0, 2, 2) == PE_ERR_ARG(5), "convert NULL data");
    CHECK(pe_matrix_convert(out, info, message, MSG, bytes, 15, 1, 0, 0, 2, 2) == PE_ERR_ARG(6), "convert wrong size");
    CHECK(pe_matrix_convert(out, info, message, MSG, bytes, 16, 5, 0, 0, 2, 2) == PE_ERR_ARG(7), "convert dtype");
    CHECK(pe_matrix_convert(out, info, message, MSG, bytes, 16, 1, 2, 0, 2, 2) == PE_ERR_ARG(8), "convert big_endian");
    CHECK(pe_matrix_convert(out, info, message, MSG, bytes, 16, 1, 0, -1, 2, 2) == PE_ERR_ARG(9), "convert fortran");
    CHECK(pe_matrix_convert(out, info, message, MSG, bytes, 16, 1, 0, 0, 0, 2) == PE_ERR_ARG(10), "convert rows");
    CHECK(pe_matrix_convert(out, info, message, MSG, bytes, 16, 1, 0, 0, 2, -2) == PE_ERR_ARG(11), "convert cols");
    CHECK(pe_matrix_convert(out, info, message, MSG, bytes, 16, 1, 0, 0, 1 << 14, 1 << 14) == PE_ERR_TOO_LARGE,
          "convert too large");
    CHECK(pe_matrix_convert(out, info, message, MSG, bytes, 16, 1, 0, 0, 2, 2) == PE_OK && out[3] == 0.0f,
          "convert ok");
    // A message cut to a tiny buffer stays NUL-terminated and never splits a UTF-8 character.
    file_t f;
    make_safetensors(&f, "{\"\\u00e9\\u00e9\\u00e9\":{\"dtype\":\"I64\",\"shape\":[1,1],\"data_offsets\":[0,8]}}",
                     bytes, 8);
    for (int cap = 1; cap <= 24; cap++) {
        char small[24];
        memset(small, 'x', sizeof small);
        pe_status st = pe_matrix_parse(info, small, cap, f.bytes, (int32_t)f.size, (double)f.size, NULL, -1);
        size_t len = 0;
        while (len < sizeof small && small[len] != 0) len++;
        int whole = len == 0 || ((uint8_t)small[len - 1] & 0xC0) != 0xC0;   // not ending on a lead byte
        CHECK(st == PE_ERR_MATRIX && len < (size_t)cap && whole, "message in %d bytes: \"%s\"", cap, small);
    }
    CHECK(pe_matrix_parse(info, message, MSG, f.bytes, (int32_t)f.size, (double)f.size, NULL, -1) == PE_ERR_MATRIX &&
              strcmp(message, "tensor \"ééé\" has dtype I64; F32, F64, F16 or BF16 is required") == 0,
          "decoded name in message: %s", message);
    // Regression (tests/fuzz, fuzz_matrix): an unknown dtype is quoted to 16 bytes, cut before a
    // character rather than inside one (a 2-byte é at bytes 15-16 left a lone lead byte).
    make_safetensors(&f, "{\"t\":{\"dtype\":\"ABCDEFGHIJKLMNO\xC3\xA9\",\"shape\":[1,1],\"data_offsets\":[0,0]}}",
                     bytes, 0);
    CHECK(pe_matrix_parse(info, message, MSG, f.bytes, (int32_t)f.size, (double)f.size, NULL, -1) == PE_ERR_MATRIX &&
              strcmp(message, "tensor \"t\" has dtype ABCDEFGHIJKLMNO; F32, F64, F16 or BF16 is required") == 0,
          "dtype cut at a character: %s", message);
}

// --- distinct names, disjoint data_offsets (issue 14, item 8) ------------------------------------

// A .safetensors file with a header of any length, on the heap: *size bytes (buffer zero-filled).
static uint8_t *make_big_safetensors(const char *header, size_t buffer_bytes, size_t *size) {
    const size_t n = strlen(header);
    *size = 8 + n + buffer_bytes;
    uint8_t *f = calloc(*size, 1);
    for (int k = 0; k < 8; k++) f[k] = (uint8_t)((uint64_t)n >> (8 * k));
    memcpy(f + 8, header, n);
    return f;
}

// Parses (no name, then name), lists names: the three statuses and the parse message.
static pe_status parse_all(const uint8_t *f, size_t size, const char *name, char *message, pe_status *named,
                           pe_status *listed) {
    double info[PE_MI_COUNT];
    char other[MSG];
    static char names[1 << 16];
    pe_status st = pe_matrix_parse(info, message, MSG, f, (int32_t)size, (double)size, NULL, -1);
    *named =
        pe_matrix_parse(info, other, MSG, f, (int32_t)size, (double)size, (const uint8_t *)name, (int32_t)strlen(name));
    *listed = pe_matrix_names(names, sizeof names, info, other, MSG, f, (int32_t)size, (double)size);
    return st;
}

#define GAP_RULE                                                                                        \
    ": each tensor's data must begin where the previous one's ends (sorted by offset, the first at 0, " \
    "the last ending the file)"

static void test_distinct_and_disjoint(void) {
    char message[MSG];
    pe_status named, listed, st;
    size_t size;
    uint8_t *f;
    static const struct {
        const char *header;
        size_t buffer;
        const char *want;   // the message, or NULL: accepted (one of several tensors: a name error)
    } cases[] = {
        {"{\"a\":{\"dtype\":\"F32\",\"shape\":[1,1],\"data_offsets\":[0,4]},"
         "\"a\":{\"dtype\":\"F32\",\"shape\":[1,1],\"data_offsets\":[4,8]}}",
         8, "the tensor name \"a\" appears 2 times in the .safetensors header"},
        // Names are compared decoded: \u0061 is "a"; so are escaped UTF-8 names.
        {"{\"a\":{\"dtype\":\"F32\",\"shape\":[1,1],\"data_offsets\":[0,4]},"
         "\"\\u0061\":{\"dtype\":\"F32\",\"shape\":[1,1],\"data_offsets\":[4,8]}}",
         8, "the tensor name \"a\" appears 2 times in the .safetensors header"},
        {"{\"\xC3\xA9\":{\"dtype\":\"F32\",\"shape\":[1,1],\"data_offsets\":[0,4]},\"__metadata__\":{\"x\":\"y\"},"
         "\"\\u00e9\":{\"dtype\":\"F32\",\"shape\":[1,1],\"data_offsets\":[4,8]}}",
         8, "the tensor name \"\xC3\xA9\" appears 2 times in the .safetensors header"},
        // Counted over the whole header.
        {"{\"a\":{\"dtype\":\"F32\",\"shape\":[1,1],\"data_offsets\":[0,4]},"
         "\"b\":{\"dtype\":\"F32\",\"shape\":[1,1],\"data_offsets\":[4,8]},"
         "\"a\":{\"dtype\":\"F32\",\"shape\":[1,1],\"data_offsets\":[8,12]},"
         "\"a\":{\"dtype\":\"F32\",\"shape\":[1,1],\"data_offsets\":[12,16]}}",
         16, "the tensor name \"a\" appears 3 times in the .safetensors header"},
        // The same entry twice: named as a repeat, not as an overlap.
        {"{\"w\":{\"dtype\":\"F32\",\"shape\":[1,1],\"data_offsets\":[0,4]},"
         "\"w\":{\"dtype\":\"F32\",\"shape\":[1,1],\"data_offsets\":[0,4]}}",
         4, "the tensor name \"w\" appears 2 times in the .safetensors header"},
        {"{\"a\":{\"dtype\":\"F32\",\"shape\":[2,1],\"data_offsets\":[0,8]},"
         "\"b\":{\"dtype\":\"F32\",\"shape\":[2,1],\"data_offsets\":[4,12]}}",
         12, "tensor \"b\": data_offsets [4, 12] overlap those of tensor \"a\" [0, 8]"},
        // Listed in the other order: the later entry is named first all the same.
        {"{\"b\":{\"dtype\":\"F32\",\"shape\":[2,1],\"data_offsets\":[4,12]},"
         "\"a\":{\"dtype\":\"F32\",\"shape\":[2,1],\"data_offsets\":[0,8]}}",
         12, "tensor \"a\": data_offsets [0, 8] overlap those of tensor \"b\" [4, 12]"},
        // One range inside another; an empty range inside another.
        {"{\"a\":{\"dtype\":\"F32\",\"shape\":[4,1],\"data_offsets\":[0,16]},"
         "\"b\":{\"dtype\":\"F32\",\"shape\":[1,1],\"data_offsets\":[4,8]}}",
         16, "tensor \"b\": data_offsets [4, 8] overlap those of tensor \"a\" [0, 16]"},
        {"{\"a\":{\"dtype\":\"F32\",\"shape\":[4,1],\"data_offsets\":[0,16]},"
         "\"e\":{\"dtype\":\"F32\",\"shape\":[0,1],\"data_offsets\":[8,8]}}",
         16, "tensor \"e\": data_offsets [8, 8] overlap those of tensor \"a\" [0, 16]"},
        // Touching ranges, empty ranges at a boundary or at the same place: accepted.
        {"{\"a\":{\"dtype\":\"F32\",\"shape\":[1,1],\"data_offsets\":[0,4]},"
         "\"b\":{\"dtype\":\"F32\",\"shape\":[1,1],\"data_offsets\":[4,8]}}",
         8, NULL},
        {"{\"b\":{\"dtype\":\"F32\",\"shape\":[1,1],\"data_offsets\":[4,8]},\"e\":{\"dtype\":\"F32\",\"shape\":[0],"
         "\"data_offsets\":[4,4]},\"f\":{\"dtype\":\"F32\",\"shape\":[0],\"data_offsets\":[4,4]},"
         "\"a\":{\"dtype\":\"F32\",\"shape\":[1,1],\"data_offsets\":[0,4]}}",
         8, NULL},
        // Gaps: the tensors' data must follow one another (sorted by offset), the first at 0.
        {"{\"a\":{\"dtype\":\"F32\",\"shape\":[1,1],\"data_offsets\":[0,4]},"
         "\"b\":{\"dtype\":\"F32\",\"shape\":[1,1],\"data_offsets\":[8,12]}}",
         12, "tensor \"b\": data_offsets [8, 12] begin at 8, but the data before them ends at 4" GAP_RULE},
        {"{\"b\":{\"dtype\":\"F32\",\"shape\":[1,1],\"data_offsets\":[8,12]},"
         "\"a\":{\"dtype\":\"F32\",\"shape\":[1,1],\"data_offsets\":[0,4]}}",
         12, "tensor \"b\": data_offsets [8, 12] begin at 8, but the data before them ends at 4" GAP_RULE},
        {"{\"a\":{\"dtype\":\"U8\",\"shape\":[3],\"data_offsets\":[5,8]}}", 8,
         "tensor \"a\": data_offsets [5, 8] begin at 5, but the data before them ends at 0" GAP_RULE},
        // An empty tensor after the gap is named (it comes first in offset order); the first of two gaps.
        {"{\"a\":{\"dtype\":\"F32\",\"shape\":[1,1],\"data_offsets\":[0,4]},"
         "\"c\":{\"dtype\":\"U8\",\"shape\":[2],\"data_offsets\":[10,12]},"
         "\"b\":{\"dtype\":\"U8\",\"shape\":[3],\"data_offsets\":[6,9]},"
         "\"e\":{\"dtype\":\"F32\",\"shape\":[0],\"data_offsets\":[6,6]}}",
         12, "tensor \"e\": data_offsets [6, 6] begin at 6, but the data before them ends at 4" GAP_RULE},
        // Empty tensors cover nothing: a gap under them is still a gap.
        {"{\"a\":{\"dtype\":\"U8\",\"shape\":[2],\"data_offsets\":[0,2]},"
         "\"e\":{\"dtype\":\"U8\",\"shape\":[0],\"data_offsets\":[3,3]},"
         "\"f\":{\"dtype\":\"U8\",\"shape\":[0],\"data_offsets\":[3,3]},"
         "\"b\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[3,4]}}",
         4, "tensor \"e\": data_offsets [3, 3] begin at 3, but the data before them ends at 2" GAP_RULE},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        f = make_big_safetensors(cases[k].header, cases[k].buffer, &size);
        st = parse_all(f, size, cases[k].want != NULL ? "a" : "b", message, &named, &listed);
        if (cases[k].want != NULL) {
            CHECK(st == PE_ERR_MATRIX && strcmp(message, cases[k].want) == 0, "case %zu: %d \"%s\"", k, st, message);
            // Asked by name or listed: the same refusal, so no name is ever offered from such a file.
            CHECK(named == PE_ERR_MATRIX && listed == PE_ERR_MATRIX, "case %zu: by name %d, listing %d", k, named,
                  listed);
        } else {
            CHECK(st == PE_ERR_MATRIX && strstr(message, "pick one by name") != NULL && named == PE_OK &&
                      listed == PE_OK,
                  "case %zu accepted: %d \"%s\", by name %d, listing %d", k, st, message, named, listed);
        }
        free(f);
    }

    // Many tensors (more than one block of the check): each pair is found wherever it lies.
    enum { N = 2600 };
    char *header = malloc((size_t)N * 96 + 64);
    for (int trial = 0; trial < 6; trial++) {
        // trial 0: all distinct and tiled; 1–2: a repeated name; 3–5: an overlap (first/last, within
        // a block, across blocks).
        static const int pairs[6][2] = {{0, 0}, {3, 2599}, {1500, 2100}, {0, 2599}, {1030, 1031}, {17, 2048}};
        const int i = pairs[trial][0], j = pairs[trial][1];
        size_t len = (size_t)sprintf(header, "{");
        for (int k = 0; k < N; k++) {
            int id = (trial == 1 || trial == 2) && k == j ? i : k;
            uint64_t b = 4u * (uint64_t)k, e = b + 4;
            if (trial >= 3 && k == j) b = 4u * (uint64_t)i, e = b + 4;   // j takes i's bytes
            len += (size_t)sprintf(header + len,
                                   "%s\"layer.%d.w\":{\"dtype\":\"F32\",\"shape\":[1,1],\"data_offsets\":[%llu,%llu]}",
                                   k ? "," : "", id, (unsigned long long)b, (unsigned long long)e);
        }
        sprintf(header + len, "}");
        // An overlap leaves 4 bytes nowhere: the last tensor still ends the buffer unless it moved.
        const size_t buffer = trial >= 3 && j == N - 1 ? 4u * (N - 1) : 4u * N;
        f = make_big_safetensors(header, buffer, &size);
        st = parse_all(f, size, "layer.5.w", message, &named, &listed);
        char want[MSG];
        if (trial == 0) strcpy(want, "the file holds 2600 tensors: pick one by name");
        else if (trial <= 2)
            sprintf(want, "the tensor name \"layer.%d.w\" appears 2 times in the .safetensors header", i);
        else
            sprintf(want,
                    "tensor \"layer.%d.w\": data_offsets [%d, %d] overlap those of tensor \"layer.%d.w\" [%d, %d]", j,
                    4 * i, 4 * i + 4, i, 4 * i, 4 * i + 4);
        CHECK(st == PE_ERR_MATRIX && strcmp(message, want) == 0, "%d tensors, trial %d: \"%s\"", N, trial, message);
        CHECK((trial == 0) == (named == PE_OK && listed == PE_OK), "%d tensors, trial %d: by name %d, listing %d", N,
              trial, named, listed);
        free(f);
    }

    // A gap among many tensors (after the first block of the check, and in it): named wherever it lies.
    for (int trial = 0; trial < 2; trial++) {
        const int g = trial == 0 ? 1800 : 7;   // tensors g.. move 4 bytes up
        size_t len = (size_t)sprintf(header, "{");
        for (int k = N - 1; k >= 0; k--) {   // listed backwards
            uint64_t b = 4u * (uint64_t)k + (k >= g ? 4u : 0u);
            len += (size_t)sprintf(header + len,
                                   "%s\"layer.%d.w\":{\"dtype\":\"F32\",\"shape\":[1,1],\"data_offsets\":[%llu,%llu]}",
                                   k != N - 1 ? "," : "", k, (unsigned long long)b, (unsigned long long)(b + 4));
        }
        sprintf(header + len, "}");
        f = make_big_safetensors(header, 4u * N + 4u, &size);
        st = parse_all(f, size, "layer.5.w", message, &named, &listed);
        char want[MSG];
        sprintf(
            want,
            "tensor \"layer.%d.w\": data_offsets [%d, %d] begin at %d, but the data before them ends at %d" GAP_RULE, g,
            4 * g + 4, 4 * g + 8, 4 * g + 4, 4 * g);
        CHECK(st == PE_ERR_MATRIX && strcmp(message, want) == 0, "gap at %d of %d tensors: \"%s\"", g, N, message);
        CHECK(named == PE_ERR_MATRIX && listed == PE_ERR_MATRIX, "gap: by name %d, listing %d", named, listed);
        free(f);
    }
    free(header);

    // At most PE_SAFETENSORS_MAX_TENSORS tensors (the pairwise check stays bounded in time).
    const int over = PE_SAFETENSORS_MAX_TENSORS + 1;
    header = malloc((size_t)over * 64 + 16);
    size_t len = (size_t)sprintf(header, "{");
    for (int k = 0; k < over; k++)
        len += (size_t)sprintf(header + len, "%s\"%x\":{\"dtype\":\"U8\",\"shape\":[0],\"data_offsets\":[0,0]}",
                               k ? "," : "", k);
    sprintf(header + len, "}");
    f = make_big_safetensors(header, 0, &size);
    st = parse_all(f, size, "0", message, &named, &listed);
    CHECK(st == PE_ERR_MATRIX && strstr(message, "more than PE_SAFETENSORS_MAX_TENSORS = 32768 tensors") != NULL,
          "too many tensors: %d \"%s\"", st, message);
    free(f);
    free(header);
}

int main(void) {
    printf("matrix readers (%s)\n", pe_simd_enabled() ? "SIMD via SIMDe" : "scalar");
    test_valid_files();
    test_every_truncation();
    test_half_and_bfloat();
    test_convert_simd_matches_scalar();
    test_bad_arguments_and_messages();
    test_random_corruption();
    test_distinct_and_disjoint();
    return test_summary("native matrix");
}

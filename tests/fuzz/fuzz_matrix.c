// libFuzzer harness of the .npy / .safetensors readers (c/matrix.h): pe_matrix_parse,
// pe_matrix_names, pe_matrix_convert and pe_matrix_load on arbitrary bytes.
//
// Input: 4 control bytes, then the file.
//   c0  bit 3: also call pe_matrix_convert on the raw file bytes (dtype, order from the file's
//              first 4 bytes); bits 4..7: which listed tensor name to ask for
//   c1  bits 0..2: how the parse sees the file (whole; a prefix; a longer file_size than the
//              bytes; an invalid file_size; no bytes at all); bit 3: info NULL;
//              bits 4..7: capacity of the names listing
//   c2  a parameter of the c1 mode (prefix length, extra bytes, which invalid file_size)
//   c3  bits 0..3: message buffer (capacities 0 .. 1024, NULL, negative);
//       bits 4..7: the tensor name (none, a listed one, fixed odd names, NULL, bad lengths)
// Every buffer (the file, the message, info, names, outputs) is a heap block of exactly its
// size. Besides the sanitizers' own reports, the harness checks the documented invariants:
// statuses, data_begin <= data_end <= file_size, rows·cols·itemsize = data_end − data_begin,
// NUL-terminated UTF-8 messages, that reading the header in prefixes (PE_MATRIX_NEED_MORE)
// ends exactly where reading the whole file does, that every listed name can be asked for, and
// that converted values are finite and equal an independent decoding of the file's bytes, and
// that a listing never holds a name twice.
#include <stddef.h>

#include "fuzz_util.h"
#include "matrix.h"
#include "pe.h"

#define MAXE ((double)PE_MAX_ELEMENTS)

static uint64_t le_bytes(const uint8_t *p, int k) {
    uint64_t v = 0;
    for (int i = k - 1; i >= 0; i--) v = (v << 8) | p[i];
    return v;
}

// strnlen (not in C11): the length of s, at most cap bytes examined.
static size_t bounded_len(const char *s, size_t cap) {
    size_t n = 0;
    while (n < cap && s[n] != '\0') n++;
    return n;
}

static uint8_t *copy_exact(const uint8_t *p, size_t n) {
    uint8_t *q = malloc(n);   // ASan: a block of exactly n bytes (0 allowed)
    if (q == NULL && n > 0) abort();
    if (n > 0) memcpy(q, p, n);
    return q;
}

// Valid UTF-8 (no overlong forms, surrogates or code points past U+10FFFF).
static int utf8_valid(const uint8_t *s, size_t n) {
    size_t k = 0;
    while (k < n) {
        uint8_t b = s[k];
        int len;
        uint8_t lo = 0x80, hi = 0xBF;
        if (b < 0x80) {
            k++;
            continue;
        }
        if (b >= 0xC2 && b <= 0xDF) len = 2;
        else if (b >= 0xE0 && b <= 0xEF) {
            len = 3;
            if (b == 0xE0) lo = 0xA0;
            if (b == 0xED) hi = 0x9F;
        } else if (b >= 0xF0 && b <= 0xF4) {
            len = 4;
            if (b == 0xF0) lo = 0x90;
            if (b == 0xF4) hi = 0x8F;
        } else
            return 0;
        if (n - k < (size_t)len || s[k + 1] < lo || s[k + 1] > hi) return 0;
        for (int i = 2; i < len; i++)
            if ((s[k + i] & 0xC0) != 0x80) return 0;
        k += (size_t)len;
    }
    return 1;
}

// The message buffer: NUL-terminated within its capacity, valid UTF-8, and saying something
// whenever the status is PE_ERR_MATRIX and there is room.
static void check_message(const char *what, const char *message, int32_t cap, pe_status st) {
    if (message == NULL || cap <= 0) return;
    size_t len = bounded_len(message, (size_t)cap);
    REQUIRE(len < (size_t)cap, "%s: message not NUL-terminated within its %d bytes", what, cap);
    REQUIRE(utf8_valid((const uint8_t *)message, len), "%s: message is not valid UTF-8: \"%s\"", what, message);
    if (st == PE_ERR_MATRIX && cap >= 2) REQUIRE(len > 0, "%s: PE_ERR_MATRIX with an empty message", what);
}

static size_t dtype_size(double dtype) { return dtype == PE_DTYPE_F64 ? 8 : dtype == PE_DTYPE_F32 ? 4 : 2; }

// What pe_matrix_parse reports about a file, for comparisons.
typedef struct {
    pe_status st;
    double info[PE_MI_COUNT];
    char message[300];
} parse_result;

static void parse_into(parse_result *r, const uint8_t *bytes, int32_t size, double file_size, const uint8_t *name,
                       int32_t name_len) {
    memset(r, 0, sizeof *r);
    double *info = malloc(sizeof(double) * PE_MI_COUNT);
    char *message = malloc(sizeof r->message);
    r->st = pe_matrix_parse(info, message, (int32_t)sizeof r->message, bytes, size, file_size, name, name_len);
    memcpy(r->info, info, sizeof r->info);
    memcpy(r->message, message, sizeof r->message);
    free(info);
    free(message);
}

// Invariants of a parse of the first `size` bytes of a file of `file_size` bytes.
static void check_parse(const char *what, pe_status st, const double *info, const uint8_t *bytes, int32_t size,
                        double file_size, int named) {
    REQUIRE(st == PE_OK || st == PE_ERR_MATRIX || st == PE_MATRIX_NEED_MORE, "%s: status %d", what, st);
    if (st == PE_MATRIX_NEED_MORE) {
        double need = info[PE_MI_NEED];
        REQUIRE(is_integer(need) && need > size && need <= file_size,
                "%s: NEED_MORE for %.17g bytes with %d given of %.17g", what, need, size, file_size);
        return;
    }
    if (st == PE_ERR_MATRIX) {
        double field = info[PE_MI_ERROR_FIELD];
        REQUIRE(field == PE_MATRIX_ERROR_FILE || field == PE_MATRIX_ERROR_NAME, "%s: error field %g", what, field);
        if (field == PE_MATRIX_ERROR_NAME)
            REQUIRE(info[PE_MI_FORMAT] == PE_MATRIX_SAFETENSORS, "%s: a name error for a .npy file", what);
        (void)named;
        return;
    }
    const double format = info[PE_MI_FORMAT], dtype = info[PE_MI_DTYPE], rows = info[PE_MI_ROWS],
                 cols = info[PE_MI_COLS];
    const double begin = info[PE_MI_DATA_BEGIN], end = info[PE_MI_DATA_END];
    REQUIRE(format == PE_MATRIX_NPY || format == PE_MATRIX_SAFETENSORS, "%s: format %g", what, format);
    REQUIRE(format == PE_MATRIX_SAFETENSORS ? dtype >= PE_DTYPE_F32 && dtype <= PE_DTYPE_BF16
                                            : dtype >= PE_DTYPE_F32 && dtype <= PE_DTYPE_F16,
            "%s: dtype %g", what, dtype);
    REQUIRE(info[PE_MI_BIG_ENDIAN] == 0 || (info[PE_MI_BIG_ENDIAN] == 1 && format == PE_MATRIX_NPY),
            "%s: big_endian %g", what, info[PE_MI_BIG_ENDIAN]);
    REQUIRE(info[PE_MI_FORTRAN] == 0 || (info[PE_MI_FORTRAN] == 1 && format == PE_MATRIX_NPY), "%s: fortran %g", what,
            info[PE_MI_FORTRAN]);
    REQUIRE(is_integer(rows) && is_integer(cols) && rows >= 1 && cols >= 1 && rows * cols <= MAXE, "%s: shape (%g, %g)",
            what, rows, cols);
    REQUIRE(is_integer(begin) && is_integer(end) && 0 <= begin && begin <= end && end <= file_size,
            "%s: data [%.17g, %.17g) in a file of %.17g bytes", what, begin, end, file_size);
    REQUIRE(end - begin == rows * cols * (double)dtype_size(dtype), "%s: %.17g data bytes for (%g, %g) of dtype %g",
            what, end - begin, rows, cols, dtype);
    if (format == PE_MATRIX_NPY) {
        const double version = info[PE_MI_VERSION];
        REQUIRE(version == 1 || version == 2 || version == 3, "%s: npy version %g", what, version);
        REQUIRE(end == file_size, "%s: npy data ends at %.17g, the file at %.17g", what, end, file_size);
        REQUIRE(begin <= size, "%s: OK while the npy header (to %.17g) is past the %d bytes given", what, begin, size);
        size_t pre = version == 1 ? 10 : 12;
        REQUIRE(begin == (double)(pre + le_bytes(bytes + 8, (int)pre - 8)), "%s: npy data begin %.17g", what, begin);
    } else {
        REQUIRE(size >= 8, "%s: OK for a safetensors file with %d bytes", what, size);
        const double header_end = 8.0 + (double)le_bytes(bytes, 8);
        REQUIRE(header_end <= size, "%s: OK while the header (to %.17g) is past the %d bytes given", what, header_end,
                size);
        REQUIRE(begin >= header_end, "%s: data begins at %.17g, inside the header (to %.17g)", what, begin, header_end);
        REQUIRE(info[PE_MI_TENSORS] >= 1 && is_integer(info[PE_MI_TENSORS]), "%s: %g tensors", what,
                info[PE_MI_TENSORS]);
    }
}

// --- conversion reference --------------------------------------------------------------------------

// One stored element, decoded independently of c/matrix.c and its readers; 0 when it must be refused.
static int ref_element(const uint8_t *p, int dtype, int big_endian, float *out) {
    const size_t size = dtype_size(dtype);
    uint8_t le[8];
    for (size_t k = 0; k < size; k++) le[k] = big_endian ? p[size - 1 - k] : p[k];
    uint64_t bits = le_bytes(le, (int)size);
    if (dtype == PE_DTYPE_F64) {
        double v;
        memcpy(&v, &bits, 8);
        float f = (float)v;   // beyond the float32 range rounds to ±Inf: refused like NaN
        if (!isfinite(f)) return 0;
        *out = f;
        return 1;
    }
    if (dtype == PE_DTYPE_F16) {
        int sign = (int)(bits >> 15) & 1, exponent = (int)(bits >> 10) & 0x1F, mantissa = (int)bits & 0x3FF;
        if (exponent == 0x1F) return 0;
        float mag = exponent == 0 ? ldexpf((float)mantissa, -24) : ldexpf((float)(1024 + mantissa), exponent - 25);
        *out = sign ? -mag : mag;
        return 1;
    }
    uint32_t fbits = dtype == PE_DTYPE_F32 ? (uint32_t)bits : (uint32_t)bits << 16;   // bfloat16: top half
    memcpy(out, &fbits, 4);
    return isfinite(*out);
}

// pe_matrix_convert on an exact copy of data: its output against ref_element in file order.
static void check_convert(const char *what, const uint8_t *data_src, int64_t size, int dtype, int big_endian,
                          int fortran, int64_t rows, int64_t cols, char *message, int32_t cap) {
    const int64_t n = rows * cols;
    uint8_t *data = copy_exact(data_src, (size_t)size);
    float *out = malloc(sizeof(float) * (size_t)n);
    double *info = malloc(sizeof(double) * PE_MI_COUNT);
    pe_status st = pe_matrix_convert(out, info, message, cap, data, (int32_t)size, dtype, big_endian, fortran,
                                     (int32_t)rows, (int32_t)cols);
    REQUIRE(st == PE_OK || st == PE_ERR_MATRIX, "%s: pe_matrix_convert returned %d for a parsed matrix", what, st);
    check_message(what, message, cap, st);
    int64_t bad = -1;
    for (int64_t k = 0; k < n; k++) {   // k: the file's order
        const int64_t row = fortran ? k % rows : k / cols, col = fortran ? k / rows : k % cols;
        float want;
        if (!ref_element(data + (size_t)k * dtype_size(dtype), dtype, big_endian, &want)) {
            bad = k;
            REQUIRE(st == PE_ERR_MATRIX && info[PE_MI_BAD_ROW] == row && info[PE_MI_BAD_COL] == col,
                    "%s: element %lld ([%lld, %lld]) must be refused first; status %d, reported [%g, %g]", what,
                    (long long)k, (long long)row, (long long)col, st, info[PE_MI_BAD_ROW], info[PE_MI_BAD_COL]);
            break;
        }
        if (st == PE_OK) {
            float got = out[row * cols + col];
            REQUIRE(isfinite(got) && memcmp(&got, &want, 4) == 0, "%s: [%lld, %lld] is %.9g, the bytes hold %.9g", what,
                    (long long)row, (long long)col, got, want);
        }
    }
    if (bad < 0)
        REQUIRE(st == PE_OK, "%s: convert refused a matrix of finite float32 values: %s", what, message ? message : "");
    if (dtype == PE_DTYPE_F32 || dtype == PE_DTYPE_F64) {   // the SIMD and scalar fast paths agree
        float *a = malloc(sizeof(float) * (size_t)n), *b = malloc(sizeof(float) * (size_t)n);
        int64_t ka = dtype == PE_DTYPE_F32 ? pe_convert_f32le_scalar(a, data, n) : pe_convert_f64le_scalar(a, data, n);
        int64_t kb = dtype == PE_DTYPE_F32 ? pe_convert_f32le_simd(b, data, n) : pe_convert_f64le_simd(b, data, n);
        REQUIRE(ka == kb && memcmp(a, b, sizeof(float) * (size_t)ka) == 0,
                "%s: SIMD conversion stops at %lld, scalar at %lld", what, (long long)kb, (long long)ka);
        free(a), free(b);
    }
    free(data), free(out), free(info);
}

// --- the names listing ----------------------------------------------------------------------------

#define MAX_LISTED 16
typedef struct {
    int count;                 // names collected (at most MAX_LISTED)
    char *names[MAX_LISTED];   // each NUL-terminated as listed
    double tensors;
    pe_status st;
} listing;

static void list_names(listing *l, const uint8_t *bytes, int32_t size, int32_t capacity) {
    memset(l, 0, sizeof *l);
    char *out = malloc((size_t)capacity);
    double *info = malloc(sizeof(double) * PE_MI_COUNT);
    char *message = malloc(128);
    l->st = pe_matrix_names(out, capacity, info, message, 128, bytes, size, (double)size);
    REQUIRE(l->st == PE_OK || l->st == PE_ERR_MATRIX || l->st == PE_MATRIX_NEED_MORE, "pe_matrix_names: status %d",
            l->st);
    REQUIRE(l->st != PE_MATRIX_NEED_MORE, "pe_matrix_names: NEED_MORE for a whole file");
    check_message("pe_matrix_names", message, 128, l->st);
    if (l->st == PE_OK) {
        const double written = info[PE_MI_NAMES];
        l->tensors = info[PE_MI_TENSORS];
        REQUIRE(is_integer(written) && written >= 0 && written <= l->tensors, "pe_matrix_names: %g of %g names written",
                written, l->tensors);
        size_t at = 0;
        for (int k = 0; k < (int)written; k++) {   // each name NUL-terminated inside the capacity
            size_t len = bounded_len(out + at, (size_t)capacity - at);
            REQUIRE(at + len < (size_t)capacity, "pe_matrix_names: name %d runs past the capacity %d", k, capacity);
            REQUIRE(utf8_valid((const uint8_t *)out + at, len), "pe_matrix_names: name %d is not valid UTF-8", k);
            if (l->count < MAX_LISTED) {
                l->names[l->count] = malloc(len + 1);
                memcpy(l->names[l->count], out + at, len + 1);
                l->count++;
            }
            at += len + 1;
        }
    }
    free(out), free(info), free(message);
}

static void free_listing(listing *l) {
    for (int k = 0; k < l->count; k++) free(l->names[k]);
}

// --- the harness ------------------------------------------------------------------------------------

static const int32_t MESSAGE_CAPS[16] = {256, 0, 1, 2, 3, 4, 5, 8, 16, 33, 64, 1024, -1, -2, -3, 300};
static const int32_t NAME_CAPS[16] = {4096, 0, 1, 2, 3, 5, 8, 16, 64, 100, 4096, 4096, 4096, 7, 12, 4096};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 4 || size - 4 > 1 << 24) return 0;
    const uint8_t c0 = data[0], c1 = data[1], c2 = data[2], c3 = data[3];
    const size_t len = size - 4;
    const int32_t len32 = (int32_t)len;
    uint8_t *file = copy_exact(data + 4, len);

    // The names listing of the whole file (capacity from c1), then a roomy one to pick from.
    listing small, names;
    list_names(&small, file, len32, NAME_CAPS[c1 >> 4]);
    list_names(&names, file, len32, 4096);
    REQUIRE(small.st == names.st && (small.st != PE_OK || small.tensors == names.tensors),
            "pe_matrix_names: the capacity changed the status (%d vs %d) or the count", small.st, names.st);
    for (int k = 0; k < small.count; k++)
        REQUIRE(k < names.count && strcmp(small.names[k], names.names[k]) == 0,
                "pe_matrix_names: name %d differs by capacity", k);
    free_listing(&small);
    // A listing is only given for a header whose tensor names are distinct (issue 14: a repeated
    // name was offered as a choice, then refused).
    for (int k = 0; k < names.count; k++)
        for (int i = 0; i < k; i++)
            REQUIRE(strcmp(names.names[i], names.names[k]) != 0, "pe_matrix_names lists \"%s\" twice", names.names[k]);

    // The tensor name.
    static const char LONG_NAME[] =
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    const uint8_t *name = NULL;
    int32_t name_len = -1;
    uint64_t bad = 0;
    const int name_mode = c3 >> 4;
    const char *fixed = NULL;
    switch (name_mode) {
    case 6:
    case 15:
        if (names.count > 0) {
            const char *s = names.names[(c0 >> 4) % names.count];
            name = (const uint8_t *)s;
            name_len = (int32_t)strlen(s);
            if (name_mode == 15 && name_len > 0) {   // a prefix of a listed name: one character less
                name_len--;
                while (name_len > 0 && ((uint8_t)s[name_len] & 0xC0) == 0x80) name_len--;
            }
        }
        break;
    case 7: fixed = "weight"; break;
    case 8: fixed = ""; break;
    case 9: name = NULL, name_len = 0; break;
    case 10: name = NULL, name_len = 3, bad |= 1u << 7; break;
    case 11:
        fixed = "x";
        name_len = -2;
        bad |= 1u << 8;
        break;
    case 12: fixed = "__metadata__"; break;
    case 13: fixed = "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80"; break;   // é € 😀
    case 14: fixed = LONG_NAME; break;
    default: break;
    }
    uint8_t *name_copy = NULL;
    if (fixed != NULL) {
        name_copy = copy_exact((const uint8_t *)fixed, strlen(fixed));
        name = name_copy;
        if (name_len != -2) name_len = (int32_t)strlen(fixed);
    } else if (name != NULL) {
        name_copy = copy_exact(name, (size_t)name_len);
        name = name_copy;
    }

    // The message buffer.
    int32_t cap = MESSAGE_CAPS[c3 & 15];
    char *message = NULL;
    if (cap == -2) cap = 7, bad |= 1u << 2;   // NULL with a capacity
    else if (cap == -3)
        cap = -1, message = malloc(1), bad |= 1u << 3;
    else if (cap == -1)
        cap = 0;   // NULL, capacity 0: allowed
    else
        message = malloc((size_t)cap);
    if (cap > 0 && message != NULL) memset(message, 'Z', (size_t)cap);

    // How the parse sees the file.
    const int mode = c1 & 7;
    int32_t given = len32;
    double file_size = (double)len;
    const uint8_t *bytes = file;
    if (mode == 4) {
        given = (int32_t)((uint64_t)len * c2 / 255);
    } else if (mode == 5) {
        static const double extra[4] = {4294967296.0, 1e9, 1.0, 9007199254740992.0};
        file_size = (c2 & 3) == 3 ? extra[3] : (double)len + ((c2 >> 2) ? (double)(c2 >> 2) : extra[c2 & 3]);
    } else if (mode == 6) {
        static const double weird[8] = {NAN, INFINITY, -1.0, -INFINITY, 0.5, 9007199254740994.0, 1e300, -0.5};
        const int w = c2 & 7;
        file_size = w == 4              ? (double)len + 0.5
                    : w == 7            ? (double)len - 0.5
                    : w == 2 && len > 0 ? (double)len - 1
                                        : weird[w];
        bad |= 1u << 6;
    } else if (mode == 7) {
        given = 0;
        bytes = NULL;
    }
    uint8_t *prefix = given < len32 && bytes != NULL ? copy_exact(file, (size_t)given) : NULL;
    if (prefix != NULL) bytes = prefix;
    double *info = (c1 & 8) ? NULL : malloc(sizeof(double) * PE_MI_COUNT);
    if (info == NULL) bad |= 1u << 1;

    pe_status st = pe_matrix_parse(info, message, cap, bytes, given, file_size, name, name_len);
    if (bad != 0) {
        const int arg = st > 100 && st < 200 ? PE_ERR_ARG_INDEX(st) : -1;
        REQUIRE(arg > 0 && (bad & (1u << arg)), "pe_matrix_parse: status %d for invalid arguments (mask 0x%llx)", st,
                (unsigned long long)bad);
    } else {
        check_message("pe_matrix_parse", message, cap, st);
        check_parse("pe_matrix_parse", st, info, bytes, given, file_size, name_len >= 0);
    }

    // pe_matrix_load names the same bad arguments by its own positions (info 3, name 8, name_len 9).
    if (bad & ((1u << 1) | (1u << 7) | (1u << 8))) {
        float one;
        char lm[64];
        pe_status ls = pe_matrix_load(&one, 1, info, lm, sizeof lm, file, len, name, name_len);
        REQUIRE(((bad & (1u << 1)) && ls == PE_ERR_ARG(3)) || ((bad & (1u << 7)) && ls == PE_ERR_ARG(8)) ||
                    ((bad & (1u << 8)) && ls == PE_ERR_ARG(9)),
                "pe_matrix_load: status %d for invalid arguments (parse mask 0x%llx)", ls, (unsigned long long)bad);
    }

    // The names listing as the parse saw the file (a prefix, a longer file_size, no bytes).
    if (!(bad & ((1u << 6) | (1u << 1)))) {
        char *list = malloc(64);
        double *ni = malloc(sizeof(double) * PE_MI_COUNT);
        pe_status ns =
            pe_matrix_names(list, 64, ni, message, message != NULL && cap > 0 ? cap : 0, bytes, given, file_size);
        REQUIRE(ns == PE_OK || ns == PE_ERR_MATRIX || ns == PE_MATRIX_NEED_MORE,
                "pe_matrix_names (as parsed): status %d", ns);
        check_message("pe_matrix_names (as parsed)", message, message != NULL && cap > 0 ? cap : 0, ns);
        if (ns == PE_MATRIX_NEED_MORE)
            REQUIRE(is_integer(ni[PE_MI_NEED]) && ni[PE_MI_NEED] > given && ni[PE_MI_NEED] <= file_size,
                    "pe_matrix_names: NEED_MORE for %.17g bytes with %d given of %.17g", ni[PE_MI_NEED], given,
                    file_size);
        if (ns == PE_OK) {
            REQUIRE(ni[PE_MI_NAMES] <= ni[PE_MI_TENSORS], "pe_matrix_names: %g names written of %g", ni[PE_MI_NAMES],
                    ni[PE_MI_TENSORS]);
            if (st == PE_OK)
                REQUIRE(ni[PE_MI_TENSORS] == info[PE_MI_TENSORS], "pe_matrix_names counts %g tensors, parse %g",
                        ni[PE_MI_TENSORS], info[PE_MI_TENSORS]);
        }
        free(list), free(ni);
    }

    // Reading the header in steps (the browser's way) ends where reading the whole file does.
    if (name_len >= -1 && !(name == NULL && name_len > 0)) {
        parse_result whole, step;
        parse_into(&whole, file, len32, (double)len, name, name_len);
        check_parse("whole file", whole.st, whole.info, file, len32, (double)len, name_len >= 0);
        if (fuzz_verbose())
            fprintf(stderr, "parse: status %d, (%g, %g) dtype %g [%g, %g) %s; names %d (%d listed)\n", whole.st,
                    whole.info[PE_MI_ROWS], whole.info[PE_MI_COLS], whole.info[PE_MI_DTYPE],
                    whole.info[PE_MI_DATA_BEGIN], whole.info[PE_MI_DATA_END], whole.message, names.st, names.count);
        int32_t at = (int32_t)((uint64_t)len * c2 / 255);
        for (int round = 0; round < 8; round++) {
            uint8_t *part = copy_exact(file, (size_t)at);
            parse_into(&step, part, at, (double)len, name, name_len);
            check_parse("prefix", step.st, step.info, part, at, (double)len, name_len >= 0);
            free(part);
            if (step.st != PE_MATRIX_NEED_MORE) break;
            REQUIRE(step.info[PE_MI_NEED] > at, "prefix: NEED_MORE asks for %g bytes with %d given",
                    step.info[PE_MI_NEED], at);
            at = (int32_t)step.info[PE_MI_NEED];
        }
        REQUIRE(step.st == whole.st, "prefix parse ends with status %d, the whole file with %d (%s | %s)", step.st,
                whole.st, step.message, whole.message);
        step.info[PE_MI_NEED] = whole.info[PE_MI_NEED] = 0;
        REQUIRE(memcmp(step.info, whole.info, sizeof whole.info) == 0 && strcmp(step.message, whole.message) == 0,
                "prefix parse and whole-file parse disagree: \"%s\" vs \"%s\"", step.message, whole.message);

        // A .npy file ignores the name.
        if (whole.info[PE_MI_FORMAT] == PE_MATRIX_NPY && name_len != -1) {
            parse_result unnamed;
            parse_into(&unnamed, file, len32, (double)len, NULL, -1);
            REQUIRE(unnamed.st == whole.st && memcmp(unnamed.info, whole.info, sizeof whole.info) == 0,
                    "a .npy parse depends on the tensor name");
        }

        // Every listed name can be asked for: the listed bytes find that tensor.
        if (whole.st == PE_OK || whole.st == PE_ERR_MATRIX)
            for (int k = 0; k < names.count && k < 4; k++) {
                parse_result by_name;
                uint8_t *nm = copy_exact((const uint8_t *)names.names[k], strlen(names.names[k]));
                parse_into(&by_name, file, len32, (double)len, nm, (int32_t)strlen(names.names[k]));
                free(nm);
                REQUIRE(by_name.st != PE_ERR_MATRIX || by_name.info[PE_MI_ERROR_FIELD] != PE_MATRIX_ERROR_NAME,
                        "listed name %d (\"%s\") is not found by pe_matrix_parse: %s", k, names.names[k],
                        by_name.message);
            }

        // A parsed matrix converts, and pe_matrix_load agrees with the two steps.
        if (whole.st == PE_OK) {
            const double *wi = whole.info;
            const int64_t rows = (int64_t)wi[PE_MI_ROWS], cols = (int64_t)wi[PE_MI_COLS];
            const int64_t begin = (int64_t)wi[PE_MI_DATA_BEGIN], end = (int64_t)wi[PE_MI_DATA_END];
            check_convert("pe_matrix_convert", file + begin, end - begin, (int)wi[PE_MI_DTYPE],
                          (int)wi[PE_MI_BIG_ENDIAN], (int)wi[PE_MI_FORTRAN], rows, cols, message,
                          message != NULL && cap > 0 ? cap : 0);
            float *out = malloc(sizeof(float) * (size_t)(rows * cols));
            double *li = malloc(sizeof(double) * PE_MI_COUNT);
            char lm[200];
            pe_status ls = pe_matrix_load(out, (size_t)(rows * cols), li, lm, sizeof lm, file, len, name, name_len);
            REQUIRE(ls == PE_OK || ls == PE_ERR_MATRIX, "pe_matrix_load: status %d for a parsed file", ls);
            for (int k = 0; k < PE_MI_BAD_ROW; k++)
                REQUIRE(li[k] == wi[k] || k == PE_MI_ERROR_FIELD, "pe_matrix_load: info[%d] = %g, parse gave %g", k,
                        li[k], wi[k]);
            if (ls == PE_OK)
                for (int64_t k = 0; k < rows * cols; k++)
                    REQUIRE(isfinite(out[k]), "pe_matrix_load: value %lld not finite", (long long)k);
            if (rows * cols > 1)   // one float short: refused before anything is written
                REQUIRE(pe_matrix_load(out + 1, (size_t)(rows * cols - 1), li, lm, sizeof lm, file, len, name,
                                       name_len) == PE_ERR_ARG(2),
                        "pe_matrix_load: accepts a capacity one float short");
            free(out), free(li);
        }
    }

    // pe_matrix_convert on the raw bytes: dtype, byte order, order and shape from the first 4.
    if ((c0 & 8) && len >= 4) {
        static const int32_t DTYPES[6] = {0, PE_DTYPE_F32, PE_DTYPE_F64, PE_DTYPE_F16, PE_DTYPE_BF16, -1};
        const int32_t dtype = DTYPES[file[0] % 6], be = file[1] % 3, fortran = file[2] % 3;
        const uint8_t *values = file + 4;
        const int64_t count = (int64_t)(len - 4) / (int64_t)dtype_size(dtype);
        int32_t rows = 1 + file[3] % 16, cols = count >= rows ? (int32_t)(count / rows) : 1;
        if (file[3] >= 0xF0) rows = -rows;
        const int short_by_one = (file[1] & 0x80) != 0;
        int64_t bytes_given = (int64_t)rows * cols * (int64_t)dtype_size(dtype) - short_by_one;
        uint64_t cbad = 0;
        if (dtype < PE_DTYPE_F32 || dtype > PE_DTYPE_BF16) cbad |= 1u << 7;
        if (be == 2) cbad |= 1u << 8;
        if (fortran == 2) cbad |= 1u << 9;
        if (rows < 1) cbad |= 1u << 10;
        if (bytes_given < 0 || bytes_given > (int64_t)(len - 4)) bytes_given = (int64_t)(len - 4), cbad |= 1u << 6;
        else if (short_by_one)
            cbad |= 1u << 6;
        if (cbad == 0) {
            check_convert("pe_matrix_convert (raw)", values, bytes_given, dtype, be, fortran, rows, cols, message,
                          message != NULL && cap > 0 ? cap : 0);
        } else {
            uint8_t *d = copy_exact(values, (size_t)bytes_given);
            float *out = malloc(sizeof(float) * FUZZ_SMALL);
            double ci[PE_MI_COUNT];
            pe_status cs = pe_matrix_convert(out, ci, message, message != NULL && cap > 0 ? cap : 0, d,
                                             (int32_t)bytes_given, dtype, be, fortran, rows, cols);
            const int arg = cs > 100 && cs < 200 ? PE_ERR_ARG_INDEX(cs) : -1;
            REQUIRE(arg > 0 && (cbad & (1u << arg)), "pe_matrix_convert: status %d for invalid arguments (mask 0x%llx)",
                    cs, (unsigned long long)cbad);
            free(d), free(out);
        }
    }

    free_listing(&names);
    free(file), free(prefix), free(name_copy), free(message), free(info);
    return 0;
}

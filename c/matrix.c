// Reading a user's matrix for pe.loadMatrix (see matrix.h for the contract): the messages, the
// parser state and the text scanner the two readers share (c/npy.c, c/safetensors.c), the
// checks of a 2-D shape, the public entry points, and the conversion of the values to float32.
//
// Everything here reads untrusted bytes. Positions are uint64 and compared before use; every
// sum and product is checked against a bound that keeps it far from overflow; cursors never move
// past their end; recursion is bounded by PE_JSON_MAX_DEPTH.
#include <math.h>
#include <string.h>

#include "matrix_internal.h"

// --- messages -----------------------------------------------------------------------------------

void pe_msg_init(pe_msgbuf *m, char *buf, int32_t cap) {
    m->buf = buf;
    m->cap = buf != NULL && cap > 0 ? cap : 0;
    m->len = 0;
    if (m->cap > 0) buf[0] = '\0';
}

// Appends n bytes, truncating at the capacity without splitting a UTF-8 sequence.
void pe_msg_raw(pe_msgbuf *m, const char *s, size_t n) {
    if (m->cap == 0) return;
    size_t room = (size_t)(m->cap - 1 - m->len);
    if (n > room) {
        n = room;
        while (n > 0 && ((uint8_t)s[n] & 0xC0) == 0x80) n--;   // s[n]: first byte left out
    }
    memcpy(m->buf + m->len, s, n);
    m->len += (int32_t)n;
    m->buf[m->len] = '\0';
}

void pe_msg_str(pe_msgbuf *m, const char *s) { pe_msg_raw(m, s, strlen(s)); }

void pe_msg_u64(pe_msgbuf *m, uint64_t v) {
    char digits[21];
    int k = 20;
    digits[k] = '\0';
    do {
        digits[--k] = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    pe_msg_str(m, digits + k);
}

// --- parser state ------------------------------------------------------------------------------------

// Starts an error message (replacing any earlier text); the caller appends and returns.
pe_msgbuf *pe_fail_start(pe_parse_ctx *c, int32_t field) {
    c->info[PE_MI_ERROR_FIELD] = field;
    c->msg.len = 0;
    if (c->msg.cap > 0) c->msg.buf[0] = '\0';
    return &c->msg;
}

pe_status pe_fail(pe_parse_ctx *c, const char *text) {
    pe_msg_str(pe_fail_start(c, PE_MATRIX_ERROR_FILE), text);
    return PE_ERR_MATRIX;
}

// The first k bytes must be available: PE_OK when they are, PE_MATRIX_NEED_MORE when the file
// has them but the prefix does not, PE_ERR_MATRIX when the file is shorter.
pe_status pe_need(pe_parse_ctx *c, uint64_t k, const char *what) {
    if (k <= c->size) return PE_OK;
    if (k > c->file_size) {
        pe_msgbuf *m = pe_fail_start(c, PE_MATRIX_ERROR_FILE);
        pe_msg_str(m, "truncated file: ");
        pe_msg_str(m, what);
        pe_msg_str(m, " needs the first ");
        pe_msg_u64(m, k);
        pe_msg_str(m, " bytes, the file has only ");
        pe_msg_u64(m, c->file_size);
        return PE_ERR_MATRIX;
    }
    c->info[PE_MI_NEED] = (double)k;
    return PE_MATRIX_NEED_MORE;
}

uint64_t pe_read_le(const uint8_t *p, int bytes) {
    uint64_t v = 0;
    for (int k = bytes - 1; k >= 0; k--) v = (v << 8) | p[k];
    return v;
}

uint64_t pe_dtype_size(int32_t dtype) { return dtype == PE_DTYPE_F64 ? 8 : dtype == PE_DTYPE_F32 ? 4 : 2; }

// Shape as "(a, b, c)" or "[a, b, c]", at most 8 entries shown.
void pe_msg_shape(pe_msgbuf *m, const uint64_t *dims, int32_t ndim, int python) {
    pe_msg_str(m, python ? "(" : "[");
    for (int32_t k = 0; k < ndim && k < 8; k++) {
        if (k > 0) pe_msg_str(m, ", ");
        pe_msg_u64(m, dims[k]);
    }
    if (ndim > 8) pe_msg_str(m, ", …");
    if (python && ndim == 1) pe_msg_str(m, ",");
    pe_msg_str(m, python ? ")" : "]");
}

// Checks a 2-D shape and records it: rows, cols ≥ 1 and rows·cols ≤ PE_MAX_ELEMENTS. A shape
// with leading dimensions of 1 ([1, 197, 768]: timm's ViT pos_embed as saved) is the matrix of its
// last two, in either memory order (a leading 1 adds no stride): dims and *ndim are squeezed to it
// in place. Only the shapes whose every entry was read (ndim ≤ 8) are squeezed.
pe_status pe_check_shape(pe_parse_ctx *c, uint64_t *dims, int32_t *ndim_io, int overflow, int python,
                         const char *what) {
    int32_t ndim = *ndim_io;
    int32_t lead = 0;
    while (ndim - lead > 2 && ndim <= 8 && dims[lead] == 1) lead++;
    if (ndim - lead == 2 && lead > 0) {
        dims[0] = dims[lead];
        dims[1] = dims[lead + 1];
        *ndim_io = ndim = 2;
    }
    if (ndim != 2) {
        pe_msgbuf *m = pe_fail_start(c, PE_MATRIX_ERROR_FILE);
        pe_msg_str(m, what);
        pe_msg_str(m, " has shape ");
        pe_msg_shape(m, dims, ndim, python);
        pe_msg_str(m, " (");
        pe_msg_u64(m, (uint64_t)ndim);
        pe_msg_str(m, "-D); a 2-D matrix is required (leading dimensions of 1 are dropped)");
        return PE_ERR_MATRIX;
    }
    if (dims[0] == 0 || dims[1] == 0) {
        pe_msgbuf *m = pe_fail_start(c, PE_MATRIX_ERROR_FILE);
        pe_msg_str(m, what);
        pe_msg_str(m, " has shape ");
        pe_msg_shape(m, dims, ndim, python);
        pe_msg_str(m, ": the matrix is empty");
        return PE_ERR_MATRIX;
    }
    if (overflow || dims[0] > PE_MAX_ELEMENTS || dims[1] > PE_MAX_ELEMENTS ||
        dims[0] * dims[1] > PE_MAX_ELEMENTS) {   // both ≤ 2^26: the product cannot overflow
        pe_msgbuf *m = pe_fail_start(c, PE_MATRIX_ERROR_FILE);
        pe_msg_str(m, what);
        pe_msg_str(m, " has shape ");
        pe_msg_shape(m, dims, ndim, python);
        pe_msg_str(m, ", more than PE_MAX_ELEMENTS = ");
        pe_msg_u64(m, PE_MAX_ELEMENTS);
        pe_msg_str(m, " values");
        return PE_ERR_MATRIX;
    }
    c->info[PE_MI_ROWS] = (double)dims[0];
    c->info[PE_MI_COLS] = (double)dims[1];
    return PE_OK;
}

// --- the scanner of header text ---------------------------------------------------------------

void pe_scan_ws(pe_scanner *k) {
    while (k->p < k->end && (*k->p == ' ' || *k->p == '\t' || *k->p == '\n' || *k->p == '\r')) k->p++;
}

int pe_scan_eat(pe_scanner *k, uint8_t ch) {
    pe_scan_ws(k);
    if (k->p < k->end && *k->p == ch) {
        k->p++;
        return 1;
    }
    return 0;
}

pe_msgbuf *pe_scan_error(pe_scanner *k, const char *what) {
    pe_msgbuf *m = pe_fail_start(k->c, PE_MATRIX_ERROR_FILE);
    pe_msg_str(m, what);
    pe_msg_str(m, " at byte ");
    pe_msg_u64(m, (uint64_t)(k->p - k->begin));
    pe_msg_str(m, ": ");
    return m;
}

// --- public entry points -----------------------------------------------------------------------------

static const uint8_t NPY_MAGIC[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};

static pe_status parse_file(pe_parse_ctx *c, const uint8_t *name, int32_t name_len) {
    // Both formats are longer than 9 bytes: a .npy file's header alone is 10 bytes or more.
    pe_status status = pe_need(c, c->file_size < 9 ? c->file_size : 9, "the file signature");
    if (status != PE_OK) return status;
    if (c->file_size >= 9 && memcmp(c->bytes, NPY_MAGIC, 6) == 0) return pe_npy_parse(c);
    if (c->file_size >= 9 && c->bytes[8] == '{') return pe_safetensors_parse(c, name, name_len);
    pe_msgbuf *m = pe_fail_start(c, PE_MATRIX_ERROR_FILE);
    pe_msg_str(
        m,
        "not a .npy file (they start with \\x93NUMPY) nor a .safetensors file (an 8-byte header length, then '{'); the file has ");
    pe_msg_u64(m, c->file_size);
    pe_msg_str(m, " bytes");
    return PE_ERR_MATRIX;
}

static pe_status parse_args(double *info, char *message, int32_t message_cap, const uint8_t *bytes, int64_t size,
                            double file_size) {
    if (info == NULL) return PE_ERR_ARG(1);
    if (message == NULL && message_cap > 0) return PE_ERR_ARG(2);
    if (message_cap < 0) return PE_ERR_ARG(3);
    if (bytes == NULL && size > 0) return PE_ERR_ARG(4);
    if (size < 0) return PE_ERR_ARG(5);
    if (!(file_size >= (double)size && file_size <= 9007199254740992.0) || file_size != floor(file_size))
        return PE_ERR_ARG(6);
    return PE_OK;
}

pe_status pe_matrix_parse(double *info, char *message, int32_t message_cap, const uint8_t *bytes, int32_t size,
                          double file_size, const uint8_t *name, int32_t name_len) {
    pe_status status = parse_args(info, message, message_cap, bytes, size, file_size);
    if (status != PE_OK) return status;
    if (name == NULL && name_len > 0) return PE_ERR_ARG(7);
    if (name_len < -1) return PE_ERR_ARG(8);
    for (int k = 0; k < PE_MI_COUNT; k++) info[k] = 0.0;
    pe_parse_ctx c = {bytes, (uint64_t)size, (uint64_t)file_size, info, {0}};
    pe_msg_init(&c.msg, message, message_cap);
    return parse_file(&c, name, name_len);
}

pe_status pe_matrix_names(char *out, int32_t capacity, double *info, char *message, int32_t message_cap,
                          const uint8_t *bytes, int32_t size, double file_size) {
    if (out == NULL && capacity > 0) return PE_ERR_ARG(1);
    if (capacity < 0) return PE_ERR_ARG(2);
    pe_status status = parse_args(info, message, message_cap, bytes, size, file_size);
    if (status != PE_OK) return PE_ERR_ARG(PE_ERR_ARG_INDEX(status) + 2);
    for (int k = 0; k < PE_MI_COUNT; k++) info[k] = 0.0;
    pe_parse_ctx c = {bytes, (uint64_t)size, (uint64_t)file_size, info, {0}};
    pe_msg_init(&c.msg, message, message_cap);
    return pe_safetensors_names(&c, out, capacity);
}

// --- conversion -------------------------------------------------------------------------------------

// The largest magnitude that rounds to a finite float32 is just below 2^128·(1 − 2^−25).
#define F32_LIMIT 0x1.ffffffp127

int64_t pe_convert_f32le_scalar(float *out, const uint8_t *data, int64_t n) {
    for (int64_t k = 0; k < n; k++) {
        uint32_t bits = (uint32_t)pe_read_le(data + 4 * k, 4);
        if ((bits & 0x7F800000u) == 0x7F800000u) return k;   // NaN or infinity
        memcpy(out + k, &bits, 4);
    }
    return n;
}

int64_t pe_convert_f64le_scalar(float *out, const uint8_t *data, int64_t n) {
    for (int64_t k = 0; k < n; k++) {
        uint64_t bits = pe_read_le(data + 8 * k, 8);
        double v;
        memcpy(&v, &bits, 8);
        if (!(fabs(v) < F32_LIMIT)) return k;   // NaN, infinite, or beyond float32
        out[k] = (float)v;
    }
    return n;
}

#if PE_HAVE_SIMD
// Four values a step (unaligned loads); a step holding a refused value hands over to the scalar
// reference, which finds it.
int64_t pe_convert_f32le_simd(float *out, const uint8_t *data, int64_t n) {
    const v128_t exponent = wasm_i32x4_splat(0x7F800000);
    int64_t k = 0;
    for (; k + PE_LANES <= n; k += PE_LANES) {
        v128_t v = wasm_v128_load(data + 4 * k);
        if (wasm_v128_any_true(wasm_i32x4_eq(wasm_v128_and(v, exponent), exponent))) break;
        wasm_v128_store(out + k, v);
    }
    return k + pe_convert_f32le_scalar(out + k, data + 4 * k, n - k);
}

int64_t pe_convert_f64le_simd(float *out, const uint8_t *data, int64_t n) {
    const v128_t limit = wasm_f64x2_splat(F32_LIMIT);
    int64_t k = 0;
    for (; k + PE_LANES <= n; k += PE_LANES) {
        v128_t a = wasm_v128_load(data + 8 * k), b = wasm_v128_load(data + 8 * k + 16);
        v128_t ok = wasm_v128_and(wasm_f64x2_lt(wasm_f64x2_abs(a), limit), wasm_f64x2_lt(wasm_f64x2_abs(b), limit));
        if (!wasm_i32x4_all_true(ok)) break;   // NaN compares false
        v128_t fa = wasm_f32x4_demote_f64x2_zero(a), fb = wasm_f32x4_demote_f64x2_zero(b);
        wasm_v128_store(out + k, wasm_i32x4_shuffle(fa, fb, 0, 1, 4, 5));
    }
    return k + pe_convert_f64le_scalar(out + k, data + 8 * k, n - k);
}
#endif

// float16 bits → float32 bits (exact); 0 flags NaN/infinity through *bad.
static uint32_t half_to_float_bits(uint16_t h, int *bad) {
    const uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    const uint32_t exponent = (h >> 10) & 0x1Fu, mantissa = h & 0x3FFu;
    if (exponent == 0x1F) {
        *bad = 1;
        return 0;
    }
    if (exponent != 0) return sign | ((exponent + 112) << 23) | (mantissa << 13);   // 127 − 15
    if (mantissa == 0) return sign;
    float v = (float)mantissa * 0x1p-24f;   // subnormal: exact
    uint32_t bits;
    memcpy(&bits, &v, 4);
    return sign | bits;
}

// One stored element as float32; *bad set for a refused value.
static float element(const uint8_t *p, int32_t dtype, int big_endian, int *bad) {
    const uint64_t size = pe_dtype_size(dtype);
    uint8_t le[8];
    for (uint64_t k = 0; k < size; k++) le[k] = big_endian ? p[size - 1 - k] : p[k];
    const uint64_t bits = pe_read_le(le, (int)size);
    float f;
    uint32_t fbits;
    switch (dtype) {
    case PE_DTYPE_F64: {
        double v;
        memcpy(&v, &bits, 8);
        if (!(fabs(v) < F32_LIMIT)) {
            *bad = 1;
            return 0.0f;
        }
        return (float)v;
    }
    case PE_DTYPE_F32: fbits = (uint32_t)bits; break;
    case PE_DTYPE_F16: fbits = half_to_float_bits((uint16_t)bits, bad); break;
    default: fbits = (uint32_t)bits << 16; break;   // bfloat16: the top half of a float32
    }
    if ((fbits & 0x7F800000u) == 0x7F800000u) *bad = 1;
    memcpy(&f, &fbits, 4);
    return f;
}

static pe_status convert_bad(double *info, pe_msgbuf *m, const uint8_t *p, int32_t dtype, int32_t big_endian,
                             int64_t row, int64_t col) {
    info[PE_MI_BAD_ROW] = (double)row;
    info[PE_MI_BAD_COL] = (double)col;
    info[PE_MI_ERROR_FIELD] = PE_MATRIX_ERROR_FILE;
    const uint64_t size = pe_dtype_size(dtype);
    uint8_t le[8];
    for (uint64_t k = 0; k < size; k++) le[k] = big_endian ? p[size - 1 - k] : p[k];
    const uint64_t bits = pe_read_le(le, (int)size);
    const char *what;
    if (dtype == PE_DTYPE_F64) {
        double v;
        memcpy(&v, &bits, 8);
        what = isnan(v) ? "NaN" : isinf(v) ? "infinite" : "outside the float32 range";
    } else {
        const uint64_t mantissa_mask = dtype == PE_DTYPE_F32 ? 0x7FFFFFu : dtype == PE_DTYPE_F16 ? 0x3FFu : 0x7Fu;
        what = (bits & mantissa_mask) != 0 ? "NaN" : "infinite";
    }
    pe_msg_str(m, "the value at [");
    pe_msg_u64(m, (uint64_t)row);
    pe_msg_str(m, ", ");
    pe_msg_u64(m, (uint64_t)col);
    pe_msg_str(m, "] is ");
    pe_msg_str(m, what);
    pe_msg_str(m, "; a table must hold finite float32 values");
    return PE_ERR_MATRIX;
}

pe_status pe_matrix_convert(float *out, double *info, char *message, int32_t message_cap, const uint8_t *data,
                            int32_t size, int32_t dtype, int32_t big_endian, int32_t fortran, int32_t rows,
                            int32_t cols) {
    if (out == NULL) return PE_ERR_ARG(1);
    if (info == NULL) return PE_ERR_ARG(2);
    if (message == NULL && message_cap > 0) return PE_ERR_ARG(3);
    if (message_cap < 0) return PE_ERR_ARG(4);
    if (data == NULL) return PE_ERR_ARG(5);
    if (dtype < PE_DTYPE_F32 || dtype > PE_DTYPE_BF16) return PE_ERR_ARG(7);
    if (big_endian != 0 && big_endian != 1) return PE_ERR_ARG(8);
    if (fortran != 0 && fortran != 1) return PE_ERR_ARG(9);
    if (rows < 1 || rows > PE_MAX_ELEMENTS) return PE_ERR_ARG(10);
    if (cols < 1 || cols > PE_MAX_ELEMENTS) return PE_ERR_ARG(11);
    const int64_t n = (int64_t)rows * cols;
    if (n > PE_MAX_ELEMENTS) return PE_ERR_TOO_LARGE;
    if (size < 0 || (uint64_t)size != (uint64_t)n * pe_dtype_size(dtype)) return PE_ERR_ARG(6);
    for (int k = 0; k < PE_MI_COUNT; k++) info[k] = 0.0;
    pe_msgbuf m;
    pe_msg_init(&m, message, message_cap);

    const uint64_t size_of = pe_dtype_size(dtype);
    if (!big_endian && !fortran && (dtype == PE_DTYPE_F32 || dtype == PE_DTYPE_F64)) {
#if PE_HAVE_SIMD
        const pe_convert_fn fn = dtype == PE_DTYPE_F32 ? pe_convert_f32le_simd : pe_convert_f64le_simd;
#else
        const pe_convert_fn fn = dtype == PE_DTYPE_F32 ? pe_convert_f32le_scalar : pe_convert_f64le_scalar;
#endif
        const int64_t bad = fn(out, data, n);   // (rows, cols) straight through
        if (bad < n) return convert_bad(info, &m, data + (uint64_t)bad * size_of, dtype, 0, bad / cols, bad % cols);
        return PE_OK;
    }
    for (int64_t k = 0; k < n; k++) {   // k: element k of the file's order
        const int64_t row = fortran ? k % rows : k / cols;
        const int64_t col = fortran ? k / rows : k % cols;
        const uint8_t *p = data + (uint64_t)k * size_of;
        int bad = 0;
        float v = element(p, dtype, big_endian, &bad);
        if (bad) return convert_bad(info, &m, p, dtype, big_endian, row, col);
        out[row * cols + col] = v;   // out: (rows, cols)
    }
    return PE_OK;
}

pe_status pe_matrix_load(float *out, size_t capacity, double *info, char *message, int32_t message_cap,
                         const uint8_t *bytes, size_t size, const uint8_t *name, int32_t name_len) {
    if (out == NULL) return PE_ERR_ARG(1);
    if (size > INT32_MAX) return PE_ERR_ARG(7);
    pe_status status = pe_matrix_parse(info, message, message_cap, bytes, (int32_t)size, (double)size, name, name_len);
    if (status > 100 && status < 200) {   // parse's argument k → load's (file_size is size)
        const int32_t k = PE_ERR_ARG_INDEX(status);
        return PE_ERR_ARG(k <= 5 ? k + 2 : k == 6 ? 7 : k + 1);
    }
    if (status != PE_OK) return status;
    const int32_t rows = (int32_t)info[PE_MI_ROWS], cols = (int32_t)info[PE_MI_COLS];
    if ((uint64_t)rows * (uint64_t)cols > capacity) return PE_ERR_ARG(2);
    const uint64_t begin = (uint64_t)info[PE_MI_DATA_BEGIN], end = (uint64_t)info[PE_MI_DATA_END];
    double convert_info[PE_MI_COUNT];
    status = pe_matrix_convert(out, convert_info, message, message_cap, bytes + begin, (int32_t)(end - begin),
                               (int32_t)info[PE_MI_DTYPE], (int32_t)info[PE_MI_BIG_ENDIAN],
                               (int32_t)info[PE_MI_FORTRAN], rows, cols);
    info[PE_MI_BAD_ROW] = convert_info[PE_MI_BAD_ROW];
    info[PE_MI_BAD_COL] = convert_info[PE_MI_BAD_COL];
    if (status == PE_ERR_MATRIX) info[PE_MI_ERROR_FIELD] = PE_MATRIX_ERROR_FILE;
    return status;
}

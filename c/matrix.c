// .npy and .safetensors readers for pe.loadMatrix (see matrix.h for the contract).
//
// .npy (NEP 1, numpy.lib.format): the magic "\x93NUMPY", major and minor version bytes, the
// header length (uint16 little-endian in 1.0, uint32 in 2.0 and 3.0), then that many bytes of a
// Python dict literal {'descr': '<f4', 'fortran_order': False, 'shape': (r, c), } padded with
// spaces and a newline (ASCII; UTF-8 allowed in 3.0), then the r·c values.
// .safetensors: a uint64 little-endian header length N, N bytes of a JSON object mapping each
// tensor name to {"dtype", "shape", "data_offsets": [begin, end]} (offsets into the byte buffer
// that follows the header) plus an optional "__metadata__" object of strings, then the buffer.
//
// Everything here reads untrusted bytes. Positions are uint64 and compared before use; every
// sum and product is checked against a bound that keeps it far from overflow; cursors never move
// past their end; recursion is bounded by PE_JSON_MAX_DEPTH.
#include <math.h>
#include <string.h>

#include "matrix.h"

// --- messages -----------------------------------------------------------------------------------

typedef struct {
    char *buf;
    int32_t cap;   // bytes, with the NUL
    int32_t len;
} msgbuf;

static void msg_init(msgbuf *m, char *buf, int32_t cap) {
    m->buf = buf;
    m->cap = buf != NULL && cap > 0 ? cap : 0;
    m->len = 0;
    if (m->cap > 0) buf[0] = '\0';
}

// Appends n bytes, truncating at the capacity without splitting a UTF-8 sequence.
static void msg_raw(msgbuf *m, const char *s, size_t n) {
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

static void msg_str(msgbuf *m, const char *s) { msg_raw(m, s, strlen(s)); }

// At most max bytes of the UTF-8 text s[0 .. n), cut before a character, not inside one (a JSON
// string from the file quoted in a message; found by tests/fuzz: a dtype cut after 16 bytes
// left half a character, and the message was not valid UTF-8).
static void msg_prefix(msgbuf *m, const uint8_t *s, size_t n, size_t max) {
    if (n > max) {
        n = max;
        while (n > 0 && (s[n] & 0xC0) == 0x80) n--;   // s[n]: the first byte left out
    }
    msg_raw(m, (const char *)s, n);
}

static void msg_u64(msgbuf *m, uint64_t v) {
    char digits[21];
    int k = 20;
    digits[k] = '\0';
    do {
        digits[--k] = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    msg_str(m, digits + k);
}

// --- parser state ------------------------------------------------------------------------------------

typedef struct {
    const uint8_t *bytes;   // the first `size` bytes of the file
    uint64_t size;
    uint64_t file_size;
    double *info;
    msgbuf msg;
} parse_ctx;

// Starts an error message (replacing any earlier text); the caller appends and returns.
static msgbuf *fail_start(parse_ctx *c, int32_t field) {
    c->info[PE_MI_ERROR_FIELD] = field;
    c->msg.len = 0;
    if (c->msg.cap > 0) c->msg.buf[0] = '\0';
    return &c->msg;
}

static pe_status fail(parse_ctx *c, const char *text) {
    msg_str(fail_start(c, PE_MATRIX_ERROR_FILE), text);
    return PE_ERR_MATRIX;
}

// The first k bytes must be available: PE_OK when they are, PE_MATRIX_NEED_MORE when the file
// has them but the prefix does not, PE_ERR_MATRIX when the file is shorter.
static pe_status need(parse_ctx *c, uint64_t k, const char *what) {
    if (k <= c->size) return PE_OK;
    if (k > c->file_size) {
        msgbuf *m = fail_start(c, PE_MATRIX_ERROR_FILE);
        msg_str(m, "truncated file: ");
        msg_str(m, what);
        msg_str(m, " needs the first ");
        msg_u64(m, k);
        msg_str(m, " bytes, the file has only ");
        msg_u64(m, c->file_size);
        return PE_ERR_MATRIX;
    }
    c->info[PE_MI_NEED] = (double)k;
    return PE_MATRIX_NEED_MORE;
}

static uint64_t read_le(const uint8_t *p, int bytes) {
    uint64_t v = 0;
    for (int k = bytes - 1; k >= 0; k--) v = (v << 8) | p[k];
    return v;
}

static const char *dtype_label(int32_t dtype) {
    switch (dtype) {
    case PE_DTYPE_F32: return "float32";
    case PE_DTYPE_F64: return "float64";
    case PE_DTYPE_F16: return "float16";
    default: return "bfloat16";
    }
}

static uint64_t dtype_size(int32_t dtype) {
    return dtype == PE_DTYPE_F64 ? 8 : dtype == PE_DTYPE_F32 ? 4 : 2;
}

// Shape as "(a, b, c)" or "[a, b, c]", at most 8 entries shown.
static void msg_shape(msgbuf *m, const uint64_t *dims, int32_t ndim, int python) {
    msg_str(m, python ? "(" : "[");
    for (int32_t k = 0; k < ndim && k < 8; k++) {
        if (k > 0) msg_str(m, ", ");
        msg_u64(m, dims[k]);
    }
    if (ndim > 8) msg_str(m, ", …");
    if (python && ndim == 1) msg_str(m, ",");
    msg_str(m, python ? ")" : "]");
}

// Checks a 2-D shape and records it: rows, cols ≥ 1 and rows·cols ≤ PE_MAX_ELEMENTS.
static pe_status check_matrix_shape(parse_ctx *c, const uint64_t *dims, int32_t ndim,
                                    int overflow, int python, const char *what) {
    if (ndim != 2) {
        msgbuf *m = fail_start(c, PE_MATRIX_ERROR_FILE);
        msg_str(m, what);
        msg_str(m, " has shape ");
        msg_shape(m, dims, ndim, python);
        msg_str(m, " (");
        msg_u64(m, (uint64_t)ndim);
        msg_str(m, "-D); a 2-D matrix is required");
        return PE_ERR_MATRIX;
    }
    if (dims[0] == 0 || dims[1] == 0) {
        msgbuf *m = fail_start(c, PE_MATRIX_ERROR_FILE);
        msg_str(m, what);
        msg_str(m, " has shape ");
        msg_shape(m, dims, ndim, python);
        msg_str(m, ": the matrix is empty");
        return PE_ERR_MATRIX;
    }
    if (overflow || dims[0] > PE_MAX_ELEMENTS || dims[1] > PE_MAX_ELEMENTS ||
        dims[0] * dims[1] > PE_MAX_ELEMENTS) {   // both ≤ 2^26: the product cannot overflow
        msgbuf *m = fail_start(c, PE_MATRIX_ERROR_FILE);
        msg_str(m, what);
        msg_str(m, " has shape ");
        msg_shape(m, dims, ndim, python);
        msg_str(m, ", more than PE_MAX_ELEMENTS = ");
        msg_u64(m, PE_MAX_ELEMENTS);
        msg_str(m, " values");
        return PE_ERR_MATRIX;
    }
    c->info[PE_MI_ROWS] = (double)dims[0];
    c->info[PE_MI_COLS] = (double)dims[1];
    return PE_OK;
}

// --- .npy ---------------------------------------------------------------------------------------

typedef struct {
    parse_ctx *c;
    const uint8_t *begin, *p, *end;   // the header text
} cursor;

static pe_status npy_syntax(cursor *k, const char *expected) {
    msgbuf *m = fail_start(k->c, PE_MATRIX_ERROR_FILE);
    msg_str(m, "malformed .npy header at byte ");
    msg_u64(m, (uint64_t)(k->p - k->begin));
    msg_str(m, ": expected ");
    msg_str(m, expected);
    return PE_ERR_MATRIX;
}

static void cur_ws(cursor *k) {
    while (k->p < k->end && (*k->p == ' ' || *k->p == '\t' || *k->p == '\n' || *k->p == '\r')) k->p++;
}

static int cur_eat(cursor *k, uint8_t ch) {
    cur_ws(k);
    if (k->p < k->end && *k->p == ch) {
        k->p++;
        return 1;
    }
    return 0;
}

// A Python string literal in single or double quotes, printable ASCII, no escapes.
static pe_status py_string(cursor *k, const uint8_t **s, size_t *n) {
    cur_ws(k);
    if (k->p >= k->end || (*k->p != '\'' && *k->p != '"')) return npy_syntax(k, "a quoted string");
    const uint8_t quote = *k->p++;
    const uint8_t *start = k->p;
    while (k->p < k->end && *k->p != quote) {
        if (*k->p == '\\' || *k->p < 0x20 || *k->p > 0x7E) return npy_syntax(k, "a plain ASCII string");
        k->p++;
    }
    if (k->p >= k->end) return npy_syntax(k, "the closing quote of a string");
    *s = start;
    *n = (size_t)(k->p - start);
    k->p++;
    return PE_OK;
}

// A non-negative Python integer literal (Python 2 files may add an 'L'), at most 2^53.
static pe_status py_uint(cursor *k, uint64_t *v) {
    cur_ws(k);
    if (k->p >= k->end || *k->p < '0' || *k->p > '9') return npy_syntax(k, "a non-negative integer");
    uint64_t value = 0;
    while (k->p < k->end && *k->p >= '0' && *k->p <= '9') {
        value = value * 10 + (uint64_t)(*k->p++ - '0');
        if (value > (1ull << 53)) return npy_syntax(k, "an integer of at most 2^53");
    }
    if (k->p < k->end && *k->p == 'L') k->p++;
    *v = value;
    return PE_OK;
}

static int span_is(const uint8_t *s, size_t n, const char *word) {
    return n == strlen(word) && memcmp(s, word, n) == 0;
}

// True or False, as a whole word.
static pe_status py_bool(cursor *k, int *value) {
    cur_ws(k);
    const uint8_t *start = k->p;
    while (k->p < k->end && ((*k->p >= 'A' && *k->p <= 'Z') || (*k->p >= 'a' && *k->p <= 'z'))) k->p++;
    size_t n = (size_t)(k->p - start);
    if (span_is(start, n, "True")) *value = 1;
    else if (span_is(start, n, "False")) *value = 0;
    else {
        k->p = start;
        return npy_syntax(k, "True or False");
    }
    return PE_OK;
}

// (a, b, …) with an optional trailing comma; ndim counts every entry, dims keeps the first 8.
static pe_status py_shape(cursor *k, uint64_t *dims, int32_t *ndim) {
    *ndim = 0;
    if (!cur_eat(k, '(')) return npy_syntax(k, "a shape tuple '('");
    if (cur_eat(k, ')')) return PE_OK;
    for (;;) {
        uint64_t v = 0;
        pe_status status = py_uint(k, &v);
        if (status != PE_OK) return status;
        if (*ndim < 8) dims[*ndim] = v;
        (*ndim)++;
        if (cur_eat(k, ')')) return PE_OK;
        if (!cur_eat(k, ',')) return npy_syntax(k, "',' or ')' in the shape");
        if (cur_eat(k, ')')) return PE_OK;
    }
}

static pe_status npy_dtype(parse_ctx *c, const uint8_t *s, size_t n) {
    if (n == 3 && (s[0] == '<' || s[0] == '>') && s[1] == 'f' && (s[2] == '4' || s[2] == '8' || s[2] == '2')) {
        c->info[PE_MI_BIG_ENDIAN] = s[0] == '>';
        c->info[PE_MI_DTYPE] = s[2] == '4' ? PE_DTYPE_F32 : s[2] == '8' ? PE_DTYPE_F64 : PE_DTYPE_F16;
        return PE_OK;
    }
    msgbuf *m = fail_start(c, PE_MATRIX_ERROR_FILE);
    msg_str(m, "the .npy dtype '");
    msg_raw(m, (const char *)s, n < 40 ? n : 40);
    msg_str(m, "' is not supported: float32, float64 or float16 is required ('<f4', '<f8', '<f2' or big-endian '>f4', '>f8', '>f2')");
    return PE_ERR_MATRIX;
}

static pe_status npy_parse(parse_ctx *c) {
    c->info[PE_MI_FORMAT] = PE_MATRIX_NPY;
    pe_status status = need(c, 8, "the .npy version");
    if (status != PE_OK) return status;
    const uint8_t major = c->bytes[6], minor = c->bytes[7];
    if (major < 1 || major > 3 || minor != 0) {
        msgbuf *m = fail_start(c, PE_MATRIX_ERROR_FILE);
        msg_str(m, "unsupported .npy format version ");
        msg_u64(m, major);
        msg_str(m, ".");
        msg_u64(m, minor);
        msg_str(m, " (1.0, 2.0 and 3.0 are supported)");
        return PE_ERR_MATRIX;
    }
    c->info[PE_MI_VERSION] = major;
    const int length_bytes = major == 1 ? 2 : 4;
    const uint64_t start = 8 + (uint64_t)length_bytes;
    if ((status = need(c, start, "the .npy header length")) != PE_OK) return status;
    const uint64_t header_len = read_le(c->bytes + 8, length_bytes);
    if (header_len > PE_NPY_MAX_HEADER) {
        msgbuf *m = fail_start(c, PE_MATRIX_ERROR_FILE);
        msg_str(m, "the .npy header length ");
        msg_u64(m, header_len);
        msg_str(m, " is more than the limit of ");
        msg_u64(m, PE_NPY_MAX_HEADER);
        msg_str(m, " bytes");
        return PE_ERR_MATRIX;
    }
    const uint64_t end = start + header_len;
    if ((status = need(c, end, "the .npy header")) != PE_OK) return status;

    cursor k = {c, c->bytes + start, c->bytes + start, c->bytes + end};
    for (const uint8_t *q = k.begin; q < k.end; q++)
        if (*q > 0x7E || (*q < 0x20 && *q != '\n' && *q != '\r' && *q != '\t'))
            return fail(c, "the .npy header is not plain ASCII text");
    int seen_descr = 0, seen_fortran = 0, seen_shape = 0, fortran = 0;
    uint64_t dims[8] = {0};
    int32_t ndim = 0;
    if (!cur_eat(&k, '{')) return npy_syntax(&k, "'{'");
    while (!cur_eat(&k, '}')) {
        const uint8_t *key;
        size_t key_n;
        if ((status = py_string(&k, &key, &key_n)) != PE_OK) return status;
        if (!cur_eat(&k, ':')) return npy_syntax(&k, "':'");
        int *seen;
        if (span_is(key, key_n, "descr")) {
            seen = &seen_descr;
            cur_ws(&k);
            if (k.p < k.end && *k.p == '[')
                return fail(c, "the .npy file holds a structured array; a float32, float64 or float16 matrix is required");
            const uint8_t *s;
            size_t n;
            if ((status = py_string(&k, &s, &n)) != PE_OK) return status;
            if ((status = npy_dtype(c, s, n)) != PE_OK) return status;
        } else if (span_is(key, key_n, "fortran_order")) {
            seen = &seen_fortran;
            if ((status = py_bool(&k, &fortran)) != PE_OK) return status;
        } else if (span_is(key, key_n, "shape")) {
            seen = &seen_shape;
            if ((status = py_shape(&k, dims, &ndim)) != PE_OK) return status;
        } else {
            msgbuf *m = fail_start(c, PE_MATRIX_ERROR_FILE);
            msg_str(m, "unexpected key '");
            msg_raw(m, (const char *)key, key_n < 40 ? key_n : 40);
            msg_str(m, "' in the .npy header (its keys are 'descr', 'fortran_order' and 'shape')");
            return PE_ERR_MATRIX;
        }
        if (*seen) return fail(c, "a key appears twice in the .npy header");
        *seen = 1;
        if (cur_eat(&k, '}')) break;
        if (!cur_eat(&k, ',')) return npy_syntax(&k, "',' or '}'");
    }
    cur_ws(&k);
    if (k.p != k.end) return npy_syntax(&k, "only spaces and a newline after the header dictionary");
    if (!seen_descr) return fail(c, "the .npy header has no 'descr'");
    if (!seen_fortran) return fail(c, "the .npy header has no 'fortran_order'");
    if (!seen_shape) return fail(c, "the .npy header has no 'shape'");
    c->info[PE_MI_FORTRAN] = fortran;
    if ((status = check_matrix_shape(c, dims, ndim, 0, 1, "the .npy array")) != PE_OK) return status;

    const int32_t dtype = (int32_t)c->info[PE_MI_DTYPE];
    const uint64_t data_bytes = dims[0] * dims[1] * dtype_size(dtype);   // ≤ 2^26·8
    c->info[PE_MI_DATA_BEGIN] = (double)end;
    c->info[PE_MI_DATA_END] = (double)(end + data_bytes);
    if (end + data_bytes != c->file_size) {
        msgbuf *m = fail_start(c, PE_MATRIX_ERROR_FILE);
        int short_file = end + data_bytes > c->file_size;
        msg_str(m, short_file ? "truncated file: the header announces " : "the file is longer than its header announces: ");
        msg_u64(m, dims[0]);
        msg_str(m, " × ");
        msg_u64(m, dims[1]);
        msg_str(m, " ");
        msg_str(m, dtype_label(dtype));
        msg_str(m, " values = ");
        msg_u64(m, data_bytes);
        msg_str(m, " bytes after the ");
        msg_u64(m, end);
        msg_str(m, "-byte header, the file has ");
        msg_u64(m, c->file_size - end);
        return PE_ERR_MATRIX;
    }
    return PE_OK;
}

// --- JSON (safetensors header) -----------------------------------------------------------------

typedef struct {
    parse_ctx *c;
    const uint8_t *begin, *p, *end;
} json;

static pe_status json_error(json *j, const char *expected) {
    msgbuf *m = fail_start(j->c, PE_MATRIX_ERROR_FILE);
    msg_str(m, "bad .safetensors JSON header at byte ");
    msg_u64(m, (uint64_t)(j->p - j->begin));
    msg_str(m, ": ");
    msg_str(m, expected);
    return PE_ERR_MATRIX;
}

static void json_ws(json *j) {
    while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r')) j->p++;
}

static int json_eat(json *j, uint8_t ch) {
    json_ws(j);
    if (j->p < j->end && *j->p == ch) {
        j->p++;
        return 1;
    }
    return 0;
}

static int hex_digit(uint8_t ch) {
    if (ch >= '0' && ch <= '9') return ch - '0';
    if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
    return -1;
}

// Four hex digits at p (p + 4 ≤ end checked by the caller), or −1.
static int32_t hex4(const uint8_t *p) {
    int32_t v = 0;
    for (int k = 0; k < 4; k++) {
        int d = hex_digit(p[k]);
        if (d < 0) return -1;
        v = v * 16 + d;
    }
    return v;
}

// Length of the valid UTF-8 sequence at p (at most end − p bytes), or 0 when invalid
// (overlong forms, surrogates and code points past U+10FFFF are invalid).
static int utf8_length(const uint8_t *p, const uint8_t *end) {
    const uint8_t b = p[0];
    int n;
    uint8_t lo = 0x80, hi = 0xBF;   // range of the second byte
    if (b < 0x80) return 1;
    if (b >= 0xC2 && b <= 0xDF) n = 2;
    else if (b >= 0xE0 && b <= 0xEF) {
        n = 3;
        if (b == 0xE0) lo = 0xA0;
        if (b == 0xED) hi = 0x9F;
    } else if (b >= 0xF0 && b <= 0xF4) {
        n = 4;
        if (b == 0xF0) lo = 0x90;
        if (b == 0xF4) hi = 0x8F;
    } else {
        return 0;
    }
    if (end - p < n) return 0;
    if (p[1] < lo || p[1] > hi) return 0;
    for (int k = 2; k < n; k++)
        if ((p[k] & 0xC0) != 0x80) return 0;
    return n;
}

// A JSON string at j->p: checks escapes (surrogates paired), UTF-8 and control characters;
// returns the raw span between the quotes.
static pe_status json_string(json *j, const uint8_t **s, size_t *n) {
    json_ws(j);
    if (j->p >= j->end || *j->p != '"') return json_error(j, "expected a string");
    j->p++;
    const uint8_t *start = j->p;
    while (j->p < j->end && *j->p != '"') {
        const uint8_t ch = *j->p;
        if (ch < 0x20) return json_error(j, "control character in a string");
        if (ch == '\\') {
            if (j->end - j->p < 2) return json_error(j, "unterminated escape");
            const uint8_t e = j->p[1];
            if (e == 'u') {
                if (j->end - j->p < 6) return json_error(j, "truncated \\u escape");
                int32_t u = hex4(j->p + 2);
                if (u < 0) return json_error(j, "bad \\u escape");
                if (u >= 0xDC00 && u <= 0xDFFF) return json_error(j, "unpaired surrogate escape");
                if (u >= 0xD800 && u <= 0xDBFF) {
                    if (j->end - j->p < 12 || j->p[6] != '\\' || j->p[7] != 'u') return json_error(j, "unpaired surrogate escape");
                    int32_t low = hex4(j->p + 8);
                    if (low < 0xDC00 || low > 0xDFFF) return json_error(j, "unpaired surrogate escape");
                    j->p += 12;
                } else {
                    j->p += 6;
                }
            } else if (e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n' || e == 'r' || e == 't') {
                j->p += 2;
            } else {
                return json_error(j, "bad escape in a string");
            }
        } else {
            int len = utf8_length(j->p, j->end);
            if (len == 0) return json_error(j, "invalid UTF-8 in a string");
            j->p += len;
        }
    }
    if (j->p >= j->end) return json_error(j, "unterminated string");
    *s = start;
    *n = (size_t)(j->p - start);
    j->p++;
    return PE_OK;
}

// The next character of a validated JSON string span, as UTF-8 in out[4]; returns its length
// and advances *at.
static int json_next_char(const uint8_t **at, const uint8_t *end, uint8_t out[4]) {
    const uint8_t *p = *at;
    if (*p != '\\') {
        int n = utf8_length(p, end);   // ≥ 1: the span was validated
        memcpy(out, p, (size_t)n);
        *at = p + n;
        return n;
    }
    const uint8_t e = p[1];
    if (e != 'u') {
        *at = p + 2;
        out[0] = e == 'b' ? '\b' : e == 'f' ? '\f' : e == 'n' ? '\n' : e == 'r' ? '\r' : e == 't' ? '\t' : e;
        return 1;
    }
    uint32_t u = (uint32_t)hex4(p + 2);
    *at = p + 6;
    if (u >= 0xD800 && u <= 0xDBFF) {   // paired (validated): combine with the low surrogate
        u = 0x10000 + ((u - 0xD800) << 10) + ((uint32_t)hex4(p + 8) - 0xDC00);
        *at = p + 12;
    }
    if (u < 0x80) {
        out[0] = (uint8_t)u;
        return 1;
    }
    if (u < 0x800) {
        out[0] = (uint8_t)(0xC0 | (u >> 6));
        out[1] = (uint8_t)(0x80 | (u & 0x3F));
        return 2;
    }
    if (u < 0x10000) {
        out[0] = (uint8_t)(0xE0 | (u >> 12));
        out[1] = (uint8_t)(0x80 | ((u >> 6) & 0x3F));
        out[2] = (uint8_t)(0x80 | (u & 0x3F));
        return 3;
    }
    out[0] = (uint8_t)(0xF0 | (u >> 18));
    out[1] = (uint8_t)(0x80 | ((u >> 12) & 0x3F));
    out[2] = (uint8_t)(0x80 | ((u >> 6) & 0x3F));
    out[3] = (uint8_t)(0x80 | (u & 0x3F));
    return 4;
}

// Whether a validated JSON string span decodes to the bytes want[0 .. want_n).
static int json_equals(const uint8_t *s, size_t n, const uint8_t *want, size_t want_n) {
    const uint8_t *at = s, *end = s + n;
    size_t k = 0;
    while (at < end) {
        uint8_t ch[4];
        int len = json_next_char(&at, end, ch);
        if (k + (size_t)len > want_n || memcmp(want + k, ch, (size_t)len) != 0) return 0;
        k += (size_t)len;
    }
    return k == want_n;
}

static int json_is(const uint8_t *s, size_t n, const char *word) {
    return json_equals(s, n, (const uint8_t *)word, strlen(word));
}

// Decodes a validated span into out (capacity bytes, no NUL), whole characters only; returns
// the bytes written, or −1 when it did not fit.
static int64_t json_decode(const uint8_t *s, size_t n, char *out, size_t capacity) {
    const uint8_t *at = s, *end = s + n;
    size_t k = 0;
    while (at < end) {
        uint8_t ch[4];
        int len = json_next_char(&at, end, ch);
        if (k + (size_t)len > capacity) return -1;
        memcpy(out + k, ch, (size_t)len);
        k += (size_t)len;
    }
    return (int64_t)k;
}

// Appends a quoted tensor name, shortened to 80 bytes.
static void msg_name(msgbuf *m, const uint8_t *s, size_t n) {
    char text[80];
    int64_t len = json_decode(s, n, text, sizeof text);
    msg_str(m, "\"");
    if (len >= 0) {
        msg_raw(m, text, (size_t)len);
    } else {   // too long: the whole characters that fit, then an ellipsis
        const uint8_t *at = s, *end = s + n;
        size_t k = 0;
        while (at < end) {
            uint8_t ch[4];
            const uint8_t *before = at;
            int l = json_next_char(&at, end, ch);
            if (k + (size_t)l > sizeof text) {
                at = before;
                break;
            }
            memcpy(text + k, ch, (size_t)l);
            k += (size_t)l;
        }
        msg_raw(m, text, k);
        msg_str(m, "…");
    }
    msg_str(m, "\"");
}

// A non-negative JSON integer (no sign, fraction or exponent), at most 2^53.
static pe_status json_uint(json *j, uint64_t *v, const char *what) {
    json_ws(j);
    if (j->p >= j->end || *j->p < '0' || *j->p > '9') return json_error(j, what);
    uint64_t value = 0;
    const uint8_t *start = j->p;
    while (j->p < j->end && *j->p >= '0' && *j->p <= '9') {
        value = value * 10 + (uint64_t)(*j->p++ - '0');
        if (value > (1ull << 53)) return json_error(j, "integer too large (more than 2^53)");
    }
    if (*start == '0' && j->p - start > 1) return json_error(j, "leading zero in an integer");
    if (j->p < j->end && (*j->p == '.' || *j->p == 'e' || *j->p == 'E')) return json_error(j, what);
    *v = value;
    return PE_OK;
}

// Any JSON number (RFC 8259 grammar).
static pe_status json_number(json *j) {
    if (j->p < j->end && *j->p == '-') j->p++;
    if (j->p >= j->end || *j->p < '0' || *j->p > '9') return json_error(j, "bad number");
    if (*j->p == '0') j->p++;
    else while (j->p < j->end && *j->p >= '0' && *j->p <= '9') j->p++;
    if (j->p < j->end && *j->p == '.') {
        j->p++;
        if (j->p >= j->end || *j->p < '0' || *j->p > '9') return json_error(j, "bad number");
        while (j->p < j->end && *j->p >= '0' && *j->p <= '9') j->p++;
    }
    if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
        j->p++;
        if (j->p < j->end && (*j->p == '+' || *j->p == '-')) j->p++;
        if (j->p >= j->end || *j->p < '0' || *j->p > '9') return json_error(j, "bad number");
        while (j->p < j->end && *j->p >= '0' && *j->p <= '9') j->p++;
    }
    return PE_OK;
}

static pe_status json_literal(json *j, const char *word) {
    size_t n = strlen(word);
    if ((size_t)(j->end - j->p) < n || memcmp(j->p, word, n) != 0) return json_error(j, "expected a JSON value");
    j->p += n;
    return PE_OK;
}

// Validates and skips any JSON value, nested at most PE_JSON_MAX_DEPTH deep.
static pe_status json_skip(json *j, int depth) {
    json_ws(j);
    if (j->p >= j->end) return json_error(j, "expected a JSON value");
    const uint8_t ch = *j->p;
    pe_status status;
    if (ch == '"') {
        const uint8_t *s;
        size_t n;
        return json_string(j, &s, &n);
    }
    if (ch == '{' || ch == '[') {
        if (depth >= PE_JSON_MAX_DEPTH) return json_error(j, "values nested too deep");
        const uint8_t close = ch == '{' ? '}' : ']';
        j->p++;
        if (json_eat(j, close)) return PE_OK;
        for (;;) {
            if (ch == '{') {
                const uint8_t *s;
                size_t n;
                if ((status = json_string(j, &s, &n)) != PE_OK) return status;
                if (!json_eat(j, ':')) return json_error(j, "expected ':'");
            }
            if ((status = json_skip(j, depth + 1)) != PE_OK) return status;
            if (json_eat(j, close)) return PE_OK;
            if (!json_eat(j, ',')) return json_error(j, ch == '{' ? "expected ',' or '}'" : "expected ',' or ']'");
        }
    }
    if (ch == 't') return json_literal(j, "true");
    if (ch == 'f') return json_literal(j, "false");
    if (ch == 'n') return json_literal(j, "null");
    return json_number(j);
}

// --- .safetensors ------------------------------------------------------------------------------------

typedef struct {
    const uint8_t *name;   // raw JSON span of the name
    size_t name_n;
    int32_t dtype;         // pe_dtype, or 0 for any other dtype
    const uint8_t *dtype_s;
    size_t dtype_n;
    uint64_t dims[8];      // the first 8 entries of the shape
    int32_t ndim;
    int overflow;          // the element count passed 2^62
    uint64_t begin, end;   // data_offsets
} st_tensor;

// Bytes per element of a safetensors dtype (0: unknown). Sub-byte and future dtypes are unknown:
// their tensors' sizes go unchecked, the offsets are still bounded.
static uint64_t st_dtype_size(const uint8_t *s, size_t n, int32_t *dtype) {
    static const struct { const char *name; uint64_t size; int32_t dtype; } table[] = {
        {"F32", 4, PE_DTYPE_F32}, {"F64", 8, PE_DTYPE_F64}, {"F16", 2, PE_DTYPE_F16},
        {"BF16", 2, PE_DTYPE_BF16}, {"BOOL", 1, 0}, {"U8", 1, 0}, {"I8", 1, 0},
        {"F8_E5M2", 1, 0}, {"F8_E4M3", 1, 0}, {"I16", 2, 0}, {"U16", 2, 0}, {"I32", 4, 0},
        {"U32", 4, 0}, {"I64", 8, 0}, {"U64", 8, 0},
    };
    *dtype = 0;
    for (size_t k = 0; k < sizeof table / sizeof table[0]; k++)
        if (json_is(s, n, table[k].name)) {
            *dtype = table[k].dtype;
            return table[k].size;
        }
    return 0;
}

static pe_status st_tensor_error(parse_ctx *c, const st_tensor *t, const char *text) {
    msgbuf *m = fail_start(c, PE_MATRIX_ERROR_FILE);
    msg_str(m, "tensor ");
    msg_name(m, t->name, t->name_n);
    msg_str(m, ": ");
    msg_str(m, text);
    return PE_ERR_MATRIX;
}

// One tensor entry {"dtype": …, "shape": […], "data_offsets": [b, e]}; unknown keys skipped.
static pe_status st_entry(json *j, st_tensor *t, uint64_t buffer_len) {
    pe_status status;
    int seen_dtype = 0, seen_shape = 0, seen_offsets = 0;
    uint64_t elements = 1;
    if (!json_eat(j, '{')) return st_tensor_error(j->c, t, "its entry must be a JSON object");
    if (!json_eat(j, '}')) {
        for (;;) {
            const uint8_t *key;
            size_t key_n;
            if ((status = json_string(j, &key, &key_n)) != PE_OK) return status;
            if (!json_eat(j, ':')) return json_error(j, "expected ':'");
            if (json_is(key, key_n, "dtype")) {
                if (seen_dtype++) return st_tensor_error(j->c, t, "\"dtype\" appears twice");
                if ((status = json_string(j, &t->dtype_s, &t->dtype_n)) != PE_OK) return status;
            } else if (json_is(key, key_n, "shape")) {
                if (seen_shape++) return st_tensor_error(j->c, t, "\"shape\" appears twice");
                if (!json_eat(j, '[')) return json_error(j, "expected '[' (a shape)");
                if (!json_eat(j, ']')) {
                    for (;;) {
                        uint64_t v = 0;
                        if ((status = json_uint(j, &v, "expected a non-negative integer in the shape")) != PE_OK) return status;
                        if (t->ndim < 8) t->dims[t->ndim] = v;
                        t->ndim++;
                        if (v != 0 && elements > (1ull << 62) / v) t->overflow = 1;
                        else elements *= v;
                        if (json_eat(j, ']')) break;
                        if (!json_eat(j, ',')) return json_error(j, "expected ',' or ']' in the shape");
                    }
                }
            } else if (json_is(key, key_n, "data_offsets")) {
                if (seen_offsets++) return st_tensor_error(j->c, t, "\"data_offsets\" appears twice");
                if (!json_eat(j, '[')) return json_error(j, "expected '[' (data_offsets)");
                if ((status = json_uint(j, &t->begin, "expected a non-negative integer offset")) != PE_OK) return status;
                if (!json_eat(j, ',')) return json_error(j, "expected ',' (data_offsets holds two integers)");
                if ((status = json_uint(j, &t->end, "expected a non-negative integer offset")) != PE_OK) return status;
                if (!json_eat(j, ']')) return json_error(j, "expected ']' (data_offsets holds two integers)");
            } else if ((status = json_skip(j, 2)) != PE_OK) {
                return status;
            }
            if (json_eat(j, '}')) break;
            if (!json_eat(j, ',')) return json_error(j, "expected ',' or '}'");
        }
    }
    if (!seen_dtype) return st_tensor_error(j->c, t, "no \"dtype\"");
    if (!seen_shape) return st_tensor_error(j->c, t, "no \"shape\"");
    if (!seen_offsets) return st_tensor_error(j->c, t, "no \"data_offsets\"");

    parse_ctx *c = j->c;
    if (t->begin > t->end || t->end > buffer_len) {
        msgbuf *m = fail_start(c, PE_MATRIX_ERROR_FILE);
        msg_str(m, "tensor ");
        msg_name(m, t->name, t->name_n);
        msg_str(m, ": data_offsets [");
        msg_u64(m, t->begin);
        msg_str(m, ", ");
        msg_u64(m, t->end);
        msg_str(m, t->begin > t->end ? "] run backwards" : "] end past the data (");
        if (t->begin <= t->end) {
            msg_u64(m, buffer_len);
            msg_str(m, " bytes after the header)");
        }
        return PE_ERR_MATRIX;
    }
    const uint64_t size = st_dtype_size(t->dtype_s, t->dtype_n, &t->dtype);
    if (size != 0 && (t->overflow || elements * size != t->end - t->begin)) {   // elements ≤ 2^62
        msgbuf *m = fail_start(c, PE_MATRIX_ERROR_FILE);
        msg_str(m, "tensor ");
        msg_name(m, t->name, t->name_n);
        msg_str(m, ": data_offsets [");
        msg_u64(m, t->begin);
        msg_str(m, ", ");
        msg_u64(m, t->end);
        msg_str(m, "] hold ");
        msg_u64(m, t->end - t->begin);
        msg_str(m, " bytes but shape ");
        msg_shape(m, t->dims, t->ndim, 0);
        msg_str(m, " of ");
        msg_prefix(m, t->dtype_s, t->dtype_n, 16);
        if (t->overflow) {
            msg_str(m, " is far larger");
        } else {
            msg_str(m, " needs ");
            msg_u64(m, elements * size);
        }
        return PE_ERR_MATRIX;
    }
    return PE_OK;
}

// What a pass over the header collects.
typedef struct {
    const uint8_t *want;   // the requested name, or NULL for "the only tensor"
    size_t want_n;
    st_tensor chosen;
    int64_t matches;
    int64_t tensors;
    char *names;           // pe_matrix_names: NUL-terminated names go here
    size_t names_cap, names_len;
    int64_t names_written;
} st_walk;

// Walks the header object, validating all of it. Returns the byte-buffer length check too.
static pe_status st_header(parse_ctx *c, uint64_t header_len, st_walk *w) {
    const uint64_t buffer_len = c->file_size - 8 - header_len;
    json j = {c, c->bytes + 8, c->bytes + 8, c->bytes + 8 + header_len};
    pe_status status;
    uint64_t max_end = 0;
    int seen_metadata = 0;
    if (j.p >= j.end || *j.p != '{') return json_error(&j, "the header must start with '{'");
    j.p++;
    if (!json_eat(&j, '}')) {
        for (;;) {
            st_tensor t;
            memset(&t, 0, sizeof t);
            if ((status = json_string(&j, &t.name, &t.name_n)) != PE_OK) return status;
            if (!json_eat(&j, ':')) return json_error(&j, "expected ':'");
            if (json_is(t.name, t.name_n, "__metadata__")) {
                if (seen_metadata++) return fail(c, "\"__metadata__\" appears twice in the .safetensors header");
                if (!json_eat(&j, '{')) return json_error(&j, "\"__metadata__\" must be an object of strings");
                if (!json_eat(&j, '}')) {
                    for (;;) {
                        const uint8_t *s;
                        size_t n;
                        if ((status = json_string(&j, &s, &n)) != PE_OK) return status;
                        if (!json_eat(&j, ':')) return json_error(&j, "expected ':'");
                        json_ws(&j);
                        if (j.p >= j.end || *j.p != '"') return json_error(&j, "\"__metadata__\" values must be strings");
                        if ((status = json_string(&j, &s, &n)) != PE_OK) return status;
                        if (json_eat(&j, '}')) break;
                        if (!json_eat(&j, ',')) return json_error(&j, "expected ',' or '}'");
                    }
                }
            } else {
                if ((status = st_entry(&j, &t, buffer_len)) != PE_OK) return status;
                if (t.end > max_end) max_end = t.end;
                w->tensors++;
                if (w->want != NULL ? json_equals(t.name, t.name_n, w->want, w->want_n) : w->tensors == 1) {
                    w->matches++;
                    w->chosen = t;
                }
                if (w->names != NULL) {
                    size_t room = w->names_cap - w->names_len;
                    int64_t len = room > 0 ? json_decode(t.name, t.name_n, w->names + w->names_len, room - 1) : -1;
                    if (len >= 0) {
                        w->names[w->names_len + (size_t)len] = '\0';
                        w->names_len += (size_t)len + 1;
                        w->names_written++;
                    } else {
                        w->names_cap = w->names_len;   // full: later names are counted only
                    }
                }
            }
            if (json_eat(&j, '}')) break;
            if (!json_eat(&j, ',')) return json_error(&j, "expected ',' or '}'");
        }
    }
    json_ws(&j);
    if (j.p != j.end) return json_error(&j, "only spaces may follow the header object");
    if (max_end != buffer_len) {
        msgbuf *m = fail_start(c, PE_MATRIX_ERROR_FILE);
        msg_str(m, "the file is longer than its header describes: the tensors' data_offsets end at ");
        msg_u64(m, max_end);
        msg_str(m, " but ");
        msg_u64(m, buffer_len);
        msg_str(m, " bytes follow the header");
        return PE_ERR_MATRIX;
    }
    c->info[PE_MI_TENSORS] = (double)w->tensors;
    return PE_OK;
}

// The 8-byte length and the header's bounds; *header_len on success.
static pe_status st_prelude(parse_ctx *c, uint64_t *header_len) {
    c->info[PE_MI_FORMAT] = PE_MATRIX_SAFETENSORS;
    pe_status status = need(c, 8, "the .safetensors header length");
    if (status != PE_OK) return status;
    const uint64_t n = read_le(c->bytes, 8);
    if (n < 2 || n > PE_SAFETENSORS_MAX_HEADER) {
        msgbuf *m = fail_start(c, PE_MATRIX_ERROR_FILE);
        msg_str(m, "the .safetensors header length ");
        msg_u64(m, n);
        msg_str(m, " is not in [2, ");
        msg_u64(m, PE_SAFETENSORS_MAX_HEADER);
        msg_str(m, "]");
        return PE_ERR_MATRIX;
    }
    if ((status = need(c, 8 + n, "the .safetensors header")) != PE_OK) return status;
    *header_len = n;
    return PE_OK;
}

static pe_status st_parse(parse_ctx *c, const uint8_t *name, int32_t name_len) {
    uint64_t header_len;
    pe_status status = st_prelude(c, &header_len);
    if (status != PE_OK) return status;
    st_walk w;
    memset(&w, 0, sizeof w);
    w.want = name_len >= 0 ? (name != NULL ? name : (const uint8_t *)"") : NULL;
    w.want_n = name_len >= 0 ? (size_t)name_len : 0;
    if ((status = st_header(c, header_len, &w)) != PE_OK) return status;

    if (w.tensors == 0) return fail(c, "the .safetensors file holds no tensors");
    if (w.want != NULL && w.matches == 0) {
        msgbuf *m = fail_start(c, PE_MATRIX_ERROR_NAME);
        msg_str(m, "no tensor named \"");
        char text[80];
        size_t n = w.want_n < sizeof text ? w.want_n : sizeof text;
        while (n > 0 && n < w.want_n && (w.want[n] & 0xC0) == 0x80) n--;   // whole characters
        memcpy(text, w.want, n);
        msg_raw(m, text, n);
        msg_str(m, w.want_n > n ? "…\" in the file" : "\" in the file");
        return PE_ERR_MATRIX;
    }
    if (w.matches > 1) {
        msgbuf *m = fail_start(c, PE_MATRIX_ERROR_FILE);
        msg_str(m, "the tensor name ");
        msg_name(m, w.chosen.name, w.chosen.name_n);
        msg_str(m, " appears ");
        msg_u64(m, (uint64_t)w.matches);
        msg_str(m, " times in the header");
        return PE_ERR_MATRIX;
    }
    if (w.want == NULL && w.tensors > 1) {
        msgbuf *m = fail_start(c, PE_MATRIX_ERROR_NAME);
        msg_str(m, "the file holds ");
        msg_u64(m, (uint64_t)w.tensors);
        msg_str(m, " tensors: pick one by name");
        return PE_ERR_MATRIX;
    }
    const st_tensor *t = &w.chosen;
    if (t->dtype == 0) {
        msgbuf *m = fail_start(c, PE_MATRIX_ERROR_FILE);
        msg_str(m, "tensor ");
        msg_name(m, t->name, t->name_n);
        msg_str(m, " has dtype ");
        msg_prefix(m, t->dtype_s, t->dtype_n, 16);
        msg_str(m, "; F32, F64, F16 or BF16 is required");
        return PE_ERR_MATRIX;
    }
    c->info[PE_MI_DTYPE] = t->dtype;
    char what[100] = "tensor \"";
    {
        msgbuf label;
        msg_init(&label, what, (int32_t)sizeof what);
        msg_str(&label, "tensor ");
        msg_name(&label, t->name, t->name_n);
    }
    if ((status = check_matrix_shape(c, t->dims, t->ndim, t->overflow, 0, what)) != PE_OK) return status;
    c->info[PE_MI_DATA_BEGIN] = (double)(8 + header_len + t->begin);
    c->info[PE_MI_DATA_END] = (double)(8 + header_len + t->end);
    return PE_OK;
}

// --- public entry points -----------------------------------------------------------------------------

static const uint8_t NPY_MAGIC[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};

static pe_status parse_file(parse_ctx *c, const uint8_t *name, int32_t name_len) {
    // Both formats are longer than 9 bytes: a .npy file's header alone is 10 bytes or more.
    pe_status status = need(c, c->file_size < 9 ? c->file_size : 9, "the file signature");
    if (status != PE_OK) return status;
    if (c->file_size >= 9 && memcmp(c->bytes, NPY_MAGIC, 6) == 0) return npy_parse(c);
    if (c->file_size >= 9 && c->bytes[8] == '{') return st_parse(c, name, name_len);
    msgbuf *m = fail_start(c, PE_MATRIX_ERROR_FILE);
    msg_str(m, "not a .npy file (they start with \\x93NUMPY) nor a .safetensors file (an 8-byte header length, then '{'); the file has ");
    msg_u64(m, c->file_size);
    msg_str(m, " bytes");
    return PE_ERR_MATRIX;
}

static pe_status parse_args(double *info, char *message, int32_t message_cap, const uint8_t *bytes,
                            int64_t size, double file_size) {
    if (info == NULL) return PE_ERR_ARG(1);
    if (message == NULL && message_cap > 0) return PE_ERR_ARG(2);
    if (message_cap < 0) return PE_ERR_ARG(3);
    if (bytes == NULL && size > 0) return PE_ERR_ARG(4);
    if (size < 0) return PE_ERR_ARG(5);
    if (!(file_size >= (double)size && file_size <= 9007199254740992.0) || file_size != floor(file_size))
        return PE_ERR_ARG(6);
    return PE_OK;
}

pe_status pe_matrix_parse(double *info, char *message, int32_t message_cap, const uint8_t *bytes,
                          int32_t size, double file_size, const uint8_t *name, int32_t name_len) {
    pe_status status = parse_args(info, message, message_cap, bytes, size, file_size);
    if (status != PE_OK) return status;
    if (name == NULL && name_len > 0) return PE_ERR_ARG(7);
    if (name_len < -1) return PE_ERR_ARG(8);
    for (int k = 0; k < PE_MI_COUNT; k++) info[k] = 0.0;
    parse_ctx c = {bytes, (uint64_t)size, (uint64_t)file_size, info, {0}};
    msg_init(&c.msg, message, message_cap);
    return parse_file(&c, name, name_len);
}

pe_status pe_matrix_names(char *out, int32_t capacity, double *info, char *message,
                          int32_t message_cap, const uint8_t *bytes, int32_t size, double file_size) {
    if (out == NULL && capacity > 0) return PE_ERR_ARG(1);
    if (capacity < 0) return PE_ERR_ARG(2);
    pe_status status = parse_args(info, message, message_cap, bytes, size, file_size);
    if (status != PE_OK) return PE_ERR_ARG(PE_ERR_ARG_INDEX(status) + 2);
    for (int k = 0; k < PE_MI_COUNT; k++) info[k] = 0.0;
    parse_ctx c = {bytes, (uint64_t)size, (uint64_t)file_size, info, {0}};
    msg_init(&c.msg, message, message_cap);
    if ((status = need(&c, 9, "the .safetensors header")) != PE_OK) return status;
    if (bytes[8] != '{') return fail(&c, "not a .safetensors file");
    uint64_t header_len;
    if ((status = st_prelude(&c, &header_len)) != PE_OK) return status;
    st_walk w;
    memset(&w, 0, sizeof w);
    w.names = out;
    w.names_cap = out != NULL ? (size_t)capacity : 0;
    status = st_header(&c, header_len, &w);
    info[PE_MI_TENSORS] = (double)w.tensors;
    info[PE_MI_NAMES] = (double)w.names_written;
    return status;
}

// --- conversion -------------------------------------------------------------------------------------

// The largest magnitude that rounds to a finite float32 is just below 2^128·(1 − 2^−25).
#define F32_LIMIT 0x1.ffffffp127

int64_t pe_convert_f32le_scalar(float *out, const uint8_t *data, int64_t n) {
    for (int64_t k = 0; k < n; k++) {
        uint32_t bits = (uint32_t)read_le(data + 4 * k, 4);
        if ((bits & 0x7F800000u) == 0x7F800000u) return k;   // NaN or infinity
        memcpy(out + k, &bits, 4);
    }
    return n;
}

int64_t pe_convert_f64le_scalar(float *out, const uint8_t *data, int64_t n) {
    for (int64_t k = 0; k < n; k++) {
        uint64_t bits = read_le(data + 8 * k, 8);
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
    const uint64_t size = dtype_size(dtype);
    uint8_t le[8];
    for (uint64_t k = 0; k < size; k++) le[k] = big_endian ? p[size - 1 - k] : p[k];
    const uint64_t bits = read_le(le, (int)size);
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

static pe_status convert_bad(double *info, msgbuf *m, const uint8_t *p, int32_t dtype,
                             int32_t big_endian, int64_t row, int64_t col) {
    info[PE_MI_BAD_ROW] = (double)row;
    info[PE_MI_BAD_COL] = (double)col;
    info[PE_MI_ERROR_FIELD] = PE_MATRIX_ERROR_FILE;
    const uint64_t size = dtype_size(dtype);
    uint8_t le[8];
    for (uint64_t k = 0; k < size; k++) le[k] = big_endian ? p[size - 1 - k] : p[k];
    const uint64_t bits = read_le(le, (int)size);
    const char *what;
    if (dtype == PE_DTYPE_F64) {
        double v;
        memcpy(&v, &bits, 8);
        what = isnan(v) ? "NaN" : isinf(v) ? "infinite" : "outside the float32 range";
    } else {
        const uint64_t mantissa_mask = dtype == PE_DTYPE_F32 ? 0x7FFFFFu : dtype == PE_DTYPE_F16 ? 0x3FFu : 0x7Fu;
        what = (bits & mantissa_mask) != 0 ? "NaN" : "infinite";
    }
    msg_str(m, "the value at [");
    msg_u64(m, (uint64_t)row);
    msg_str(m, ", ");
    msg_u64(m, (uint64_t)col);
    msg_str(m, "] is ");
    msg_str(m, what);
    msg_str(m, "; a table must hold finite float32 values");
    return PE_ERR_MATRIX;
}

pe_status pe_matrix_convert(float *out, double *info, char *message, int32_t message_cap,
                            const uint8_t *data, int32_t size, int32_t dtype, int32_t big_endian,
                            int32_t fortran, int32_t rows, int32_t cols) {
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
    if (size < 0 || (uint64_t)size != (uint64_t)n * dtype_size(dtype)) return PE_ERR_ARG(6);
    for (int k = 0; k < PE_MI_COUNT; k++) info[k] = 0.0;
    msgbuf m;
    msg_init(&m, message, message_cap);

    const uint64_t size_of = dtype_size(dtype);
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

pe_status pe_matrix_load(float *out, size_t capacity, double *info, char *message,
                         int32_t message_cap, const uint8_t *bytes, size_t size,
                         const uint8_t *name, int32_t name_len) {
    if (out == NULL) return PE_ERR_ARG(1);
    if (size > INT32_MAX) return PE_ERR_ARG(7);
    pe_status status = pe_matrix_parse(info, message, message_cap, bytes, (int32_t)size,
                                       (double)size, name, name_len);
    if (status > 100 && status < 200) {   // parse's argument k → load's (file_size is size)
        const int32_t k = PE_ERR_ARG_INDEX(status);
        return PE_ERR_ARG(k <= 5 ? k + 2 : k == 6 ? 7 : k + 1);
    }
    if (status != PE_OK) return status;
    const int32_t rows = (int32_t)info[PE_MI_ROWS], cols = (int32_t)info[PE_MI_COLS];
    if ((uint64_t)rows * (uint64_t)cols > capacity) return PE_ERR_ARG(2);
    const uint64_t begin = (uint64_t)info[PE_MI_DATA_BEGIN], end = (uint64_t)info[PE_MI_DATA_END];
    double convert_info[PE_MI_COUNT];
    status = pe_matrix_convert(out, convert_info, message, message_cap, bytes + begin,
                               (int32_t)(end - begin), (int32_t)info[PE_MI_DTYPE],
                               (int32_t)info[PE_MI_BIG_ENDIAN], (int32_t)info[PE_MI_FORTRAN], rows, cols);
    info[PE_MI_BAD_ROW] = convert_info[PE_MI_BAD_ROW];
    info[PE_MI_BAD_COL] = convert_info[PE_MI_BAD_COL];
    if (status == PE_ERR_MATRIX) info[PE_MI_ERROR_FIELD] = PE_MATRIX_ERROR_FILE;
    return status;
}

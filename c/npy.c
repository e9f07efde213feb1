// The .npy reader of pe.loadMatrix (NEP 1, numpy.lib.format): the magic "\x93NUMPY", major and
// minor version bytes, the header length (uint16 little-endian in 1.0, uint32 in 2.0 and 3.0),
// then that many bytes of a Python dict literal {'descr': '<f4', 'fortran_order': False,
// 'shape': (r, c), } padded with spaces and a newline (ASCII; UTF-8 allowed in 3.0), then the r·c
// values.
#include <string.h>

#include "matrix_internal.h"

static const char *dtype_label(int32_t dtype) {
    switch (dtype) {
    case PE_DTYPE_F32: return "float32";
    case PE_DTYPE_F64: return "float64";
    case PE_DTYPE_F16: return "float16";
    default: return "bfloat16";
    }
}

static pe_status npy_syntax(pe_scanner *k, const char *expected) {
    pe_msgbuf *m = pe_scan_error(k, "malformed .npy header");
    pe_msg_str(m, "expected ");
    pe_msg_str(m, expected);
    return PE_ERR_MATRIX;
}

// A Python string literal in single or double quotes, printable ASCII, no escapes.
static pe_status py_string(pe_scanner *k, const uint8_t **s, size_t *n) {
    pe_scan_ws(k);
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
static pe_status py_uint(pe_scanner *k, uint64_t *v) {
    pe_scan_ws(k);
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
static pe_status py_bool(pe_scanner *k, int *value) {
    pe_scan_ws(k);
    const uint8_t *start = k->p;
    while (k->p < k->end && ((*k->p >= 'A' && *k->p <= 'Z') || (*k->p >= 'a' && *k->p <= 'z'))) k->p++;
    size_t n = (size_t)(k->p - start);
    if (span_is(start, n, "True")) *value = 1;
    else if (span_is(start, n, "False"))
        *value = 0;
    else {
        k->p = start;
        return npy_syntax(k, "True or False");
    }
    return PE_OK;
}

// (a, b, …) with an optional trailing comma; ndim counts every entry, dims keeps the first 8.
static pe_status py_shape(pe_scanner *k, uint64_t *dims, int32_t *ndim) {
    *ndim = 0;
    if (!pe_scan_eat(k, '(')) return npy_syntax(k, "a shape tuple '('");
    if (pe_scan_eat(k, ')')) return PE_OK;
    for (;;) {
        uint64_t v = 0;
        pe_status status = py_uint(k, &v);
        if (status != PE_OK) return status;
        if (*ndim < 8) dims[*ndim] = v;
        (*ndim)++;
        if (pe_scan_eat(k, ')')) return PE_OK;
        if (!pe_scan_eat(k, ',')) return npy_syntax(k, "',' or ')' in the shape");
        if (pe_scan_eat(k, ')')) return PE_OK;
    }
}

static pe_status npy_dtype(pe_parse_ctx *c, const uint8_t *s, size_t n) {
    if (n == 3 && (s[0] == '<' || s[0] == '>') && s[1] == 'f' && (s[2] == '4' || s[2] == '8' || s[2] == '2')) {
        c->info[PE_MI_BIG_ENDIAN] = s[0] == '>';
        c->info[PE_MI_DTYPE] = s[2] == '4' ? PE_DTYPE_F32 : s[2] == '8' ? PE_DTYPE_F64 : PE_DTYPE_F16;
        return PE_OK;
    }
    pe_msgbuf *m = pe_fail_start(c, PE_MATRIX_ERROR_FILE);
    pe_msg_str(m, "the .npy dtype '");
    pe_msg_raw(m, (const char *)s, n < 40 ? n : 40);
    pe_msg_str(
        m,
        "' is not supported: float32, float64 or float16 is required ('<f4', '<f8', '<f2' or big-endian '>f4', '>f8', '>f2')");
    return PE_ERR_MATRIX;
}

pe_status pe_npy_parse(pe_parse_ctx *c) {
    c->info[PE_MI_FORMAT] = PE_MATRIX_NPY;
    pe_status status = pe_need(c, 8, "the .npy version");
    if (status != PE_OK) return status;
    const uint8_t major = c->bytes[6], minor = c->bytes[7];
    if (major < 1 || major > 3 || minor != 0) {
        pe_msgbuf *m = pe_fail_start(c, PE_MATRIX_ERROR_FILE);
        pe_msg_str(m, "unsupported .npy format version ");
        pe_msg_u64(m, major);
        pe_msg_str(m, ".");
        pe_msg_u64(m, minor);
        pe_msg_str(m, " (1.0, 2.0 and 3.0 are supported)");
        return PE_ERR_MATRIX;
    }
    c->info[PE_MI_VERSION] = major;
    const int length_bytes = major == 1 ? 2 : 4;
    const uint64_t start = 8 + (uint64_t)length_bytes;
    if ((status = pe_need(c, start, "the .npy header length")) != PE_OK) return status;
    const uint64_t header_len = pe_read_le(c->bytes + 8, length_bytes);
    if (header_len > PE_NPY_MAX_HEADER) {
        pe_msgbuf *m = pe_fail_start(c, PE_MATRIX_ERROR_FILE);
        pe_msg_str(m, "the .npy header length ");
        pe_msg_u64(m, header_len);
        pe_msg_str(m, " is more than the limit of ");
        pe_msg_u64(m, PE_NPY_MAX_HEADER);
        pe_msg_str(m, " bytes");
        return PE_ERR_MATRIX;
    }
    const uint64_t end = start + header_len;
    if ((status = pe_need(c, end, "the .npy header")) != PE_OK) return status;

    pe_scanner k = {c, c->bytes + start, c->bytes + start, c->bytes + end};
    for (const uint8_t *q = k.begin; q < k.end; q++)
        if (*q > 0x7E || (*q < 0x20 && *q != '\n' && *q != '\r' && *q != '\t'))
            return pe_fail(c, "the .npy header is not plain ASCII text");
    int seen_descr = 0, seen_fortran = 0, seen_shape = 0, fortran = 0;
    uint64_t dims[8] = {0};
    int32_t ndim = 0;
    if (!pe_scan_eat(&k, '{')) return npy_syntax(&k, "'{'");
    while (!pe_scan_eat(&k, '}')) {
        const uint8_t *key;
        size_t key_n;
        if ((status = py_string(&k, &key, &key_n)) != PE_OK) return status;
        if (!pe_scan_eat(&k, ':')) return npy_syntax(&k, "':'");
        int *seen;
        if (span_is(key, key_n, "descr")) {
            seen = &seen_descr;
            pe_scan_ws(&k);
            if (k.p < k.end && *k.p == '[')
                return pe_fail(
                    c, "the .npy file holds a structured array; a float32, float64 or float16 matrix is required");
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
            pe_msgbuf *m = pe_fail_start(c, PE_MATRIX_ERROR_FILE);
            pe_msg_str(m, "unexpected key '");
            pe_msg_raw(m, (const char *)key, key_n < 40 ? key_n : 40);
            pe_msg_str(m, "' in the .npy header (its keys are 'descr', 'fortran_order' and 'shape')");
            return PE_ERR_MATRIX;
        }
        if (*seen) return pe_fail(c, "a key appears twice in the .npy header");
        *seen = 1;
        if (pe_scan_eat(&k, '}')) break;
        if (!pe_scan_eat(&k, ',')) return npy_syntax(&k, "',' or '}'");
    }
    pe_scan_ws(&k);
    if (k.p != k.end) return npy_syntax(&k, "only spaces and a newline after the header dictionary");
    if (!seen_descr) return pe_fail(c, "the .npy header has no 'descr'");
    if (!seen_fortran) return pe_fail(c, "the .npy header has no 'fortran_order'");
    if (!seen_shape) return pe_fail(c, "the .npy header has no 'shape'");
    c->info[PE_MI_FORTRAN] = fortran;
    if ((status = pe_check_shape(c, dims, &ndim, 0, 1, "the .npy array")) != PE_OK) return status;

    const int32_t dtype = (int32_t)c->info[PE_MI_DTYPE];
    const uint64_t data_bytes = dims[0] * dims[1] * pe_dtype_size(dtype);   // ≤ 2^26·8
    c->info[PE_MI_DATA_BEGIN] = (double)end;
    c->info[PE_MI_DATA_END] = (double)(end + data_bytes);
    if (end + data_bytes != c->file_size) {
        pe_msgbuf *m = pe_fail_start(c, PE_MATRIX_ERROR_FILE);
        int short_file = end + data_bytes > c->file_size;
        pe_msg_str(m, short_file ? "truncated file: the header announces "
                                 : "the file is longer than its header announces: ");
        pe_msg_u64(m, dims[0]);
        pe_msg_str(m, " × ");
        pe_msg_u64(m, dims[1]);
        pe_msg_str(m, " ");
        pe_msg_str(m, dtype_label(dtype));
        pe_msg_str(m, " values = ");
        pe_msg_u64(m, data_bytes);
        pe_msg_str(m, " bytes after the ");
        pe_msg_u64(m, end);
        pe_msg_str(m, "-byte header, the file has ");
        pe_msg_u64(m, c->file_size - end);
        return PE_ERR_MATRIX;
    }
    return PE_OK;
}

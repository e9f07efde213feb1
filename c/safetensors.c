// The .safetensors reader of pe.loadMatrix: a uint64 little-endian header length N, N bytes of a
// JSON object mapping each tensor name to {"dtype", "shape", "data_offsets": [begin, end]}
// (offsets into the byte buffer that follows the header) plus an optional "__metadata__" object
// of strings, then the buffer. The JSON is validated in full (RFC 8259), nested at most
// PE_JSON_MAX_DEPTH deep; as the safetensors library requires, tensor names are distinct and
// the tensors' data_offsets do not overlap and tile the byte buffer without gaps (sorted by offset,
// each begins where the previous one ends, the first at 0, the last at the buffer's end), whichever
// tensor is asked for.
#include <stdlib.h>
#include <string.h>

#include "matrix_internal.h"

// At most max bytes of the UTF-8 text s[0 .. n), cut before a character, not inside one (a JSON
// string from the file quoted in a message; found by tests/fuzz: a dtype cut after 16 bytes
// left half a character, and the message was not valid UTF-8).
static void msg_prefix(pe_msgbuf *m, const uint8_t *s, size_t n, size_t max) {
    if (n > max) {
        n = max;
        while (n > 0 && (s[n] & 0xC0) == 0x80) n--;   // s[n]: the first byte left out
    }
    pe_msg_raw(m, (const char *)s, n);
}

// --- JSON (safetensors header) -----------------------------------------------------------------

static pe_status json_error(pe_scanner *j, const char *expected) {
    pe_msg_str(pe_scan_error(j, "bad .safetensors JSON header"), expected);
    return PE_ERR_MATRIX;
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
static pe_status json_string(pe_scanner *j, const uint8_t **s, size_t *n) {
    pe_scan_ws(j);
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
                    if (j->end - j->p < 12 || j->p[6] != '\\' || j->p[7] != 'u')
                        return json_error(j, "unpaired surrogate escape");
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
    if (memchr(s, '\\', n) == NULL) return n == want_n && memcmp(s, want, n) == 0;   // no escapes: raw = decoded
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
static void msg_name(pe_msgbuf *m, const uint8_t *s, size_t n) {
    char text[80];
    int64_t len = json_decode(s, n, text, sizeof text);
    pe_msg_str(m, "\"");
    if (len >= 0) {
        pe_msg_raw(m, text, (size_t)len);
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
        pe_msg_raw(m, text, k);
        pe_msg_str(m, "…");
    }
    pe_msg_str(m, "\"");
}

// A non-negative JSON integer (no sign, fraction or exponent), at most 2^53.
static pe_status json_uint(pe_scanner *j, uint64_t *v, const char *what) {
    pe_scan_ws(j);
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
static pe_status json_number(pe_scanner *j) {
    if (j->p < j->end && *j->p == '-') j->p++;
    if (j->p >= j->end || *j->p < '0' || *j->p > '9') return json_error(j, "bad number");
    if (*j->p == '0') j->p++;
    else
        while (j->p < j->end && *j->p >= '0' && *j->p <= '9') j->p++;
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

static pe_status json_literal(pe_scanner *j, const char *word) {
    size_t n = strlen(word);
    if ((size_t)(j->end - j->p) < n || memcmp(j->p, word, n) != 0) return json_error(j, "expected a JSON value");
    j->p += n;
    return PE_OK;
}

// Validates and skips any JSON value, nested at most PE_JSON_MAX_DEPTH deep.
static pe_status json_skip(pe_scanner *j, int depth) {
    pe_scan_ws(j);
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
        if (pe_scan_eat(j, close)) return PE_OK;
        for (;;) {
            if (ch == '{') {
                const uint8_t *s;
                size_t n;
                if ((status = json_string(j, &s, &n)) != PE_OK) return status;
                if (!pe_scan_eat(j, ':')) return json_error(j, "expected ':'");
            }
            if ((status = json_skip(j, depth + 1)) != PE_OK) return status;
            if (pe_scan_eat(j, close)) return PE_OK;
            if (!pe_scan_eat(j, ',')) return json_error(j, ch == '{' ? "expected ',' or '}'" : "expected ',' or ']'");
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
    int32_t dtype;   // pe_dtype, or 0 for any other dtype
    const uint8_t *dtype_s;
    size_t dtype_n;
    uint64_t dims[8];   // the first 8 entries of the shape
    int32_t ndim;
    int overflow;          // the element count passed 2^62
    uint64_t begin, end;   // data_offsets
} st_tensor;

// Bytes per element of a safetensors dtype (0: unknown). Sub-byte and future dtypes are unknown:
// their tensors' sizes go unchecked, the offsets are still bounded.
static uint64_t st_dtype_size(const uint8_t *s, size_t n, int32_t *dtype) {
    // clang-format off
    static const struct { const char *name; uint64_t size; int32_t dtype; } table[] = {
        {"F32", 4, PE_DTYPE_F32}, {"F64", 8, PE_DTYPE_F64}, {"F16", 2, PE_DTYPE_F16},
        {"BF16", 2, PE_DTYPE_BF16}, {"BOOL", 1, 0}, {"U8", 1, 0}, {"I8", 1, 0},
        {"F8_E5M2", 1, 0}, {"F8_E4M3", 1, 0}, {"I16", 2, 0}, {"U16", 2, 0}, {"I32", 4, 0},
        {"U32", 4, 0}, {"I64", 8, 0}, {"U64", 8, 0},
    };
    // clang-format on
    *dtype = 0;
    for (size_t k = 0; k < sizeof table / sizeof table[0]; k++)
        if (json_is(s, n, table[k].name)) {
            *dtype = table[k].dtype;
            return table[k].size;
        }
    return 0;
}

// Starts the message "tensor "<name>"" of a file error; the caller appends and returns.
static pe_msgbuf *st_tensor_start(pe_parse_ctx *c, const uint8_t *name, size_t name_n) {
    pe_msgbuf *m = pe_fail_start(c, PE_MATRIX_ERROR_FILE);
    pe_msg_str(m, "tensor ");
    msg_name(m, name, name_n);
    return m;
}

// Appends "<begin>, <end>": a data_offsets range, its brackets left to the caller.
static void msg_offsets(pe_msgbuf *m, uint64_t begin, uint64_t end) {
    pe_msg_u64(m, begin);
    pe_msg_str(m, ", ");
    pe_msg_u64(m, end);
}

static pe_status st_tensor_error(pe_parse_ctx *c, const st_tensor *t, const char *text) {
    pe_msgbuf *m = st_tensor_start(c, t->name, t->name_n);
    pe_msg_str(m, ": ");
    pe_msg_str(m, text);
    return PE_ERR_MATRIX;
}

// Starts the message "tensor "<name>": data_offsets [<begin>, <end>"; the caller appends and returns.
static pe_msgbuf *st_offsets_error(pe_parse_ctx *c, const uint8_t *name, size_t name_n, uint64_t begin, uint64_t end) {
    pe_msgbuf *m = st_tensor_start(c, name, name_n);
    pe_msg_str(m, ": data_offsets [");
    msg_offsets(m, begin, end);
    return m;
}

// One tensor entry {"dtype": …, "shape": […], "data_offsets": [b, e]}; unknown keys skipped.
static pe_status st_entry(pe_scanner *j, st_tensor *t, uint64_t buffer_len) {
    pe_status status;
    int seen_dtype = 0, seen_shape = 0, seen_offsets = 0;
    uint64_t elements = 1;
    if (!pe_scan_eat(j, '{')) return st_tensor_error(j->c, t, "its entry must be a JSON object");
    if (!pe_scan_eat(j, '}')) {
        for (;;) {
            const uint8_t *key;
            size_t key_n;
            if ((status = json_string(j, &key, &key_n)) != PE_OK) return status;
            if (!pe_scan_eat(j, ':')) return json_error(j, "expected ':'");
            if (json_is(key, key_n, "dtype")) {
                if (seen_dtype++) return st_tensor_error(j->c, t, "\"dtype\" appears twice");
                if ((status = json_string(j, &t->dtype_s, &t->dtype_n)) != PE_OK) return status;
            } else if (json_is(key, key_n, "shape")) {
                if (seen_shape++) return st_tensor_error(j->c, t, "\"shape\" appears twice");
                if (!pe_scan_eat(j, '[')) return json_error(j, "expected '[' (a shape)");
                if (!pe_scan_eat(j, ']')) {
                    for (;;) {
                        uint64_t v = 0;
                        if ((status = json_uint(j, &v, "expected a non-negative integer in the shape")) != PE_OK)
                            return status;
                        if (t->ndim < 8) t->dims[t->ndim] = v;
                        t->ndim++;
                        if (v != 0 && elements > (1ull << 62) / v) t->overflow = 1;
                        else
                            elements *= v;
                        if (pe_scan_eat(j, ']')) break;
                        if (!pe_scan_eat(j, ',')) return json_error(j, "expected ',' or ']' in the shape");
                    }
                }
            } else if (json_is(key, key_n, "data_offsets")) {
                if (seen_offsets++) return st_tensor_error(j->c, t, "\"data_offsets\" appears twice");
                if (!pe_scan_eat(j, '[')) return json_error(j, "expected '[' (data_offsets)");
                if ((status = json_uint(j, &t->begin, "expected a non-negative integer offset")) != PE_OK)
                    return status;
                if (!pe_scan_eat(j, ',')) return json_error(j, "expected ',' (data_offsets holds two integers)");
                if ((status = json_uint(j, &t->end, "expected a non-negative integer offset")) != PE_OK) return status;
                if (!pe_scan_eat(j, ']')) return json_error(j, "expected ']' (data_offsets holds two integers)");
            } else if ((status = json_skip(j, 2)) != PE_OK) {
                return status;
            }
            if (pe_scan_eat(j, '}')) break;
            if (!pe_scan_eat(j, ',')) return json_error(j, "expected ',' or '}'");
        }
    }
    if (!seen_dtype) return st_tensor_error(j->c, t, "no \"dtype\"");
    if (!seen_shape) return st_tensor_error(j->c, t, "no \"shape\"");
    if (!seen_offsets) return st_tensor_error(j->c, t, "no \"data_offsets\"");

    pe_parse_ctx *c = j->c;
    if (t->begin > t->end || t->end > buffer_len) {
        pe_msgbuf *m = st_offsets_error(c, t->name, t->name_n, t->begin, t->end);
        pe_msg_str(m, t->begin > t->end ? "] run backwards" : "] end past the data (");
        if (t->begin <= t->end) {
            pe_msg_u64(m, buffer_len);
            pe_msg_str(m, " bytes after the header)");
        }
        return PE_ERR_MATRIX;
    }
    const uint64_t size = st_dtype_size(t->dtype_s, t->dtype_n, &t->dtype);
    if (size != 0 && (t->overflow || elements * size != t->end - t->begin)) {   // elements ≤ 2^62
        pe_msgbuf *m = st_offsets_error(c, t->name, t->name_n, t->begin, t->end);
        pe_msg_str(m, "] hold ");
        pe_msg_u64(m, t->end - t->begin);
        pe_msg_str(m, " bytes but shape ");
        pe_msg_shape(m, t->dims, t->ndim, 0);
        pe_msg_str(m, " of ");
        msg_prefix(m, t->dtype_s, t->dtype_n, 16);
        if (t->overflow) {
            pe_msg_str(m, " is far larger");
        } else {
            pe_msg_str(m, " needs ");
            pe_msg_u64(m, elements * size);
        }
        return PE_ERR_MATRIX;
    }
    return PE_OK;
}

// --- distinct names, disjoint byte ranges ---------------------------------------------------------
//
// The safetensors library refuses a header in which two tensors share a name (JSON lets a key
// repeat; a reader keeping one of them would show another table than the one listed) or in which
// two tensors' data_offsets overlap (writing one would change the other). Names are compared
// decoded, so "a" and "\u0061" are the same name. Ranges [b1, e1) and [b2, e2) overlap when
// b1 < e2 and b2 < e1: ranges that only touch (e1 = b2) do not, nor do two empty ranges.
//
// Nothing may be allocated, so the validated header is read again in blocks of ST_BLOCK entries
// kept on the stack. A block is sorted by (begin, end) and by name hash: neighbours then show a
// repeated name (equal hashes, then the names compared) and an overlap (a range starting before
// the largest end so far). Every later entry, read again from the header, is then looked up in
// the sorted block (binary searches). For n entries: n / ST_BLOCK re-readings of the rest of the
// header and n²/ST_BLOCK · log ST_BLOCK comparisons; PE_SAFETENSORS_MAX_TENSORS (c/matrix.h)
// bounds n, so the time. A block takes ST_BLOCK · 56 bytes of stack (28 KiB, well inside even the
// 64 KiB stack of newer Emscripten defaults); 1024 was 1.5x faster at the limit, 256 2x slower.

#define ST_BLOCK 512

typedef struct {
    const uint8_t *name;   // raw JSON span
    size_t name_n;
    uint64_t begin, end;   // data_offsets
    uint64_t hash;         // FNV-1a of the decoded name
    int64_t seq;           // position in the header (0 for the first tensor)
} st_range;

typedef struct {
    uint64_t hash;
    int32_t at;   // index in the block's array
} st_key;

// FNV-1a (64-bit) of the decoded bytes of a validated JSON string span.
static uint64_t st_name_hash(const uint8_t *s, size_t n) {
    uint64_t h = 0xcbf29ce484222325ull;
    if (memchr(s, '\\', n) == NULL) {   // no escapes: the raw bytes are the decoded ones
        for (size_t k = 0; k < n; k++) h = (h ^ s[k]) * 0x100000001b3ull;
        return h;
    }
    const uint8_t *at = s, *end = s + n;
    while (at < end) {
        uint8_t ch[4];
        int len = json_next_char(&at, end, ch);
        for (int k = 0; k < len; k++) h = (h ^ ch[k]) * 0x100000001b3ull;
    }
    return h;
}

// Whether two validated JSON string spans decode to the same text.
static int st_same_name(const st_range *a, const st_range *b) {
    if (a->hash != b->hash) return 0;
    const uint8_t *p = a->name, *p_end = a->name + a->name_n, *q = b->name, *q_end = b->name + b->name_n;
    while (p < p_end && q < q_end) {
        uint8_t x[4], y[4];
        int lx = json_next_char(&p, p_end, x), ly = json_next_char(&q, q_end, y);
        if (lx != ly || memcmp(x, y, (size_t)lx) != 0) return 0;
    }
    return p == p_end && q == q_end;
}

// The next tensor of a header that st_header has validated, from j (just after the opening '{'
// or after the previous entry): *more = 1 and its range in *r, or *more = 0 at the closing '}'.
static pe_status st_next(pe_scanner *j, uint64_t buffer_len, st_range *r, int *more) {
    pe_status status;
    for (;;) {
        if (pe_scan_eat(j, '}')) {
            *more = 0;
            return PE_OK;
        }
        pe_scan_eat(j, ',');
        st_tensor t;
        memset(&t, 0, sizeof t);
        if ((status = json_string(j, &t.name, &t.name_n)) != PE_OK) return status;
        if (!pe_scan_eat(j, ':')) return json_error(j, "expected ':'");
        if (json_is(t.name, t.name_n, "__metadata__")) {
            if ((status = json_skip(j, 1)) != PE_OK) return status;
            continue;
        }
        if ((status = st_entry(j, &t, buffer_len)) != PE_OK) return status;
        r->name = t.name;
        r->name_n = t.name_n;
        r->begin = t.begin;
        r->end = t.end;
        r->hash = st_name_hash(t.name, t.name_n);
        *more = 1;
        return PE_OK;
    }
}

// The two refusals; a and b in either order, the message names the later one first. A repeated
// name is counted over the whole header (one more reading).
static pe_status st_twice(pe_parse_ctx *c, const st_range *a, const st_range *b, uint64_t header_len,
                          uint64_t buffer_len) {
    const st_range *later = a->seq > b->seq ? a : b;
    pe_scanner j = {c, c->bytes + 8, c->bytes + 9, c->bytes + 8 + header_len};   // after the '{'
    uint64_t times = 0;
    for (;;) {
        st_range r;
        int more;
        pe_status status = st_next(&j, buffer_len, &r, &more);
        if (status != PE_OK) return status;
        if (!more) break;
        times += st_same_name(&r, later);
    }
    pe_msgbuf *m = pe_fail_start(c, PE_MATRIX_ERROR_FILE);
    pe_msg_str(m, "the tensor name ");
    msg_name(m, later->name, later->name_n);
    pe_msg_str(m, " appears ");
    pe_msg_u64(m, times);
    pe_msg_str(m, " times in the .safetensors header");
    return PE_ERR_MATRIX;
}

// Starts the message "tensor "<name>": data_offsets [<begin>, <end>" of a range; the caller appends.
static pe_msgbuf *st_range_error(pe_parse_ctx *c, const st_range *r) {
    return st_offsets_error(c, r->name, r->name_n, r->begin, r->end);
}

static pe_status st_overlap(pe_parse_ctx *c, const st_range *a, const st_range *b) {
    const st_range *later = a->seq > b->seq ? a : b, *earlier = later == a ? b : a;
    pe_msgbuf *m = st_range_error(c, later);
    pe_msg_str(m, "] overlap those of tensor ");
    msg_name(m, earlier->name, earlier->name_n);
    pe_msg_str(m, " [");
    msg_offsets(m, earlier->begin, earlier->end);
    pe_msg_str(m, "]");
    return PE_ERR_MATRIX;
}

// Orders of a block: ranges by (begin, end, seq), keys by (hash, at).
static int st_by_range(const void *x, const void *y) {
    const st_range *a = x, *b = y;
    if (a->begin != b->begin) return a->begin < b->begin ? -1 : 1;
    if (a->end != b->end) return a->end < b->end ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static int st_by_hash(const void *x, const void *y) {
    const st_key *a = x, *b = y;
    if (a->hash != b->hash) return a->hash < b->hash ? -1 : 1;
    return a->at < b->at ? -1 : a->at > b->at;
}

// Sorts a block and checks its pairs. Afterwards its ranges are disjoint and sorted by (begin,
// end), so their ends never decrease either.
static pe_status st_block_check(pe_parse_ctx *c, st_range *block, st_key *keys, int32_t count, uint64_t header_len,
                                uint64_t buffer_len) {
    qsort(block, (size_t)count, sizeof *block, st_by_range);
    for (int32_t k = 0; k < count; k++) keys[k] = (st_key){block[k].hash, k};
    qsort(keys, (size_t)count, sizeof *keys, st_by_hash);
    for (int32_t k = 1; k < count; k++)   // names first: a repeated entry also overlaps itself
        for (int32_t i = k - 1; i >= 0 && keys[i].hash == keys[k].hash; i--)
            if (st_same_name(&block[keys[i].at], &block[keys[k].at]))
                return st_twice(c, &block[keys[i].at], &block[keys[k].at], header_len, buffer_len);
    // Sorted by begin, range k overlaps an earlier one exactly when it starts before the largest
    // end so far (for an empty range [x, x): the earlier ranges starting at x are empty too).
    int32_t widest = 0;
    for (int32_t k = 1; k < count; k++) {
        if (block[k].begin < block[widest].end) return st_overlap(c, &block[widest], &block[k]);
        if (block[k].end > block[widest].end) widest = k;
    }
    return PE_OK;
}

// A later range r against a checked block.
static pe_status st_block_find(pe_parse_ctx *c, const st_range *block, const st_key *keys, int32_t count,
                               const st_range *r, uint64_t header_len, uint64_t buffer_len) {
    int32_t lo = 0, hi = count;   // the first key with hash ≥ r's
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (keys[mid].hash < r->hash) lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < count && keys[lo].hash == r->hash; lo++)
        if (st_same_name(&block[keys[lo].at], r)) return st_twice(c, &block[keys[lo].at], r, header_len, buffer_len);
    lo = 0, hi = count;   // the ranges starting before r ends: block[0 .. lo)
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (block[mid].begin < r->end) lo = mid + 1;
        else
            hi = mid;
    }
    // Of those, the last has the largest end.
    if (lo > 0 && r->begin < block[lo - 1].end) return st_overlap(c, &block[lo - 1], r);
    return PE_OK;
}

// Every pair of tensors in the validated header: distinct names, disjoint data.
static pe_status st_distinct(pe_parse_ctx *c, uint64_t header_len, uint64_t buffer_len) {
    st_range block[ST_BLOCK];
    st_key keys[ST_BLOCK];
    pe_scanner at = {c, c->bytes + 8, c->bytes + 9, c->bytes + 8 + header_len};   // after the '{'
    pe_status status;
    int64_t seq = 0;
    for (;;) {
        int32_t count = 0;
        int more = 1;
        pe_scanner j = at;
        while (count < ST_BLOCK) {
            if ((status = st_next(&j, buffer_len, &block[count], &more)) != PE_OK) return status;
            if (!more) break;
            block[count++].seq = seq++;
        }
        if ((status = st_block_check(c, block, keys, count, header_len, buffer_len)) != PE_OK) return status;
        if (!more) return PE_OK;                // the last block
        at = j;                                 // the next block starts after this one
        for (int64_t later = seq;; later++) {   // the rest of the header against this block
            st_range r;
            if ((status = st_next(&j, buffer_len, &r, &more)) != PE_OK) return status;
            if (!more) break;
            r.seq = later;
            if ((status = st_block_find(c, block, keys, count, &r, header_len, buffer_len)) != PE_OK) return status;
        }
    }
}

// --- no gaps -------------------------------------------------------------------------------------
//
// The safetensors library also requires the data to be contiguous: sorted by (begin, end), each
// tensor begins where the previous one ends, the first at 0, the last at the buffer's end. Once the
// ranges are disjoint and end by the buffer's end, that holds exactly when their lengths add up to
// the buffer's length, which st_header counts as it goes. Only when they do not is the tensor after
// the first gap looked for: the first, in (begin, end) order, whose begin is past the largest end of
// the non-empty ranges ending by it (0 for none; empty ranges cover no byte). As in st_distinct, the
// header is read in blocks of ST_BLOCK entries sorted by range, each block against one more reading
// of the whole header (a range ending at e raises the bound of the block's entries beginning at or
// after e: a suffix, kept as a running maximum). Bad files alone pay for it.

static pe_status st_gap_error(pe_parse_ctx *c, const st_range *t, uint64_t before) {
    pe_msgbuf *m = st_range_error(c, t);
    pe_msg_str(m, "] begin at ");
    pe_msg_u64(m, t->begin);
    pe_msg_str(m, ", but the data before them ends at ");
    pe_msg_u64(m, before);
    pe_msg_str(m, ": each tensor's data must begin where the previous one's ends (sorted by offset, the first at 0, "
                  "the last ending the file)");
    return PE_ERR_MATRIX;
}

// Called when the disjoint ranges leave a gap: names the tensor after the first one.
static pe_status st_gap(pe_parse_ctx *c, uint64_t header_len, uint64_t buffer_len) {
    st_range block[ST_BLOCK];
    uint64_t bound[ST_BLOCK];   // the largest end ≤ each entry's begin (a running maximum after the pass)
    st_range first;
    uint64_t first_before = 0;
    int have = 0;
    const pe_scanner start = {c, c->bytes + 8, c->bytes + 9, c->bytes + 8 + header_len};   // after the '{'
    pe_scanner at = start;
    pe_status status;
    for (int more = 1; more;) {
        int32_t count = 0;
        pe_scanner j = at;
        while (count < ST_BLOCK) {
            if ((status = st_next(&j, buffer_len, &block[count], &more)) != PE_OK) return status;
            if (!more) break;
            block[count++].seq = 0;
        }
        at = j;
        qsort(block, (size_t)count, sizeof *block, st_by_range);
        for (int32_t k = 0; k < count; k++) bound[k] = 0;
        pe_scanner all = start;
        for (int again = 1;;) {
            st_range r;
            if ((status = st_next(&all, buffer_len, &r, &again)) != PE_OK) return status;
            if (!again) break;
            if (r.begin == r.end) continue;
            int32_t lo = 0, hi = count;   // the first entry beginning at or after r.end
            while (lo < hi) {
                int32_t mid = lo + (hi - lo) / 2;
                if (block[mid].begin < r.end) lo = mid + 1;
                else
                    hi = mid;
            }
            if (lo < count && r.end > bound[lo]) bound[lo] = r.end;
        }
        uint64_t running = 0;
        for (int32_t k = 0; k < count; k++) {
            if (bound[k] > running) running = bound[k];
            if (block[k].begin > running && (!have || st_by_range(&block[k], &first) < 0)) {
                first = block[k];
                first_before = running;
                have = 1;
            }
        }
    }
    if (have) return st_gap_error(c, &first, first_before);
    return pe_fail(c, "the tensors' data_offsets leave gaps in the data");   // unreachable for validated ranges
}

// What a pass over the header collects.
typedef struct {
    const uint8_t *want;   // the requested name, or NULL for "the only tensor"
    size_t want_n;
    st_tensor chosen;
    int64_t matches;
    int64_t tensors;
    char *names;   // pe_matrix_names: NUL-terminated names go here
    size_t names_cap, names_len;
    int64_t names_written;
} st_walk;

// Walks the header object, validating all of it. Returns the byte-buffer length check too.
static pe_status st_header(pe_parse_ctx *c, uint64_t header_len, st_walk *w) {
    const uint64_t buffer_len = c->file_size - 8 - header_len;
    pe_scanner j = {c, c->bytes + 8, c->bytes + 8, c->bytes + 8 + header_len};
    pe_status status;
    uint64_t max_end = 0, total = 0;   // the largest end, the sum of the lengths
    int seen_metadata = 0;
    if (j.p >= j.end || *j.p != '{') return json_error(&j, "the header must start with '{'");
    j.p++;
    if (!pe_scan_eat(&j, '}')) {
        for (;;) {
            st_tensor t;
            memset(&t, 0, sizeof t);
            if ((status = json_string(&j, &t.name, &t.name_n)) != PE_OK) return status;
            if (!pe_scan_eat(&j, ':')) return json_error(&j, "expected ':'");
            if (json_is(t.name, t.name_n, "__metadata__")) {
                if (seen_metadata++) return pe_fail(c, "\"__metadata__\" appears twice in the .safetensors header");
                if (!pe_scan_eat(&j, '{')) return json_error(&j, "\"__metadata__\" must be an object of strings");
                if (!pe_scan_eat(&j, '}')) {
                    for (;;) {
                        const uint8_t *s;
                        size_t n;
                        if ((status = json_string(&j, &s, &n)) != PE_OK) return status;
                        if (!pe_scan_eat(&j, ':')) return json_error(&j, "expected ':'");
                        pe_scan_ws(&j);
                        if (j.p >= j.end || *j.p != '"')
                            return json_error(&j, "\"__metadata__\" values must be strings");
                        if ((status = json_string(&j, &s, &n)) != PE_OK) return status;
                        if (pe_scan_eat(&j, '}')) break;
                        if (!pe_scan_eat(&j, ',')) return json_error(&j, "expected ',' or '}'");
                    }
                }
            } else {
                if ((status = st_entry(&j, &t, buffer_len)) != PE_OK) return status;
                if (t.end > max_end) max_end = t.end;
                total += t.end - t.begin;   // each ≤ buffer_len, at most 2^15 of them: no overflow
                if (++w->tensors > PE_SAFETENSORS_MAX_TENSORS) {
                    pe_msgbuf *m = pe_fail_start(c, PE_MATRIX_ERROR_FILE);
                    pe_msg_str(m, "the .safetensors header lists more than PE_SAFETENSORS_MAX_TENSORS = ");
                    pe_msg_u64(m, PE_SAFETENSORS_MAX_TENSORS);
                    pe_msg_str(m, " tensors");
                    return PE_ERR_MATRIX;
                }
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
            if (pe_scan_eat(&j, '}')) break;
            if (!pe_scan_eat(&j, ',')) return json_error(&j, "expected ',' or '}'");
        }
    }
    pe_scan_ws(&j);
    if (j.p != j.end) return json_error(&j, "only spaces may follow the header object");
    if ((status = st_distinct(c, header_len, buffer_len)) != PE_OK) return status;
    if (max_end != buffer_len) {
        pe_msgbuf *m = pe_fail_start(c, PE_MATRIX_ERROR_FILE);
        pe_msg_str(m, "the file is longer than its header describes: the tensors' data_offsets end at ");
        pe_msg_u64(m, max_end);
        pe_msg_str(m, " but ");
        pe_msg_u64(m, buffer_len);
        pe_msg_str(m, " bytes follow the header");
        return PE_ERR_MATRIX;
    }
    if (total != buffer_len && (status = st_gap(c, header_len, buffer_len)) != PE_OK) return status;
    c->info[PE_MI_TENSORS] = (double)w->tensors;
    return PE_OK;
}

// The 8-byte length and the header's bounds; *header_len on success.
static pe_status st_prelude(pe_parse_ctx *c, uint64_t *header_len) {
    c->info[PE_MI_FORMAT] = PE_MATRIX_SAFETENSORS;
    pe_status status = pe_need(c, 8, "the .safetensors header length");
    if (status != PE_OK) return status;
    const uint64_t n = pe_read_le(c->bytes, 8);
    if (n < 2 || n > PE_SAFETENSORS_MAX_HEADER) {
        pe_msgbuf *m = pe_fail_start(c, PE_MATRIX_ERROR_FILE);
        pe_msg_str(m, "the .safetensors header length ");
        pe_msg_u64(m, n);
        pe_msg_str(m, " is not in [2, ");
        pe_msg_u64(m, PE_SAFETENSORS_MAX_HEADER);
        pe_msg_str(m, "]");
        return PE_ERR_MATRIX;
    }
    if ((status = pe_need(c, 8 + n, "the .safetensors header")) != PE_OK) return status;
    *header_len = n;
    return PE_OK;
}

pe_status pe_safetensors_parse(pe_parse_ctx *c, const uint8_t *name, int32_t name_len) {
    uint64_t header_len;
    pe_status status = st_prelude(c, &header_len);
    if (status != PE_OK) return status;
    st_walk w;
    memset(&w, 0, sizeof w);
    w.want = name_len >= 0 ? (name != NULL ? name : (const uint8_t *)"") : NULL;
    w.want_n = name_len >= 0 ? (size_t)name_len : 0;
    if ((status = st_header(c, header_len, &w)) != PE_OK) return status;

    if (w.tensors == 0) return pe_fail(c, "the .safetensors file holds no tensors");
    if (w.want != NULL && w.matches == 0) {
        pe_msgbuf *m = pe_fail_start(c, PE_MATRIX_ERROR_NAME);
        pe_msg_str(m, "no tensor named \"");
        char text[80];
        size_t n = w.want_n < sizeof text ? w.want_n : sizeof text;
        while (n > 0 && n < w.want_n && (w.want[n] & 0xC0) == 0x80) n--;   // whole characters
        memcpy(text, w.want, n);
        pe_msg_raw(m, text, n);
        pe_msg_str(m, w.want_n > n ? "…\" in the file" : "\" in the file");
        return PE_ERR_MATRIX;
    }
    if (w.want == NULL && w.tensors > 1) {
        pe_msgbuf *m = pe_fail_start(c, PE_MATRIX_ERROR_NAME);
        pe_msg_str(m, "the file holds ");
        pe_msg_u64(m, (uint64_t)w.tensors);
        pe_msg_str(m, " tensors: pick one by name");
        return PE_ERR_MATRIX;
    }
    st_tensor *t = &w.chosen;   // pe_check_shape squeezes its leading 1s
    if (t->dtype == 0) {
        pe_msgbuf *m = st_tensor_start(c, t->name, t->name_n);
        pe_msg_str(m, " has dtype ");
        msg_prefix(m, t->dtype_s, t->dtype_n, 16);
        pe_msg_str(m, "; F32, F64, F16 or BF16 is required");
        return PE_ERR_MATRIX;
    }
    c->info[PE_MI_DTYPE] = t->dtype;
    char what[100] = "tensor \"";
    {
        pe_msgbuf label;
        pe_msg_init(&label, what, (int32_t)sizeof what);
        pe_msg_str(&label, "tensor ");
        msg_name(&label, t->name, t->name_n);
    }
    if ((status = pe_check_shape(c, t->dims, &t->ndim, t->overflow, 0, what)) != PE_OK) return status;
    c->info[PE_MI_DATA_BEGIN] = (double)(8 + header_len + t->begin);
    c->info[PE_MI_DATA_END] = (double)(8 + header_len + t->end);
    return PE_OK;
}

pe_status pe_safetensors_names(pe_parse_ctx *c, char *out, int32_t capacity) {
    pe_status status;
    if ((status = pe_need(c, 9, "the .safetensors header")) != PE_OK) return status;
    if (c->bytes[8] != '{') return pe_fail(c, "not a .safetensors file");
    uint64_t header_len;
    if ((status = st_prelude(c, &header_len)) != PE_OK) return status;
    st_walk w;
    memset(&w, 0, sizeof w);
    w.names = out;
    w.names_cap = out != NULL ? (size_t)capacity : 0;
    status = st_header(c, header_len, &w);
    c->info[PE_MI_TENSORS] = (double)w.tensors;
    c->info[PE_MI_NAMES] = (double)w.names_written;
    return status;
}

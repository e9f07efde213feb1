// Internal to the matrix readers (c/matrix.c, c/npy.c, c/safetensors.c): messages, the parser
// state, and the one scanner of header text that the .npy and the JSON parsers share.
#ifndef PE_MATRIX_INTERNAL_H
#define PE_MATRIX_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "matrix.h"

// --- messages -----------------------------------------------------------------------------------

typedef struct {
    char *buf;
    int32_t cap;   // bytes, with the NUL
    int32_t len;
} pe_msgbuf;

void pe_msg_init(pe_msgbuf *m, char *buf, int32_t cap);
// Appends n bytes, truncating at the capacity without splitting a UTF-8 sequence.
void pe_msg_raw(pe_msgbuf *m, const char *s, size_t n);
void pe_msg_str(pe_msgbuf *m, const char *s);
void pe_msg_u64(pe_msgbuf *m, uint64_t v);
// Shape as "(a, b, c)" (python) or "[a, b, c]", at most 8 entries shown.
void pe_msg_shape(pe_msgbuf *m, const uint64_t *dims, int32_t ndim, int python);

// --- parser state -------------------------------------------------------------------------------

typedef struct {
    const uint8_t *bytes;   // the first `size` bytes of the file
    uint64_t size;
    uint64_t file_size;
    double *info;
    pe_msgbuf msg;
} pe_parse_ctx;

// Starts an error message (replacing any earlier text); the caller appends and returns.
pe_msgbuf *pe_fail_start(pe_parse_ctx *c, int32_t field);
// PE_ERR_MATRIX with the message text (the file is at fault).
pe_status pe_fail(pe_parse_ctx *c, const char *text);
// The first k bytes must be available: PE_OK when they are, PE_MATRIX_NEED_MORE when the file
// has them but the prefix does not, PE_ERR_MATRIX when the file is shorter.
pe_status pe_need(pe_parse_ctx *c, uint64_t k, const char *what);
// The little-endian unsigned integer of `bytes` (1..8) bytes at p.
uint64_t pe_read_le(const uint8_t *p, int bytes);
// Bytes per value of a pe_dtype.
uint64_t pe_dtype_size(int32_t dtype);
// Checks a 2-D shape and records it: rows, cols ≥ 1 and rows·cols ≤ PE_MAX_ELEMENTS. Leading
// dimensions of 1 are squeezed away in place (dims, *ndim), so [1, 197, 768] is a 197 × 768 matrix.
pe_status pe_check_shape(pe_parse_ctx *c, uint64_t *dims, int32_t *ndim, int overflow, int python, const char *what);

// --- the scanner of header text (a .npy dict literal, a .safetensors JSON header) ----------------

typedef struct {
    pe_parse_ctx *c;
    const uint8_t *begin, *p, *end;   // the header text, and the position in it
} pe_scanner;

// Skips spaces, tabs, newlines and carriage returns.
void pe_scan_ws(pe_scanner *k);
// Skips white space, then consumes ch when it comes next: 1 when it did.
int pe_scan_eat(pe_scanner *k, uint8_t ch);
// Starts the message "<what> at byte <position in the header>: "; the caller appends and returns.
pe_msgbuf *pe_scan_error(pe_scanner *k, const char *what);

// --- the two formats ----------------------------------------------------------------------------

// pe_matrix_parse of a file that starts with the .npy magic (c/npy.c).
pe_status pe_npy_parse(pe_parse_ctx *c);
// pe_matrix_parse of a .safetensors file, picking the tensor called name (c/safetensors.c).
pe_status pe_safetensors_parse(pe_parse_ctx *c, const uint8_t *name, int32_t name_len);
// pe_matrix_names after its argument checks: the names, NUL-terminated, in out (c/safetensors.c).
pe_status pe_safetensors_names(pe_parse_ctx *c, char *out, int32_t capacity);

#endif   // PE_MATRIX_INTERNAL_H

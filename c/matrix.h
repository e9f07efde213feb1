// Reading a user's 2-D table from a .npy or .safetensors file (`pe.loadMatrix`).
//
// The parsers take untrusted bytes: every length, offset and product is validated (64-bit
// arithmetic with explicit overflow checks), nothing is read outside [bytes, bytes + size), the
// JSON and Python-literal parsers have bounded recursion, and nothing is allocated. A problem
// with the file is status PE_ERR_MATRIX with a one-line English message saying what is wrong.
//
// Two steps, so that a browser never copies a whole checkpoint into WebAssembly memory:
//   1. pe_matrix_parse(prefix of the file, its total size, tensor name) → where the table is
//      (info[PE_MI_DATA_BEGIN .. PE_MI_DATA_END)), its dtype, byte order, order and shape; or
//      PE_MATRIX_NEED_MORE when the header runs past the prefix (info[PE_MI_NEED] bytes needed).
//   2. pe_matrix_convert(those bytes) → float32 row-major, refusing NaN, ±Infinity and values
//      outside the float32 range.
// Supported: .npy versions 1.0, 2.0 and 3.0, dtypes '<f4' '>f4' '<f8' '>f8' '<f2' '>f2', C or
// Fortran order, exactly 2-D; .safetensors tensors of dtype F32, F64, F16 or BF16, exactly 2-D.
#ifndef PE_MATRIX_H
#define PE_MATRIX_H

#include <stddef.h>
#include <stdint.h>

#include "pe.h"
#include "pe_simd.h"

// Statuses of the matrix functions, besides PE_OK and PE_ERR_ARG(k): PE_ERR_MATRIX and
// PE_MATRIX_NEED_MORE (c/pe.h, with every status code).

// Limits: a .npy header (v1 cannot exceed 65535 anyway), a .safetensors JSON header (the
// safetensors library's own limit), nesting of JSON values, and tensors in a .safetensors header
// (real checkpoints hold a few thousand at most; checking that every pair has distinct names and
// disjoint data_offsets, without allocating, takes 0.6 s natively at this limit and a few times
// that in WebAssembly: c/safetensors.c).
#define PE_NPY_MAX_HEADER 65536
#define PE_SAFETENSORS_MAX_HEADER 100000000
#define PE_SAFETENSORS_MAX_TENSORS 32768
#define PE_JSON_MAX_DEPTH 32

typedef enum { PE_MATRIX_NPY = 1, PE_MATRIX_SAFETENSORS = 2 } pe_matrix_format;
typedef enum { PE_DTYPE_F32 = 1, PE_DTYPE_F64 = 2, PE_DTYPE_F16 = 3, PE_DTYPE_BF16 = 4 } pe_dtype;

// Entries of the info array (doubles: byte offsets may exceed 2^32, and doubles hold integers
// exactly up to 2^53).
enum {
    PE_MI_FORMAT = 0,       // pe_matrix_format
    PE_MI_DTYPE = 1,        // pe_dtype
    PE_MI_BIG_ENDIAN = 2,   // 1 when the file stores big-endian values
    PE_MI_FORTRAN = 3,      // 1 when the file stores the matrix column by column
    PE_MI_ROWS = 4,
    PE_MI_COLS = 5,
    PE_MI_DATA_BEGIN = 6,     // byte offset of the values in the file
    PE_MI_DATA_END = 7,       // one past the last byte of the values
    PE_MI_NEED = 8,           // PE_MATRIX_NEED_MORE: bytes from the start the header needs
    PE_MI_TENSORS = 9,        // safetensors: number of tensors in the file
    PE_MI_VERSION = 10,       // npy: major version (1, 2, 3)
    PE_MI_ERROR_FIELD = 11,   // PE_ERR_MATRIX: 1 when the file is at fault, 2 the tensor name
    PE_MI_BAD_ROW = 12,       // pe_matrix_convert: position of the first refused value
    PE_MI_BAD_COL = 13,
    PE_MI_NAMES = 14,   // pe_matrix_names: names written
    PE_MI_COUNT = 16
};
#define PE_MATRIX_ERROR_FILE 1
#define PE_MATRIX_ERROR_NAME 2

// Parses the header of a .npy or .safetensors file from its first `size` bytes, `file_size`
// being the whole file's size (an integer-valued double, size ≤ file_size ≤ 2^53). For
// safetensors, picks the tensor called name[0 .. name_len) (UTF-8; name_len −1: no name, allowed
// when the file holds exactly one tensor); a .npy file ignores the name.
// info: (PE_MI_COUNT) doubles; message: (message_cap) bytes, a NUL-terminated message on
// PE_ERR_MATRIX. Errors: PE_ERR_ARG(1..8) for info, message, message_cap, bytes, size,
// file_size, name, name_len; PE_ERR_MATRIX; PE_MATRIX_NEED_MORE.
PE_API pe_status pe_matrix_parse(double *info, char *message, int32_t message_cap, const uint8_t *bytes, int32_t size,
                                 double file_size, const uint8_t *name, int32_t name_len);

// Converts rows·cols values stored as `dtype` (byte order, C or Fortran order) to float32.
// out: (rows, cols) row-major; data: exactly rows·cols·itemsize bytes (size). A NaN, an
// infinity or a float64 beyond the float32 range is PE_ERR_MATRIX with its position in
// info[PE_MI_BAD_ROW], info[PE_MI_BAD_COL]. Errors: PE_ERR_ARG(1..11) for out, info, message,
// message_cap, data, size, dtype, big_endian, fortran, rows, cols; PE_ERR_MATRIX.
PE_API pe_status pe_matrix_convert(float *out, double *info, char *message, int32_t message_cap, const uint8_t *data,
                                   int32_t size, int32_t dtype, int32_t big_endian, int32_t fortran, int32_t rows,
                                   int32_t cols);

// The tensor names of a .safetensors file (its header within bytes[0 .. size), file_size its
// whole size: the header is validated as by pe_matrix_parse), in file order,
// each NUL-terminated in out (capacity bytes; names that do not fit are counted, not written).
// info[PE_MI_TENSORS]: all names; info[PE_MI_NAMES]: names written. Errors: as pe_matrix_parse.
PE_API pe_status pe_matrix_names(char *out, int32_t capacity, double *info, char *message, int32_t message_cap,
                                 const uint8_t *bytes, int32_t size, double file_size);

// Both steps on one complete file in memory (native callers, fuzzing): out holds capacity floats.
pe_status pe_matrix_load(float *out, size_t capacity, double *info, char *message, int32_t message_cap,
                         const uint8_t *bytes, size_t size, const uint8_t *name, int32_t name_len);

// The conversion of C-ordered little-endian float32/float64 values (n of them), scalar reference
// and SIMD; return the index of the first refused value, or n.
typedef int64_t (*pe_convert_fn)(float *out, const uint8_t *data, int64_t n);
int64_t pe_convert_f32le_scalar(float *out, const uint8_t *data, int64_t n);
int64_t pe_convert_f64le_scalar(float *out, const uint8_t *data, int64_t n);
#if PE_HAVE_SIMD
int64_t pe_convert_f32le_simd(float *out, const uint8_t *data, int64_t n);
int64_t pe_convert_f64le_simd(float *out, const uint8_t *data, int64_t n);
#endif

#endif   // PE_MATRIX_H

// PE Lab kernels: the public C API.
//
// Every kernel writes into caller-owned memory (output first, like llama2.c), validates all of
// its arguments itself, never allocates, never aborts, and reports problems as a pe_status.
// The same sources build for WebAssembly (SIMD and scalar) and natively (SIMD through SIMDe).
#ifndef PE_H
#define PE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// Status codes. Each error names the argument that is wrong; pe_status_param() gives its
// spec field name and pe_status_message() a sentence for people.
typedef enum {
    PE_OK = 0,
    PE_ERR_NULL = 1,        // an output or input pointer is NULL
    PE_ERR_LENGTH = 2,      // length out of range
    PE_ERR_DIM = 3,         // dim out of range
    PE_ERR_BASE = 4,        // base not finite or not > 1
    PE_ERR_LAYOUT = 5,      // unknown layout code
    PE_ERR_OFFSET = 6,      // offset negative or offset + length past PE_MAX_POSITION
    PE_ERR_TOO_LARGE = 7,   // the output would exceed PE_MAX_ELEMENTS
} pe_status;

// Largest output a kernel writes, in floats (2^26 = 256 MiB).
#define PE_MAX_ELEMENTS (1 << 26)
// Positions are unsigned 32-bit inside the kernels; public ones stay within int32.
#define PE_MAX_POSITION 2147483647
#define PE_MAX_LENGTH (1 << 20)
#define PE_MAX_DIM 16384

// Sinusoidal layouts (see shared/spec-contract.md, kind `sinusoidal`).
typedef enum {
    PE_SIN_INTERLEAVED = 0,   // col 2i = sin(p·ω_i), col 2i+1 = cos(p·ω_i), ω_i = base^(-2i/dim)
    PE_SIN_CONCAT = 1,        // cols [0,h) sin, [h,2h) cos, same ω, h = dim/2
    PE_SIN_TENSOR2TENSOR = 2, // concat with ω_k = exp(-k·ln(base)/max(h-1,1))
} pe_sin_layout;

// Writes the sinusoidal table for positions offset .. offset+length-1.
// out: (length, dim) row-major floats. Max abs error <= 2e-7 against float64 for every
// position up to PE_MAX_POSITION (the phase is reduced exactly in 64-bit fixed point).
pe_status pe_sinusoidal(float *out, int32_t length, int32_t dim, double base, int32_t layout,
                        int32_t offset);

// 1 when this build uses 128-bit SIMD kernels, 0 for the scalar build.
int32_t pe_simd_enabled(void);

// The spec field an error status refers to ("dim", "base", ...), or "" for PE_OK.
const char *pe_status_param(int32_t status);
// A short English description of a status.
const char *pe_status_message(int32_t status);

#ifdef __cplusplus
}
#endif

#endif // PE_H

// PE Lab kernels: the public C API.
//
// Every kernel writes into caller-owned memory (output first, like llama2.c), validates all of
// its arguments itself, never allocates, never aborts, and reports problems as a pe_status.
// The same sources build for WebAssembly (SIMD and scalar) and natively (SIMD through SIMDe).
// Each encoding family has its own header, included below.
#ifndef PE_H
#define PE_H

#include <stdint.h>

// Public kernels are exported from the WebAssembly modules by this mark alone (no list to keep).
#if defined(__EMSCRIPTEN__)
#include <emscripten.h>
#define PE_API EMSCRIPTEN_KEEPALIVE
#else
#define PE_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

// Status codes. PE_ERR_ARG(k) names the offending argument by its position in the kernel's
// parameter list (1 = the first, usually the output pointer), so callers can say which spec field
// is wrong without a table of codes per kernel.
typedef int32_t pe_status;
#define PE_OK 0
#define PE_ERR_TOO_LARGE 1          // the output would exceed PE_MAX_ELEMENTS
#define PE_ERR_ARG(k) (100 + (k))   // argument k is NULL, out of range, or an unknown code
#define PE_ERR_ARG_INDEX(status) (-100 + (status))
// Statuses of the matrix readers (c/matrix.h); web/api/kernels/matrix.js mirrors the numbers.
#define PE_ERR_MATRIX 300         // the bytes are not a supported matrix; the message says why
#define PE_MATRIX_NEED_MORE 301   // pe_matrix_parse needs the first info[PE_MI_NEED] bytes
// Statuses of the Arena trainer (c/arena.h); web/api/kernels/arena.js mirrors the numbers.
#define PE_ARENA_DIVERGED 310     // pe_arena_step: the loss stopped being finite (lr too large)
#define PE_ARENA_NOT_FINITE 311   // pe_arena_evaluate/attention: the forward pass is not finite

// Largest output a kernel writes, in floats (2^26 = 256 MiB).
#define PE_MAX_ELEMENTS (1 << 26)
// Positions are unsigned 32-bit inside the kernels; public ones stay within int32.
#define PE_MAX_POSITION 2147483647
#define PE_MAX_LENGTH (1 << 20)
#define PE_MAX_DIM 16384

// 1 when this build uses 128-bit SIMD kernels, 0 for the scalar build.
PE_API int32_t pe_simd_enabled(void);

// A short English description of a status.
PE_API const char *pe_status_message(pe_status status);

#ifdef __cplusplus
}
#endif

#include "sinusoidal.h"
#include "vision.h"
#include "mrope.h"
#include "rope.h"
#include "rope_view.h"
#include "precision.h"
#include "absolute.h"
#include "relative.h"
#include "matrix.h"
#include "attention.h"
#include "arena.h"

#endif   // PE_H

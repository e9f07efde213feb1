// Internal: which SIMD the kernels are built with.
//
// WebAssembly with -msimd128 uses the compiler's wasm_simd128.h. Native builds (tests, fuzzing)
// get the same intrinsics from SIMDe when PE_NATIVE_SIMDE is defined, so the exact code that ships
// to browsers also runs under ASan/UBSan on x86. The scalar WebAssembly build defines neither.
#ifndef PE_SIMD_H
#define PE_SIMD_H

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#define PE_HAVE_SIMD 1
#elif defined(PE_NATIVE_SIMDE)
#define SIMDE_WASM_SIMD128_ENABLE_NATIVE_ALIASES
#include <simde/wasm/simd128.h>
#define PE_HAVE_SIMD 1
#else
#define PE_HAVE_SIMD 0
#endif

// Vector width in floats; every SIMD loop has a scalar tail for the remaining n % PE_LANES.
#define PE_LANES 4

#endif   // PE_SIMD_H

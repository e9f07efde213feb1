// Status codes → messages, and build facts the JS layer asks for.
#include "pe.h"
#include "pe_simd.h"

int32_t pe_simd_enabled(void) { return PE_HAVE_SIMD; }

const char *pe_status_message(pe_status status) {
    if (status == PE_OK) return "ok";
    if (status == PE_ERR_TOO_LARGE) return "the output would exceed PE_MAX_ELEMENTS (2^26 floats)";
    if (status > 100 && status < 200) return "an argument is NULL, out of range, or an unknown code";
    if (status == PE_ERR_MATRIX) return "the bytes are not a supported .npy or .safetensors matrix";
    if (status == PE_MATRIX_NEED_MORE) return "the matrix header runs past the bytes given";
    if (status == PE_ARENA_DIVERGED) return "training diverged: the loss is no longer finite (lr too large)";
    if (status == PE_ARENA_NOT_FINITE)
        return "the forward pass is not finite: the parameters are not finite or so large that float32 overflows";
    return "unknown status";
}

// Status codes → spec field names and messages, and build facts the JS layer asks for.
#include "pe.h"
#include "pe_simd.h"

int32_t pe_simd_enabled(void) { return PE_HAVE_SIMD; }

const char *pe_status_param(int32_t status) {
    switch (status) {
    case PE_OK: return "";
    case PE_ERR_LENGTH: return "length";
    case PE_ERR_DIM: return "dim";
    case PE_ERR_BASE: return "base";
    case PE_ERR_LAYOUT: return "layout";
    case PE_ERR_OFFSET: return "offset";
    case PE_ERR_TOO_LARGE: return "length";
    case PE_ERR_NULL: return "out";
    default: return "kind";
    }
}

const char *pe_status_message(int32_t status) {
    switch (status) {
    case PE_OK: return "ok";
    case PE_ERR_NULL: return "a buffer pointer is NULL";
    case PE_ERR_LENGTH: return "length must be an integer in [1, 1048576]";
    case PE_ERR_DIM: return "dim must be an integer in [1, 16384]";
    case PE_ERR_BASE: return "base must be a finite number greater than 1";
    case PE_ERR_LAYOUT: return "layout code is unknown";
    case PE_ERR_OFFSET: return "offset must be >= 0 with offset + length <= 2147483647";
    case PE_ERR_TOO_LARGE: return "the output would exceed PE_MAX_ELEMENTS (2^26 floats)";
    default: return "unknown status";
    }
}

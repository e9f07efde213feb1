// ALiBi attention biases (Press et al., 2022; kind `alibi`).
#ifndef PE_ALIBI_H
#define PE_ALIBI_H

#include <stdint.h>

#include "pe.h"
#include "relative.h"

// Head counts of `alibi` (any count, powers of two or not).
#define PE_MAX_ALIBI_HEADS 1024

// Writes the per-head slopes m_h exactly as Press et al.'s get_slopes(heads) returns them, in
// float64 and in its order (see c/alibi.c). slopes: (heads). Errors: PE_ERR_ARG(1..2).
pe_status pe_alibi_slopes(double *slopes, int32_t heads);

// bias[h, i, j] = −m_h·(i − j) for j ≤ i and −Infinity above the diagonal (causal), or
// −m_h·|i − j| everywhere (symmetric); each value is the float64 product rounded once to float32.
// out: (heads, length, length); slopes: (heads), m_h rounded to float32.
// Errors: PE_ERR_ARG(1..5) for out, slopes, length (1..8192), heads (1..1024), mode;
// PE_ERR_TOO_LARGE when heads·length² > PE_MAX_ELEMENTS.
PE_API pe_status pe_alibi(float *out, float *slopes, int32_t length, int32_t heads, int32_t mode);

#endif // PE_ALIBI_H

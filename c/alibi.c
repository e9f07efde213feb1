// ALiBi (Press et al., 2022, "Train Short, Test Long"): a per-head linear bias of the distance,
//   causal     bias[h, i, j] = −m_h·(i − j) for j ≤ i, −Infinity for j > i
//   symmetric  bias[h, i, j] = −m_h·|i − j|
// with the slopes of the reference get_slopes(n):
//   n a power of two: m_h = s·s^h, s = 2^(−2^−(log2(n) − 3)) = 2^(−8/n)   (h = 0 .. n−1)
//   otherwise, c = 2^floor(log2(n)): the c slopes for c heads, then the even-indexed slopes for
//   2c heads (0, 2, 4, …), the first n − c of them.
// Slopes are evaluated in float64 the way the reference writes them (start·pow(start, h)); each
// head's plane is a Toeplitz table written from its first and last rows (c/relative.c).
#include <math.h>
#include <stddef.h>

#include "alibi.h"

// get_slopes_power_of_2(n) for n = 2^log2n: entries h = first, first + step, … (count of them).
static void slopes_power_of_2(double *out, int32_t log2n, int32_t first, int32_t step,
                              int32_t count) {
    const double start = pow(2.0, -pow(2.0, -(double)(log2n - 3)));   // the ratio too
    for (int32_t k = 0; k < count; k++) out[k] = start * pow(start, (double)(first + k * step));
}

pe_status pe_alibi_slopes(double *slopes, int32_t heads) {
    if (slopes == NULL) return PE_ERR_ARG(1);
    if (heads < 1 || heads > PE_MAX_ALIBI_HEADS) return PE_ERR_ARG(2);
    int32_t log2c = 0;   // c = 2^floor(log2(heads))
    while ((2 << log2c) <= heads) log2c++;
    const int32_t c = 1 << log2c;
    slopes_power_of_2(slopes, log2c, 0, 1, c);
    if (c < heads) slopes_power_of_2(slopes + c, log2c + 1, 0, 2, heads - c);   // [0::2][:n−c]
    return PE_OK;
}

// One head's entry at r = j − i.
static float alibi_entry(int32_t r, double slope, int32_t mode) {
    if (r > 0 && mode == PE_BIAS_CAUSAL) return -INFINITY;
    const int32_t d = r < 0 ? -r : r;
    return (float)(0.0 - slope * (double)d);   // +0 on the diagonal
}

pe_status pe_alibi(float *out, float *slopes, int32_t length, int32_t heads, int32_t mode) {
    if (out == NULL) return PE_ERR_ARG(1);
    if (slopes == NULL) return PE_ERR_ARG(2);
    if (length < 1 || length > PE_MAX_BIAS_LENGTH) return PE_ERR_ARG(3);
    if (heads < 1 || heads > PE_MAX_ALIBI_HEADS) return PE_ERR_ARG(4);
    if (mode != PE_BIAS_CAUSAL && mode != PE_BIAS_SYMMETRIC) return PE_ERR_ARG(5);
    const int64_t plane = (int64_t)length * length;
    if (plane * heads > PE_MAX_ELEMENTS) return PE_ERR_TOO_LARGE;

    double m[PE_MAX_ALIBI_HEADS];   // 8 KiB on the stack
    pe_alibi_slopes(m, heads);
    const pe_toeplitz_fn fill = pe_toeplitz_fill_default();
    const int32_t n = length;
    for (int32_t h = 0; h < heads; h++) {
        slopes[h] = (float)m[h];
        float *first = out + (size_t)h * (size_t)plane;   // (n, n) plane of head h
        float *last = first + (size_t)(n - 1) * (size_t)n;
        for (int32_t j = 0; j < n; j++) {
            last[j] = alibi_entry(j - (n - 1), m[h], mode);
            first[j] = alibi_entry(j, m[h], mode);
        }
        fill(first, n);
    }
    return PE_OK;
}

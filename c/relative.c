// Relative-position tables: every entry [i, j] is a function f(r) of r = j − i alone.
//   t5        f(r) = T5's _relative_position_bucket(r)  (Raffel et al. 2020; transformers)
//   shaw      f(r) = clip(r, −k, k) + k                  (Shaw et al. 2018)
//   distance  f(r) = b(|r|), or −Infinity for r > 0 when causal; b(d) below
//   alibi     f_h(r) = −m_h·|r|, or −Infinity for r > 0 when causal; one table per head h
//             (Press et al., 2022, "Train Short, Test Long"; slopes m_h below)
// Such a (Toeplitz) table is written as its first row (r = 0 .. n−1) and last row
// (r = −(n−1) .. 0), which hold every value f takes, and the rows between are copies of
// pieces of those two (pe_toeplitz_fill): n evaluations of f, then n² copied floats.
#include <math.h>
#include <stddef.h>

#include "relative.h"

// --- Toeplitz fill ---------------------------------------------------------------------------

// Scalar reference: row i = last[n−1−i .. n−1] ++ first[1 .. n−1−i].
void pe_toeplitz_fill_scalar(float *out, int32_t n) {
    const float *first = out;
    const float *last = out + (size_t)(n - 1) * (size_t)n;
    for (int32_t i = 1; i < n - 1; i++) {
        float *row = out + (size_t)i * (size_t)n;
        const float *lower = last + (n - 1 - i);   // entries j = 0 .. i (r = −i .. 0)
        for (int32_t j = 0; j <= i; j++) row[j] = lower[j];
        const float *upper = first + 1;   // entries j = i+1 .. n−1 (r = 1 .. n−1−i)
        for (int32_t j = i + 1; j < n; j++) row[j] = upper[j - i - 1];
    }
}

#if PE_HAVE_SIMD
// Copies count floats, 16 then 4 at a time (unaligned loads and stores), then one at a time.
static void copy_floats_simd(float *dst, const float *src, int32_t count) {
    int32_t k = 0;
    for (; k + 16 <= count; k += 16) {
        v128_t a = wasm_v128_load(src + k), b = wasm_v128_load(src + k + 4);
        v128_t c = wasm_v128_load(src + k + 8), d = wasm_v128_load(src + k + 12);
        wasm_v128_store(dst + k, a);
        wasm_v128_store(dst + k + 4, b);
        wasm_v128_store(dst + k + 8, c);
        wasm_v128_store(dst + k + 12, d);
    }
    for (; k + PE_LANES <= count; k += PE_LANES) wasm_v128_store(dst + k, wasm_v128_load(src + k));
    for (; k < count; k++) dst[k] = src[k];
}

// SIMD: the same two copies per row as the scalar reference.
void pe_toeplitz_fill_simd(float *out, int32_t n) {
    const float *first = out;
    const float *last = out + (size_t)(n - 1) * (size_t)n;
    for (int32_t i = 1; i < n - 1; i++) {
        float *row = out + (size_t)i * (size_t)n;
        copy_floats_simd(row, last + (n - 1 - i), i + 1);
        copy_floats_simd(row + i + 1, first + 1, n - 1 - i);
    }
}
#endif

pe_toeplitz_fn pe_toeplitz_fill_default(void) {
#if PE_HAVE_SIMD
    return pe_toeplitz_fill_simd;
#else
    return pe_toeplitz_fill_scalar;
#endif
}

// --- T5 buckets ------------------------------------------------------------------------------

// transformers' T5Attention._relative_position_bucket (from Mesh TensorFlow), for one r:
//   bidirectional: num_buckets //= 2; bucket = num_buckets if r > 0; n = |r|
//   else:          bucket = 0; n = max(−r, 0)
//   max_exact = num_buckets // 2
//   n < max_exact: bucket + n
//   otherwise:     bucket + min(max_exact + trunc(log(n / max_exact) / log(max_distance / max_exact)
//                                               · (num_buckets − max_exact)), num_buckets − 1)
// The reference evaluates the large branch in float32 (torch: n.float() / max_exact, float32
// log, the float64 math.log(max_distance / max_exact) rounded to float32 as a tensor operand),
// and so does this: the float32 log is the float64 log rounded once (the correctly rounded
// float32 log, which torch returns for these arguments). Exact real arithmetic would differ:
// e.g. num_buckets 18, max_distance 128, r = 8 is bucket 14 in the reference while a float64
// evaluation gives 13; tests/fixtures pins these cases.
int32_t pe_t5_bucket(int32_t relative_position, int32_t num_buckets, int32_t max_distance, int32_t bidirectional) {
    int32_t bucket = 0;
    int32_t n;
    if (bidirectional) {
        num_buckets /= 2;
        if (relative_position > 0) bucket = num_buckets;
        n = relative_position < 0 ? -relative_position : relative_position;
    } else {
        n = relative_position < 0 ? -relative_position : 0;
    }
    const int32_t max_exact = num_buckets / 2;
    if (n < max_exact) return bucket + n;
    const float x = (float)n / (float)max_exact;   // >= 1
    const float log_x = (float)log((double)x);
    const float log_ratio = (float)log((double)max_distance / (double)max_exact);   // > 0
    const float y = log_x / log_ratio * (float)(num_buckets - max_exact);           // >= 0
    const int32_t cap = num_buckets - 1 - max_exact;
    return bucket + max_exact + (y >= (float)cap ? cap : (int32_t)y);   // trunc, capped
}

static pe_status t5_check(int32_t length, int32_t num_buckets, int32_t max_distance, int32_t bidirectional) {
    if (length < 1 || length > PE_MAX_BIAS_LENGTH) return PE_ERR_ARG(2);
    if (num_buckets < 4 || num_buckets > PE_MAX_T5_BUCKETS) return PE_ERR_ARG(3);
    if (bidirectional != 0 && bidirectional != 1) return PE_ERR_ARG(5);
    const int32_t max_exact = (bidirectional ? num_buckets / 2 : num_buckets) / 2;
    // log(max_distance / max_exact) must be > 0: the reference divides by it.
    if (max_distance <= max_exact || max_distance > PE_MAX_LENGTH) return PE_ERR_ARG(4);
    return PE_OK;
}

// Entries for r = r0 .. r0 + count − 1 (a row of the table, or the whole profile).
static void t5_entries(float *dst, int32_t r0, int32_t count, int32_t num_buckets, int32_t max_distance,
                       int32_t bidirectional) {
    for (int32_t k = 0; k < count; k++) dst[k] = (float)pe_t5_bucket(r0 + k, num_buckets, max_distance, bidirectional);
}

pe_status pe_t5(float *out, int32_t length, int32_t num_buckets, int32_t max_distance, int32_t bidirectional) {
    if (out == NULL) return PE_ERR_ARG(1);
    pe_status status = t5_check(length, num_buckets, max_distance, bidirectional);
    if (status != PE_OK) return status;
    const int32_t n = length;
    float *last = out + (size_t)(n - 1) * (size_t)n;   // (n, n): rows 0 and n−1 first
    t5_entries(last, -(n - 1), n, num_buckets, max_distance, bidirectional);
    t5_entries(out, 0, n, num_buckets, max_distance, bidirectional);
    pe_toeplitz_fill_default()(out, n);
    return PE_OK;
}

pe_status pe_t5_profile(float *out, int32_t length, int32_t num_buckets, int32_t max_distance, int32_t bidirectional) {
    if (out == NULL) return PE_ERR_ARG(1);
    pe_status status = t5_check(length, num_buckets, max_distance, bidirectional);
    if (status != PE_OK) return status;
    t5_entries(out, -(length - 1), 2 * length - 1, num_buckets, max_distance, bidirectional);
    return PE_OK;
}

// --- Shaw -------------------------------------------------------------------------------------

static float shaw_entry(int32_t r, int32_t k) {
    return (float)((r < -k ? -k : r > k ? k : r) + k);   // clip(r, −k, k) + k, in [0, 2k]
}

static void shaw_entries(float *dst, int32_t r0, int32_t count, int32_t k) {
    for (int32_t i = 0; i < count; i++) dst[i] = shaw_entry(r0 + i, k);
}

static pe_status shaw_check(int32_t length, int32_t max_relative_position) {
    if (length < 1 || length > PE_MAX_BIAS_LENGTH) return PE_ERR_ARG(2);
    if (max_relative_position < 0 || max_relative_position > PE_MAX_LENGTH) return PE_ERR_ARG(3);
    return PE_OK;
}

pe_status pe_shaw(float *out, int32_t length, int32_t max_relative_position) {
    if (out == NULL) return PE_ERR_ARG(1);
    pe_status status = shaw_check(length, max_relative_position);
    if (status != PE_OK) return status;
    const int32_t n = length;
    float *last = out + (size_t)(n - 1) * (size_t)n;   // (n, n)
    shaw_entries(last, -(n - 1), n, max_relative_position);
    shaw_entries(out, 0, n, max_relative_position);
    pe_toeplitz_fill_default()(out, n);
    return PE_OK;
}

pe_status pe_shaw_profile(float *out, int32_t length, int32_t max_relative_position) {
    if (out == NULL) return PE_ERR_ARG(1);
    pe_status status = shaw_check(length, max_relative_position);
    if (status != PE_OK) return status;
    shaw_entries(out, -(length - 1), 2 * length - 1, max_relative_position);
    return PE_OK;
}

// --- Distance biases ----------------------------------------------------------------------------

// b(d), u = d / scale, in float64:
//   linear       −strength·u                (one ALiBi head with slope strength/scale)
//   log          −strength·ln(1 + u)        (log1p)
//   gaussian     −strength·u²/2             (the log of a Gaussian window of width scale)
//   exponential  strength·(e^(−u) − 1)      (expm1: a penalty rising to −strength)
// All are 0 at d = 0 (written as +0) and non-increasing in d.
double pe_distance_bias(int32_t d, int32_t function, double strength, double scale) {
    const double u = (double)d / scale;
    switch (function) {
    case PE_DIST_LINEAR: return 0.0 - strength * u;
    case PE_DIST_LOG: return 0.0 - strength * log1p(u);
    case PE_DIST_GAUSSIAN: return 0.0 - strength * (0.5 * u * u);
    default: return 0.0 + strength * expm1(-u);   // PE_DIST_EXPONENTIAL; 0.0 + (−0) is +0
    }
}

static float distance_entry(int32_t r, int32_t function, double strength, double scale, int32_t mode) {
    if (mode == PE_BIAS_CAUSAL && r > 0) return -INFINITY;   // key after query: masked
    return (float)pe_distance_bias(r < 0 ? -r : r, function, strength, scale);
}

static void distance_entries(float *dst, int32_t r0, int32_t count, int32_t function, double strength, double scale,
                             int32_t mode) {
    for (int32_t k = 0; k < count; k++) dst[k] = distance_entry(r0 + k, function, strength, scale, mode);
}

static pe_status distance_check(int32_t length, int32_t function, double strength, double scale, int32_t mode) {
    if (length < 1 || length > PE_MAX_BIAS_LENGTH) return PE_ERR_ARG(2);
    if (function < PE_DIST_LINEAR || function > PE_DIST_EXPONENTIAL) return PE_ERR_ARG(3);
    if (!(strength >= 0.0 && strength <= 1000.0)) return PE_ERR_ARG(4);   // also rejects NaN
    if (!(scale >= 0.01 && scale <= 1e6)) return PE_ERR_ARG(5);
    if (mode != PE_BIAS_CAUSAL && mode != PE_BIAS_SYMMETRIC) return PE_ERR_ARG(6);
    return PE_OK;
}

pe_status pe_distance(float *out, int32_t length, int32_t function, double strength, double scale, int32_t mode) {
    if (out == NULL) return PE_ERR_ARG(1);
    pe_status status = distance_check(length, function, strength, scale, mode);
    if (status != PE_OK) return status;
    const int32_t n = length;
    float *last = out + (size_t)(n - 1) * (size_t)n;   // (n, n)
    distance_entries(last, -(n - 1), n, function, strength, scale, mode);
    distance_entries(out, 0, n, function, strength, scale, mode);
    pe_toeplitz_fill_default()(out, n);
    return PE_OK;
}

pe_status pe_distance_profile(float *out, int32_t length, int32_t function, double strength, double scale,
                              int32_t mode) {
    if (out == NULL) return PE_ERR_ARG(1);
    pe_status status = distance_check(length, function, strength, scale, mode);
    if (status != PE_OK) return status;
    distance_entries(out, -(length - 1), 2 * length - 1, function, strength, scale, mode);
    return PE_OK;
}

// --- ALiBi ----------------------------------------------------------------------------------------

// A per-head linear bias of the distance,
//   causal     bias[h, i, j] = −m_h·(i − j) for j ≤ i, −Infinity for j > i
//   symmetric  bias[h, i, j] = −m_h·|i − j|
// with the slopes of the reference get_slopes(n):
//   n a power of two: m_h = s·s^h, s = 2^(−2^−(log2(n) − 3)) = 2^(−8/n)   (h = 0 .. n−1)
//   otherwise, c = 2^floor(log2(n)): the c slopes for c heads, then the even-indexed slopes for
//   2c heads (0, 2, 4, …), the first n − c of them.
// Slopes are evaluated in float64 the way the reference writes them (start·pow(start, h)); each
// head's plane is a Toeplitz table written from its first and last rows.

// get_slopes_power_of_2(n) for n = 2^log2n: entries h = first, first + step, … (count of them).
static void slopes_power_of_2(double *out, int32_t log2n, int32_t first, int32_t step, int32_t count) {
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

static void alibi_entries(float *dst, int32_t r0, int32_t count, double slope, int32_t mode) {
    for (int32_t k = 0; k < count; k++) dst[k] = alibi_entry(r0 + k, slope, mode);
}

// Checks the arguments pe_alibi and pe_alibi_profile share (1..5, in their order) and, when they
// are valid, writes the heads' slopes in float64 into m (PE_MAX_ALIBI_HEADS entries).
static pe_status alibi_setup(double *m, const float *out, const float *slopes, int32_t length, int32_t heads,
                             int32_t mode) {
    if (out == NULL) return PE_ERR_ARG(1);
    if (slopes == NULL) return PE_ERR_ARG(2);
    if (length < 1 || length > PE_MAX_BIAS_LENGTH) return PE_ERR_ARG(3);
    if (heads < 1 || heads > PE_MAX_ALIBI_HEADS) return PE_ERR_ARG(4);
    if (mode != PE_BIAS_CAUSAL && mode != PE_BIAS_SYMMETRIC) return PE_ERR_ARG(5);
    pe_alibi_slopes(m, heads);
    return PE_OK;
}

pe_status pe_alibi(float *out, float *slopes, int32_t length, int32_t heads, int32_t mode) {
    double m[PE_MAX_ALIBI_HEADS];   // 8 KiB on the stack
    pe_status status = alibi_setup(m, out, slopes, length, heads, mode);
    if (status != PE_OK) return status;
    const int64_t plane = (int64_t)length * length;
    if (plane * heads > PE_MAX_ELEMENTS) return PE_ERR_TOO_LARGE;

    const pe_toeplitz_fn fill = pe_toeplitz_fill_default();
    const int32_t n = length;
    for (int32_t h = 0; h < heads; h++) {
        slopes[h] = (float)m[h];
        float *first = out + (size_t)h * (size_t)plane;   // (n, n) plane of head h
        float *last = first + (size_t)(n - 1) * (size_t)n;
        alibi_entries(last, -(n - 1), n, m[h], mode);
        alibi_entries(first, 0, n, m[h], mode);
        fill(first, n);
    }
    return PE_OK;
}

pe_status pe_alibi_profile(float *out, float *slopes, int32_t length, int32_t heads, int32_t mode) {
    double m[PE_MAX_ALIBI_HEADS];
    pe_status status = alibi_setup(m, out, slopes, length, heads, mode);
    if (status != PE_OK) return status;
    const size_t width = (size_t)(2 * length - 1);   // (heads, 2·length − 1)
    for (int32_t h = 0; h < heads; h++) {
        slopes[h] = (float)m[h];
        alibi_entries(out + (size_t)h * width, -(length - 1), 2 * length - 1, m[h], mode);
    }
    return PE_OK;
}

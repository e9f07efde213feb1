// Native tests of the sinusoidal kernel: built with gcc + SIMDe under ASan/UBSan (run.sh).
//   1. SIMD vs scalar reference, bit for bit, at every tail length 1..3×lanes and beyond.
//   2. Accuracy against float64 for every position < 2^20, and against long double up to 2^31.
//   3. Every bad argument returns its status code (the C API is its own guard).
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pe.h"
#include "sincos.h"
#include "sinusoidal.h"
#include "test_util.h"

static double omega_ref(int i, int dim, double base, int layout) {
    if (layout == PE_SIN_TENSOR2TENSOR) {
        int pairs = dim / 2;
        return exp(-(double)i * log(base) / (double)(pairs - 1 > 1 ? pairs - 1 : 1));
    }
    return pow(base, -2.0 * i / (double)dim);
}

// The float64 value of the table entry (row position p, column col) straight from the formula.
static long double table_ref(long double p, int col, int dim, double base, int layout) {
    int pairs = dim / 2;
    if (layout == PE_SIN_INTERLEAVED) {
        long double angle = p * (long double)omega_ref(col / 2, dim, base, layout);
        return col % 2 == 0 ? sinl(angle) : cosl(angle);
    }
    if (col >= 2 * pairs) return 0.0L;
    long double angle = p * (long double)omega_ref(col % pairs, dim, base, layout);
    return col < pairs ? sinl(angle) : cosl(angle);
}

// The rotation core alone, at every pair count 1..40 (all tails of the 4-wide loop), several
// row counts, both strides, starts at far positions.
static void test_simd_matches_scalar_core(void) {
    enum { MAX_N = 40, MAX_ROWS = 9, ROW_STRIDE = 2 * MAX_N + 3 };
    static float ref[MAX_ROWS * ROW_STRIDE], simd[MAX_ROWS * ROW_STRIDE];
    double start_sin[MAX_N], start_cos[MAX_N], step_sin[MAX_N], step_cos[MAX_N];
    const uint32_t positions[] = {0, 1, 999983, 2147483647u - MAX_ROWS};
    for (int n = 1; n <= MAX_N; n++) {
        for (size_t k = 0; k < sizeof positions / sizeof positions[0]; k++) {
            for (int i = 0; i < n; i++) {
                double omega = pow(10000.0, -2.0 * i / (double)(2 * n)) + 1e-3 * i;
                pe_sincos_at(positions[k], pe_turns_from_omega(omega), &start_sin[i], &start_cos[i]);
                step_sin[i] = sin(omega);
                step_cos[i] = cos(omega);
            }
            for (int rows = 1; rows <= MAX_ROWS; rows += 4)
                for (int stride = 1; stride <= 2; stride++) {
                    memset(ref, 0xAB, sizeof ref);
                    memset(simd, 0xAB, sizeof simd);
                    ptrdiff_t cos_at = stride == 2 ? 1 : MAX_N;
                    double ref_sin[MAX_N], ref_cos[MAX_N], simd_sin[MAX_N], simd_cos[MAX_N];
                    memcpy(ref_sin, start_sin, sizeof ref_sin);
                    memcpy(ref_cos, start_cos, sizeof ref_cos);
                    memcpy(simd_sin, start_sin, sizeof simd_sin);
                    memcpy(simd_cos, start_cos, sizeof simd_cos);
                    pe_rotate_table_scalar(ref, ref + cos_at, ROW_STRIDE, stride, rows, ref_sin, ref_cos, step_sin,
                                           step_cos, n);
                    pe_rotate_table_simd(simd, simd + cos_at, ROW_STRIDE, stride, rows, simd_sin, simd_cos, step_sin,
                                         step_cos, n);
                    CHECK(memcmp(ref, simd, sizeof ref) == 0, "simd == scalar (n=%d, rows=%d, p=%u, stride=%d)", n,
                          rows, positions[k], stride);
                    CHECK(memcmp(ref_sin, simd_sin, sizeof(double) * n) == 0 &&
                              memcmp(ref_cos, simd_cos, sizeof(double) * n) == 0,
                          "final state equal (n=%d, rows=%d)", n, rows);
                }
        }
    }
}

// pe_sincos_at against long double at positions up to 2^31 - 1.
static void test_exact_start(void) {
    double worst = 0.0;
    for (int i = 0; i < 200; i++) {
        double omega = pow(10000.0, -i / 100.0);
        pe_turns t = pe_turns_from_omega(omega);
        for (uint32_t p = 1; p < 2147483647u / 3; p = p * 3 + (uint32_t)i) {
            double s, c;
            pe_sincos_at(p, t, &s, &c);
            long double angle = (long double)p * (long double)omega;
            double err = fmax(fabs((double)(s - sinl(angle))), fabs((double)(c - cosl(angle))));
            if (err > worst) worst = err;
        }
    }
    printf("  exact start sin/cos(p*omega) vs long double, p < 2^31: max abs err %.3e\n", worst);
    // T is ω/2π rounded to 2^-64 turn, so the start angle is off by at most p·2^-65 turn
    // (3.7e-10 rad at p = 2^31), far below float32's half ulp; long double adds ~2e-11 of its own.
    CHECK(worst < 5e-10, "exact start within 5e-10 (got %.3e)", worst);
}

static void test_simd_matches_scalar_tables(void) {
    enum { MAX_LEN = 9, MAX_DIM = 41 };
    static float a[MAX_LEN * MAX_DIM], b[MAX_LEN * MAX_DIM];
    for (int layout = 0; layout < 3; layout++)
        for (int dim = 1; dim <= MAX_DIM; dim++)
            for (int length = 1; length <= MAX_LEN; length += 4) {
                CHECK(pe_sinusoidal_variant(a, length, dim, 10000.0, layout, 1000, pe_rotate_table_scalar) == PE_OK,
                      "ok");
                CHECK(pe_sinusoidal_variant(b, length, dim, 10000.0, layout, 1000, pe_rotate_table_simd) == PE_OK,
                      "ok");
                CHECK(memcmp(a, b, sizeof(float) * length * dim) == 0,
                      "simd table == scalar table (layout %d, dim %d, length %d)", layout, dim, length);
            }
    // Wider than one frequency block (256 pairs), with an odd column.
    static float c[3 * 1601], d[3 * 1601];
    for (int layout = 0; layout < 3; layout++) {
        pe_sinusoidal_variant(c, 3, 1601, 500000.0, layout, 77, pe_rotate_table_scalar);
        pe_sinusoidal_variant(d, 3, 1601, 500000.0, layout, 77, pe_rotate_table_simd);
        CHECK(memcmp(c, d, sizeof c) == 0, "simd == scalar across frequency blocks (layout %d)", layout);
    }
}

// Every position < 2^20 for a few shapes, against float64 sin/cos of p·ω (ω in float64).
static void test_accuracy_all_positions(void) {
    const int length = 1 << 16;   // rows per call; offsets walk through [0, 2^20)
    const int dims[] = {64, 33};
    const double bases[] = {10000.0, 500000.0};
    float *table = malloc(sizeof(float) * (size_t)length * 64);
    for (int di = 0; di < 2; di++)
        for (int bi = 0; bi < 2; bi++)
            for (int layout = 0; layout < 3; layout++) {
                int dim = dims[di];
                double worst = 0.0;
                // Each column's frequency, its sine or cosine, or 0 (the odd dim's last column),
                // once: the same formula as below for every row.
                double omega[64];
                int kind[64];   // 0 sin, 1 cos, 2 zero
                const int pairs = dim / 2;
                for (int col = 0; col < dim; col++) {
                    if (layout == PE_SIN_INTERLEAVED) {
                        omega[col] = omega_ref(col / 2, dim, bases[bi], layout);
                        kind[col] = col % 2;
                    } else if (col >= 2 * pairs) {
                        omega[col] = 0.0;
                        kind[col] = 2;
                    } else {
                        omega[col] = omega_ref(col % pairs, dim, bases[bi], layout);
                        kind[col] = col < pairs ? 0 : 1;
                    }
                }
                for (int offset = 0; offset < (1 << 20); offset += length) {
                    pe_status st = pe_sinusoidal(table, length, dim, bases[bi], layout, offset);
                    CHECK(st == PE_OK, "status ok");
                    for (int row = 0; row < length; row++)
                        for (int col = 0; col < dim; col++) {
                            const double angle = (double)(offset + row) * omega[col];
                            const double ref = kind[col] == 0 ? sin(angle) : kind[col] == 1 ? cos(angle) : 0.0;
                            double err = fabs((double)table[(size_t)row * dim + col] - ref);
                            if (err > worst) worst = err;
                        }
                }
                printf("  accuracy, all positions < 2^20: layout %d dim %d base %.0f: max abs err %.3e\n", layout, dim,
                       bases[bi], worst);
                CHECK(worst <= 2e-7, "max abs error <= 2e-7 (got %.3e)", worst);
                CHECK(worst <= 4e-8, "within about half a float32 ulp (got %.3e)", worst);
            }
    free(table);
}

// Large positions up to PE_MAX_POSITION, against long double.
static void test_accuracy_large_positions(void) {
    const int dim = 1600, length = 4;
    static float table[4 * 1600];
    const int32_t offsets[] = {1 << 20, 999999999, 1 << 30, PE_MAX_POSITION - 4};
    double worst = 0.0;
    for (int k = 0; k < 4; k++)
        for (int layout = 0; layout < 3; layout++) {
            CHECK(pe_sinusoidal(table, length, dim, 10000.0, layout, offsets[k]) == PE_OK, "ok");
            for (int row = 0; row < length; row++)
                for (int col = 0; col < dim; col++) {
                    long double ref = table_ref((long double)offsets[k] + row, col, dim, 10000.0, layout);
                    double err = fabs((double)(table[row * dim + col] - ref));
                    if (err > worst) worst = err;
                }
        }
    printf("  accuracy, positions up to 2^31-1 vs long double: max abs err %.3e\n", worst);
    CHECK(worst <= 2e-7, "large positions max abs error <= 2e-7 (got %.3e)", worst);
    CHECK(worst <= 4e-8, "large positions within about half a float32 ulp (got %.3e)", worst);
}

// One call of 2^20 rows: the float64 rotation runs across several re-anchorings.
static void test_long_table(void) {
    const int length = 1 << 20, dim = 10;
    float *table = malloc(sizeof(float) * (size_t)length * dim);
    CHECK(pe_sinusoidal(table, length, dim, 10000.0, PE_SIN_INTERLEAVED, 3) == PE_OK, "ok");
    double worst = 0.0;
    for (int row = 0; row < length; row++)
        for (int col = 0; col < dim; col++) {
            double angle = (double)(row + 3) * omega_ref(col / 2, dim, 10000.0, PE_SIN_INTERLEAVED);
            double ref = col % 2 == 0 ? sin(angle) : cos(angle);
            double err = fabs((double)table[(size_t)row * dim + col] - ref);
            if (err > worst) worst = err;
        }
    printf("  one table of 2^20 rows: max abs err %.3e\n", worst);
    CHECK(worst <= 4e-8, "long table within about half a float32 ulp (got %.3e)", worst);
    free(table);
}

static void test_bad_arguments(void) {
    float buf[16];
    CHECK(pe_sinusoidal(NULL, 1, 2, 10000, 0, 0) == PE_ERR_ARG(1), "NULL out");
    CHECK(pe_sinusoidal(buf, 0, 2, 10000, 0, 0) == PE_ERR_ARG(2), "length 0");
    CHECK(pe_sinusoidal(buf, -5, 2, 10000, 0, 0) == PE_ERR_ARG(2), "length < 0");
    CHECK(pe_sinusoidal(buf, PE_MAX_LENGTH + 1, 2, 10000, 0, 0) == PE_ERR_ARG(2), "length too big");
    CHECK(pe_sinusoidal(buf, 1, 0, 10000, 0, 0) == PE_ERR_ARG(3), "dim 0");
    CHECK(pe_sinusoidal(buf, 1, -2, 10000, 0, 0) == PE_ERR_ARG(3), "dim < 0");
    CHECK(pe_sinusoidal(buf, 1, PE_MAX_DIM + 1, 10000, 0, 0) == PE_ERR_ARG(3), "dim too big");
    CHECK(pe_sinusoidal(buf, 1, 2, NAN, 0, 0) == PE_ERR_ARG(4), "base NaN");
    CHECK(pe_sinusoidal(buf, 1, 2, INFINITY, 0, 0) == PE_ERR_ARG(4), "base inf");
    CHECK(pe_sinusoidal(buf, 1, 2, 1.0, 0, 0) == PE_ERR_ARG(4), "base 1");
    CHECK(pe_sinusoidal(buf, 1, 2, -3.0, 0, 0) == PE_ERR_ARG(4), "base < 0");
    CHECK(pe_sinusoidal(buf, 1, 2, 10000, 3, 0) == PE_ERR_ARG(5), "layout 3");
    CHECK(pe_sinusoidal(buf, 1, 2, 10000, -1, 0) == PE_ERR_ARG(5), "layout -1");
    CHECK(pe_sinusoidal(buf, 1, 2, 10000, 0, -1) == PE_ERR_ARG(6), "offset < 0");
    CHECK(pe_sinusoidal(buf, 2, 2, 10000, 0, PE_MAX_POSITION) == PE_ERR_ARG(6), "offset + length overflows");
    CHECK(pe_sinusoidal(buf, PE_MAX_LENGTH, PE_MAX_DIM, 10000, 0, 0) == PE_ERR_TOO_LARGE, "output too large");
    CHECK(pe_sinusoidal_variant(buf, 1, 2, 10000, 0, 0, NULL) == PE_ERR_ARG(7), "NULL table function");
    CHECK(strlen(pe_status_message(PE_ERR_ARG(4))) > 0, "status message");
    CHECK(PE_ERR_ARG_INDEX(PE_ERR_ARG(4)) == 4, "argument index");
    // A valid call after all of that still works.
    CHECK(pe_sinusoidal(buf, 2, 4, 10000, 0, 0) == PE_OK && buf[0] == 0.0f && buf[1] == 1.0f, "still works");
}

static void test_known_values(void) {
    float row[8];
    // Position 0: interleaved row is [0, 1, 0, 1, ...]; concat is [0 ... 0, 1 ... 1].
    pe_sinusoidal(row, 1, 8, 10000, PE_SIN_INTERLEAVED, 0);
    for (int c = 0; c < 8; c++) CHECK(row[c] == (c % 2 ? 1.0f : 0.0f), "interleaved row 0 col %d", c);
    pe_sinusoidal(row, 1, 8, 10000, PE_SIN_CONCAT, 0);
    for (int c = 0; c < 8; c++) CHECK(row[c] == (c < 4 ? 0.0f : 1.0f), "concat row 0 col %d", c);
    // Column 0 at position 1 is sin(1).
    pe_sinusoidal(row, 1, 8, 10000, PE_SIN_INTERLEAVED, 1);
    CHECK(fabs(row[0] - sin(1.0)) < 1e-7 && fabs(row[1] - cos(1.0)) < 1e-7, "sin(1), cos(1)");
}

int main(void) {
    printf("sinusoidal (%s)\n", pe_simd_enabled() ? "SIMD via SIMDe" : "scalar");
    test_known_values();
    test_bad_arguments();
    test_exact_start();
    test_simd_matches_scalar_core();
    test_simd_matches_scalar_tables();
    test_accuracy_large_positions();
    test_long_table();
    test_accuracy_all_positions();
    return test_summary("native sinusoidal");
}

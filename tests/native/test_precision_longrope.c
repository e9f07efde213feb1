// Native tests of the precision lab's LongRoPE path (c/precision.c, pe_rope_precision_lists and
// pe_rope_precision_sweep_lists): gcc + SIMDe under ASan/UBSan (run.sh).
//   1. The switch: a table whose last position + 1 (offset + length) is at most o uses
//      short_factor, one past it long_factor, ω_i = 1 / (ext_i · base^(2i/d)) as c/rope.c forms it
//      (the same ω pe_rope gives for a sequence of offset + length positions).
//   2. The sweep gives the kernel's row_error and collisions bit for bit, on both sides.
//   3. Without lists, every other type gives pe_rope_precision's results bit for bit.
//   4. Every bad list's status (NULL, 0, negative, NaN, ∞), in both entry points, on both sides.
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "pe.h"
#include "precision.h"
#include "rope.h"
#include "test_util.h"

// Phi-3.5-mini's shape: a 96-channel head (48 pairs), base 10000, o = 4096, 131072 positions.
enum { DIM = 96, PAIRS = 48, ORIGINAL = 4096, MAX_POS = 131072, ROWS = 64 };
static const double BASE = 10000.0;

static double short_list[PAIRS], long_list[PAIRS];

// Out of every call: the tables, the rows, the stats and the scratch (ω, f, ...).
typedef struct {
    float out[ROWS * PAIRS], cos[ROWS * PAIRS], sin[ROWS * PAIRS], row_error[ROWS];
    double stats[2], scratch[8 * PAIRS];
} result;
static result a, b;

static pe_status run(result *r, int32_t offset, int32_t rope_type, int32_t table_dtype, const double *s,
                     const double *l) {
    memset(r, 0, sizeof *r);
    return pe_rope_precision_lists(r->out, r->cos, r->sin, r->row_error, r->stats, r->scratch, offset, 1, 1, 1,
                                   table_dtype, ROWS, DIM, BASE, 1.0, MAX_POS, rope_type, NAN, ORIGINAL, 32.0, 1.0, 1,
                                   NAN, NAN, NAN, NAN, NAN, s, l);
}

static pe_status sweep(float *row_error, double *stats, double *scratch, int32_t offset, int32_t table_dtype,
                       const double *s, const double *l) {
    return pe_rope_precision_sweep_lists(row_error, stats, scratch, offset, 1, 1, 1, table_dtype, ROWS, DIM, BASE, 1.0,
                                         MAX_POS, PE_ROPE_LONGROPE, NAN, ORIGINAL, 32.0, 1.0, 1, NAN, NAN, NAN, NAN,
                                         NAN, s, l);
}

// ω of pe_rope for a sequence of `seq` positions (its switch compares length with o).
static float rope_angles[(ORIGINAL + 1) * PAIRS];
static void rope_omega(double *inv_freq, int32_t seq) {
    double af;
    pe_status st = pe_rope(rope_angles, NULL, NULL, inv_freq, &af, seq, DIM, BASE, 1.0, MAX_POS, PE_ROPE_LONGROPE, NAN,
                           ORIGINAL, 32.0, 1.0, 1, NAN, NAN, NAN, NAN, NAN, short_list, long_list);
    CHECK(st == PE_OK, "pe_rope at %d positions: status %d", seq, st);
}

static void test_switch(void) {
    // Rows 4032 .. 4095: the sequence is 4096 = o positions long, the short side; one row later
    // (4033 .. 4096, 4097 positions) the long side.
    const struct {
        int32_t offset;
        const double *ext;
        const char *side;
    } cases[] = {{ORIGINAL - ROWS, short_list, "short"},
                 {ORIGINAL - ROWS + 1, long_list, "long"},
                 {0, short_list, "short (from 0)"},
                 {MAX_POS - ROWS, long_list, "long (the end of 131072)"}};
    double rope_short[PAIRS], rope_long[PAIRS];
    rope_omega(rope_short, ORIGINAL);
    rope_omega(rope_long, ORIGINAL + 1);
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        pe_status st = run(&a, cases[k].offset, PE_ROPE_LONGROPE, 1, short_list, long_list);
        CHECK(st == PE_OK, "%s: status %d", cases[k].side, st);
        const double *from_rope = cases[k].ext == short_list ? rope_short : rope_long;
        int same = 1, formula = 1;
        for (int i = 0; i < PAIRS; i++) {
            // ω_i = 1 / (ext_i · base^(2i/d)): c/rope.c's expression, so equal to the last bit.
            const double want = 1.0 / (cases[k].ext[i] * pow(BASE, (double)(2 * i) / (double)DIM));
            if (a.scratch[i] != want) formula = 0;
            if (a.scratch[i] != from_rope[i]) same = 0;
        }
        CHECK(formula, "%s: ω is 1 / (ext_i · base^(2i/d)) with the %s list", cases[k].side, cases[k].side);
        CHECK(same, "%s: ω is pe_rope's for the same sequence", cases[k].side);
        // The errors are angles in [0, π], finite; the float32 recipe's worst is above 0 here.
        int in_range = 1;
        for (int j = 0; j < ROWS * PAIRS; j++)
            if (!(a.out[j] >= 0.0f && a.out[j] <= (float)3.141592653589793)) in_range = 0;
        CHECK(in_range, "%s: every error in [0, π]", cases[k].side);
        CHECK(a.row_error[ROWS - 1] > 0.0f, "%s: float32 rounding shows (%g)", cases[k].side, a.row_error[ROWS - 1]);
    }
    // The two sides differ (the lists do), and the short side's lowest pair is the plain ω_0 = 1.
    run(&a, ORIGINAL - ROWS, PE_ROPE_LONGROPE, 1, short_list, long_list);
    run(&b, ORIGINAL - ROWS + 1, PE_ROPE_LONGROPE, 1, short_list, long_list);
    CHECK(a.scratch[0] == 1.0, "short side: ω_0 = 1 / short_factor[0] = 1, got %.17g", a.scratch[0]);
    CHECK(b.scratch[PAIRS - 1] < a.scratch[PAIRS - 1] / 10.0, "long side: the slowest pair is stretched further");
}

static void test_sweep(void) {
    static float row_error[ROWS];
    static double stats[2], scratch[8 * PAIRS];
    const int32_t offsets[] = {0, ORIGINAL - ROWS, ORIGINAL - ROWS + 1, 100000};
    for (int table = 0; table < 4; table++) {
        for (size_t k = 0; k < sizeof offsets / sizeof offsets[0]; k++) {
            pe_status st = run(&a, offsets[k], PE_ROPE_LONGROPE, table, short_list, long_list);
            pe_status ss = sweep(row_error, stats, scratch, offsets[k], table, short_list, long_list);
            CHECK(st == PE_OK && ss == PE_OK, "table %d offset %d: statuses %d %d", table, offsets[k], st, ss);
            CHECK(memcmp(row_error, a.row_error, sizeof row_error) == 0, "table %d offset %d: sweep row_error", table,
                  offsets[k]);
            CHECK(stats[0] == a.stats[0] && stats[1] == a.stats[1], "table %d offset %d: sweep stats", table,
                  offsets[k]);
        }
    }
}

static void test_other_types(void) {
    // default and yarn, NULL lists: pe_rope_precision's results bit for bit.
    static float out[ROWS * PAIRS], cs[ROWS * PAIRS], sn[ROWS * PAIRS], row_error[ROWS];
    static double stats[2], scratch[8 * PAIRS];
    const int32_t types[] = {PE_ROPE_DEFAULT, PE_ROPE_YARN};
    for (size_t k = 0; k < 2; k++) {
        const double factor = types[k] == PE_ROPE_YARN ? 32.0 : NAN;
        pe_status st = pe_rope_precision(out, cs, sn, row_error, stats, scratch, 5000, 1, 1, 1, 2, ROWS, DIM, BASE, 1.0,
                                         MAX_POS, types[k], factor, ORIGINAL, 32.0, 1.0, 1, NAN, NAN, NAN, NAN, NAN);
        memset(&a, 0, sizeof a);
        pe_status sl = pe_rope_precision_lists(a.out, a.cos, a.sin, a.row_error, a.stats, a.scratch, 5000, 1, 1, 1, 2,
                                               ROWS, DIM, BASE, 1.0, MAX_POS, types[k], factor, ORIGINAL, 32.0, 1.0, 1,
                                               NAN, NAN, NAN, NAN, NAN, NULL, NULL);
        CHECK(st == PE_OK && sl == PE_OK, "type %d: statuses %d %d", types[k], st, sl);
        CHECK(memcmp(out, a.out, sizeof out) == 0 && memcmp(cs, a.cos, sizeof cs) == 0 &&
                  memcmp(sn, a.sin, sizeof sn) == 0 && memcmp(row_error, a.row_error, sizeof row_error) == 0 &&
                  memcmp(scratch, a.scratch, 2 * PAIRS * sizeof(double)) == 0,
              "type %d: the same tables, rows, ω and f", types[k]);
    }
    // The kernel without lists still refuses longrope, naming short_factor (spec argument 17).
    pe_status st = pe_rope_precision(out, cs, sn, row_error, stats, scratch, 0, 1, 1, 1, 1, ROWS, DIM, BASE, 1.0,
                                     MAX_POS, PE_ROPE_LONGROPE, NAN, ORIGINAL, 32.0, 1.0, 1, NAN, NAN, NAN, NAN, NAN);
    CHECK(st == PE_ERR_ARG(28), "pe_rope_precision with longrope: %d", st);
}

static void test_bad_lists(void) {
    static double bad[PAIRS];
    static float row_error[ROWS];
    static double stats[2], scratch[8 * PAIRS];
    const double values[] = {0.0, -1.0, NAN, INFINITY};
    const int32_t offsets[] = {0, ORIGINAL};   // the short side and the long side: both lists are checked
    for (size_t o = 0; o < 2; o++) {
        CHECK(run(&a, offsets[o], PE_ROPE_LONGROPE, 1, NULL, long_list) == PE_ERR_ARG(28), "NULL short_factor");
        CHECK(run(&a, offsets[o], PE_ROPE_LONGROPE, 1, short_list, NULL) == PE_ERR_ARG(29), "NULL long_factor");
        CHECK(sweep(row_error, stats, scratch, offsets[o], 1, NULL, long_list) == PE_ERR_ARG(25), "sweep: NULL short");
        CHECK(sweep(row_error, stats, scratch, offsets[o], 1, short_list, NULL) == PE_ERR_ARG(26), "sweep: NULL long");
        for (size_t v = 0; v < sizeof values / sizeof values[0]; v++) {
            memcpy(bad, short_list, sizeof bad);
            bad[PAIRS - 1] = values[v];
            pe_status s1 = run(&a, offsets[o], PE_ROPE_LONGROPE, 1, bad, long_list);
            pe_status s2 = run(&a, offsets[o], PE_ROPE_LONGROPE, 1, short_list, bad);
            pe_status s3 = sweep(row_error, stats, scratch, offsets[o], 1, bad, long_list);
            pe_status s4 = sweep(row_error, stats, scratch, offsets[o], 1, short_list, bad);
            CHECK(s1 == PE_ERR_ARG(28) && s2 == PE_ERR_ARG(29) && s3 == PE_ERR_ARG(25) && s4 == PE_ERR_ARG(26),
                  "entry %g at offset %d: %d %d %d %d", values[v], offsets[o], s1, s2, s3, s4);
        }
    }
    // The other arguments keep their numbers: an offset past the last position is argument 7.
    CHECK(run(&a, 2147483647, PE_ROPE_LONGROPE, 1, short_list, long_list) == PE_ERR_ARG(7), "offset");
    CHECK(sweep(row_error, stats, scratch, -1, 1, short_list, long_list) == PE_ERR_ARG(4), "sweep offset");
}

int main(void) {
    // Lists shaped like Phi-3.5-mini's: short rising from 1 to ~2.8, long from ~1 to ~65.
    for (int i = 0; i < PAIRS; i++) {
        short_list[i] = 1.0 + 1.84 * i / (PAIRS - 1);
        long_list[i] = 1.08 + 63.76 * i / (PAIRS - 1);
    }
    test_switch();
    test_sweep();
    test_other_types();
    test_bad_lists();
    return test_summary("precision_longrope");
}

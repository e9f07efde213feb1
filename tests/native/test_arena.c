// Native tests of the arena engine (c/arena.h, c/arena_model.c, c/arena_train.c, c/arena_tasks.c),
// gcc + SIMDe under ASan/UBSan (run.sh):
//   1. The inner loops, SIMD vs scalar reference, bit for bit: linear forward and backward at
//      sizes covering every tail (rows % 4, columns % 8 and % 4), gelu forward and backward,
//      AdamW; tanh against libm's.
//   2. Whole training runs, SIMD vs scalar: identical losses and parameters, every encoding.
//   3. The data: every task's targets and the decoder / encoder layouts.
//   4. Learning: each encoding trains on copy at length 16 (causal) to accuracy >= 0.99 at the
//      training length; the encoder without an encoding learns copy, while on reverse it never
//      gets a whole sequence right and its token accuracy stays at the multiset bound. Under ASan
//      (run.sh) only the bound itself is checked: a step costs ~0.1 s there, and the quick cases
//      run in tests/arena-learning.test.js on the WebAssembly build (the same numbers, bit for
//      bit). test_learning says how to run all six.
//   5. Every bad argument's status.
// Gradients against PyTorch are in tests/arena.test.js (fixtures from tests/fixtures/ref_arena.py).
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "pe.h"
#include "rope.h"
#include "test_util.h"

static uint32_t lcg_state = 777u;
static float frand(void) {   // uniform in [-1, 1)
    lcg_state = lcg_state * 1664525u + 1013904223u;
    return (float)((double)(lcg_state >> 8) / 8388608.0 - 1.0);
}

// An arena, 16-byte aligned, with its evaluation buffer for `eval_length` symbols.
typedef struct {
    void *raw, *arena, *scratch_raw, *scratch;
    int32_t bytes, scratch_bytes;
} box;

static void *align16(void *p) { return (void *)(((uintptr_t)p + 15u) & ~(uintptr_t)15u); }

// Training lengths in [n_min, n] (box_open: n only).
static int box_open_range(box *b, int32_t task, int32_t encoding, int32_t causal, int32_t layers, int32_t d_model,
                          int32_t heads, int32_t symbols, int32_t n, int32_t n_min, int32_t batch, double lr, double wd,
                          double seed, int32_t eval_length) {
    memset(b, 0, sizeof *b);
    if (pe_arena_size(&b->bytes, task, encoding, causal, layers, d_model, heads, symbols, n, n_min, batch, lr, wd,
                      seed) != PE_OK)
        return 0;
    b->raw = malloc((size_t)b->bytes + 16);
    b->arena = align16(b->raw);
    if (pe_arena_init(b->arena, b->bytes, task, encoding, causal, layers, d_model, heads, symbols, n, n_min, batch, lr,
                      wd, seed) != PE_OK)
        return 0;
    if (pe_arena_eval_size(&b->scratch_bytes, b->arena, eval_length) != PE_OK) return 0;
    b->scratch_raw = malloc((size_t)b->scratch_bytes + 16);
    b->scratch = align16(b->scratch_raw);
    return 1;
}

static int box_open(box *b, int32_t task, int32_t encoding, int32_t causal, int32_t layers, int32_t d_model,
                    int32_t heads, int32_t symbols, int32_t n, int32_t batch, double lr, double wd, double seed,
                    int32_t eval_length) {
    return box_open_range(b, task, encoding, causal, layers, d_model, heads, symbols, n, n, batch, lr, wd, seed,
                          eval_length);
}

static void box_close(box *b) {
    free(b->raw);
    free(b->scratch_raw);
}

// --- 1. inner loops ------------------------------------------------------------------------------

static void fill(float *x, int32_t n) {
    for (int32_t i = 0; i < n; i++) x[i] = frand();
}

static void test_loops_simd_matches_scalar(void) {
    const pe_arena_ops *s = pe_arena_ops_scalar(), *v = pe_arena_ops_default();
    CHECK(s != v, "this native build has a SIMD set of loops");
    enum { MAXN = 13, MAXI = 37, MAXO = 45 };
    static float inp[MAXN * MAXI], w[MAXI * MAXO], bias[MAXO], out_s[MAXN * MAXO], out_v[MAXN * MAXO];
    static float dout[MAXN * MAXO], dinp_s[MAXN * MAXI], dinp_v[MAXN * MAXI], dw_s[MAXI * MAXO], dw_v[MAXI * MAXO];
    static float db_s[MAXO], db_v[MAXO], scratch[MAXI * MAXO];
    const int32_t ns[] = {1, 2, 3, 4, 5, 8, 13}, ics[] = {1, 3, 4, 8, 9, 32, 37}, ocs[] = {1, 2, 4, 5, 8, 12, 18, 45};
    int32_t bad_fwd = 0, bad_bwd = 0, cases = 0;
    for (size_t a = 0; a < sizeof ns / sizeof *ns; a++)
        for (size_t b = 0; b < sizeof ics / sizeof *ics; b++)
            for (size_t c = 0; c < sizeof ocs / sizeof *ocs; c++) {
                const int32_t n = ns[a], ic = ics[b], oc = ocs[c];
                fill(inp, n * ic);
                fill(w, ic * oc);
                fill(bias, oc);
                fill(dout, n * oc);
                for (int with_bias = 0; with_bias <= 1; with_bias++) {
                    s->matmul_forward(out_s, inp, w, with_bias ? bias : NULL, n, ic, oc);
                    v->matmul_forward(out_v, inp, w, with_bias ? bias : NULL, n, ic, oc);
                    bad_fwd += memcmp(out_s, out_v, sizeof(float) * (size_t)(n * oc)) != 0;
                }
                fill(dinp_s, n * ic);
                memcpy(dinp_v, dinp_s, sizeof(float) * (size_t)(n * ic));
                fill(dw_s, ic * oc);
                memcpy(dw_v, dw_s, sizeof(float) * (size_t)(ic * oc));
                fill(db_s, oc);
                memcpy(db_v, db_s, sizeof(float) * (size_t)oc);
                s->matmul_backward(dinp_s, dw_s, db_s, dout, inp, w, scratch, n, ic, oc);
                v->matmul_backward(dinp_v, dw_v, db_v, dout, inp, w, scratch, n, ic, oc);
                bad_bwd += memcmp(dinp_s, dinp_v, sizeof(float) * (size_t)(n * ic)) != 0 ||
                           memcmp(dw_s, dw_v, sizeof(float) * (size_t)(ic * oc)) != 0 ||
                           memcmp(db_s, db_v, sizeof(float) * (size_t)oc) != 0;
                cases++;
            }
    CHECK(bad_fwd == 0, "linear forward SIMD == scalar bit for bit (%d of %d cases differ)", bad_fwd, 2 * cases);
    CHECK(bad_bwd == 0, "linear backward SIMD == scalar bit for bit (%d of %d cases differ)", bad_bwd, cases);

    // A known product: [[1, 2], [3, 4]] · [[1, 0, 2], [0, 1, 3]] + [1, 1, 1]
    const float a2[] = {1, 2, 3, 4}, b2[] = {1, 0, 2, 0, 1, 3}, c2[] = {1, 1, 1};
    float o2[6];
    v->matmul_forward(o2, a2, b2, c2, 2, 2, 3);
    CHECK(o2[0] == 2 && o2[1] == 3 && o2[2] == 9 && o2[3] == 4 && o2[4] == 5 && o2[5] == 19, "2x2 · 2x3 + b");

    enum { G = 203 };
    static float x[G], gs[G], gv[G], d[G], ds[G], dv[G], ks[G], kv[G], alias[G];
    for (int32_t i = 0; i < G; i++) x[i] = (float)(i - 101) * 0.07f;   // [-7.07, 7.07]
    fill(d, G);
    int gelu_bad = 0;
    for (int32_t n = 0; n <= G; n += (n < 12 ? 1 : 17)) {
        s->gelu_forward(gs, ks, x, n);
        v->gelu_forward(gv, kv, x, n);
        memset(ds, 0, sizeof ds);
        memset(dv, 0, sizeof dv);
        s->gelu_backward(ds, ks, d, n);
        v->gelu_backward(dv, kv, d, n);
        gelu_bad += memcmp(gs, gv, sizeof(float) * (size_t)n) != 0 || memcmp(ks, kv, sizeof(float) * (size_t)n) != 0 ||
                    memcmp(ds, dv, sizeof(float) * (size_t)n) != 0;
        memcpy(alias, x, sizeof alias);   // the derivative written over the input, as the model does
        v->gelu_forward(gv, alias, alias, n);
        gelu_bad += memcmp(alias, ks, sizeof(float) * (size_t)n) != 0;
    }
    CHECK(gelu_bad == 0, "gelu forward/backward SIMD == scalar bit for bit (%d lengths differ)", gelu_bad);
    double tanh_err = 0.0, gelu_err = 0.0, deriv_err = 0.0;
    s->gelu_forward(gs, ks, x, G);
    for (int32_t i = 0; i < G; i++) {
        const double e = fabs((double)pe_arena_tanh(x[i]) - tanh((double)x[i]));
        if (e > tanh_err) tanh_err = e;
        const double xx = x[i], c = sqrt(2.0 / 3.14159265358979323846);
        const double t = tanh(c * (xx + 0.044715 * xx * xx * xx));
        const double g = 0.5 * xx * (1.0 + t);
        const double dg = 0.5 * (1.0 + t) + 0.5 * xx * (1.0 - t * t) * c * (1.0 + 3.0 * 0.044715 * xx * xx);
        if (fabs(gs[i] - g) > gelu_err) gelu_err = fabs(gs[i] - g);
        if (fabs(ks[i] - dg) > deriv_err) deriv_err = fabs(ks[i] - dg);
    }
    CHECK(tanh_err < 3e-7, "tanh within 3e-7 of libm (worst %.3g)", tanh_err);
    CHECK(gelu_err < 2e-6, "gelu_tanh within 2e-6 of float64 on [-7, 7] (worst %.3g)", gelu_err);
    CHECK(deriv_err < 2e-6, "gelu_tanh' within 2e-6 of float64 on [-7, 7] (worst %.3g)", deriv_err);
    CHECK(pe_arena_tanh(0.0f) == 0.0f && pe_arena_tanh(-100.0f) == -1.0f && pe_arena_tanh(100.0f) == 1.0f,
          "tanh limits");

    enum { P = 67 };
    static float p1[P], m1[P], v1[P], p2[P], m2[P], v2[P], g[P];
    int adam_bad = 0;
    for (int32_t n = 0; n <= P; n++) {
        fill(p1, P);
        fill(m1, P);
        fill(g, P);
        for (int32_t i = 0; i < P; i++) v1[i] = fabsf(frand());
        memcpy(p2, p1, sizeof p1);
        memcpy(m2, m1, sizeof m1);
        memcpy(v2, v1, sizeof v1);
        s->adamw(p1, m1, v1, g, n, 0.999f, 0.01f, 0.3f);
        v->adamw(p2, m2, v2, g, n, 0.999f, 0.01f, 0.3f);
        adam_bad += memcmp(p1, p2, sizeof p1) != 0 || memcmp(m1, m2, sizeof m1) != 0 || memcmp(v1, v2, sizeof v1) != 0;
    }
    CHECK(adam_bad == 0, "AdamW SIMD == scalar bit for bit (%d lengths differ)", adam_bad);

    // LayerNorm at every width up to 23 (every tail c % 4), forward and backward.
    enum { LR = 5, LC = 23 };
    static float lx[LR * LC], lw[LC], lb[LC], lo_s[LR * LC], lo_v[LR * LC], lm_s[LR], lm_v[LR], lr_s[LR], lr_v[LR];
    static float ld[LR * LC], ldi_s[LR * LC], ldi_v[LR * LC], ldw_s[LC], ldw_v[LC], ldb_s[LC], ldb_v[LC], lscr[2 * LC];
    int ln_bad = 0;
    for (int32_t c = 1; c <= LC; c++) {
        const size_t rc = sizeof(float) * (size_t)(LR * c), cc = sizeof(float) * (size_t)c;
        fill(lx, LR * c);
        fill(lw, c);
        fill(lb, c);
        fill(ld, LR * c);
        s->layernorm_forward(lo_s, lm_s, lr_s, lx, lw, lb, lscr, LR, c);
        v->layernorm_forward(lo_v, lm_v, lr_v, lx, lw, lb, lscr, LR, c);
        ln_bad +=
            memcmp(lo_s, lo_v, rc) != 0 || memcmp(lm_s, lm_v, sizeof lm_s) != 0 || memcmp(lr_s, lr_v, sizeof lr_s) != 0;
        fill(ldi_s, LR * c);
        memcpy(ldi_v, ldi_s, rc);
        fill(ldw_s, c);
        memcpy(ldw_v, ldw_s, cc);
        fill(ldb_s, c);
        memcpy(ldb_v, ldb_s, cc);
        s->layernorm_backward(ldi_s, ldw_s, ldb_s, ld, lx, lw, lm_s, lr_s, lscr, LR, c);
        v->layernorm_backward(ldi_v, ldw_v, ldb_v, ld, lx, lw, lm_s, lr_s, lscr, LR, c);
        ln_bad += memcmp(ldi_s, ldi_v, rc) != 0 || memcmp(ldw_s, ldw_v, cc) != 0 || memcmp(ldb_s, ldb_v, cc) != 0;
    }
    CHECK(ln_bad == 0, "LayerNorm forward/backward SIMD == scalar bit for bit (%d widths differ)", ln_bad);

    // Attention of head sizes 2, 4, 6, 10 at every length up to 9, decoder and encoder (some keys
    // masked), with and without a bias table, forward and backward.
    enum { AB = 2, AT = 9, AC = 20, AH = 3 };
    static float qkv[AB * AT * 3 * AC], abias[AH * (2 * AT - 1)], ao_s[AB * AT * AC], ao_v[AB * AT * AC];
    static float aw_s[AB * AH * AT * AT], aw_v[AB * AH * AT * AT], akt[AC * ((AT + 3) & ~3)], adatt[AT * AT];
    static float adout[AB * AT * AC], adq_s[AB * AT * 3 * AC], adq_v[AB * AT * 3 * AC];
    static float adb_s[AH * (2 * AT - 1)], adb_v[AH * (2 * AT - 1)];
    const int32_t heads_of[][2] = {{4, 2}, {12, 3}, {12, 2}, {20, 2}};   // d_model, heads
    int att_bad = 0, att_cases = 0;
    for (size_t k = 0; k < sizeof heads_of / sizeof *heads_of; k++)
        for (int32_t t = 1; t <= AT; t++)
            for (int32_t causal = 0; causal <= 1; causal++)
                for (int32_t with_bias = 0; with_bias <= 1; with_bias++) {
                    const int32_t c = heads_of[k][0], h = heads_of[k][1], width = 2 * t - 1;
                    const int32_t nkeys[AB] = {t, 1 + (t - 1) / 2};
                    const float *bias = with_bias ? abias : NULL;
                    const size_t qn = sizeof(float) * (size_t)(AB * t * 3 * c),
                                 bn = sizeof(float) * (size_t)(h * width);
                    fill(qkv, AB * t * 3 * c);
                    fill(abias, h * width);
                    fill(adout, AB * t * c);
                    s->attention_forward(ao_s, aw_s, akt, qkv, bias, nkeys, AB, t, c, h, causal);
                    v->attention_forward(ao_v, aw_v, akt, qkv, bias, nkeys, AB, t, c, h, causal);
                    att_bad += memcmp(ao_s, ao_v, sizeof(float) * (size_t)(AB * t * c)) != 0 ||
                               memcmp(aw_s, aw_v, sizeof(float) * (size_t)(AB * h * t * t)) != 0;
                    memset(adq_s, 0, qn);
                    memset(adq_v, 0, qn);
                    memset(adb_s, 0, bn);
                    memset(adb_v, 0, bn);
                    s->attention_backward(adq_s, with_bias ? adb_s : NULL, adatt, akt, adout, qkv, aw_s, nkeys, AB, t,
                                          c, h, causal);
                    v->attention_backward(adq_v, with_bias ? adb_v : NULL, adatt, akt, adout, qkv, aw_s, nkeys, AB, t,
                                          c, h, causal);
                    att_bad += memcmp(adq_s, adq_v, qn) != 0 || memcmp(adb_s, adb_v, bn) != 0;
                    att_cases++;
                }
    CHECK(att_bad == 0, "attention forward/backward SIMD == scalar bit for bit (%d of %d cases differ)", att_bad,
          att_cases);
}

// --- 2. whole runs, SIMD vs scalar ---------------------------------------------------------------

// Shapes: head sizes 2, 4, 6 (a block of 4 and a scalar pair), 10 (8 + a pair) for the attention's
// gathers; d_model 14 for LayerNorm's scalar tail (14 % 4); batch × T from 18 to 77 rows (one,
// two and three 32-row blocks of the dw sums).
static const int32_t RUN_SHAPES[][3] = {{12, 3, 3}, {12, 2, 7}, {20, 2, 5}, {14, 7, 4}};   // d_model, heads, batch

// Each shape trains at one fixed length (5) and on lengths 1 … 5 (padded batches: the encoder's
// masked keys, the decoder's padding after y, kback's unscored targets).
static void test_training_simd_matches_scalar(void) {
    for (int32_t shape = 0; shape < 4; shape++)
        for (int32_t enc = PE_ARENA_NONE; enc <= PE_ARENA_ROPE; enc++)
            for (int32_t causal = 0; causal <= 1; causal++)
                for (int32_t n_min = 1; n_min <= 5; n_min += 4) {
                    const int32_t dm = RUN_SHAPES[shape][0], nh = RUN_SHAPES[shape][1], nb = RUN_SHAPES[shape][2];
                    box a, b;
                    const int ok =
                        box_open_range(&a, PE_ARENA_KBACK, enc, causal, 2, dm, nh, 7, 5, n_min, nb, 3e-3, 0.1, 11, 9) &&
                        box_open_range(&b, PE_ARENA_KBACK, enc, causal, 2, dm, nh, 7, 5, n_min, nb, 3e-3, 0.1, 11, 9);
                    CHECK(ok, "arenas open (encoding %d causal %d, d_model %d heads %d)", enc, causal, dm, nh);
                    if (!ok) continue;
                    CHECK(pe_arena_use_scalar(b.arena, 1) == PE_OK, "scalar loops");
                    float la[6], lb[6], ea[3], eb[3];
                    CHECK(pe_arena_step(la, a.arena, 6) == PE_OK && pe_arena_step(lb, b.arena, 6) == PE_OK, "steps");
                    CHECK(memcmp(la, lb, sizeof la) == 0,
                          "losses SIMD == scalar (encoding %d causal %d n_min %d): %.9g vs %.9g", enc, causal, n_min,
                          la[5], lb[5]);
                    int32_t info[8];
                    pe_arena_info(info, a.arena);
                    float *pa = malloc(sizeof(float) * (size_t)info[0]), *pb = malloc(sizeof(float) * (size_t)info[0]);
                    pe_arena_get_params(pa, a.arena);
                    pe_arena_get_params(pb, b.arena);
                    CHECK(memcmp(pa, pb, sizeof(float) * (size_t)info[0]) == 0,
                          "parameters SIMD == scalar (encoding %d)", enc);
                    CHECK(pe_arena_evaluate(ea, a.arena, a.scratch, a.scratch_bytes, 9, 20, 4, 0, 1) == PE_OK &&
                              pe_arena_evaluate(eb, b.arena, b.scratch, b.scratch_bytes, 9, 20, 4, 0, 1) == PE_OK,
                          "evaluate at a longer length");
                    CHECK(memcmp(ea, eb, sizeof ea) == 0, "evaluation SIMD == scalar (encoding %d)", enc);
                    CHECK(isfinite(ea[2]) && ea[0] >= 0 && ea[0] <= 1 && ea[1] >= 0 && ea[1] <= 1,
                          "evaluation in range");
                    free(pa);
                    free(pb);
                    box_close(&a);
                    box_close(&b);
                }
}

// --- 3. data -------------------------------------------------------------------------------------

static void test_tasks(void) {
    enum { N = 6, B = 4 };
    int32_t tok[B * (2 * N + 1)], tgt[B * (2 * N + 1)], etok[B * (N + 1)], etgt[B * (N + 1)];
    for (int32_t task = PE_ARENA_COPY; task <= PE_ARENA_SORT; task++) {
        int32_t keys[B], ekeys[B];
        pe_arena_batch(tok, tgt, keys, task, 1, 5, N, N, B, 99, 10);
        pe_arena_batch(etok, etgt, ekeys, task, 0, 5, N, N, B, 99, 10);
        int ok = 1;
        for (int32_t b = 0; b < B; b++) {
            const int32_t *t = tok + b * (2 * N + 1), *y = tgt + b * (2 * N + 1);
            const int32_t *et = etok + b * (N + 1), *ey = etgt + b * (N + 1);
            const int32_t *x = t + 1;
            int32_t want[N];
            for (int32_t j = 0; j < N; j++) {
                ok &= x[j] >= 2 && x[j] <= 6;
                want[j] = task == PE_ARENA_COPY      ? x[j]
                          : task == PE_ARENA_REVERSE ? x[N - 1 - j]
                          : task == PE_ARENA_KBACK   ? (j >= 2 ? x[j - 2] : -1)   // no wrap
                                                     : 0;
            }
            if (task == PE_ARENA_SORT) {
                int32_t count[7] = {0};
                for (int32_t j = 0; j < N; j++) count[x[j]]++;
                for (int32_t s = 2, j = 0; s <= 6; s++)
                    while (count[s]-- > 0) want[j++] = s;
            }
            ok &= t[0] == PE_ARENA_BOS && t[N + 1] == PE_ARENA_SEP;
            for (int32_t p = 0; p <= N; p++) ok &= y[p] == -1;
            for (int32_t j = 0; j < N; j++) ok &= y[N + 1 + j] == want[j];
            for (int32_t j = 0; j + 1 < N; j++)   // teacher forcing; kback's unscored y_1, y_2 as SEP
                ok &= t[N + 2 + j] == (want[j] < 0 ? PE_ARENA_SEP : want[j]);
            ok &= keys[b] == 2 * N + 1 && ekeys[b] == N + 1;
            ok &= et[0] == PE_ARENA_BOS && ey[0] == -1;
            for (int32_t j = 0; j < N; j++) ok &= et[1 + j] == x[j] && ey[1 + j] == want[j];
        }
        CHECK(ok, "task %d: decoder and encoder layouts and targets", task);
    }
    // Uniform symbols: every one of 16 appears about equally often.
    enum { M = 4096 };
    static int32_t mt[M * 2], mg[M * 2];
    pe_arena_batch(mt, mg, NULL, PE_ARENA_COPY, 0, 16, 1, 1, M, 5, 0);
    int32_t count[18] = {0};
    for (int32_t b = 0; b < M; b++) count[mt[2 * b + 1]]++;
    int spread = 1;
    for (int32_t s = 2; s < 18; s++) spread &= count[s] > M / 16 - 80 && count[s] < M / 16 + 80;
    CHECK(spread, "symbols are uniform (counts within ±80 of %d)", M / 16);

    // Lengths in [2, 6]: uniform, each example a prefix of what the same example would be at the
    // longest length (symbols e·n_max + j), padded after it (token SEP, target −1), keys = n + 1 in
    // the encoder; kback's y_1, y_2 unscored.
    enum { E = 2000 };
    static int32_t ltok[E * (2 * N + 1)], ltgt[E * (2 * N + 1)], lkeys[E], ftok[E * (2 * N + 1)], ftgt[E * (2 * N + 1)];
    for (int32_t causal = 0; causal <= 1; causal++) {
        const int32_t T = causal ? 2 * N + 1 : N + 1;
        pe_arena_batch(ltok, ltgt, lkeys, PE_ARENA_KBACK, causal, 5, 2, N, E, 77, 3);
        pe_arena_batch(ftok, ftgt, NULL, PE_ARENA_KBACK, causal, 5, N, N, E, 77, 3);
        int32_t seen[N + 1] = {0};
        int ok = 1;
        for (int32_t b = 0; b < E; b++) {
            const int32_t n = pe_arena_example_length(2, N, 77, 3 + (uint64_t)b);
            ok &= n >= 2 && n <= N;
            seen[n]++;
            const int32_t *t = ltok + b * T, *y = ltgt + b * T, *ft = ftok + b * T;
            ok &= lkeys[b] == (causal ? T : n + 1);
            for (int32_t j = 0; j < n; j++) ok &= t[1 + j] == ft[1 + j];   // the same symbols
            const int32_t used = causal ? 2 * n + 1 : n + 1;
            for (int32_t p = used; p < T; p++) ok &= t[p] == PE_ARENA_SEP && y[p] == -1;
            const int32_t at = causal ? n + 1 : 1;   // y_j's target position: at + j
            for (int32_t j = 0; j < n; j++) ok &= y[at + j] == (j >= 2 ? t[1 + j - 2] : -1);
        }
        for (int32_t n = 2; n <= N; n++) ok &= seen[n] > E / 5 - 120 && seen[n] < E / 5 + 120;
        CHECK(ok, "padded batch (causal %d): lengths uniform in [2, %d], prefixes, padding, keys", causal, N);
    }
}

// --- 4. learning ---------------------------------------------------------------------------------

// Trains until accuracy at the training length reaches 0.99 (checked every `every` steps) or
// `max_steps`; returns the accuracy reached and the steps it took.
static float train_until(box *b, int32_t n, int32_t max_steps, int32_t every, int32_t *steps_out, float *eval_out) {
    static float losses[PE_ARENA_MAX_STEPS];
    float e[3] = {0, 0, 0};
    int32_t steps = 0;
    while (steps < max_steps) {
        const int32_t k = max_steps - steps < every ? max_steps - steps : every;
        if (pe_arena_step(losses, b->arena, k) != PE_OK) break;
        steps += k;
        pe_arena_evaluate(e, b->arena, b->scratch, b->scratch_bytes, n, 256, 1, 0, 1);
        if (e[0] >= 0.99f) break;
    }
    *steps_out = steps;
    memcpy(eval_out, e, sizeof e);
    return e[0];
}

// The best token accuracy on `reverse` of any model that sees x only as a multiset: the output at
// x_j's position knows x_j and the multiset M, and y_j = x_{n−1−j} is then equally likely to be
// any of the n − 1 other symbols of M (n even: j ≠ n − 1 − j), so the best guess is the most
// frequent symbol of M − {x_j}, right with probability max count / (n − 1). Averaged over
// `count` examples of the training distribution (16 symbols, n = 16: ≈ 0.197).
static double multiset_bound(int32_t symbols, int32_t n, int32_t count) {
    enum { MAXN = 32 };
    int32_t tok[MAXN + 1], tgt[MAXN + 1], hist[PE_ARENA_MAX_SYMBOLS + 2];
    double total = 0.0;
    for (int32_t e = 0; e < count; e++) {
        pe_arena_batch(tok, tgt, NULL, PE_ARENA_REVERSE, 0, symbols, n, n, 1, 12345, (uint64_t)e);
        memset(hist, 0, sizeof hist);
        for (int32_t j = 0; j < n; j++) hist[tok[1 + j]]++;
        double right = 0.0;
        for (int32_t j = 0; j < n; j++) {
            hist[tok[1 + j]]--;
            int32_t most = 0;
            for (int32_t k = 0; k < symbols + 2; k++)
                if (hist[k] > most) most = hist[k];
            right += (double)most / (n - 1);
            hist[tok[1 + j]]++;
        }
        total += right / n;
    }
    return total / count;
}

// Each encoding learns copy at length 16 as a decoder (T = 33) with the contract's default model
// (2 layers, d_model 32, 4 heads, 16 symbols, batch 32, seed 0, no weight decay), checked every 50
// steps until accuracy ≥ 0.99 at the training length (256 examples) or the step budget runs out.
// Training is bit-deterministic, so a case that passes passes every time in a build.
//
// The learning rate: rope and learned learn copy in under 300 steps at the contract's default
// 1e-3. The other four learn it too, but much more slowly, and that is not a bug: the C engine's
// loss curve matches PyTorch's (tests/fixtures/ref_arena.py in float64, trained from the same
// initial parameters on the same batches through ctypes) to four decimals in the mean loss of
// every 100 steps over the first 300 steps for alibi, none and sinusoidal (lr 1e-3), and the
// gradients match per tensor (tests/arena.test.js). Why they are slow:
//   - copy needs each output at position n + 1 + j to read x_j at exactly n positions back.
//     rope and learned tables make "n back" directly expressible; none and alibi must first build
//     a position signal out of the causal mask (alibi's slopes 1/4 … 1/256 only favour recent
//     keys, they cannot point at one distance), and t5's causal buckets are exact only up to 15
//     back (16, 17 and 18 back share one bucket);
//   - sinusoidal adds a unit-amplitude table to token embeddings initialised at N(0, 0.02²): until
//     the embeddings grow, LayerNorm sees mostly position, so it needs a larger learning rate.
// Measured in an optimised build (-O2), first checkpoint ≥ 0.99: rope 150 and learned 200 steps
// at lr 1e-3; t5 2350 at 1e-3; sinusoidal 900 at 3e-3; alibi 5700 at 3e-3 (checked every 100;
// it hovers at 0.8–0.97 from step 2900 on); none 5100 at 3e-3 (at lr 1e-3 it is at 0.59 after
// 5750). The slow four use the spec's own lr field (allowed range (0, 1]); the budgets leave
// room above those counts.
//
// Under ASan (tests/native/run.sh) a step costs ~0.1 s (the quick cases alone took 100 s of CPU),
// so none runs there: tests/arena-learning.test.js runs the quick cases (rope, learned, the
// encoder's copy and reverse) on the WebAssembly build in seconds, with the same losses and
// accuracies bit for bit. An optimised build runs all six here (minutes; from the repository root):
//   gcc -std=c11 -O2 -ffp-contract=off -msse4.2 -DPE_NATIVE_SIMDE -Ic -Itests/native
//       tests/native/test_arena.c c/*.c -lm -o build/native/test_arena_O2
//   build/native/test_arena_O2
// PE_ARENA_LEARN_ALL=1 runs all six under ASan too; PE_ARENA_LEARN_ALL=0 only the quick ones.
typedef struct {
    int32_t encoding;
    double lr;
    int32_t budget;
} learn_case;

#define QUICK_BUDGET 400

static void test_learning(void) {
    static const char *names[] = {"none", "sinusoidal", "learned", "alibi", "t5", "rope"};
    static const learn_case cases[] = {
        {PE_ARENA_ROPE, 1e-3, QUICK_BUDGET}, {PE_ARENA_LEARNED, 1e-3, QUICK_BUDGET}, {PE_ARENA_SINUSOIDAL, 3e-3, 1500},
        {PE_ARENA_T5, 1e-3, 3500},           {PE_ARENA_ALIBI, 3e-3, 10000},          {PE_ARENA_NONE, 3e-3, 10000},
    };
    // all: every case; quick: the quick ones; neither (ASan's default): only the multiset bound
#if defined(__SANITIZE_ADDRESS__)
    int all = 0, quick = 0;
#else
    int all = 1, quick = 1;
#endif
    const char *env = getenv("PE_ARENA_LEARN_ALL");
    if (env != NULL) {
        all = strcmp(env, "0") != 0;
        quick = 1;
    }
    const double bound = multiset_bound(16, 16, 4096);
    CHECK(bound > 0.18 && bound < 0.21, "the multiset bound for 16 symbols is about 0.197 (%.4f)", bound);
    if (!quick) {
        printf("  learning: skipped under ASan (tests/arena-learning.test.js runs the quick cases in WebAssembly;"
               " PE_ARENA_LEARN_ALL=1 runs them here); multiset bound %.4f\n",
               bound);
        return;
    }
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        const learn_case *lc = &cases[k];
        if (!all && lc->budget > QUICK_BUDGET) {
            printf("  copy, causal, %-10s skipped (an optimised build runs it; see test_learning)\n",
                   names[lc->encoding]);
            continue;
        }
        box b;
        if (!box_open(&b, PE_ARENA_COPY, lc->encoding, 1, 2, 32, 4, 16, 16, 32, lc->lr, 0.0, 0, 16)) {
            CHECK(0, "open %s", names[lc->encoding]);
            continue;
        }
        int32_t steps;
        float e[3];
        const float acc = train_until(&b, 16, lc->budget, 50, &steps, e);
        printf("  copy, causal, %-10s lr %g: accuracy %.4f token accuracy %.4f loss %.4f after %d steps\n",
               names[lc->encoding], lc->lr, e[0], e[1], e[2], steps);
        CHECK(acc >= 0.99f, "%s learns copy at length 16 (lr %g): accuracy %.4f after %d steps", names[lc->encoding],
              lc->lr, acc, steps);
        box_close(&b);
    }

    // The permutation lesson: an encoder without positions sees x as a multiset (attention is
    // permutation-equivariant). Copy is still learnable (each output reads its own token through
    // the residual stream); reverse is not: no whole sequence right, and token accuracy at (not
    // above) the multiset bound.
    box c;
    if (box_open(&c, PE_ARENA_COPY, PE_ARENA_NONE, 0, 2, 32, 4, 16, 16, 32, 1e-3, 0.0, 0, 16)) {
        int32_t steps;
        float e[3];
        const float acc = train_until(&c, 16, 300, 50, &steps, e);
        printf("  copy, encoder, none       accuracy %.4f token accuracy %.4f after %d steps\n", e[0], e[1], steps);
        CHECK(acc >= 0.99f, "encoder without positions learns copy: %.4f", acc);
        box_close(&c);
    }
    box r;
    if (box_open(&r, PE_ARENA_REVERSE, PE_ARENA_NONE, 0, 2, 32, 4, 16, 16, 32, 1e-3, 0.0, 0, 16)) {
        static float losses[300];
        float e[3];
        pe_arena_step(losses, r.arena, 300);
        pe_arena_evaluate(e, r.arena, r.scratch, r.scratch_bytes, 16, 1024, 1, 0, 1);
        printf("  reverse, encoder, none    accuracy %.4f token accuracy %.4f (multiset bound %.4f) loss %.4f after "
               "300 steps\n",
               e[0], e[1], bound, e[2]);
        CHECK(e[0] == 0.0f, "reverse without positions: no whole sequence right (%.4f)", e[0]);
        CHECK(e[1] > bound - 0.03 && e[1] < bound + 0.015,
              "reverse without positions: token accuracy %.4f at the multiset bound %.4f", e[1], bound);
        box_close(&r);
    }
}

// --- 5. bad arguments ----------------------------------------------------------------------------

static void test_bad_arguments(void) {
    int32_t bytes;
    CHECK(pe_arena_size(NULL, 0, 5, 1, 2, 32, 4, 16, 16, 16, 32, 1e-3, 0, 0) == PE_ERR_ARG(1), "size: NULL");
    CHECK(pe_arena_size(&bytes, 4, 5, 1, 2, 32, 4, 16, 16, 16, 32, 1e-3, 0, 0) == PE_ERR_ARG(2), "task");
    CHECK(pe_arena_size(&bytes, 0, 6, 1, 2, 32, 4, 16, 16, 16, 32, 1e-3, 0, 0) == PE_ERR_ARG(3), "encoding");
    CHECK(pe_arena_size(&bytes, 0, 5, 2, 2, 32, 4, 16, 16, 16, 32, 1e-3, 0, 0) == PE_ERR_ARG(4), "causal");
    CHECK(pe_arena_size(&bytes, 0, 5, 1, 0, 32, 4, 16, 16, 16, 32, 1e-3, 0, 0) == PE_ERR_ARG(5), "layers");
    CHECK(pe_arena_size(&bytes, 0, 5, 1, 2, 257, 4, 16, 16, 16, 32, 1e-3, 0, 0) == PE_ERR_ARG(6), "d_model");
    CHECK(pe_arena_size(&bytes, 0, 5, 1, 2, 32, 3, 16, 16, 16, 32, 1e-3, 0, 0) == PE_ERR_ARG(7),
          "heads: not a divisor");
    CHECK(pe_arena_size(&bytes, 0, 5, 1, 2, 12, 4, 16, 16, 16, 32, 1e-3, 0, 0) == PE_ERR_ARG(7),
          "heads: odd head size");
    CHECK(pe_arena_size(&bytes, 0, 5, 1, 2, 32, 4, 65, 16, 16, 32, 1e-3, 0, 0) == PE_ERR_ARG(8), "symbols");
    CHECK(pe_arena_size(&bytes, 0, 5, 1, 2, 32, 4, 16, 65, 1, 32, 1e-3, 0, 0) == PE_ERR_ARG(9), "train_length");
    CHECK(pe_arena_size(&bytes, 0, 5, 1, 2, 32, 4, 16, 16, 16, 0, 1e-3, 0, 0) == PE_ERR_ARG(11), "batch");
    CHECK(pe_arena_size(&bytes, 0, 5, 1, 2, 32, 4, 16, 16, 16, 32, NAN, 0, 0) == PE_ERR_ARG(12), "lr NaN");
    CHECK(pe_arena_size(&bytes, 0, 5, 1, 2, 32, 4, 16, 16, 16, 32, 0.0, 0, 0) == PE_ERR_ARG(12), "lr 0");
    CHECK(pe_arena_size(&bytes, 0, 5, 1, 2, 32, 4, 16, 16, 16, 32, 1e-3, 2, 0) == PE_ERR_ARG(13), "weight_decay");
    CHECK(pe_arena_size(&bytes, 0, 5, 1, 2, 32, 4, 16, 16, 16, 32, 1e-3, 0, 0.5) == PE_ERR_ARG(14), "seed");
    CHECK(pe_arena_size(&bytes, 0, 5, 1, 8, 256, 16, 64, 64, 64, 256, 1e-3, 0, 0) == PE_ERR_TOO_LARGE, "too large");
    CHECK(pe_arena_size(&bytes, 0, 5, 1, 2, 32, 4, 16, 16, 0, 32, 1e-3, 0, 0) == PE_ERR_ARG(10), "train_length_min 0");
    CHECK(pe_arena_size(&bytes, 0, 5, 1, 2, 32, 4, 16, 16, 17, 32, 1e-3, 0, 0) == PE_ERR_ARG(10),
          "train_length_min above train_length");
    CHECK(pe_arena_size(&bytes, 2, 5, 1, 2, 32, 4, 16, 2, 1, 32, 1e-3, 0, 0) == PE_ERR_ARG(9),
          "kback: train_length 2 scores nothing");
    CHECK(pe_arena_size(&bytes, 0, 5, 1, 2, 32, 4, 16, 16, 1, 32, 1e-3, 0, 0) == PE_OK, "train_length_min 1");

    box b;
    CHECK(box_open(&b, 0, PE_ARENA_ROPE, 1, 1, 8, 2, 4, 3, 2, 1e-3, 0, 0, 4), "small arena");
    static char misaligned[64];
    CHECK(pe_arena_init(NULL, b.bytes, 0, 5, 1, 1, 8, 2, 4, 3, 3, 2, 1e-3, 0, 0) == PE_ERR_ARG(1), "init NULL");
    CHECK(pe_arena_init(align16(misaligned) + 4, 60, 0, 5, 1, 1, 8, 2, 4, 3, 3, 2, 1e-3, 0, 0) == PE_ERR_ARG(1),
          "init misaligned");
    CHECK(pe_arena_init(b.arena, b.bytes - 4, 0, 5, 1, 1, 8, 2, 4, 3, 3, 2, 1e-3, 0, 0) == PE_ERR_ARG(2), "init short");
    CHECK(pe_arena_init(b.arena, b.bytes, 0, 5, 1, 1, 8, 2, 4, 3, 3, 2, 1e-3, 0, -1) == PE_ERR_ARG(15), "init seed");
    CHECK(pe_arena_init(b.arena, b.bytes, 0, 5, 1, 1, 8, 2, 4, 3, 3, 2, 1e-3, 0, 0) == PE_OK, "init again");
    float out[3], losses[2];
    static float zeros[64];
    CHECK(pe_arena_step(NULL, b.arena, 1) == PE_ERR_ARG(1), "step: losses");
    CHECK(pe_arena_step(losses, zeros, 1) == PE_ERR_ARG(2), "step: not an arena");
    CHECK(pe_arena_step(losses, b.arena, 0) == PE_ERR_ARG(3), "step: steps");
    CHECK(pe_arena_eval_size(&bytes, b.arena, 0) == PE_ERR_ARG(3), "eval_size: length");
    CHECK(pe_arena_evaluate(NULL, b.arena, b.scratch, b.scratch_bytes, 4, 8, 0, 0, 1) == PE_ERR_ARG(1),
          "evaluate: out");
    CHECK(pe_arena_evaluate(out, b.arena, NULL, b.scratch_bytes, 4, 8, 0, 0, 1) == PE_ERR_ARG(3), "evaluate: scratch");
    CHECK(pe_arena_evaluate(out, b.arena, b.scratch, 16, 4, 8, 0, 0, 1) == PE_ERR_ARG(4),
          "evaluate: scratch too small");
    CHECK(pe_arena_evaluate(out, b.arena, b.scratch, b.scratch_bytes, 5, 8, 0, 0, 1) == PE_ERR_ARG(4),
          "evaluate: scratch for a shorter length");
    CHECK(pe_arena_evaluate(out, b.arena, b.scratch, b.scratch_bytes, 0, 8, 0, 0, 1) == PE_ERR_ARG(5),
          "evaluate: length");
    CHECK(pe_arena_evaluate(out, b.arena, b.scratch, b.scratch_bytes, 4, 0, 0, 0, 1) == PE_ERR_ARG(6),
          "evaluate: samples");
    CHECK(pe_arena_evaluate(out, b.arena, b.scratch, b.scratch_bytes, 4, 8, -2, 0, 1) == PE_ERR_ARG(7),
          "evaluate: seed");
    CHECK(pe_arena_evaluate(out, b.arena, b.scratch, b.scratch_bytes, 4, 8, 0, PE_ROPE_DYNAMIC, 2) == PE_ERR_ARG(8),
          "evaluate: rope_type");
    CHECK(pe_arena_evaluate(out, b.arena, b.scratch, b.scratch_bytes, 4, 8, 0, PE_ROPE_LINEAR, 0.5) == PE_ERR_ARG(9),
          "evaluate: factor");
    CHECK(pe_arena_evaluate(out, b.arena, b.scratch, b.scratch_bytes, 4, 8, 0, PE_ROPE_YARN, 4) == PE_OK,
          "evaluate: yarn");
    float att[1 * 2 * 9 * 9];
    int32_t tokens[9];
    CHECK(pe_arena_attention(att, NULL, b.arena, b.scratch, b.scratch_bytes, 4, 0, 0, 1) == PE_ERR_ARG(2),
          "attention: tokens");
    CHECK(pe_arena_attention(att, tokens, b.arena, b.scratch, b.scratch_bytes, 4, 0, 0, 1) == PE_OK, "attention");
    CHECK(tokens[0] == PE_ARENA_BOS && tokens[5] == PE_ARENA_SEP, "attention tokens: BOS x SEP y");
    float table[4];
    CHECK(pe_arena_position_table(table, b.arena) == PE_ERR_ARG(2), "position table: not learned");
    int32_t info[8];
    CHECK(pe_arena_info(info, b.arena) == PE_OK && info[2] == 7 && info[5] == 6 && info[6] == 8 && info[7] == 2,
          "info");
    float *p = malloc(sizeof(float) * (size_t)info[0]);
    pe_arena_get_params(p, b.arena);
    p[3] = INFINITY;
    CHECK(pe_arena_set_params(b.arena, p) == PE_ERR_ARG(2), "set_params: not finite");
    int32_t tk[2 * 7] = {0, 2, 3, 4, 1, 2, 3, 0, 2, 3, 4, 1, 2, 3}, tg[2 * 7];
    for (int32_t i = 0; i < 14; i++) tg[i] = -1;
    float *g = malloc(sizeof(float) * (size_t)info[0]), loss;
    CHECK(pe_arena_gradients(g, &loss, b.arena, tk, tg, 2) == PE_ERR_ARG(5), "gradients: no target");
    tg[5] = 6;
    CHECK(pe_arena_gradients(g, &loss, b.arena, tk, tg, 2) == PE_ERR_ARG(5), "gradients: target out of range");
    tg[5] = 2;
    tk[3] = 6;
    CHECK(pe_arena_gradients(g, &loss, b.arena, tk, tg, 2) == PE_ERR_ARG(4), "gradients: token out of range");
    tk[3] = 4;
    CHECK(pe_arena_gradients(g, &loss, b.arena, tk, tg, 3) == PE_ERR_ARG(6), "gradients: batch");
    CHECK(pe_arena_gradients(g, &loss, b.arena, tk, tg, 2) == PE_OK && isfinite(loss), "gradients");
    // −1 tokens: padding, a suffix of a row after a real token, with no target
    tk[6] = -1;
    CHECK(pe_arena_gradients(g, &loss, b.arena, tk, tg, 2) == PE_OK && isfinite(loss), "gradients: padding");
    tk[6] = 3;
    tk[4] = -1;
    CHECK(pe_arena_gradients(g, &loss, b.arena, tk, tg, 2) == PE_ERR_ARG(4), "gradients: padding, then a token");
    tk[4] = 1;
    tk[5] = tk[6] = -1;
    CHECK(pe_arena_gradients(g, &loss, b.arena, tk, tg, 2) == PE_ERR_ARG(5), "gradients: a target at padding");
    tk[0] = -2;
    CHECK(pe_arena_gradients(g, &loss, b.arena, tk, tg, 2) == PE_ERR_ARG(4), "gradients: token -2");
    // Parameters that are not finite (here written past set_params' check): evaluate and attention
    // return PE_ARENA_NOT_FINITE, never NaN.
    pe_arena_get_params(p, b.arena);
    float *saved = malloc(sizeof(float) * (size_t)info[0]);
    memcpy(saved, p, sizeof(float) * (size_t)info[0]);
    p[1] = NAN;
    CHECK(pe_arena_set_params(b.arena, p) == PE_ERR_ARG(2), "set_params refuses NaN");
    CHECK(pe_arena_adamw(b.arena, p) == PE_OK, "adamw with a NaN gradient");   // m, v, p become NaN there
    CHECK(pe_arena_evaluate(out, b.arena, b.scratch, b.scratch_bytes, 4, 8, 0, 0, 1) == PE_ARENA_NOT_FINITE,
          "evaluate: a forward pass that is not finite is PE_ARENA_NOT_FINITE");
    CHECK(pe_arena_attention(att, tokens, b.arena, b.scratch, b.scratch_bytes, 4, 0, 0, 1) == PE_ARENA_NOT_FINITE,
          "attention: PE_ARENA_NOT_FINITE");
    CHECK(pe_arena_set_params(b.arena, saved) == PE_OK &&
              pe_arena_evaluate(out, b.arena, b.scratch, b.scratch_bytes, 4, 8, 0, 0, 1) == PE_OK && isfinite(out[2]),
          "finite parameters again: evaluate works");
    free(saved);
    free(p);
    free(g);
    box_close(&b);

    // kback scores y_3 … y_n: evaluation below length 3 has nothing to count.
    box k;
    CHECK(box_open(&k, PE_ARENA_KBACK, PE_ARENA_ROPE, 0, 1, 8, 2, 4, 3, 2, 1e-3, 0, 0, 3), "kback arena");
    CHECK(pe_arena_evaluate(out, k.arena, k.scratch, k.scratch_bytes, 2, 8, 0, 0, 1) == PE_ERR_ARG(5),
          "kback: evaluate at length 2");
    CHECK(pe_arena_evaluate(out, k.arena, k.scratch, k.scratch_bytes, 3, 8, 0, 0, 1) == PE_OK && isfinite(out[1]),
          "kback: evaluate at length 3");
    box_close(&k);

    // A learning rate far too large diverges: a status, not NaN losses.
    box d;
    CHECK(box_open(&d, 0, PE_ARENA_NONE, 1, 1, 8, 2, 4, 3, 2, 1.0, 0, 0, 3), "arena lr 1");
    static float many[300];
    const pe_status st = pe_arena_step(many, d.arena, 300);
    CHECK(st == PE_OK || st == PE_ARENA_DIVERGED, "lr 1: ok or diverged status (got %d)", st);
    CHECK(strcmp(pe_status_message(PE_ARENA_DIVERGED), pe_status_message(-1)) != 0, "PE_ARENA_DIVERGED has a message");
    CHECK(strcmp(pe_status_message(PE_ARENA_NOT_FINITE), pe_status_message(-1)) != 0,
          "PE_ARENA_NOT_FINITE has a message");
    box_close(&d);
}

int main(void) {
    test_loops_simd_matches_scalar();
    test_training_simd_matches_scalar();
    test_tasks();
    test_bad_arguments();
    test_learning();
    return test_summary("arena");
}

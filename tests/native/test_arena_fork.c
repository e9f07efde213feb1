// Native tests of pe_arena_fork (c/arena.h: fine-tuning at another length with a RoPE scaling),
// gcc + SIMDe under ASan/UBSan (run.sh):
//   1. A fork at the source's lengths with no scaling continues exactly as the source: the same
//      losses and parameters, bit for bit, step after step (every encoding, fixed and ranged
//      lengths). Fails if the fork drops the AdamW moments, the step counters or any tensor.
//   2. A fork with a scaling trains on the evaluation path's scaled tables: its training loss on
//      the evaluation examples equals the source's evaluation loss with that scaling (and not the
//      unscaled one); evaluating the fork with rope_type 0 is the trained scaling, linear ×1 the
//      unscaled model. yarn keeps the first arena's length as original_max_position_embeddings.
//   3. A learned table grown for a longer length repeats its last row: the fork evaluates as the
//      source does.
//   4. Every bad argument's status.
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "pe.h"
#include "rope.h"
#include "test_util.h"

static void *align16(void *p) { return (void *)(((uintptr_t)p + 15u) & ~(uintptr_t)15u); }

typedef struct {
    void *raw, *arena;
    int32_t bytes;
} buf;

// The small model of these tests: 1 layer, d_model 8, 2 heads, 4 symbols, batch 4, lr 1e-2.
static int open_arena(buf *b, int32_t task, int32_t encoding, int32_t causal, int32_t n, int32_t n_min, double seed) {
    if (pe_arena_size(&b->bytes, task, encoding, causal, 1, 8, 2, 4, n, n_min, 4, 1e-2, 0.01, seed) != PE_OK) return 0;
    b->raw = malloc((size_t)b->bytes + 16);
    b->arena = align16(b->raw);
    return pe_arena_init(b->arena, b->bytes, task, encoding, causal, 1, 8, 2, 4, n, n_min, 4, 1e-2, 0.01, seed) ==
           PE_OK;
}

static int open_fork(buf *b, const void *src, int32_t n, int32_t n_min, int32_t rope_type, double factor) {
    if (pe_arena_fork_size(&b->bytes, src, n, n_min) != PE_OK) return 0;
    b->raw = malloc((size_t)b->bytes + 16);
    b->arena = align16(b->raw);
    return pe_arena_fork(b->arena, b->bytes, src, n, n_min, rope_type, factor) == PE_OK;
}

static void close_buf(buf *b) { free(b->raw); }

static int32_t param_count(const void *arena) {
    int32_t info[8];
    pe_arena_info(info, arena);
    return info[0];
}

// Evaluation of `arena` at `length`: [accuracy, token_accuracy, loss].
static void eval_at(float *out, void *arena, int32_t length, int32_t samples, int32_t rope_type, double factor) {
    int32_t n;
    pe_arena_eval_size(&n, arena, length);
    void *raw = malloc((size_t)n + 16);
    const pe_status st = pe_arena_evaluate(out, arena, align16(raw), n, length, samples, 5, rope_type, factor);
    CHECK(st == PE_OK, "evaluate at %d (rope_type %d): status %d", length, rope_type, st);
    free(raw);
}

// --- 1. a fork at the same lengths continues bit for bit -----------------------------------------

static void test_same_length_continues(void) {
    static const int32_t encodings[] = {PE_ARENA_NONE,  PE_ARENA_SINUSOIDAL, PE_ARENA_LEARNED,
                                        PE_ARENA_ALIBI, PE_ARENA_T5,         PE_ARENA_ROPE};
    for (int32_t e = 0; e < 6; e++)
        for (int32_t ranged = 0; ranged < 2; ranged++) {
            const int32_t enc = encodings[e], n = 6, n_min = ranged ? 2 : 6, causal = e % 2;
            buf a, b, f;
            CHECK(open_arena(&a, PE_ARENA_COPY, enc, causal, n, n_min, 3) &&
                      open_arena(&b, PE_ARENA_COPY, enc, causal, n, n_min, 3),
                  "arenas (encoding %d)", enc);
            float la[6], lb[6], lf[6];
            pe_arena_step(la, a.arena, 6);
            pe_arena_step(lb, b.arena, 6);
            CHECK(open_fork(&f, a.arena, n, n_min, 0, 1.0), "fork (encoding %d)", enc);
            pe_arena_step(lb, b.arena, 6);
            pe_arena_step(lf, f.arena, 6);
            CHECK(memcmp(lb, lf, sizeof lb) == 0,
                  "encoding %d, lengths %d…%d: the fork's losses are the source's (%.9g vs %.9g)", enc, n_min, n,
                  (double)lf[5], (double)lb[5]);
            const int32_t np = param_count(b.arena);
            CHECK(np == param_count(f.arena), "same parameter count");
            float *pb = malloc(sizeof(float) * (size_t)np), *pf = malloc(sizeof(float) * (size_t)np);
            pe_arena_get_params(pb, b.arena);
            pe_arena_get_params(pf, f.arena);
            CHECK(memcmp(pb, pf, sizeof(float) * (size_t)np) == 0, "encoding %d: the same parameters after 12 steps",
                  enc);
            int32_t ib[8], iff[8];
            pe_arena_info(ib, b.arena);
            pe_arena_info(iff, f.arena);
            CHECK(ib[4] == 12 && iff[4] == 12, "the step count carries over (%d, %d)", ib[4], iff[4]);
            // and the source is untouched by the fork: it continues as its twin did
            pe_arena_step(la, a.arena, 6);
            CHECK(memcmp(la, lb, sizeof la) == 0, "encoding %d: the source is not changed by the fork", enc);
            free(pb);
            free(pf);
            close_buf(&a);
            close_buf(&b);
            close_buf(&f);
        }
}

// --- 2. a scaled fork trains on the evaluation path's scaled tables ------------------------------

// The fork's training loss (pe_arena_gradients: its training tables) on the first `count`
// evaluation examples of seed 5 at its training length.
static float train_loss_on_eval_examples(void *fork, int32_t task, int32_t causal, int32_t n, int32_t count) {
    const int32_t T = pe_arena_seq_len(n, causal);
    int32_t *tokens = malloc(sizeof(int32_t) * (size_t)(count * T)),
            *targets = malloc(sizeof(int32_t) * (size_t)(count * T));
    pe_arena_batch(tokens, targets, NULL, task, causal, 4, n, n, count, 5 + (8ull << 32), 0);
    int32_t info[8];
    pe_arena_info(info, fork);
    float *g = malloc(sizeof(float) * (size_t)info[0]), loss = NAN;
    CHECK(pe_arena_gradients(g, &loss, fork, tokens, targets, count) == PE_OK, "gradients on the fork");
    free(g);
    free(tokens);
    free(targets);
    return loss;
}

static void test_scaled_tables(void) {
    static const int32_t types[] = {PE_ROPE_LINEAR, PE_ROPE_NTK, PE_ROPE_YARN};
    for (int32_t k = 0; k < 3; k++)
        for (int32_t causal = 0; causal < 2; causal++) {
            const int32_t L = 5, L2 = 10, count = 4;
            const double factor = k == 0 ? 2.0 : 3.0;
            buf a, f;
            CHECK(open_arena(&a, PE_ARENA_REVERSE, PE_ARENA_ROPE, causal, L, L, 1), "rope arena");
            // Random parameters of size ~2 (sharp attention, so the positions matter to the loss),
            // then a few steps (nonzero AdamW moments).
            const int32_t np = param_count(a.arena);
            float *p = malloc(sizeof(float) * (size_t)np), l[3];
            uint32_t z = 12345u + (uint32_t)k;
            for (int32_t i = 0; i < np; i++) {
                z = z * 1664525u + 1013904223u;
                p[i] = (float)(4.0 * ((double)(z >> 8) / 16777216.0 - 0.5));
            }
            CHECK(pe_arena_set_params(a.arena, p) == PE_OK, "random parameters");
            free(p);
            pe_arena_step(l, a.arena, 3);
            CHECK(open_fork(&f, a.arena, L2, L2, types[k], factor), "fork with rope_type %d", types[k]);
            float scaled[3], plain[3], own[3], unscaled[3];
            eval_at(scaled, a.arena, L2, count, types[k], factor);
            eval_at(plain, a.arena, L2, count, 0, 1);
            const float train = train_loss_on_eval_examples(f.arena, PE_ARENA_REVERSE, causal, L2, count);
            CHECK(fabsf(train - scaled[2]) <= 2e-6f * fabsf(scaled[2]),
                  "rope_type %d, causal %d: training loss %.9g = the scaled evaluation's %.9g", types[k], causal,
                  (double)train, (double)scaled[2]);
            CHECK(fabsf(train - plain[2]) > 1e-3f * fabsf(plain[2]), "and not the unscaled evaluation's (%.9g vs %.9g)",
                  (double)train, (double)plain[2]);
            eval_at(own, f.arena, L2, count, 0, 1);
            CHECK(memcmp(own, scaled, sizeof own) == 0, "rope_type 0 on the fork is its trained scaling");
            eval_at(unscaled, f.arena, L2, count, PE_ROPE_LINEAR, 1.0);
            CHECK(memcmp(unscaled, plain, sizeof plain) == 0, "linear ×1 on the fork is the unscaled model");
            // A fork of the fork keeps the first arena's length for yarn: the same tables again.
            buf g;
            CHECK(open_fork(&g, f.arena, L2, L2, types[k], factor), "fork of a fork");
            float again[3];
            eval_at(again, g.arena, L2, count, 0, 1);
            CHECK(memcmp(again, scaled, sizeof again) == 0, "rope_type %d: a fork of a fork scales as the fork",
                  types[k]);
            close_buf(&g);
            close_buf(&a);
            close_buf(&f);
        }
}

// --- 3. a learned table grows by its last row ---------------------------------------------------

static void test_learned_grows(void) {
    buf a, f, s;
    CHECK(open_arena(&a, PE_ARENA_COPY, PE_ARENA_LEARNED, 1, 4, 4, 2), "learned arena");
    float l[10];
    pe_arena_step(l, a.arena, 10);
    CHECK(open_fork(&f, a.arena, 8, 4, 0, 1.0), "fork to 8");
    float src[3], fork[3];
    eval_at(src, a.arena, 8, 16, 0, 1);
    eval_at(fork, f.arena, 8, 16, 0, 1);
    CHECK(memcmp(src, fork, sizeof src) == 0, "the grown table computes what the source computes at length 8");
    int32_t info[8];
    pe_arena_info(info, f.arena);
    CHECK(info[3] == 17, "wpe rows follow the new T (17, got %d)", info[3]);
    CHECK(pe_arena_step(l, f.arena, 10) == PE_OK && isfinite(l[9]), "the fork trains");
    CHECK(open_fork(&s, f.arena, 3, 1, 0, 1.0), "fork to a shorter length");
    pe_arena_info(info, s.arena);
    CHECK(info[3] == 7, "wpe cut to 7 rows (got %d)", info[3]);
    CHECK(pe_arena_step(l, s.arena, 5) == PE_OK && isfinite(l[4]), "the shorter fork trains");
    close_buf(&a);
    close_buf(&f);
    close_buf(&s);
}

// --- 4. bad arguments ------------------------------------------------------------------------------

static void test_bad_arguments(void) {
    buf r, n;
    CHECK(open_arena(&r, PE_ARENA_COPY, PE_ARENA_ROPE, 1, 4, 4, 0), "rope arena");
    CHECK(open_arena(&n, PE_ARENA_COPY, PE_ARENA_ALIBI, 1, 4, 4, 0), "alibi arena");
    int32_t bytes;
    static float zeros[64];
    CHECK(pe_arena_fork_size(NULL, r.arena, 8, 8) == PE_ERR_ARG(1), "fork_size: bytes");
    CHECK(pe_arena_fork_size(&bytes, zeros, 8, 8) == PE_ERR_ARG(2), "fork_size: src");
    CHECK(pe_arena_fork_size(&bytes, r.arena, 65, 8) == PE_ERR_ARG(3), "fork_size: train_length");
    CHECK(pe_arena_fork_size(&bytes, r.arena, 8, 9) == PE_ERR_ARG(4), "fork_size: train_length_min");
    CHECK(pe_arena_fork_size(&bytes, r.arena, 8, 0) == PE_ERR_ARG(4), "fork_size: train_length_min 0");
    CHECK(pe_arena_fork_size(&bytes, r.arena, 8, 8) == PE_OK, "fork_size");
    void *raw = malloc((size_t)bytes + 16), *dst = align16(raw);
    CHECK(pe_arena_fork(NULL, bytes, r.arena, 8, 8, 1, 2) == PE_ERR_ARG(1), "fork: dst");
    CHECK(pe_arena_fork((char *)dst + 4, bytes, r.arena, 8, 8, 1, 2) == PE_ERR_ARG(1), "fork: misaligned");
    CHECK(pe_arena_fork(r.arena, bytes, r.arena, 8, 8, 1, 2) == PE_ERR_ARG(1), "fork: onto src");
    CHECK(pe_arena_fork(dst, bytes - 4, r.arena, 8, 8, 1, 2) == PE_ERR_ARG(2), "fork: bytes");
    CHECK(pe_arena_fork(dst, bytes, zeros, 8, 8, 1, 2) == PE_ERR_ARG(3), "fork: src");
    CHECK(pe_arena_fork(dst, bytes, r.arena, 0, 1, 1, 2) == PE_ERR_ARG(4), "fork: train_length");
    CHECK(pe_arena_fork(dst, bytes, r.arena, 8, 9, 1, 2) == PE_ERR_ARG(5), "fork: train_length_min");
    CHECK(pe_arena_fork(dst, bytes, r.arena, 8, 8, PE_ROPE_DYNAMIC, 2) == PE_ERR_ARG(6), "fork: rope_type");
    CHECK(pe_arena_fork(dst, bytes, r.arena, 8, 8, 1, 0.5) == PE_ERR_ARG(7), "fork: factor below 1");
    CHECK(pe_arena_fork(dst, bytes, r.arena, 8, 8, 1, NAN) == PE_ERR_ARG(7), "fork: factor NaN");
    CHECK(pe_arena_fork(dst, bytes, n.arena, 8, 8, 1, 2) == PE_ERR_ARG(6), "fork: scaling an alibi arena");
    CHECK(pe_arena_fork(dst, bytes, n.arena, 8, 8, 0, 1) == PE_OK, "fork: an alibi arena without scaling");
    CHECK(pe_arena_fork(dst, bytes, r.arena, 8, 8, 1, 2) == PE_OK, "fork: linear ×2");
    float l[2];
    CHECK(pe_arena_step(l, dst, 2) == PE_OK && isfinite(l[1]), "the fork trains");
    free(raw);
    close_buf(&r);
    close_buf(&n);
}

int main(void) {
    test_same_length_continues();
    test_scaled_tables();
    test_learned_grows();
    test_bad_arguments();
    return test_summary("arena_fork");
}

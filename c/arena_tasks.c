// Arena data (shared/spec-contract.md "Arena"): examples of n symbols x1 … xn, ids 2 … symbols + 1
// (0 = BOS, 1 = SEP), and their targets y:
//   copy     y = x
//   reverse  y_j = x_{n+1−j}
//   kback    y_j = x_{j−2}, indices wrapping (x rotated right by 2)
//   sort     y = x ascending
// Decoder (causal): the sequence is BOS x SEP y; its first T = 2n + 1 tokens are the input. With
// 0-based j, x_j sits at position 1 + j, SEP at n + 1 and y_j at n + 2 + j; the output at position
// n + 1 + j predicts y_j (teacher forcing: every y before it is an input). Encoder: the input is
// BOS x (T = n + 1) and the output at x_j's position 1 + j predicts y_j; y is never an input.
//
// Symbols come from c/random.h's SplitMix64: symbol j (0-based) of example e of a stream is
// 2 + ⌊(z >> 32)·symbols / 2^32⌋ with z its output number e·n + j (multiply-shift: uniform up to
// a bias below symbols/2^32).
#include "arena.h"
#include "random.h"

int32_t pe_arena_seq_len(int32_t n, int32_t causal) { return causal ? 2 * n + 1 : n + 1; }

static void make_targets(int32_t *y, const int32_t *x, int32_t task, int32_t n) {
    switch (task) {
    case PE_ARENA_REVERSE:
        for (int32_t j = 0; j < n; j++) y[j] = x[n - 1 - j];
        break;
    case PE_ARENA_KBACK:
        for (int32_t j = 0; j < n; j++) y[j] = x[((j - 2) % n + n) % n];
        break;
    case PE_ARENA_SORT:   // insertion sort: n ≤ 256
        for (int32_t j = 0; j < n; j++) {
            int32_t v = x[j], k = j;
            for (; k > 0 && y[k - 1] > v; k--) y[k] = y[k - 1];
            y[k] = v;
        }
        break;
    default:
        for (int32_t j = 0; j < n; j++) y[j] = x[j];
        break;
    }
}

void pe_arena_batch(int32_t *tokens, int32_t *targets, int32_t task, int32_t causal, int32_t symbols, int32_t n,
                    int32_t batch, uint64_t stream_seed, uint64_t first) {
    const int32_t T = pe_arena_seq_len(n, causal);
    int32_t x[PE_ARENA_MAX_EVAL_LENGTH], y[PE_ARENA_MAX_EVAL_LENGTH];
    for (int32_t b = 0; b < batch; b++) {
        const uint64_t e = first + (uint64_t)b;
        for (int32_t j = 0; j < n; j++) {
            const uint64_t z = pe_splitmix64_at(stream_seed, e * (uint64_t)n + (uint64_t)j);
            x[j] = 2 + (int32_t)(((z >> 32) * (uint64_t)symbols) >> 32);
        }
        make_targets(y, x, task, n);
        int32_t *tok = tokens + (size_t)b * T, *tgt = targets + (size_t)b * T;
        for (int32_t t = 0; t < T; t++) tgt[t] = -1;
        tok[0] = PE_ARENA_BOS;
        for (int32_t j = 0; j < n; j++) tok[1 + j] = x[j];
        if (causal) {
            tok[n + 1] = PE_ARENA_SEP;
            for (int32_t j = 0; j + 1 < n; j++) tok[n + 2 + j] = y[j];
            for (int32_t j = 0; j < n; j++) tgt[n + 1 + j] = y[j];
        } else {
            for (int32_t j = 0; j < n; j++) tgt[1 + j] = y[j];
        }
    }
}

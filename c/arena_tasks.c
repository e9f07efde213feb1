// Arena data (docs/reference.md#arena): examples of n symbols x1 … xn, ids 2 … symbols + 1
// (0 = BOS, 1 = SEP), and their targets y (1-based j):
//   copy     y_j = x_j
//   reverse  y_j = x_{n+1−j}
//   kback    y_j = x_{j−2} for j ≥ 3; y_1 and y_2 are not scored (no loss, not counted by
//            evaluate's accuracy or token_accuracy: there is no token two back; no wrap)
//   sort     y = x ascending
// Decoder (causal): the sequence is BOS x SEP y; its first 2n + 1 tokens are the input. With
// 0-based j, x_j sits at position 1 + j, SEP at n + 1 and y_j at n + 2 + j; the output at position
// n + 1 + j predicts y_j (teacher forcing: every y before it is an input; kback's unscored y_1, y_2
// are input as SEP). Encoder: the input is BOS x (n + 1 tokens) and the output at x_j's position
// 1 + j predicts y_j; y is never an input.
//
// Lengths: a batch of examples whose lengths lie in [n_min, n_max] has T = 2·n_max + 1 (decoder) or
// n_max + 1 (encoder) positions; an example of n < n_max symbols fills its first 2n + 1 (n + 1)
// and the rest is padding: token SEP (any id would do), target −1 (no loss). keys[b] = the real
// tokens of example b in the encoder (attention masks the keys from there on for every query) and
// T in the decoder (a causal query never sees a later position, so padding after y changes
// nothing before it).
//
// Symbols come from c/random.h's SplitMix64: symbol j (0-based) of example e of a stream is
// 2 + ⌊(z >> 32)·symbols / 2^32⌋ with z its output number e·n_max + j (multiply-shift: uniform up
// to a bias below symbols/2^32). When n_min < n_max, example e's length is
// n_min + ⌊(z >> 32)·(n_max − n_min + 1) / 2^32⌋ with z the output number 2^63 + e of the same
// stream (never reached by the symbols); when n_min = n_max it is n_max and nothing is drawn, so
// a fixed length gives the batches it always gave.
#include "arena.h"
#include "random.h"

int32_t pe_arena_seq_len(int32_t n, int32_t causal) { return causal ? 2 * n + 1 : n + 1; }

#define UNSCORED (-1)   // a target without loss (kback's y_1, y_2)

static void make_targets(int32_t *y, const int32_t *x, int32_t task, int32_t n) {
    switch (task) {
    case PE_ARENA_REVERSE:
        for (int32_t j = 0; j < n; j++) y[j] = x[n - 1 - j];
        break;
    case PE_ARENA_KBACK:   // 0-based: y_j = x_{j−2} for j ≥ 2
        for (int32_t j = 0; j < n; j++) y[j] = j >= 2 ? x[j - 2] : UNSCORED;
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

int32_t pe_arena_example_length(int32_t n_min, int32_t n_max, uint64_t stream_seed, uint64_t e) {
    if (n_min >= n_max) return n_max;
    const uint64_t z = pe_splitmix64_at(stream_seed, (1ull << 63) + e);
    return n_min + (int32_t)(((z >> 32) * (uint64_t)(n_max - n_min + 1)) >> 32);
}

void pe_arena_batch(int32_t *tokens, int32_t *targets, int32_t *keys, int32_t task, int32_t causal, int32_t symbols,
                    int32_t n_min, int32_t n_max, int32_t batch, uint64_t stream_seed, uint64_t first) {
    const int32_t T = pe_arena_seq_len(n_max, causal);
    int32_t x[PE_ARENA_MAX_EVAL_LENGTH], y[PE_ARENA_MAX_EVAL_LENGTH];
    for (int32_t b = 0; b < batch; b++) {
        const uint64_t e = first + (uint64_t)b;
        const int32_t n = pe_arena_example_length(n_min, n_max, stream_seed, e);
        for (int32_t j = 0; j < n; j++) {
            const uint64_t z = pe_splitmix64_at(stream_seed, e * (uint64_t)n_max + (uint64_t)j);
            x[j] = 2 + (int32_t)(((z >> 32) * (uint64_t)symbols) >> 32);
        }
        make_targets(y, x, task, n);
        int32_t *tok = tokens + (size_t)b * T, *tgt = targets + (size_t)b * T;
        for (int32_t t = 0; t < T; t++) {
            tok[t] = PE_ARENA_SEP;   // padding
            tgt[t] = -1;
        }
        tok[0] = PE_ARENA_BOS;
        for (int32_t j = 0; j < n; j++) tok[1 + j] = x[j];
        if (causal) {
            tok[n + 1] = PE_ARENA_SEP;
            for (int32_t j = 0; j + 1 < n; j++) tok[n + 2 + j] = y[j] == UNSCORED ? PE_ARENA_SEP : y[j];
            for (int32_t j = 0; j < n; j++) tgt[n + 1 + j] = y[j];
        } else {
            for (int32_t j = 0; j < n; j++) tgt[1 + j] = y[j];
        }
        if (keys != NULL) keys[b] = causal ? T : n + 1;
    }
}

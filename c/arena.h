// Arena (spec kind `arena`, docs/reference.md#arena): a tiny transformer
// trained in WebAssembly, written the way llm.c is (one file per idea, output-first arguments,
// shape comments, hand-written backward passes):
//   c/arena_model.c   forward and backward of every layer (embedding + encoding, LayerNorm,
//                     linear, attention with its positional encoding, gelu_tanh MLP, cross-entropy)
//   c/arena_train.c   the arena buffer (sizes, layout, init), AdamW, the step loop, evaluation,
//                     the attention dump, the position table, parameter access
//   c/arena_tasks.c   the data: copy / reverse / kback / sort, decoder or encoder layout
//
// Memory: nothing here allocates. The caller asks pe_arena_size for the bytes of one arena
// (header, parameters, gradients, AdamW m and v, the training activations and their gradients,
// constant tables), allocates them (JS: malloc) and calls pe_arena_init, which lays the buffer out
// and initialises the parameters from the seed. Evaluation and the attention dump work in a second
// caller-owned buffer (pe_arena_eval_size). Every entry point returns a pe_status (never aborts);
// PE_ERR_ARG(k) names its k-th argument (web/api/kernels/arena.js maps them to spec fields).
//
// The model (per the contract; C = d_model, H = heads, hs = C/H, V = symbols + 2, T = sequence):
//   x = wte[token] (+ the additive table: sinusoidal, or learned wpe[min(t, Tp − 1)])
//   per layer:  x += attproj(attn(LN1(x))),  x += fcproj(gelu_tanh(fc(LN2(x))))
//   logits = head(LNf(x)); loss = mean cross-entropy over the scored targets of the whole batch
//   (Σ over every scored target of every example / their number: with lengths drawn from
//   [train_length_min, train_length] a longer example weighs more; 0 when nothing is scored).
//   Padding (c/arena_tasks.c) has no target, and in the encoder its keys are masked (−∞).
//   attn: qkv = linear; rope rotates q and k per head (half layout, base 10000); scores =
//   q·kᵀ/√hs + bias[h, j − i] (alibi or t5), −∞ for j > i when causal; softmax; · v.
// Linear weights are stored [in, out] (y = x·W + b), like the contract's head [d_model, V].
//
// Parameter tensors, in this order in the flat parameter vector (pe_arena_tensors lists them):
//   wte [V, C]; wpe [Tp, C] (learned only; Tp = training sequence length); t5 [32, H] (t5 only);
//   per layer l: ln1.weight [C], ln1.bias [C], qkv.weight [C, 3C], qkv.bias [3C],
//   attproj.weight [C, C], attproj.bias [C], ln2.weight [C], ln2.bias [C], fc.weight [C, 4C],
//   fc.bias [4C], fcproj.weight [4C, C], fcproj.bias [C];
//   lnf.weight [C], lnf.bias [C], head.weight [C, V], head.bias [V].
// qkv columns: q = [0, C), k = [C, 2C), v = [2C, 3C); head h owns columns h·hs .. (h + 1)·hs − 1
// of each.
//
// Initialisation (G = c/random.h's generator, stream seed + 7·2^32): tensor number k (in the order
// above, counting from 0) row r column c = float32(0.02·G(·, k·2^16 + r, c)) for matrices (wte,
// wpe, every weight [in, out]), 0 for biases and for the t5 table, 1 for LayerNorm weights.
// Weight decay applies to the matrices (every 2-D tensor except the t5 table, which starts at 0
// and is a bias table); decoupled as in torch.optim.AdamW: p −= lr·wd·p before the Adam update.
#ifndef PE_ARENA_H
#define PE_ARENA_H

#include <stddef.h>
#include <stdint.h>

#include "pe.h"
#include "pe_simd.h"

// Limits (web/api/schema/arena.js has the same numbers).
#define PE_ARENA_MAX_LAYERS 8
#define PE_ARENA_MAX_D_MODEL 256
#define PE_ARENA_MAX_HEADS 16
#define PE_ARENA_MAX_SYMBOLS 64
#define PE_ARENA_MAX_TRAIN_LENGTH 64
#define PE_ARENA_MAX_BATCH 256
#define PE_ARENA_MAX_EVAL_LENGTH 256   // evaluate / attention: symbols per example
#define PE_ARENA_MAX_SAMPLES 65536
#define PE_ARENA_MAX_STEPS 100000      // per pe_arena_step call
#define PE_ARENA_MAX_BYTES (1 << 30)   // one arena or evaluation buffer
#define PE_ARENA_T5_BUCKETS 32
#define PE_ARENA_T5_MAX_DISTANCE 128
#define PE_ARENA_ROPE_BASE 10000.0
#define PE_ARENA_BOS 0
#define PE_ARENA_SEP 1

// Tasks (spec field `task`): targets y for symbols x1 … xn.
typedef enum {
    PE_ARENA_COPY = 0,      // y = x
    PE_ARENA_REVERSE = 1,   // y = x reversed
    PE_ARENA_KBACK = 2,     // y_j = x_{j−2} for j ≥ 3; y_1, y_2 not scored (no wrap); train_length ≥ 3
    PE_ARENA_SORT = 3,      // y = x ascending
} pe_arena_task;

// Encodings (spec field `encoding.kind`).
typedef enum {
    PE_ARENA_NONE = 0,
    PE_ARENA_SINUSOIDAL = 1,   // interleaved table of c/sinusoidal.h (base 10000) added to x
    PE_ARENA_LEARNED = 2,      // wpe [Tp, C], N(0, 0.02²); positions ≥ Tp reuse row Tp − 1
    PE_ARENA_ALIBI = 3,        // −m_h·(i − j) causal, −m_h·|i − j| otherwise (pe_alibi_slopes)
    PE_ARENA_T5 = 4,           // learned [32, H] bias table, init 0, pe_t5_bucket(j − i, 32, 128, !causal)
    PE_ARENA_ROPE = 5,         // q, k rotated per head, half layout, base 10000
} pe_arena_encoding;

// The spec, in the order of the spec arguments of pe_arena_size and pe_arena_init.
typedef struct {
    int32_t task;               // pe_arena_task
    int32_t encoding;           // pe_arena_encoding
    int32_t causal;             // 1: decoder on BOS x SEP y (teacher-forced); 0: encoder on BOS x
    int32_t layers;             // 1 .. PE_ARENA_MAX_LAYERS
    int32_t d_model;            // C, a multiple of heads with an even head size C/H
    int32_t heads;              // H
    int32_t symbols;            // vocabulary = symbols + 2 (0 = BOS, 1 = SEP)
    int32_t train_length;       // n symbols per training example (the longest, with train_length_min)
    int32_t train_length_min;   // 1 .. train_length: each example's n uniform in [min, train_length]
    int32_t batch;              // examples per step
    double lr;                  // (0, 1]
    double weight_decay;        // [0, 1]
    double seed;                // integer in [0, 2^32 − 1]
} pe_arena_spec;

// One parameter tensor of the flat parameter vector.
typedef struct {
    int32_t id;           // pe_arena_tensor_id
    int32_t layer;        // −1 outside the layers
    int32_t offset;       // first float in the parameter vector
    int32_t rows, cols;   // vectors: rows 1
} pe_arena_tensor;

typedef enum {
    PE_T_WTE = 0,
    PE_T_WPE,
    PE_T_T5,
    PE_T_LN1W,
    PE_T_LN1B,
    PE_T_QKVW,
    PE_T_QKVB,
    PE_T_ATTPROJW,
    PE_T_ATTPROJB,
    PE_T_LN2W,
    PE_T_LN2B,
    PE_T_FCW,
    PE_T_FCB,
    PE_T_FCPROJW,
    PE_T_FCPROJB,
    PE_T_LNFW,
    PE_T_LNFB,
    PE_T_HEADW,
    PE_T_HEADB,
} pe_arena_tensor_id;
#define PE_ARENA_PER_LAYER 12
#define PE_ARENA_MAX_TENSORS (3 + PE_ARENA_PER_LAYER * PE_ARENA_MAX_LAYERS + 4)

// --- public API (exported to JS) -----------------------------------------------------------------

// Bytes of one arena for a spec. Errors: PE_ERR_ARG(1) for a NULL bytes, PE_ERR_ARG(1 + k) for
// the k-th spec argument (2 = task … 10 = train_length_min … 14 = seed; kback with train_length
// < 3 is refused on train_length), PE_ERR_TOO_LARGE past PE_ARENA_MAX_BYTES.
PE_API pe_status pe_arena_size(int32_t *bytes, int32_t task, int32_t encoding, int32_t causal, int32_t layers,
                               int32_t d_model, int32_t heads, int32_t symbols, int32_t train_length,
                               int32_t train_length_min, int32_t batch, double lr, double weight_decay, double seed);

// Lays out `arena` (bytes from pe_arena_size, 16-byte aligned) and initialises the parameters.
// Errors: PE_ERR_ARG(1) NULL or misaligned arena, (2) too few bytes, (2 + k) the k-th spec argument.
PE_API pe_status pe_arena_init(void *arena, int32_t bytes, int32_t task, int32_t encoding, int32_t causal,
                               int32_t layers, int32_t d_model, int32_t heads, int32_t symbols, int32_t train_length,
                               int32_t train_length_min, int32_t batch, double lr, double weight_decay, double seed);

// Trains `steps` steps (each: a fresh batch, forward, backward, AdamW); losses: (steps).
// Errors: PE_ERR_ARG(1..3); PE_ARENA_DIVERGED (c/pe.h) when a loss is not finite (lr too large).
PE_API pe_status pe_arena_step(float *losses, void *arena, int32_t steps);

// Bytes of the evaluation buffer for examples of `length` symbols (pe_arena_evaluate and
// pe_arena_attention; the buffer holds the forward activations of a chunk of examples).
// Errors: PE_ERR_ARG(1..3) for bytes, arena, length (1 .. PE_ARENA_MAX_EVAL_LENGTH).
PE_API pe_status pe_arena_eval_size(int32_t *bytes, const void *arena, int32_t length);

// RoPE scaling (rope only; an extension of the contract): rope_type 0 none, 1 linear (inv_freq /
// factor: position interpolation, Chen et al. 2023), 5 ntk (base·factor^(hs/(hs − 2))), 3 yarn
// (transformers' YaRN with original_max_position_embeddings = the training sequence length of the
// arena first initialised, beta_fast 32, beta_slow 1, its attention factor on cos and sin); factor
// in [1, 1024]. The numbers are pe_rope_type's. An arena trains with the scaling it was forked
// with (pe_arena_fork; none for pe_arena_init). At evaluation (pe_arena_evaluate,
// pe_arena_attention) rope_type 0 means that trained scaling, and any other rope_type replaces it
// (linear with factor 1 is the unscaled model).
//
// Evaluates `samples` fresh examples of `length` symbols (stream seed + 8·2^32 of c/random.h,
// example k, independent of training) with teacher forcing; out: [accuracy, token_accuracy, loss].
// With teacher forcing every prediction sees the true prefix, so `accuracy` (the whole y right)
// equals the exact-match accuracy of greedy decoding. Errors: PE_ERR_ARG(k) for the k-th argument
// (1 out, 2 arena, 3 scratch, 4 scratch_bytes, 5 length, 6 samples, 7 seed, 8 rope_type, 9 factor);
// kback refuses length < 3 (PE_ERR_ARG(5): it scores y_3 … y_n only);
// PE_ARENA_NOT_FINITE (c/pe.h; nothing written that can be trusted) when the forward pass is not finite: the parameters
// are not finite, or large enough that float32 overflows (web/api/kernels/arena.js says which).
PE_API pe_status pe_arena_evaluate(float *out, void *arena, void *scratch, int32_t scratch_bytes, int32_t length,
                                   int32_t samples, double seed, int32_t rope_type, double factor);

// The attention weights of one example (example 0 of pe_arena_evaluate's stream for `seed`):
// att: [layers, heads, T, T] (rows sum to 1; masked entries 0), tokens: [T] the input tokens.
// T = 2·length + 1 (causal) or length + 1. Errors: as pe_arena_evaluate, shifted by one
// (1 att, 2 tokens, 3 arena, 4 scratch, 5 scratch_bytes, 6 length, 7 seed, 8 rope_type, 9 factor);
// PE_ARENA_NOT_FINITE when an attention weight is not finite (as pe_arena_evaluate).
PE_API pe_status pe_arena_attention(float *att, int32_t *tokens, void *arena, void *scratch, int32_t scratch_bytes,
                                    int32_t length, double seed, int32_t rope_type, double factor);

// Fine-tuning at another length (Chen et al. 2023's position interpolation): a new arena for
// `train_length` and `train_length_min` (the rest of src's spec kept) that carries src's
// parameters, AdamW moments and step counters over, and trains and evaluates with the RoPE scaling
// (rope_type, factor) as above (0: none; the factor is relative to the training length src was
// first initialised at, not compounded). A learned table follows the new length: rows past src's
// repeat its last row (what src computes there), their moments 0; a shorter one is cut. The
// training batches continue src's stream (step k draws examples k·batch …), so a fork at src's
// lengths with no scaling continues exactly as src would. src is not changed; dst must not
// overlap it. pe_arena_fork_size: the bytes of dst. Errors: PE_ERR_ARG(k) for the k-th argument
// (fork_size: 1 bytes, 2 src, 3 train_length, 4 train_length_min; fork: 1 dst (NULL, misaligned
// or overlapping src), 2 bytes, 3 src, 4 train_length, 5 train_length_min, 6 rope_type (unknown,
// or a scaling of an encoding other than rope), 7 factor), PE_ERR_TOO_LARGE past
// PE_ARENA_MAX_BYTES.
PE_API pe_status pe_arena_fork_size(int32_t *bytes, const void *src, int32_t train_length, int32_t train_length_min);
PE_API pe_status pe_arena_fork(void *dst, int32_t bytes, const void *src, int32_t train_length,
                               int32_t train_length_min, int32_t rope_type, double factor);

// info: [param_count, tensor_count, T_train, table_rows (wpe rows or 0), steps_taken, V, C, H].
PE_API pe_status pe_arena_info(int32_t *info, const void *arena);
// The tensors: out [tensor_count, 5] = id, layer, offset, rows, cols each.
PE_API pe_status pe_arena_tensors(int32_t *out, const void *arena);
// Copies the parameters out (param_count floats) / in. Errors: PE_ERR_ARG(1..2); set_params
// refuses non-finite values (PE_ERR_ARG(2)).
PE_API pe_status pe_arena_get_params(float *out, const void *arena);
PE_API pe_status pe_arena_set_params(void *arena, const float *params);
// The learned position table wpe [Tp, C] (learned only; PE_ERR_ARG(2) otherwise).
PE_API pe_status pe_arena_position_table(float *out, const void *arena);

// Loss and gradients for a given batch (for tests): tokens and targets [batch, T] with T the
// training sequence length and batch ≤ the spec's batch; targets −1 where there is no loss.
// Tokens −1 are padding: a suffix of each row (after at least one real token), fed as SEP, with
// target −1; in the encoder the padded keys are masked (as pe_arena_batch's padding).
// grads: param_count floats, loss: one float. The parameters are not changed.
// Errors: PE_ERR_ARG(k) for the k-th argument (tokens out of [0, V), targets out of [−1, V), or
// no target at all: (5)).
PE_API pe_status pe_arena_gradients(float *grads, float *loss, void *arena, const int32_t *tokens,
                                    const int32_t *targets, int32_t batch);

// One AdamW step with the given gradients (param_count floats), exactly the update of
// pe_arena_step (for tests). Errors: PE_ERR_ARG(1..2).
PE_API pe_status pe_arena_adamw(void *arena, const float *grads);

// --- internals (shared by the three files and the native tests) ----------------------------------

// The inner loops, one table per build path: the scalar reference and the SIMD set, which write
// identical bits (same operations in the same order per element; tests/native/test_arena.c
// compares them). The model code calls every loop that has a SIMD twin through this table.
typedef struct {
    // out[N, OC] = inp[N, IC] · w[IC, OC] + bias[OC] (bias may be NULL); per element: bias, then
    // + inp·w over ic in order.
    void (*matmul_forward)(float *out, const float *inp, const float *w, const float *bias, int32_t n, int32_t ic,
                           int32_t oc);
    // dinp[N, IC] += dout · wᵀ, dw[IC, OC] += inpᵀ · dout, dbias[OC] += Σ_n dout (dbias may be
    // NULL); each sum formed from 0 in index order, then added. scratch: IC·OC floats.
    void (*matmul_backward)(float *dinp, float *dw, float *dbias, const float *dout, const float *inp, const float *w,
                            float *scratch, int32_t n, int32_t ic, int32_t oc);
    // gelu_tanh over n values: out = gelu(inp) and deriv = gelu'(inp), one tanh each (deriv may
    // be inp itself); backward: dinp += deriv·dout.
    void (*gelu_forward)(float *out, float *deriv, const float *inp, int32_t n);
    void (*gelu_backward)(float *dinp, const float *deriv, const float *dout, int32_t n);
    // LayerNorm over bt rows of c (ε = 1e-5): out = (x − mean)·rstd·w + b, mean and rstd [bt] kept;
    // each row's sums as four partial sums (index mod 4), combined as (s0 + s1) + (s2 + s3), then
    // the rest in order. scratch: [C] forward, [2C] backward (dinp, dw, db += the gradient).
    void (*layernorm_forward)(float *out, float *mean, float *rstd, const float *inp, const float *w, const float *b,
                              float *scratch, int32_t bt, int32_t c);
    void (*layernorm_backward)(float *dinp, float *dw, float *db, const float *dout, const float *inp, const float *w,
                               const float *mean, const float *rstd, float *scratch, int32_t bt, int32_t c);
    // Attention of every head (c/arena_model.c has the formulas): out [B, T, C], att [B, H, T, T]
    // from qkv [B, T, 3C], bias [H, 2T − 1] or NULL, nkeys [B] (the encoder's unmasked keys);
    // backward: dqkv += the gradient, dbias (t5, or NULL) += Σ dscore per distance. kt, vt:
    // [hs, T rounded up to 4] scratch, datt: [T, T] scratch.
    void (*attention_forward)(float *out, float *att, float *kt, const float *qkv, const float *bias,
                              const int32_t *nkeys, int32_t b, int32_t t, int32_t c, int32_t h, int32_t causal);
    void (*attention_backward)(float *dqkv, float *dbias, float *datt, float *vt, const float *dout, const float *qkv,
                               const float *att, const int32_t *nkeys, int32_t b, int32_t t, int32_t c, int32_t h,
                               int32_t causal);
    // AdamW over n parameters (pe_arena_adamw_scalar below).
    void (*adamw)(float *p, float *m, float *v, const float *g, int32_t n, float decay, float step_size,
                  float bc2_sqrt);
} pe_arena_ops;

const pe_arena_ops *pe_arena_ops_scalar(void);
const pe_arena_ops *pe_arena_ops_default(void);   // SIMD when built with it

// AdamW over n parameters (c/arena_train.c; torch.optim.AdamW's order of operations):
// p *= decay; m = β1·m + (1 − β1)·g; v = β2·v + (1 − β2)·g²;
// p −= step_size·m / (√v / bc2_sqrt + ε). The SIMD twin writes the same bits.
void pe_arena_adamw_scalar(float *p, float *m, float *v, const float *g, int32_t n, float decay, float step_size,
                           float bc2_sqrt);
#if PE_HAVE_SIMD
void pe_arena_adamw_simd(float *p, float *m, float *v, const float *g, int32_t n, float decay, float step_size,
                         float bc2_sqrt);
#endif

// tanh via pe_attention_exp (|error| < 3e-7), gelu_tanh and its derivative: the scalar reference.
float pe_arena_tanh(float x);

// Which set of inner loops an arena uses: 0 the build's default, 1 the scalar reference
// (native tests: the same training in both and compared bit for bit).
pe_status pe_arena_use_scalar(void *arena, int32_t scalar);

// Data (c/arena_tasks.c). One batch of `batch` examples of n_min … n_max symbols, examples first ..
// first + batch − 1 of the stream `stream_seed` (symbol j of example e is 2 + ⌊(z >> 32)·symbols /
// 2^32⌋ with z = SplitMix64 output e·n_max + j; the length from output 2^63 + e when n_min <
// n_max). tokens, targets: [batch, T] (T = 2·n_max + 1 causal, n_max + 1 encoder), padded after
// each example, targets −1 where no loss is taken; keys: [batch] (the unmasked keys: n + 1 in the
// encoder, T in the decoder) or NULL.
void pe_arena_batch(int32_t *tokens, int32_t *targets, int32_t *keys, int32_t task, int32_t causal, int32_t symbols,
                    int32_t n_min, int32_t n_max, int32_t batch, uint64_t stream_seed, uint64_t first);
// The length of example e (n_max when n_min ≥ n_max, nothing drawn).
int32_t pe_arena_example_length(int32_t n_min, int32_t n_max, uint64_t stream_seed, uint64_t e);
int32_t pe_arena_seq_len(int32_t n, int32_t causal);

// The model view the forward and backward passes take (c/arena_model.c).
typedef struct {
    float *ln1w, *ln1b, *qkvw, *qkvb, *attprojw, *attprojb;
    float *ln2w, *ln2b, *fcw, *fcb, *fcprojw, *fcprojb;
} pe_arena_layer;

typedef struct {
    float *wte, *wpe, *t5;
    pe_arena_layer layer[PE_ARENA_MAX_LAYERS];
    float *lnfw, *lnfb, *headw, *headb;
} pe_arena_params;

// Activations of one forward pass over [B, T] (and, when the backward pass runs, their gradients
// and scratch); pe_arena_acts_layout places them in a buffer.
typedef struct {
    int32_t B, T;
    int32_t *tokens, *targets;   // [B, T]
    int32_t *keys;               // [B] keys not masked per example (encoder; ≤ T)
    float *encoded;              // [B, T, C]   the input of layer 0
    float *kt;                   // scratch: one head's keys or values transposed [hs, T rounded up to 4],
                                 // or LayerNorm's rows [2C] (the larger)
    float *ln1[PE_ARENA_MAX_LAYERS], *ln1_mean[PE_ARENA_MAX_LAYERS], *ln1_rstd[PE_ARENA_MAX_LAYERS];
    float *qkv[PE_ARENA_MAX_LAYERS];    // [B, T, 3C]  after RoPE
    float *att[PE_ARENA_MAX_LAYERS];    // [B, H, T, T] softmax weights
    float *atty[PE_ARENA_MAX_LAYERS];   // [B, T, C]
    float *res2[PE_ARENA_MAX_LAYERS];   // [B, T, C]   x after the attention block
    float *ln2[PE_ARENA_MAX_LAYERS], *ln2_mean[PE_ARENA_MAX_LAYERS], *ln2_rstd[PE_ARENA_MAX_LAYERS];
    float *fch[PE_ARENA_MAX_LAYERS];        // [B, T, 4C]  before gelu; after the forward pass gelu'(it)
    float *fch_gelu[PE_ARENA_MAX_LAYERS];   // [B, T, 4C]
    float *res3[PE_ARENA_MAX_LAYERS];       // [B, T, C]   x after the layer
    float *lnf, *lnf_mean, *lnf_rstd;       // [B, T, C], [B, T], [B, T]
    float *probs;                           // [B, T, V]   logits, then softmax
    float *losses;                          // [B, T]      per-position loss (0 without a target)
    // backward only (NULL in a forward-only layout)
    float *dres, *dln, *dqkv, *datt, *datty, *dfch, *dfch_gelu, *dlogits, *scratch;
} pe_arena_acts;

// Floats of a layout for [B, T] (with_grads 1: the backward buffers too); with base non-NULL
// also sets the pointers (ints are stored in the float slots: same size).
int64_t pe_arena_acts_layout(pe_arena_acts *a, float *base, int32_t L, int32_t C, int32_t H, int32_t V, int32_t B,
                             int32_t T, int32_t with_grads);

// What the encoding contributes at a sequence length T (tables built by arena_train.c).
typedef struct {
    int32_t L, C, H, V, causal, encoding;
    int32_t wpe_rows;                   // learned: Tp
    const float *additive;              // sinusoidal: [T, C], else NULL
    const float *rope_cos, *rope_sin;   // rope: [T, hs/2], attention factor included
    float *bias;                        // alibi, t5: [H, 2T − 1], entry [h, r + T − 1] at r = j − i
    const int32_t *bucket;              // t5: [2T − 1] bucket of r
    float *dbias;                       // t5, backward: [H, 2T − 1]
} pe_arena_model;

// Forward over a.B examples of a.T tokens (a.tokens, a.targets set); returns the mean loss over
// the targets (0 when there are none). Fills a.probs and a.losses.
float pe_arena_forward(const pe_arena_model *m, const pe_arena_params *p, pe_arena_acts *a, const pe_arena_ops *ops);
// Backward of the last forward: grads (same layout as p) += the gradient of the mean loss.
void pe_arena_backward(const pe_arena_model *m, const pe_arena_params *p, const pe_arena_params *grads,
                       pe_arena_acts *a, const pe_arena_ops *ops);

#endif   // PE_ARENA_H

// Attention patterns (kind `attention`): softmax(q·kᵀ/√dim + bias, masked) for one spec, with the
// positional encoding applied the way each family enters a transformer (see c/attention.c, and
// c/attention_inputs.c for q, k and the bias rows).
//
// The JS binding (web/api/kernels/attention.js) prepares the encoding with the family's own kernel
// (the additive table, RoPE's exact cos/sin, M-RoPE's angles through pe_attention_cos_sin, or a
// relative bias through pe_attention_bias_*), then calls pe_attention once: it makes q and k from
// the content, applies the encoding, and writes the weights row by row (scores, mask, softmax
// fused), skipping the causal upper triangle.
#ifndef PE_ATTENTION_H
#define PE_ATTENTION_H

#include <stddef.h>
#include <stdint.h>

#include "pe.h"
#include "pe_simd.h"
#include "random.h"   // G(seed, p, c) of the content and the bias tables, pe_random_row_fn
#include "rope.h"     // pe_rope_rotate_fn: the pair rotation shared with pe_rope_apply

// Limits of `attention` (web/api/schema/attention.js has the same numbers).
#define PE_MAX_ATTENTION_LENGTH 8192   // (length, length) planes: 8192² = 2^26 = PE_MAX_ELEMENTS
#define PE_MAX_ATTENTION_DIM 512
#define PE_MAX_ATTENTION_HEADS 64
#define PE_MAX_ATTENTION_QK (1 << 24)   // heads·length·dim: q and k together stay ≤ 128 MiB
// Keys j with |i − j| < PE_ATTENTION_WINDOW count as "near" query i (the local_mass extra): for a
// causal row, the 16 nearest tokens, the query itself included.
#define PE_ATTENTION_WINDOW 16

// Where q and k come from (spec field `content`).
typedef enum {
    PE_CONTENT_RANDOM = 0,     // seeded N(0, 1) q and k per head
    PE_CONTENT_TOKENS = 1,     // a vector per word (hash of its UTF-8 bytes), projected per head
    PE_CONTENT_NONE = 2,       // positions alone
    PE_CONTENT_PREPARED = 3,   // random, already generated: scratch holds pe_attention_random's q, k
} pe_attention_content;

// How the encoding enters (spec field `encoding`, by its kind).
typedef enum {
    PE_ENCODING_NONE = 0,       // no positional information at all
    PE_ENCODING_ADDITIVE = 1,   // a (length, dim) table added to the content embeddings
    PE_ENCODING_ROTARY = 2,     // q and k rotated by (length, rotary_dim/2) cos/sin tables
    PE_ENCODING_BIAS = 3,       // a relative bias b[h, j − i] added to the scores
} pe_attention_encoding;

// Seeds of the generator streams: stream s of seed `seed` draws from the generator G of
// c/random.h (pe_random_normal) with the 64-bit seed `seed + s·2^32`.
enum {
    PE_STREAM_Q = 1,      // random q[h, i, c] = G(·, h·2^20 + i, c)
    PE_STREAM_K = 2,      // random k[h, i, c]
    PE_STREAM_BIAS = 3,   // t5 table[h, bucket], shaw table[h, index] = G(·, h, ·)
    PE_STREAM_WQ = 4,     // tokens: W_q[h][r, c] = G(·, h·2^20 + r, c)/√dim
    PE_STREAM_WK = 5,     // tokens: W_k[h][r, c]
};

// The q and k of content random (no encoding): q, k: (heads, length, dim) each,
// q[h, i, c] = float32(G(seed + 2^32, h·2^20 + i, c)), k the same with seed + 2·2^32. A caller that
// keeps them (the JS binding does, for small sizes) passes them back in scratch with content
// PE_CONTENT_PREPARED and skips the generation (a third of the time at 512 × 512 × 8 heads).
// Errors: PE_ERR_ARG(k) for the k-th argument (ranges as pe_attention); PE_ERR_TOO_LARGE.
PE_API pe_status pe_attention_random(float *q, float *k, int32_t heads, int32_t length, int32_t dim, double seed);

// Floats of scratch pe_attention needs, or −1 for arguments it would refuse:
//   2·heads·length·dim (q, k) + ceil(max(length, dim)/8)·8·dim (packed keys)
//   + for tokens: length·dim (embeddings) + dim·dim (a projection).
PE_API int32_t pe_attention_scratch_floats(int32_t length, int32_t dim, int32_t heads, int32_t content);

// The attention weights of one spec.
//   out:        (heads, length, length) softmax weights; masked entries (j > i when causal, or a
//               −∞ bias) are 0; a row with every entry masked is all zeros (never NaN)
//   entropy:    (heads, length) or NULL: −Σ_j w_ij·ln w_ij of every row, in nats (0 for an
//               all-masked row)
//   local_mass: (heads, length) or NULL: Σ_{|i−j| < PE_ATTENTION_WINDOW} w_ij of every row
//   scratch:    pe_attention_scratch_floats(length, dim, heads, content) floats; with content
//               PE_CONTENT_PREPARED its first 2·heads·length·dim floats hold q then k of
//               pe_attention_random (the additive table is still added here)
//   table:      ADDITIVE: (length, dim), added to the content embeddings (else unused)
//   rot_cos, rot_sin: ROTARY: (length, rotary_dim/2), any scaling (attention factor) included
//   bias:       BIAS: (bias_heads, 2·length − 1), entry [h, r + length − 1] added to score[h, i, j]
//               at r = j − i (bias_heads 1: one plane for every head); −∞ masks the entry
//   text, words: TOKENS: the UTF-8 bytes of the words, and (length + 1) increasing byte offsets:
//               word t is text[words[t] .. words[t+1])
//   causal:     1: key j > query i is masked and never computed
//   rotary_layout: pe_rope_layout (ROTARY)
//   seed:       an integer in [0, 2^32 − 1] (random q/k, token vectors and projections)
// Errors: PE_ERR_ARG(k) for the k-th argument (NULL, out of range, or inconsistent: pointers the
// encoding or content needs are checked, the others ignored); PE_ERR_TOO_LARGE when
// heads·length² > PE_MAX_ELEMENTS or heads·length·dim > PE_MAX_ATTENTION_QK.
PE_API pe_status pe_attention(float *out, float *entropy, float *local_mass, float *scratch, const float *table,
                              const float *rot_cos, const float *rot_sin, const float *bias, const uint8_t *text,
                              const int32_t *words, int32_t length, int32_t dim, int32_t heads, int32_t causal,
                              int32_t encoding, int32_t rotary_dim, int32_t rotary_layout, int32_t bias_heads,
                              int32_t content, double seed);

// Relative biases, bias: (heads, 2·length − 1), entry [h, r + length − 1] for r = j − i.
//   alibi     −m_h·|r| (slopes of pe_alibi_slopes, float64 product rounded once), and −∞ for
//             r > 0 when mode is causal (exactly the entries of pe_alibi)
//   t5        T[h, bucket(r)], bucket as pe_t5_bucket, T[h, b] = float32(G(seed + 3·2^32, h, b))
//   shaw      S[h, clip(r, −k, k) + k], S[h, x] = float32(G(seed + 3·2^32, h, x))
//   distance  b(|r|) of pe_distance_bias (one plane: heads is 1), −∞ for r > 0 when causal
// Errors: PE_ERR_ARG(k) for the k-th argument; ranges as the kinds alibi, t5, shaw, distance.
PE_API pe_status pe_attention_bias_alibi(float *bias, int32_t length, int32_t heads, int32_t mode);
PE_API pe_status pe_attention_bias_t5(float *bias, int32_t length, int32_t heads, int32_t num_buckets,
                                      int32_t max_distance, int32_t bidirectional, double seed);
PE_API pe_status pe_attention_bias_shaw(float *bias, int32_t length, int32_t heads, int32_t max_relative_position,
                                        double seed);
PE_API pe_status pe_attention_bias_distance(float *bias, int32_t length, int32_t function, double strength,
                                            double scale, int32_t mode);

// cos and sin of n float32 angles (M-RoPE's), each evaluated in float64 and rounded once.
// Errors: PE_ERR_ARG(1..4); PE_ERR_TOO_LARGE when n > PE_MAX_ELEMENTS.
PE_API pe_status pe_attention_cos_sin(float *cos_out, float *sin_out, const float *angles, int32_t n);

// --- building blocks, scalar reference and SIMD (compared bit for bit by the native tests) -------

// e^x for x ≤ 0 (any float32, −∞ and NaN included) with a relative error below 2 ulp down to
// ln(FLT_MIN) ≈ −87.34: a degree-7 polynomial of the reduced argument scaled by 2^n. Below, a
// subnormal near e^x down to −126.5·ln 2 ≈ −87.68, then exactly 0 (−∞ and NaN give 0).
float pe_attention_exp(float x);

// Keys packed for the SIMD score tile: panel p holds keys 8p .. 8p+7 channel by channel,
// panels[(p·dim + c)·8 + l] = k[(8p + l)·dim + c], zero past n keys. (ceil(n/8)·8·dim floats.)
void pe_attention_pack(float *panels, const float *k, int32_t n, int32_t dim);

// Queries per call of the score functions: pe_attention scores tiles of 4 queries.
#define PE_ATTENTION_TILE 4

// Scores of `rows` (1..4) consecutive queries q[r·dim ..] against keys 0 .. end_r − 1, end_r =
// end0 + r·step: out[r·out_stride + j] = (Σ_c q[r·dim + c]·k[j·dim + c])·scale, summed in channel
// order in float32, plus bias0[j − r] when bias0 is not NULL. The scalar reference reads k; the
// SIMD variant reads the same keys packed (pe_attention_pack).
typedef void (*pe_attention_scores_fn)(float *out, ptrdiff_t out_stride, const float *q, const float *k,
                                       const float *panels, const float *bias0, int32_t rows, int32_t end0,
                                       int32_t step, int32_t dim, float scale);
void pe_attention_scores_scalar(float *out, ptrdiff_t out_stride, const float *q, const float *k, const float *panels,
                                const float *bias0, int32_t rows, int32_t end0, int32_t step, int32_t dim, float scale);

// Softmax of row[0 .. n) in place, stable (the row max is subtracted first): w_j = e_j / Σ e,
// e_j = pe_attention_exp(s_j − max), sums over four interleaved partial sums (j mod 4). A row
// whose entries are all −∞ becomes zeros. Returns the row's entropy in nats, ln Σe − Σ e_j·x_j / Σe
// with x_j = s_j − max (0 for an all-masked row).
typedef float (*pe_attention_softmax_fn)(float *row, int32_t n);
float pe_attention_softmax_scalar(float *row, int32_t n);

#if PE_HAVE_SIMD
float pe_attention_softmax_simd(float *row, int32_t n);
void pe_attention_scores_simd(float *out, ptrdiff_t out_stride, const float *q, const float *k, const float *panels,
                              const float *bias0, int32_t rows, int32_t end0, int32_t step, int32_t dim, float scale);
// Four e^x at once, the same float32 operations as pe_attention_exp.
v128_t pe_attention_exp_x4(v128_t x);
#endif

// One implementation of every inner loop; pe_attention uses the SIMD set when built with it.
typedef struct {
    pe_attention_scores_fn scores;
    pe_attention_softmax_fn softmax;
    pe_random_row_fn normal;   // rows of G: pe_random_row_scalar, pe_random_row_simd
    pe_rope_rotate_fn rotate;
    int32_t packs;   // 1 when scores reads packed panels
} pe_attention_ops;

const pe_attention_ops *pe_attention_ops_scalar(void);
const pe_attention_ops *pe_attention_ops_default(void);

// pe_attention with the inner loops given (for the native tests); the same status codes, plus
// PE_ERR_ARG(21) for a NULL ops.
pe_status pe_attention_variant(float *out, float *entropy, float *local_mass, float *scratch, const float *table,
                               const float *rot_cos, const float *rot_sin, const float *bias, const uint8_t *text,
                               const int32_t *words, int32_t length, int32_t dim, int32_t heads, int32_t causal,
                               int32_t encoding, int32_t rotary_dim, int32_t rotary_layout, int32_t bias_heads,
                               int32_t content, double seed, const pe_attention_ops *ops);

// Step 1 of pe_attention (c/attention_inputs.c): q and k (heads, length, dim each) from the
// content, with add_table (length, dim) added when not NULL; the other arguments as
// pe_attention's, assumed valid. panels: the packed-keys scratch; x, w: for PE_CONTENT_TOKENS,
// the token vectors (length, dim) and one projection (dim, dim).
void pe_attention_qk(float *q, float *k, float *panels, float *x, float *w, const float *add_table, const uint8_t *text,
                     const int32_t *words, int32_t length, int32_t dim, int32_t heads, int32_t content,
                     int32_t encoding, uint64_t seed, const pe_attention_ops *ops);

// FNV-1a, 64 bits, of n bytes: h = 0xCBF29CE484222325; per byte h = (h ^ b)·0x100000001B3.
uint64_t pe_fnv1a64(const uint8_t *bytes, int32_t n);

#endif   // PE_ATTENTION_H

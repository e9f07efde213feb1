// Attention patterns: scaled dot-product attention (Vaswani et al., 2017) with a positional
// encoding, for every head h, query i and key j:
//   score[h, i, j] = (q[h, i]·k[h, j]) / √dim + b[h, j − i]          (b: bias encodings only)
//   w[h, i, j]     = exp(score − max_j score) / Σ_j exp(score − max_j score),  j ≤ i when causal
//
// q and k come from the content with the additive table T added (c/attention_inputs.c, where
// they are defined); rotary encodings rotate them afterwards with the given cos/sin tables
// (pe_rope_rotate_*, as pe_rope_apply); bias encodings add b (pe_attention_bias_*).
//
// The kernel works row by row: a tile of 4 queries is scored against 8-key panels (the SIMD core
// below), then each row is masked, soft-maxed and normalised while it is in cache. Under the
// causal mask, panels past the tile's last query are never computed (the upper triangle is
// skipped; only the few entries of the diagonal panel past the query are computed, then
// dropped). exp is a degree-7 polynomial of the reduced argument (pe_attention_exp: measured
// within 0.97 ulp of float64 exp over [−87.3, 0], tests/native/test_attention.c).
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "attention.h"

#define PANEL 8                  // keys per SIMD panel
#define TILE PE_ATTENTION_TILE   // queries per score tile

// --- exp -----------------------------------------------------------------------------------------
//
// e^x = 2^n · e^r with n = round(x·log2 e) and r = x − n·ln 2 (ln 2 split in a high part with 8
// significant bits, so n·LN2_HI is exact, and a low part), |r| ≤ ln2/2; e^r = 1 + r + r²·P(r) with
// P the degree-5 minimax polynomial of Cephes' expf (published coefficients). 2^n is built in
// the exponent bits. Measured against the float64 exp over every 2^-10 step of [−87.3, 0]
// (tests/native/test_attention.c): < 2 ulp.
// Small arguments: x is first raised to EXP_ZERO = −88 (−∞ and NaN too), where n = −127, whose
// exponent bits (n + 127 = 0) make 2^n = +0: so e^x is exactly 0 for x ≤ −126.5·ln 2 ≈ −87.68,
// and between that and ln(FLT_MIN) ≈ −87.34 it is e^r·2^−126, a subnormal near e^x. One raise
// (max) replaces a compare and a mask: the SIMD softmax is about 16 % faster.

static const float EXP_ZERO = -88.0f;   // rounds to n = −127: 2^n = +0
static const float LOG2E = 1.44269504088896341f;
static const float LN2_HI = 0.693359375f;
static const float LN2_LO = -2.12194440e-4f;
static const float EXP_P0 = 1.9875691500e-4f, EXP_P1 = 1.3981999507e-3f, EXP_P2 = 8.3334519073e-3f,
                   EXP_P3 = 4.1665795894e-2f, EXP_P4 = 1.6666665459e-1f, EXP_P5 = 5.0000001201e-1f;

static float pow2i(int32_t n) {   // 2^n for n in [−126, 127]; +0 for n = −127
    uint32_t bits = (uint32_t)(n + 127) << 23;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

float pe_attention_exp(float x) {
    if (!(x >= EXP_ZERO)) x = EXP_ZERO;   // also −∞ and NaN, as f32x4.pmax(EXP_ZERO, x)
    const float n = rintf(x * LOG2E);     // round half to even, as f32x4.nearest
    float r = x - n * LN2_HI;
    r = r - n * LN2_LO;
    float p = EXP_P0;
    p = p * r + EXP_P1;
    p = p * r + EXP_P2;
    p = p * r + EXP_P3;
    p = p * r + EXP_P4;
    p = p * r + EXP_P5;
    const float e = (p * (r * r) + r) + 1.0f;
    return e * pow2i((int32_t)n);
}

#if PE_HAVE_SIMD
// e^x for x ≥ EXP_ZERO (the caller raises it there).
static inline v128_t exp_x4_raised(v128_t x) {
    const v128_t n = wasm_f32x4_nearest(wasm_f32x4_mul(x, wasm_f32x4_splat(LOG2E)));
    v128_t r = wasm_f32x4_sub(x, wasm_f32x4_mul(n, wasm_f32x4_splat(LN2_HI)));
    r = wasm_f32x4_sub(r, wasm_f32x4_mul(n, wasm_f32x4_splat(LN2_LO)));
    v128_t p = wasm_f32x4_splat(EXP_P0);
    p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(EXP_P1));
    p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(EXP_P2));
    p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(EXP_P3));
    p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(EXP_P4));
    p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(EXP_P5));
    v128_t e = wasm_f32x4_add(wasm_f32x4_mul(p, wasm_f32x4_mul(r, r)), r);
    e = wasm_f32x4_add(e, wasm_f32x4_splat(1.0f));
    // 2^n: n + 1.5·2^23 holds the integer n in its low mantissa bits (|n| ≤ 127), which is
    // cheaper than a saturating conversion; the bits then become the exponent of 2^n (n + 127 ≥ 0).
    const v128_t shifted = wasm_f32x4_add(n, wasm_f32x4_splat(12582912.0f));
    const v128_t biased = wasm_i32x4_sub(shifted, wasm_i32x4_splat(0x4B400000 - 127));   // n + 127
    return wasm_f32x4_mul(e, wasm_i32x4_shl(biased, 23));
}

v128_t pe_attention_exp_x4(v128_t x) {
    return exp_x4_raised(wasm_f32x4_pmax(wasm_f32x4_splat(EXP_ZERO), x));   // EXP_ZERO < x ? x : EXP_ZERO
}
#endif

// --- softmax of one row --------------------------------------------------------------------------

static float raise(float x) { return x >= EXP_ZERO ? x : EXP_ZERO; }   // as f32x4.pmax(EXP_ZERO, x)

// A row whose every entry is masked (max = −∞): defined as zeros, entropy 0.
static float masked_row(float *row, int32_t n) {
    memset(row, 0, sizeof(float) * (size_t)(n > 0 ? n : 0));
    return 0.0f;
}

// Entry j of a row with maximum m (the scalar reference's loop, the SIMD twin's tail): x = s_j − m
// raised to EXP_ZERO, e_j = e^x in place, added to lane j mod 4 of z (Σ e) and sx (Σ e·x).
static inline void softmax_entry(float *row, int32_t j, float m, float z[4], float sx[4]) {
    const float x = raise(row[j] - m);   // no 0·(−∞) below
    const float e = pe_attention_exp(x);
    row[j] = e;
    z[j & 3] += e;
    sx[j & 3] += e * x;
}

// The four lane sums added as the SIMD twin adds them: (l0 + l1) + (l2 + l3).
static inline float lane_sum(const float v[4]) { return (v[0] + v[1]) + (v[2] + v[3]); }

// The entropy of the row, ln Σe − Σ e·x / Σe in nats, from total = Σe and weighted = Σ e·x.
static inline float softmax_entropy(float total, float weighted) {
    return (float)(log((double)total) - (double)weighted / (double)total);
}

float pe_attention_softmax_scalar(float *row, int32_t n) {
    float m = -INFINITY;
    for (int32_t j = 0; j < n; j++)
        if (row[j] > m) m = row[j];
    if (m == -INFINITY) return masked_row(row, n);
    m += 0.0f;   // −0 → +0, so both variants subtract the same zero
    float z[4] = {0.0f, 0.0f, 0.0f, 0.0f}, sx[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int32_t j = 0; j < n; j++) softmax_entry(row, j, m, z, sx);
    const float total = lane_sum(z);
    const float inv = 1.0f / total;   // total ≥ 1: the max contributes e^0 = 1
    for (int32_t j = 0; j < n; j++) row[j] *= inv;
    return softmax_entropy(total, lane_sum(sx));
}

#if PE_HAVE_SIMD
// The same float32 operations as the scalar reference: lane l of the vector sums holds the
// partial sum of j ≡ l (mod 4), the tail is added to its lane after.
float pe_attention_softmax_simd(float *row, int32_t n) {
    const int32_t n4 = n & ~3;
    v128_t mv = wasm_f32x4_splat(-INFINITY);
    for (int32_t j = 0; j < n4; j += 4) mv = wasm_f32x4_pmax(mv, wasm_v128_load(row + j));   // mv < v ? v : mv
    float m = fmaxf(fmaxf(wasm_f32x4_extract_lane(mv, 0), wasm_f32x4_extract_lane(mv, 1)),
                    fmaxf(wasm_f32x4_extract_lane(mv, 2), wasm_f32x4_extract_lane(mv, 3)));
    for (int32_t j = n4; j < n; j++)
        if (row[j] > m) m = row[j];
    if (m == -INFINITY) return masked_row(row, n);
    m += 0.0f;
    const v128_t mm = wasm_f32x4_splat(m), low = wasm_f32x4_splat(EXP_ZERO);
    v128_t zv = wasm_f32x4_splat(0.0f), sv = wasm_f32x4_splat(0.0f);
    for (int32_t j = 0; j < n4; j += 4) {
        const v128_t x = wasm_f32x4_pmax(low, wasm_f32x4_sub(wasm_v128_load(row + j), mm));
        const v128_t e = exp_x4_raised(x);
        wasm_v128_store(row + j, e);
        zv = wasm_f32x4_add(zv, e);
        sv = wasm_f32x4_add(sv, wasm_f32x4_mul(e, x));
    }
    float z[4], sx[4];
    wasm_v128_store(z, zv);
    wasm_v128_store(sx, sv);
    for (int32_t j = n4; j < n; j++) softmax_entry(row, j, m, z, sx);
    const float total = lane_sum(z);
    const float inv = 1.0f / total;
    const v128_t iv = wasm_f32x4_splat(inv);
    for (int32_t j = 0; j < n4; j += 4) wasm_v128_store(row + j, wasm_f32x4_mul(wasm_v128_load(row + j), iv));
    for (int32_t j = n4; j < n; j++) row[j] *= inv;
    return softmax_entropy(total, lane_sum(sx));
}
#endif

// --- scores --------------------------------------------------------------------------------------

// A plain copy loop; kept out of clang's vectorizer, whose unrolled transpose was 5 KB of the
// module for a step that costs a few per cent of the kernel.
#if defined(__clang__)
#define PE_NO_VECTORIZE _Pragma("clang loop vectorize(disable) interleave(disable) unroll(disable)")
#else
#define PE_NO_VECTORIZE
#endif

void pe_attention_pack(float *panels, const float *k, int32_t n, int32_t dim) {
    const int32_t count = (n + PANEL - 1) / PANEL;
    for (int32_t p = 0; p < count; p++) {
        float *panel = panels + (size_t)p * (size_t)dim * PANEL;   // (dim, 8)
        for (int32_t l = 0; l < PANEL; l++) {
            const int32_t j = p * PANEL + l;
            const float *key = j < n ? k + (size_t)j * (size_t)dim : k;   // past n: zeros
            PE_NO_VECTORIZE
            for (int32_t c = 0; c < dim; c++) panel[c * PANEL + l] = j < n ? key[c] : 0.0f;
        }
    }
}

void pe_attention_scores_scalar(float *out, ptrdiff_t out_stride, const float *q, const float *k, const float *panels,
                                const float *bias0, int32_t rows, int32_t end0, int32_t step, int32_t dim,
                                float scale) {
    (void)panels;
    for (int32_t r = 0; r < rows; r++) {
        const float *qr = q + (size_t)r * (size_t)dim;
        const float *b = bias0 != NULL ? bias0 - r : NULL;   // bias of row r at key j: b[j]
        float *o = out + (ptrdiff_t)r * out_stride;
        const int32_t end = end0 + r * step;
        for (int32_t j = 0; j < end; j++) {
            const float *kj = k + (size_t)j * (size_t)dim;
            float s = 0.0f;
            for (int32_t c = 0; c < dim; c++) s += qr[c] * kj[c];   // channel order
            s *= scale;
            o[j] = b != NULL ? s + b[j] : s;
        }
    }
}

#if PE_HAVE_SIMD
// Writes keys j .. j+7 of one row from its two accumulators, up to the row's end.
static inline void store_panel(float *o, v128_t a0, v128_t a1, int32_t j, int32_t end, const float *b, v128_t scale) {
    if (j >= end) return;
    v128_t s0 = wasm_f32x4_mul(a0, scale), s1 = wasm_f32x4_mul(a1, scale);
    if (j + PANEL <= end) {
        if (b != NULL) {
            s0 = wasm_f32x4_add(s0, wasm_v128_load(b + j));
            s1 = wasm_f32x4_add(s1, wasm_v128_load(b + j + 4));
        }
        wasm_v128_store(o + j, s0);
        wasm_v128_store(o + j + 4, s1);
        return;
    }
    float t[PANEL];   // the diagonal (or last) panel: only keys before end
    wasm_v128_store(t, s0);
    wasm_v128_store(t + 4, s1);
    for (int32_t l = 0; j + l < end; l++) o[j + l] = b != NULL ? t[l] + b[j + l] : t[l];
}

// A tile of 4 queries × 8 keys in 8 accumulators: per channel two key loads, four broadcasts and
// 8 multiply-adds, each lane summing its key's products in channel order like the reference.
void pe_attention_scores_simd(float *out, ptrdiff_t out_stride, const float *q, const float *k, const float *panels,
                              const float *bias0, int32_t rows, int32_t end0, int32_t step, int32_t dim, float scale) {
    (void)k;
    const int32_t end_max = end0 + step * (rows - 1);
    const float *q0 = q;   // rows past `rows` repeat row 0 and are not stored
    const float *q1 = rows > 1 ? q + dim : q;
    const float *q2 = rows > 2 ? q + 2 * (ptrdiff_t)dim : q;
    const float *q3 = rows > 3 ? q + 3 * (ptrdiff_t)dim : q;
    const v128_t sc = wasm_f32x4_splat(scale);
    // The tile's queries interleaved, qt[4c + r] = q_r[c]: each channel's four broadcasts then load
    // from one address with constant offsets (about 10 % faster than four row pointers).
    float qt[PE_MAX_ATTENTION_DIM * TILE] __attribute__((aligned(16)));
    for (int32_t c = 0; c < dim; c++) {
        qt[4 * c] = q0[c];
        qt[4 * c + 1] = q1[c];
        qt[4 * c + 2] = q2[c];
        qt[4 * c + 3] = q3[c];
    }
    for (int32_t j = 0; j < end_max; j += PANEL) {
        const float *panel = panels + (size_t)(j / PANEL) * (size_t)dim * PANEL;
        v128_t a00 = wasm_f32x4_splat(0.0f), a01 = a00, a10 = a00, a11 = a00;
        v128_t a20 = a00, a21 = a00, a30 = a00, a31 = a00;
#define PE_STEP(k0, k1, s0, s1, s2, s3)                \
    a00 = wasm_f32x4_add(a00, wasm_f32x4_mul(s0, k0)); \
    a01 = wasm_f32x4_add(a01, wasm_f32x4_mul(s0, k1)); \
    a10 = wasm_f32x4_add(a10, wasm_f32x4_mul(s1, k0)); \
    a11 = wasm_f32x4_add(a11, wasm_f32x4_mul(s1, k1)); \
    a20 = wasm_f32x4_add(a20, wasm_f32x4_mul(s2, k0)); \
    a21 = wasm_f32x4_add(a21, wasm_f32x4_mul(s2, k1)); \
    a30 = wasm_f32x4_add(a30, wasm_f32x4_mul(s3, k0)); \
    a31 = wasm_f32x4_add(a31, wasm_f32x4_mul(s3, k1))
        // Per channel: two key loads, four query loads broadcast to every lane (v128.load32_splat,
        // one instruction that needs no register for the scalar), eight multiply-adds.
        for (int32_t c = 0; c < dim; c++) {
            const v128_t k0 = wasm_v128_load(panel + c * PANEL), k1 = wasm_v128_load(panel + c * PANEL + 4);
            const float *qc = qt + 4 * c;
            PE_STEP(k0, k1, wasm_v128_load32_splat(qc), wasm_v128_load32_splat(qc + 1), wasm_v128_load32_splat(qc + 2),
                    wasm_v128_load32_splat(qc + 3));
        }
#undef PE_STEP
        store_panel(out, a00, a01, j, end0, bias0, sc);
        if (rows > 1) store_panel(out + out_stride, a10, a11, j, end0 + step, bias0 ? bias0 - 1 : NULL, sc);
        if (rows > 2) store_panel(out + 2 * out_stride, a20, a21, j, end0 + 2 * step, bias0 ? bias0 - 2 : NULL, sc);
        if (rows > 3) store_panel(out + 3 * out_stride, a30, a31, j, end0 + 3 * step, bias0 ? bias0 - 3 : NULL, sc);
    }
}
#endif

// --- the kernel ----------------------------------------------------------------------------------

static int32_t panel_keys(int32_t n) { return (n + PANEL - 1) / PANEL * PANEL; }

int32_t pe_attention_scratch_floats(int32_t length, int32_t dim, int32_t heads, int32_t content) {
    if (length < 1 || length > PE_MAX_ATTENTION_LENGTH || dim < 1 || dim > PE_MAX_ATTENTION_DIM || heads < 1 ||
        heads > PE_MAX_ATTENTION_HEADS || content < PE_CONTENT_RANDOM || content > PE_CONTENT_PREPARED)
        return -1;
    const int64_t qk = (int64_t)heads * length * dim;
    if (qk > PE_MAX_ATTENTION_QK) return -1;
    const int32_t keys = panel_keys(length > dim ? length : dim);
    int64_t total = 2 * qk + (int64_t)keys * dim;
    if (content == PE_CONTENT_TOKENS) total += (int64_t)length * dim + (int64_t)dim * dim;
    return (int32_t)total;
}

static const pe_attention_ops OPS_SCALAR = {
    pe_attention_scores_scalar, pe_attention_softmax_scalar, pe_random_row_scalar, pe_rope_rotate_scalar, 0,
};
#if PE_HAVE_SIMD
static const pe_attention_ops OPS_SIMD = {
    pe_attention_scores_simd, pe_attention_softmax_simd, pe_random_row_simd, pe_rope_rotate_simd, 1,
};
#endif

const pe_attention_ops *pe_attention_ops_scalar(void) { return &OPS_SCALAR; }
const pe_attention_ops *pe_attention_ops_default(void) {
#if PE_HAVE_SIMD
    return &OPS_SIMD;
#else
    return &OPS_SCALAR;
#endif
}

pe_status pe_attention_variant(float *out, float *entropy, float *local_mass, float *scratch, const float *table,
                               const float *rot_cos, const float *rot_sin, const float *bias, const uint8_t *text,
                               const int32_t *words, int32_t length, int32_t dim, int32_t heads, int32_t causal,
                               int32_t encoding, int32_t rotary_dim, int32_t rotary_layout, int32_t bias_heads,
                               int32_t content, double seed, const pe_attention_ops *ops) {
    if (out == NULL) return PE_ERR_ARG(1);
    if (scratch == NULL) return PE_ERR_ARG(4);
    if (ops == NULL) return PE_ERR_ARG(21);
    if (length < 1 || length > PE_MAX_ATTENTION_LENGTH) return PE_ERR_ARG(11);
    if (dim < 1 || dim > PE_MAX_ATTENTION_DIM) return PE_ERR_ARG(12);
    if (heads < 1 || heads > PE_MAX_ATTENTION_HEADS) return PE_ERR_ARG(13);
    if (causal != 0 && causal != 1) return PE_ERR_ARG(14);
    if (encoding < PE_ENCODING_NONE || encoding > PE_ENCODING_BIAS) return PE_ERR_ARG(15);
    if (content < PE_CONTENT_RANDOM || content > PE_CONTENT_PREPARED) return PE_ERR_ARG(19);
    if (!pe_random_seed_ok(seed)) return PE_ERR_ARG(20);
    if ((int64_t)heads * length * length > PE_MAX_ELEMENTS) return PE_ERR_TOO_LARGE;
    if ((int64_t)heads * length * dim > PE_MAX_ATTENTION_QK) return PE_ERR_TOO_LARGE;
    switch (encoding) {
    case PE_ENCODING_ADDITIVE:
        if (table == NULL) return PE_ERR_ARG(5);
        break;
    case PE_ENCODING_ROTARY:
        if (rot_cos == NULL) return PE_ERR_ARG(6);
        if (rot_sin == NULL) return PE_ERR_ARG(7);
        if (rotary_dim < 2 || rotary_dim > dim || rotary_dim % 2 != 0) return PE_ERR_ARG(16);
        if (rotary_layout != PE_ROPE_HALF && rotary_layout != PE_ROPE_INTERLEAVED) return PE_ERR_ARG(17);
        break;
    case PE_ENCODING_BIAS:
        if (bias == NULL) return PE_ERR_ARG(8);
        if (bias_heads != 1 && bias_heads != heads) return PE_ERR_ARG(18);
        break;
    default: break;
    }
    if (content == PE_CONTENT_TOKENS) {
        if (text == NULL) return PE_ERR_ARG(9);
        if (words == NULL) return PE_ERR_ARG(10);
        if (words[0] < 0) return PE_ERR_ARG(10);
        for (int32_t t = 0; t < length; t++)
            if (words[t + 1] <= words[t]) return PE_ERR_ARG(10);   // every word has bytes
    }

    const size_t plane = (size_t)length * (size_t)dim;   // one head of q or k: (length, dim)
    float *q = scratch, *k = q + (size_t)heads * plane;
    float *panels = k + (size_t)heads * plane;                                           // packed keys
    float *x = panels + (size_t)panel_keys(length > dim ? length : dim) * (size_t)dim;   // tokens
    float *w = x + plane;
    const uint64_t s = (uint64_t)seed;
    const float *add_table = encoding == PE_ENCODING_ADDITIVE ? table : NULL;

    // 1. q and k (heads, length, dim) from the content, with the additive table.
    pe_attention_qk(q, k, panels, x, w, add_table, text, words, length, dim, heads, content, encoding, s, ops);

    // 2. Rotary encodings rotate q and k of every head, row by row.
    if (encoding == PE_ENCODING_ROTARY) {
        const int32_t n = rotary_dim / 2;
        for (int32_t i = 0; i < length; i++) {
            const float *c_row = rot_cos + (size_t)i * (size_t)n, *s_row = rot_sin + (size_t)i * (size_t)n;
            for (int32_t h = 0; h < heads; h++) {
                float *qr = q + (size_t)h * plane + (size_t)i * (size_t)dim;
                float *kr = k + (size_t)h * plane + (size_t)i * (size_t)dim;
                ops->rotate(qr, qr, c_row, s_row, n, rotary_layout, n);
                ops->rotate(kr, kr, c_row, s_row, n, rotary_layout, n);
            }
        }
    }

    // 3. Per head: scores of a tile of queries, then each row masked, soft-maxed, summarised.
    const float scale = (float)(1.0 / sqrt((double)dim));
    const int32_t width = 2 * length - 1;
    for (int32_t h = 0; h < heads; h++) {
        const float *qh = q + (size_t)h * plane, *kh = k + (size_t)h * plane;
        if (ops->packs) pe_attention_pack(panels, kh, length, dim);
        const float *plane_bias =
            encoding == PE_ENCODING_BIAS ? bias + (size_t)(bias_heads == 1 ? 0 : h) * (size_t)width : NULL;
        float *oh = out + (size_t)h * (size_t)length * (size_t)length;   // (length, length)
        for (int32_t i0 = 0; i0 < length; i0 += TILE) {
            const int32_t rows = length - i0 < TILE ? length - i0 : TILE;
            float *tile = oh + (size_t)i0 * (size_t)length;
            // Row i's bias at key j is plane_bias[j − i + length − 1].
            const float *bias0 = plane_bias != NULL ? plane_bias + (length - 1 - i0) : NULL;
            ops->scores(tile, length, qh + (size_t)i0 * (size_t)dim, kh, panels, bias0, rows, causal ? i0 + 1 : length,
                        causal, dim, scale);
            for (int32_t r = 0; r < rows; r++) {
                const int32_t i = i0 + r, n = causal ? i + 1 : length;
                float *row = tile + (size_t)r * (size_t)length;
                const float ent = ops->softmax(row, n);
                if (n < length) memset(row + n, 0, sizeof(float) * (size_t)(length - n));
                const size_t at = (size_t)h * (size_t)length + (size_t)i;
                if (entropy != NULL) entropy[at] = ent;
                if (local_mass != NULL) {
                    const int32_t lo = i - (PE_ATTENTION_WINDOW - 1) > 0 ? i - (PE_ATTENTION_WINDOW - 1) : 0;
                    const int32_t hi = i + PE_ATTENTION_WINDOW < n ? i + PE_ATTENTION_WINDOW : n;
                    float mass = 0.0f;
                    for (int32_t j = lo; j < hi; j++) mass += row[j];
                    local_mass[at] = mass;
                }
            }
        }
    }
    return PE_OK;
}

pe_status pe_attention(float *out, float *entropy, float *local_mass, float *scratch, const float *table,
                       const float *rot_cos, const float *rot_sin, const float *bias, const uint8_t *text,
                       const int32_t *words, int32_t length, int32_t dim, int32_t heads, int32_t causal,
                       int32_t encoding, int32_t rotary_dim, int32_t rotary_layout, int32_t bias_heads, int32_t content,
                       double seed) {
    return pe_attention_variant(out, entropy, local_mass, scratch, table, rot_cos, rot_sin, bias, text, words, length,
                                dim, heads, causal, encoding, rotary_dim, rotary_layout, bias_heads, content, seed,
                                pe_attention_ops_default());
}

// Arena model: forward and backward passes of the tiny transformer of c/arena.h, layer by layer,
// llm.c style (Karpathy's train_gpt2.c: output first, shapes in comments, hand-written backward).
//
// B = batch, T = sequence, C = d_model, H = heads, hs = C/H, V = vocabulary, BT = B·T rows.
// Every backward function ADDS into its gradient outputs (callers zero what must start at 0).
//
// The inner loops that carry the FLOPs (linear layers, gelu, LayerNorm, attention, AdamW) come in
// a scalar reference and a SIMD twin that perform the same float32 operations in the same order
// per element, so both write identical bits (-ffp-contract=off; tests/native/test_arena.c checks
// whole training runs). The model calls them through its pe_arena_ops table (OPS_SCALAR,
// OPS_SIMD at the end of the loops), never through a flag. The cross-entropy is one scalar
// implementation.
#include <math.h>
#include <string.h>

#include "arena.h"
#include "attention.h"   // pe_attention_exp (and its SIMD twin): the project's one float32 exp

// --- tanh and gelu_tanh --------------------------------------------------------------------------
//
// tanh(x) = sign(x)·(1 − e)/(1 + e) with e = e^(−2|x|) from pe_attention_exp (< 2 ulp), so the
// absolute error stays below 3e-7 and the SIMD twin (pe_attention_exp_x4) is bit for bit the same.
// gelu_tanh(x) = 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³)))  (Hendrycks & Gimpel; GPT-2's "gelu_new").

#define GELU_SCALE 0.7978845608028654f   // √(2/π)
#define GELU_CUBE 0.044715f

float pe_arena_tanh(float x) {
    const float e = pe_attention_exp(-2.0f * fabsf(x));
    const float t = (1.0f - e) / (1.0f + e);
    return copysignf(t, x);
}

// out = gelu_tanh(x) and deriv = d gelu/dx for the backward pass, from one tanh:
// d gelu/dx = 0.5·(1 + t) + 0.5·x·(1 − t²)·√(2/π)·(1 + 3·0.044715·x²), t = tanh(u).
// deriv may be inp itself (each x is read before its slot is written).
static void gelu_forward_scalar(float *out, float *deriv, const float *inp, int32_t n) {
    for (int32_t i = 0; i < n; i++) {
        const float x = inp[i];
        const float u = GELU_SCALE * (x + GELU_CUBE * x * x * x);
        const float t = pe_arena_tanh(u);
        const float sech2 = 1.0f - t * t;
        out[i] = 0.5f * x * (1.0f + t);
        deriv[i] = 0.5f * (1.0f + t) + 0.5f * x * sech2 * GELU_SCALE * (1.0f + 3.0f * GELU_CUBE * x * x);
    }
}

// dinp += deriv·dout.
static void gelu_backward_scalar(float *dinp, const float *deriv, const float *dout, int32_t n) {
    for (int32_t i = 0; i < n; i++) dinp[i] += deriv[i] * dout[i];
}

#if PE_HAVE_SIMD
static inline v128_t tanh_x4(v128_t x) {
    const v128_t sign = wasm_i32x4_splat((int32_t)0x80000000);
    const v128_t ax = wasm_v128_andnot(x, sign);
    const v128_t e = pe_attention_exp_x4(wasm_f32x4_mul(wasm_f32x4_splat(-2.0f), ax));
    const v128_t one = wasm_f32x4_splat(1.0f);
    const v128_t t = wasm_f32x4_div(wasm_f32x4_sub(one, e), wasm_f32x4_add(one, e));
    return wasm_v128_or(t, wasm_v128_and(x, sign));   // t ≥ 0: copysign
}

static inline v128_t gelu_u_x4(v128_t x) {
    const v128_t cube = wasm_f32x4_mul(wasm_f32x4_mul(wasm_f32x4_mul(wasm_f32x4_splat(GELU_CUBE), x), x), x);
    return wasm_f32x4_mul(wasm_f32x4_splat(GELU_SCALE), wasm_f32x4_add(x, cube));
}

static void gelu_forward_simd(float *out, float *deriv, const float *inp, int32_t n) {
    const int32_t n4 = n & ~3;
    const v128_t half = wasm_f32x4_splat(0.5f), one = wasm_f32x4_splat(1.0f);
    const v128_t scale = wasm_f32x4_splat(GELU_SCALE), three_cube = wasm_f32x4_splat(3.0f * GELU_CUBE);
    for (int32_t i = 0; i < n4; i += 4) {
        const v128_t x = wasm_v128_load(inp + i);
        const v128_t t = tanh_x4(gelu_u_x4(x));
        const v128_t sech2 = wasm_f32x4_sub(one, wasm_f32x4_mul(t, t));
        wasm_v128_store(out + i, wasm_f32x4_mul(wasm_f32x4_mul(half, x), wasm_f32x4_add(one, t)));
        const v128_t a = wasm_f32x4_mul(half, wasm_f32x4_add(one, t));
        v128_t b = wasm_f32x4_mul(wasm_f32x4_mul(wasm_f32x4_mul(half, x), sech2), scale);
        b = wasm_f32x4_mul(b, wasm_f32x4_add(one, wasm_f32x4_mul(wasm_f32x4_mul(three_cube, x), x)));
        wasm_v128_store(deriv + i, wasm_f32x4_add(a, b));
    }
    gelu_forward_scalar(out + n4, deriv + n4, inp + n4, n - n4);
}

static void gelu_backward_simd(float *dinp, const float *deriv, const float *dout, int32_t n) {
    const int32_t n4 = n & ~3;
    for (int32_t i = 0; i < n4; i += 4)
        wasm_v128_store(dinp + i, wasm_f32x4_add(wasm_v128_load(dinp + i),
                                                 wasm_f32x4_mul(wasm_v128_load(deriv + i), wasm_v128_load(dout + i))));
    gelu_backward_scalar(dinp + n4, deriv + n4, dout + n4, n - n4);
}
#endif

// --- linear layers -------------------------------------------------------------------------------

// out[N, OC] = inp[N, IC] · w[IC, OC] + bias[OC]: per element the bias, then + inp[r, c]·w[c, o]
// for c = 0 .. IC − 1.
static void matmul_forward_scalar(float *out, const float *inp, const float *w, const float *bias, int32_t n,
                                  int32_t ic, int32_t oc) {
    for (int32_t r = 0; r < n; r++) {
        const float *x = inp + (size_t)r * ic;
        float *o = out + (size_t)r * oc;
        for (int32_t j = 0; j < oc; j++) {
            float acc = bias != NULL ? bias[j] : 0.0f;
            for (int32_t c = 0; c < ic; c++) acc += x[c] * w[(size_t)c * oc + j];
            o[j] = acc;
        }
    }
}

// dinp += dout·wᵀ (per element: dinp, then + dout[r, o]·w[c, o] for o in order),
// dw += inpᵀ·dout (per element: dw, then + inp[r, c]·dout[r, o] for r in order),
// dbias += Σ_r dout[r, o] (r in order).
static void matmul_backward_scalar(float *dinp, float *dw, float *dbias, const float *dout, const float *inp,
                                   const float *w, float *scratch, int32_t n, int32_t ic, int32_t oc) {
    (void)scratch;
    for (int32_t r = 0; r < n; r++) {
        const float *d = dout + (size_t)r * oc;
        float *di = dinp + (size_t)r * ic;
        for (int32_t c = 0; c < ic; c++) {
            float acc = di[c];
            for (int32_t o = 0; o < oc; o++) acc += d[o] * w[(size_t)c * oc + o];
            di[c] = acc;
        }
    }
    for (int32_t r = 0; r < n; r++) {
        const float *d = dout + (size_t)r * oc;
        const float *x = inp + (size_t)r * ic;
        for (int32_t c = 0; c < ic; c++) {
            const float xc = x[c];
            float *row = dw + (size_t)c * oc;
            for (int32_t o = 0; o < oc; o++) row[o] += xc * d[o];
        }
        if (dbias != NULL)
            for (int32_t o = 0; o < oc; o++) dbias[o] += d[o];
    }
}

#if PE_HAVE_SIMD
// out[r, j .. j+7] for rows r0 .. r0+rows−1 (rows ≤ 4): acc = init (a row of `init` with stride
// init_stride, or a shared vector row when init_stride is 0, or 0 when init is NULL), then
// + a[r, c]·b[c, j .. j+7] for c in order. a: [*, k] rows, b: [k, ldb]. Same per-element order
// as the scalar loops.
static inline void tile_4x8(float *out, ptrdiff_t ldo, const float *a, ptrdiff_t lda, const float *b, ptrdiff_t ldb,
                            const float *init, ptrdiff_t init_stride, int32_t rows, int32_t k) {
    v128_t acc[4][2];
    for (int32_t r = 0; r < 4; r++) {
        const float *in = init != NULL ? init + (r < rows ? r : 0) * init_stride : NULL;
        acc[r][0] = in != NULL ? wasm_v128_load(in) : wasm_f32x4_splat(0.0f);
        acc[r][1] = in != NULL ? wasm_v128_load(in + 4) : wasm_f32x4_splat(0.0f);
    }
    const float *a0 = a, *a1 = rows > 1 ? a + lda : a, *a2 = rows > 2 ? a + 2 * lda : a;
    const float *a3 = rows > 3 ? a + 3 * lda : a;
    for (int32_t c = 0; c < k; c++) {
        const v128_t b0 = wasm_v128_load(b + c * ldb), b1 = wasm_v128_load(b + c * ldb + 4);
        const v128_t s0 = wasm_v128_load32_splat(a0 + c), s1 = wasm_v128_load32_splat(a1 + c);
        const v128_t s2 = wasm_v128_load32_splat(a2 + c), s3 = wasm_v128_load32_splat(a3 + c);
        acc[0][0] = wasm_f32x4_add(acc[0][0], wasm_f32x4_mul(s0, b0));
        acc[0][1] = wasm_f32x4_add(acc[0][1], wasm_f32x4_mul(s0, b1));
        acc[1][0] = wasm_f32x4_add(acc[1][0], wasm_f32x4_mul(s1, b0));
        acc[1][1] = wasm_f32x4_add(acc[1][1], wasm_f32x4_mul(s1, b1));
        acc[2][0] = wasm_f32x4_add(acc[2][0], wasm_f32x4_mul(s2, b0));
        acc[2][1] = wasm_f32x4_add(acc[2][1], wasm_f32x4_mul(s2, b1));
        acc[3][0] = wasm_f32x4_add(acc[3][0], wasm_f32x4_mul(s3, b0));
        acc[3][1] = wasm_f32x4_add(acc[3][1], wasm_f32x4_mul(s3, b1));
    }
    for (int32_t r = 0; r < rows; r++) {
        wasm_v128_store(out + r * ldo, acc[r][0]);
        wasm_v128_store(out + r * ldo + 4, acc[r][1]);
    }
}

// The same for one column block of 4.
static inline void tile_4x4(float *out, ptrdiff_t ldo, const float *a, ptrdiff_t lda, const float *b, ptrdiff_t ldb,
                            const float *init, ptrdiff_t init_stride, int32_t rows, int32_t k) {
    v128_t acc[4];
    for (int32_t r = 0; r < 4; r++) {
        const float *in = init != NULL ? init + (r < rows ? r : 0) * init_stride : NULL;
        acc[r] = in != NULL ? wasm_v128_load(in) : wasm_f32x4_splat(0.0f);
    }
    const float *a0 = a, *a1 = rows > 1 ? a + lda : a, *a2 = rows > 2 ? a + 2 * lda : a;
    const float *a3 = rows > 3 ? a + 3 * lda : a;
    for (int32_t c = 0; c < k; c++) {
        const v128_t b0 = wasm_v128_load(b + c * ldb);
        acc[0] = wasm_f32x4_add(acc[0], wasm_f32x4_mul(wasm_v128_load32_splat(a0 + c), b0));
        acc[1] = wasm_f32x4_add(acc[1], wasm_f32x4_mul(wasm_v128_load32_splat(a1 + c), b0));
        acc[2] = wasm_f32x4_add(acc[2], wasm_f32x4_mul(wasm_v128_load32_splat(a2 + c), b0));
        acc[3] = wasm_f32x4_add(acc[3], wasm_f32x4_mul(wasm_v128_load32_splat(a3 + c), b0));
    }
    for (int32_t r = 0; r < rows; r++) wasm_v128_store(out + r * ldo, acc[r]);
}

// out[N, M] = init + a[N, K]·b[K, M] (init: NULL → 0, init_stride 0 → the vector init[M] for
// every row, else the matrix init[N, M] with that row stride); columns past the last block of 4
// by scalar loops in the same order.
static void gemm_simd(float *out, const float *a, const float *b, const float *init, ptrdiff_t init_stride, int32_t n,
                      int32_t k, int32_t m) {
    const int32_t m8 = m & ~7, m4 = m & ~3;
    for (int32_t r0 = 0; r0 < n; r0 += 4) {
        const int32_t rows = n - r0 < 4 ? n - r0 : 4;
        const float *ar = a + (size_t)r0 * k;
        float *o = out + (size_t)r0 * m;
        const float *in = init != NULL ? init + (size_t)r0 * init_stride : NULL;
        for (int32_t j = 0; j < m8; j += 8)
            tile_4x8(o + j, m, ar, k, b + j, m, in != NULL ? in + j : NULL, init_stride, rows, k);
        if (m4 > m8) tile_4x4(o + m8, m, ar, k, b + m8, m, in != NULL ? in + m8 : NULL, init_stride, rows, k);
        for (int32_t r = 0; r < rows; r++)
            for (int32_t j = m4; j < m; j++) {
                float acc = in != NULL ? in[r * init_stride + j] : 0.0f;
                for (int32_t c = 0; c < k; c++) acc += ar[(size_t)r * k + c] * b[(size_t)c * m + j];
                o[(size_t)r * m + j] = acc;
            }
    }
}

static void matmul_forward_simd(float *out, const float *inp, const float *w, const float *bias, int32_t n, int32_t ic,
                                int32_t oc) {
    gemm_simd(out, inp, w, bias, 0, n, ic, oc);
}

// Rows of inp and dout per block of the dw sum (32 rows of dout at OC = 128: 16 KB).
#define DW_ROWS 32

static void matmul_backward_simd(float *dinp, float *dw, float *dbias, const float *dout, const float *inp,
                                 const float *w, float *scratch, int32_t n, int32_t ic, int32_t oc) {
    // dinp = dinp + dout[N, OC]·wᵀ[OC, IC], wᵀ transposed into scratch first.
    for (int32_t c = 0; c < ic; c++)
        for (int32_t o = 0; o < oc; o++) scratch[(size_t)o * ic + c] = w[(size_t)c * oc + o];
    gemm_simd(dinp, dout, scratch, dinp, ic, n, oc, ic);
    const int32_t oc8 = oc & ~7, oc4 = oc & ~3;
    // dw[c, o] = dw + Σ_r inp[r, c]·dout[r, o], r in order: 4×8 register tiles over (c, o), the
    // sum over r in blocks of DW_ROWS rows (the block's inp and dout rows stay in L1 while every
    // tile passes over them; a tile's partial sums go back to dw between blocks, which leaves each
    // element's sequence of float32 additions, and so its bits, unchanged).
    for (int32_t t0 = 0; t0 < n; t0 += DW_ROWS) {
        const int32_t t1 = n - t0 < DW_ROWS ? n : t0 + DW_ROWS;
        for (int32_t c0 = 0; c0 < ic; c0 += 4) {
            const int32_t rows = ic - c0 < 4 ? ic - c0 : 4;
            if (rows == 4) {
                float *w0 = dw + (size_t)c0 * oc, *w1 = w0 + oc, *w2 = w1 + oc, *w3 = w2 + oc;
                int32_t j = 0;
                for (; j < oc8; j += 8) {
                    v128_t a00 = wasm_v128_load(w0 + j), a01 = wasm_v128_load(w0 + j + 4);
                    v128_t a10 = wasm_v128_load(w1 + j), a11 = wasm_v128_load(w1 + j + 4);
                    v128_t a20 = wasm_v128_load(w2 + j), a21 = wasm_v128_load(w2 + j + 4);
                    v128_t a30 = wasm_v128_load(w3 + j), a31 = wasm_v128_load(w3 + j + 4);
                    const float *x = inp + (size_t)t0 * ic + c0;
                    const float *d = dout + (size_t)t0 * oc + j;
                    for (int32_t t = t0; t < t1; t++, x += ic, d += oc) {
                        const v128_t d0 = wasm_v128_load(d), d1 = wasm_v128_load(d + 4);
                        const v128_t s0 = wasm_v128_load32_splat(x), s1 = wasm_v128_load32_splat(x + 1);
                        const v128_t s2 = wasm_v128_load32_splat(x + 2), s3 = wasm_v128_load32_splat(x + 3);
                        a00 = wasm_f32x4_add(a00, wasm_f32x4_mul(s0, d0));
                        a01 = wasm_f32x4_add(a01, wasm_f32x4_mul(s0, d1));
                        a10 = wasm_f32x4_add(a10, wasm_f32x4_mul(s1, d0));
                        a11 = wasm_f32x4_add(a11, wasm_f32x4_mul(s1, d1));
                        a20 = wasm_f32x4_add(a20, wasm_f32x4_mul(s2, d0));
                        a21 = wasm_f32x4_add(a21, wasm_f32x4_mul(s2, d1));
                        a30 = wasm_f32x4_add(a30, wasm_f32x4_mul(s3, d0));
                        a31 = wasm_f32x4_add(a31, wasm_f32x4_mul(s3, d1));
                    }
                    wasm_v128_store(w0 + j, a00);
                    wasm_v128_store(w0 + j + 4, a01);
                    wasm_v128_store(w1 + j, a10);
                    wasm_v128_store(w1 + j + 4, a11);
                    wasm_v128_store(w2 + j, a20);
                    wasm_v128_store(w2 + j + 4, a21);
                    wasm_v128_store(w3 + j, a30);
                    wasm_v128_store(w3 + j + 4, a31);
                }
                if (j < oc4) {
                    v128_t a0 = wasm_v128_load(w0 + j), a1 = wasm_v128_load(w1 + j);
                    v128_t a2 = wasm_v128_load(w2 + j), a3 = wasm_v128_load(w3 + j);
                    const float *x = inp + (size_t)t0 * ic + c0;
                    const float *d = dout + (size_t)t0 * oc + j;
                    for (int32_t t = t0; t < t1; t++, x += ic, d += oc) {
                        const v128_t d0 = wasm_v128_load(d);
                        a0 = wasm_f32x4_add(a0, wasm_f32x4_mul(wasm_v128_load32_splat(x), d0));
                        a1 = wasm_f32x4_add(a1, wasm_f32x4_mul(wasm_v128_load32_splat(x + 1), d0));
                        a2 = wasm_f32x4_add(a2, wasm_f32x4_mul(wasm_v128_load32_splat(x + 2), d0));
                        a3 = wasm_f32x4_add(a3, wasm_f32x4_mul(wasm_v128_load32_splat(x + 3), d0));
                    }
                    wasm_v128_store(w0 + j, a0);
                    wasm_v128_store(w1 + j, a1);
                    wasm_v128_store(w2 + j, a2);
                    wasm_v128_store(w3 + j, a3);
                }
            } else {
                // the last 1 .. 3 rows of dw: one row at a time, 4 columns at a time
                for (int32_t r = 0; r < rows; r++) {
                    float *wr = dw + (size_t)(c0 + r) * oc;
                    for (int32_t j = 0; j < oc4; j += 4) {
                        v128_t a = wasm_v128_load(wr + j);
                        for (int32_t t = t0; t < t1; t++)
                            a = wasm_f32x4_add(a, wasm_f32x4_mul(wasm_v128_load32_splat(inp + (size_t)t * ic + c0 + r),
                                                                 wasm_v128_load(dout + (size_t)t * oc + j)));
                        wasm_v128_store(wr + j, a);
                    }
                }
            }
        }
    }
    for (int32_t t = 0; t < n; t++) {   // tail columns of dw, same order
        const float *d = dout + (size_t)t * oc;
        const float *x = inp + (size_t)t * ic;
        for (int32_t c = 0; c < ic; c++)
            for (int32_t o = oc4; o < oc; o++) dw[(size_t)c * oc + o] += x[c] * d[o];
    }
    if (dbias != NULL) {
        for (int32_t j = 0; j < oc4; j += 4) {
            v128_t acc = wasm_v128_load(dbias + j);
            for (int32_t t = 0; t < n; t++) acc = wasm_f32x4_add(acc, wasm_v128_load(dout + (size_t)t * oc + j));
            wasm_v128_store(dbias + j, acc);
        }
        for (int32_t t = 0; t < n; t++)
            for (int32_t o = oc4; o < oc; o++) dbias[o] += dout[(size_t)t * oc + o];
    }
}
#endif

// --- LayerNorm (Ba et al., 2016), ε = 1e-5 -------------------------------------------------------

#define LN_EPS 1e-5f

// The row sums (mean, variance, and the backward's two means) are taken as four partial sums
// (index mod 4) over the first c & ~3 entries, combined as (s0 + s1) + (s2 + s3), then the
// remaining entries in order: a SIMD accumulator's lanes are exactly those partial sums, so the
// SIMD twins (layernorm_*_simd) write the scalar loops' bits. Elementwise steps: same operations in the
// same order in both.

// Σ_i x[i]·y[i] (y NULL: Σ x[i]) in the order above.
static inline float sum4_scalar(const float *x, const float *y, int32_t n) {
    float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
    const int32_t n4 = n & ~3;
    for (int32_t i = 0; i < n4; i += 4) {
        s0 += y != NULL ? x[i] * y[i] : x[i];
        s1 += y != NULL ? x[i + 1] * y[i + 1] : x[i + 1];
        s2 += y != NULL ? x[i + 2] * y[i + 2] : x[i + 2];
        s3 += y != NULL ? x[i + 3] * y[i + 3] : x[i + 3];
    }
    float r = (s0 + s1) + (s2 + s3);
    for (int32_t i = n4; i < n; i++) r += y != NULL ? x[i] * y[i] : x[i];
    return r;
}

#if PE_HAVE_SIMD
static inline float lanes_sum(v128_t v) {
    return (wasm_f32x4_extract_lane(v, 0) + wasm_f32x4_extract_lane(v, 1)) +
           (wasm_f32x4_extract_lane(v, 2) + wasm_f32x4_extract_lane(v, 3));
}
#endif

// out[BT, C] = (x − mean)·rstd·w + b; mean, rstd: [BT] kept for the backward pass.
// xc: [C] scratch (x − mean of one row).
static void layernorm_forward_scalar(float *out, float *mean, float *rstd, const float *inp, const float *w,
                                     const float *b, float *xc, int32_t bt, int32_t c) {
    for (int32_t r = 0; r < bt; r++) {
        const float *x = inp + (size_t)r * c;
        float *o = out + (size_t)r * c;
        const float m = sum4_scalar(x, NULL, c) / (float)c;
        for (int32_t i = 0; i < c; i++) xc[i] = x[i] - m;
        const float var = sum4_scalar(xc, xc, c) / (float)c;
        const float s = 1.0f / sqrtf(var + LN_EPS);
        for (int32_t i = 0; i < c; i++) o[i] = xc[i] * s * w[i] + b[i];
        mean[r] = m;
        rstd[r] = s;
    }
}

// The backward's last step for the columns i in [from, c) of one row (all of them in the scalar
// reference, the tail in the SIMD twin): db += dout, dw += n̂·dout and
// dinp += (dout·w − mean(dout·w) − n̂·mean(dout·w·n̂))·rstd, from n̂ = norm and dout·w = dnorm.
static inline void layernorm_backward_cols(float *di, float *dw, float *db, const float *d, const float *norm,
                                           const float *dnorm, float dnorm_mean, float dnorm_norm_mean, float s,
                                           int32_t from, int32_t c) {
    for (int32_t i = from; i < c; i++) {
        db[i] += d[i];
        dw[i] += norm[i] * d[i];
        di[i] += (dnorm[i] - dnorm_mean - norm[i] * dnorm_norm_mean) * s;
    }
}

// dinp += ((dout·w) − mean(dout·w) − n̂·mean(dout·w·n̂))·rstd, dw += n̂·dout, db += dout.
// scratch: [2C] (n̂ and dout·w of one row).
static void layernorm_backward_scalar(float *dinp, float *dw, float *db, const float *dout, const float *inp,
                                      const float *w, const float *mean, const float *rstd, float *scratch, int32_t bt,
                                      int32_t c) {
    float *norm = scratch, *dnorm = scratch + c;
    for (int32_t r = 0; r < bt; r++) {
        const float *d = dout + (size_t)r * c, *x = inp + (size_t)r * c;
        float *di = dinp + (size_t)r * c;
        const float m = mean[r], s = rstd[r];
        for (int32_t i = 0; i < c; i++) {
            norm[i] = (x[i] - m) * s;
            dnorm[i] = w[i] * d[i];
        }
        const float dnorm_mean = sum4_scalar(dnorm, NULL, c) / (float)c;
        const float dnorm_norm_mean = sum4_scalar(dnorm, norm, c) / (float)c;
        layernorm_backward_cols(di, dw, db, d, norm, dnorm, dnorm_mean, dnorm_norm_mean, s, 0, c);
    }
}

#if PE_HAVE_SIMD
// layernorm_forward_scalar four columns at a time (the row sums' lanes are sum4_scalar's partial
// sums): the same bits.
static void layernorm_forward_simd(float *out, float *mean, float *rstd, const float *inp, const float *w,
                                   const float *b, float *xc, int32_t bt, int32_t c) {
    const int32_t c4 = c & ~3;
    for (int32_t r = 0; r < bt; r++) {
        const float *x = inp + (size_t)r * c;
        float *o = out + (size_t)r * c;
        v128_t acc = wasm_f32x4_splat(0.0f);
        for (int32_t i = 0; i < c4; i += 4) acc = wasm_f32x4_add(acc, wasm_v128_load(x + i));
        float m = lanes_sum(acc);
        for (int32_t i = c4; i < c; i++) m += x[i];
        m /= (float)c;
        const v128_t mv = wasm_f32x4_splat(m);
        acc = wasm_f32x4_splat(0.0f);
        for (int32_t i = 0; i < c4; i += 4) {
            const v128_t d = wasm_f32x4_sub(wasm_v128_load(x + i), mv);
            wasm_v128_store(xc + i, d);
            acc = wasm_f32x4_add(acc, wasm_f32x4_mul(d, d));
        }
        float var = lanes_sum(acc);
        for (int32_t i = c4; i < c; i++) {
            xc[i] = x[i] - m;
            var += xc[i] * xc[i];
        }
        var /= (float)c;
        const float s = 1.0f / sqrtf(var + LN_EPS);
        const v128_t sv = wasm_f32x4_splat(s);
        for (int32_t i = 0; i < c4; i += 4)
            wasm_v128_store(
                o + i, wasm_f32x4_add(wasm_f32x4_mul(wasm_f32x4_mul(wasm_v128_load(xc + i), sv), wasm_v128_load(w + i)),
                                      wasm_v128_load(b + i)));
        for (int32_t i = c4; i < c; i++) o[i] = xc[i] * s * w[i] + b[i];
        mean[r] = m;
        rstd[r] = s;
    }
}

// layernorm_backward_scalar four columns at a time: the same bits.
static void layernorm_backward_simd(float *dinp, float *dw, float *db, const float *dout, const float *inp,
                                    const float *w, const float *mean, const float *rstd, float *scratch, int32_t bt,
                                    int32_t c) {
    float *norm = scratch, *dnorm = scratch + c;
    const int32_t c4 = c & ~3;
    for (int32_t r = 0; r < bt; r++) {
        const float *d = dout + (size_t)r * c, *x = inp + (size_t)r * c;
        float *di = dinp + (size_t)r * c;
        const float m = mean[r], s = rstd[r];
        const v128_t mv = wasm_f32x4_splat(m), sv = wasm_f32x4_splat(s);
        v128_t a1 = wasm_f32x4_splat(0.0f), a2 = a1;
        for (int32_t i = 0; i < c4; i += 4) {
            const v128_t n = wasm_f32x4_mul(wasm_f32x4_sub(wasm_v128_load(x + i), mv), sv);
            const v128_t dn = wasm_f32x4_mul(wasm_v128_load(w + i), wasm_v128_load(d + i));
            wasm_v128_store(norm + i, n);
            wasm_v128_store(dnorm + i, dn);
            a1 = wasm_f32x4_add(a1, dn);
            a2 = wasm_f32x4_add(a2, wasm_f32x4_mul(dn, n));
        }
        float dnorm_mean = lanes_sum(a1), dnorm_norm_mean = lanes_sum(a2);
        for (int32_t i = c4; i < c; i++) {
            norm[i] = (x[i] - m) * s;
            dnorm[i] = w[i] * d[i];
            dnorm_mean += dnorm[i];
            dnorm_norm_mean += dnorm[i] * norm[i];
        }
        dnorm_mean /= (float)c;
        dnorm_norm_mean /= (float)c;
        const v128_t dmv = wasm_f32x4_splat(dnorm_mean), dnmv = wasm_f32x4_splat(dnorm_norm_mean);
        for (int32_t i = 0; i < c4; i += 4) {
            const v128_t dv = wasm_v128_load(d + i), n = wasm_v128_load(norm + i);
            wasm_v128_store(db + i, wasm_f32x4_add(wasm_v128_load(db + i), dv));
            wasm_v128_store(dw + i, wasm_f32x4_add(wasm_v128_load(dw + i), wasm_f32x4_mul(n, dv)));
            const v128_t t = wasm_f32x4_sub(wasm_f32x4_sub(wasm_v128_load(dnorm + i), dmv), wasm_f32x4_mul(n, dnmv));
            wasm_v128_store(di + i, wasm_f32x4_add(wasm_v128_load(di + i), wasm_f32x4_mul(t, sv)));
        }
        layernorm_backward_cols(di, dw, db, d, norm, dnorm, dnorm_mean, dnorm_norm_mean, s, c4, c);
    }
}
#endif

// --- embedding and the additive encodings ----------------------------------------------------------

// out[B, T, C] = wte[token] + additive[t] (sinusoidal) + wpe[min(t, rows − 1)] (learned).
static void encoder_forward(float *out, const int32_t *tokens, const float *wte, const float *wpe, int32_t wpe_rows,
                            const float *additive, int32_t b, int32_t t, int32_t c) {
    for (int32_t i = 0; i < b * t; i++) {
        const int32_t pos = i % t;
        const float *e = wte + (size_t)tokens[i] * c;
        float *o = out + (size_t)i * c;
        for (int32_t k = 0; k < c; k++) o[k] = e[k];
        if (additive != NULL)
            for (int32_t k = 0; k < c; k++) o[k] += additive[(size_t)pos * c + k];
        if (wpe != NULL) {
            const float *row = wpe + (size_t)(pos < wpe_rows ? pos : wpe_rows - 1) * c;
            for (int32_t k = 0; k < c; k++) o[k] += row[k];
        }
    }
}

static void encoder_backward(float *dwte, float *dwpe, int32_t wpe_rows, const float *dout, const int32_t *tokens,
                             int32_t b, int32_t t, int32_t c) {
    for (int32_t i = 0; i < b * t; i++) {
        const int32_t pos = i % t;
        const float *d = dout + (size_t)i * c;
        float *e = dwte + (size_t)tokens[i] * c;
        for (int32_t k = 0; k < c; k++) e[k] += d[k];
        if (dwpe != NULL) {
            float *row = dwpe + (size_t)(pos < wpe_rows ? pos : wpe_rows - 1) * c;
            for (int32_t k = 0; k < c; k++) row[k] += d[k];
        }
    }
}

// --- RoPE on q and k (half layout: pair (i, i + hs/2)) --------------------------------------------

// qkv[B, T, 3C]: q and k of every head rotated by angle t·inv_freq_i (cos, sin: [T, hs/2]);
// inverse 1 rotates by −angle (the backward pass: the transpose of a rotation is its inverse).
static void rope_qk(float *qkv, const float *cos_t, const float *sin_t, int32_t b, int32_t t, int32_t c, int32_t h,
                    int32_t inverse) {
    const int32_t hs = c / h, half = hs / 2;
    for (int32_t i = 0; i < b * t; i++) {
        const int32_t pos = i % t;
        const float *cr = cos_t + (size_t)pos * half, *sr = sin_t + (size_t)pos * half;
        for (int32_t part = 0; part < 2; part++)   // q, then k
            for (int32_t hh = 0; hh < h; hh++) {
                float *x = qkv + (size_t)i * 3 * c + part * c + hh * hs;
                for (int32_t k = 0; k < half; k++) {
                    const float a = x[k], bb = x[k + half];
                    const float co = cr[k], si = inverse ? -sr[k] : sr[k];
                    x[k] = a * co - bb * si;
                    x[k + half] = bb * co + a * si;
                }
            }
    }
}

// --- attention -----------------------------------------------------------------------------------
//
// The per-head vectors are short (hs = d_model/heads, 8 by default), so the inner products and
// updates go through small helpers with a scalar reference and a SIMD twin of identical bits:
//   dot   four partial sums (index mod 4) over the first n & ~3 entries, combined as
//         (s0 + s1) + (s2 + s3), then the remaining entries in order. The SIMD twin (dots_simd)
//         takes one query against four keys at once (the head's keys transposed first, so no
//         horizontal sums), each lane doing exactly the scalar's sums
//   axpy  y[i] += a·x[i]
// and the scale / bias / max, exp and normalisation of a row of scores go four at a time.

static inline float dot_scalar(const float *a, const float *b, int32_t n) {
    float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
    const int32_t n4 = n & ~3;
    for (int32_t i = 0; i < n4; i += 4) {
        s0 += a[i] * b[i];
        s1 += a[i + 1] * b[i + 1];
        s2 += a[i + 2] * b[i + 2];
        s3 += a[i + 3] * b[i + 3];
    }
    float r = (s0 + s1) + (s2 + s3);
    for (int32_t i = n4; i < n; i++) r += a[i] * b[i];
    return r;
}

static inline void axpy_scalar(float *y, float a, const float *x, int32_t n) {
    for (int32_t i = 0; i < n; i++) y[i] += a * x[i];
}

static void gather_scalar(float *y, const float *w, const float *rows, size_t stride, int32_t n, int32_t hs) {
    for (int32_t j = 0; j < n; j++) axpy_scalar(y, w[j], rows + (size_t)j * stride, hs);
}

// y[x] = 0 for x < hs; returns y (a head's output, for gather to add the weighted values into).
static inline float *zeroed(float *y, int32_t hs) {
    for (int32_t x = 0; x < hs; x++) y[x] = 0.0f;
    return y;
}

#if PE_HAVE_SIMD
// out[j] = dot_scalar(q, key j) for the keys j < n stored as the columns of kt [hs, ldt] (see
// transpose_head): four keys at a time, lane l holding key j + l, with dot_scalar's four partial
// sums (index mod 4) combined as (s0 + s1) + (s2 + s3), then the remaining indices in order; the
// last n % 4 keys by the same scalar sums down their columns. Same bits as dot_scalar.
static void dots_simd(float *out, const float *q, const float *kt, int32_t ldt, int32_t hs, int32_t n) {
    const int32_t hs4 = hs & ~3, n4 = n & ~3;
    for (int32_t j = 0; j < n4; j += 4) {
        v128_t s0 = wasm_f32x4_splat(0.0f), s1 = s0, s2 = s0, s3 = s0;
        const float *col = kt + j;
        for (int32_t x = 0; x < hs4; x += 4) {
            s0 = wasm_f32x4_add(s0, wasm_f32x4_mul(wasm_v128_load32_splat(q + x), wasm_v128_load(col + x * ldt)));
            s1 = wasm_f32x4_add(s1,
                                wasm_f32x4_mul(wasm_v128_load32_splat(q + x + 1), wasm_v128_load(col + (x + 1) * ldt)));
            s2 = wasm_f32x4_add(s2,
                                wasm_f32x4_mul(wasm_v128_load32_splat(q + x + 2), wasm_v128_load(col + (x + 2) * ldt)));
            s3 = wasm_f32x4_add(s3,
                                wasm_f32x4_mul(wasm_v128_load32_splat(q + x + 3), wasm_v128_load(col + (x + 3) * ldt)));
        }
        v128_t r = wasm_f32x4_add(wasm_f32x4_add(s0, s1), wasm_f32x4_add(s2, s3));
        for (int32_t x = hs4; x < hs; x++)
            r = wasm_f32x4_add(r, wasm_f32x4_mul(wasm_v128_load32_splat(q + x), wasm_v128_load(col + x * ldt)));
        wasm_v128_store(out + j, r);
    }
    for (int32_t j = n4; j < n; j++) {
        float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
        for (int32_t x = 0; x < hs4; x += 4) {
            s0 += q[x] * kt[x * ldt + j];
            s1 += q[x + 1] * kt[(x + 1) * ldt + j];
            s2 += q[x + 2] * kt[(x + 2) * ldt + j];
            s3 += q[x + 3] * kt[(x + 3) * ldt + j];
        }
        float r = (s0 + s1) + (s2 + s3);
        for (int32_t x = hs4; x < hs; x++) r += q[x] * kt[x * ldt + j];
        out[j] = r;
    }
}

// row[j] = row[j]·scale (+ brow[j]) for j < n; returns the largest (as the scalar loop's
// `if (s > max) max = s`: the same value for finite scores).
static float scale_bias_max_simd(float *row, const float *brow, float scale, int32_t n) {
    const v128_t sv = wasm_f32x4_splat(scale);
    v128_t mv = wasm_f32x4_splat(-INFINITY);
    const int32_t n4 = n & ~3;
    for (int32_t j = 0; j < n4; j += 4) {
        v128_t s = wasm_f32x4_mul(wasm_v128_load(row + j), sv);
        if (brow != NULL) s = wasm_f32x4_add(s, wasm_v128_load(brow + j));
        wasm_v128_store(row + j, s);
        mv = wasm_f32x4_pmax(mv, s);
    }
    float maxv = -INFINITY;
    const float lanes[4] = {wasm_f32x4_extract_lane(mv, 0), wasm_f32x4_extract_lane(mv, 1),
                            wasm_f32x4_extract_lane(mv, 2), wasm_f32x4_extract_lane(mv, 3)};
    for (int32_t l = 0; l < 4; l++)
        if (lanes[l] > maxv) maxv = lanes[l];
    for (int32_t j = n4; j < n; j++) {
        float s = row[j] * scale;
        if (brow != NULL) s += brow[j];
        row[j] = s;
        if (s > maxv) maxv = s;
    }
    return maxv;
}

// row[j] *= a for j < n (elementwise: the scalar loop's bits).
static inline void scale_simd(float *row, float a, int32_t n) {
    const v128_t av = wasm_f32x4_splat(a);
    const int32_t n4 = n & ~3;
    for (int32_t j = 0; j < n4; j += 4) wasm_v128_store(row + j, wasm_f32x4_mul(wasm_v128_load(row + j), av));
    for (int32_t j = n4; j < n; j++) row[j] *= a;
}

// e^(row[j] − maxv) for j < n in place, four at a time (the same bits as pe_attention_exp).
static inline void exp_shifted_simd(float *row, float maxv, int32_t n) {
    const v128_t m = wasm_f32x4_splat(maxv);
    const int32_t n4 = n & ~3;
    for (int32_t j = 0; j < n4; j += 4)
        wasm_v128_store(row + j, pe_attention_exp_x4(wasm_f32x4_sub(wasm_v128_load(row + j), m)));
    for (int32_t j = n4; j < n; j++) row[j] = pe_attention_exp(row[j] - maxv);
}
// y[x] += Σ_k w[k·wstride]·rows[k·stride + x] for x < hs, k = 0 .. n − 1 in order (n axpys, the
// partial sums of each chunk of y held in registers instead of going back to memory after every
// key). Per element of y the same sequence of float32 additions as n axpy_scalar calls in k order.
static void gather_col_simd(float *y, const float *w, size_t wstride, const float *rows, size_t stride, int32_t n,
                            int32_t hs) {
    int32_t x = 0;
    for (; x + 8 <= hs; x += 8) {
        v128_t a0 = wasm_v128_load(y + x), a1 = wasm_v128_load(y + x + 4);
        for (int32_t k = 0; k < n; k++) {
            const v128_t wk = wasm_v128_load32_splat(w + (size_t)k * wstride);
            const float *r = rows + (size_t)k * stride + x;
            a0 = wasm_f32x4_add(a0, wasm_f32x4_mul(wk, wasm_v128_load(r)));
            a1 = wasm_f32x4_add(a1, wasm_f32x4_mul(wk, wasm_v128_load(r + 4)));
        }
        wasm_v128_store(y + x, a0);
        wasm_v128_store(y + x + 4, a1);
    }
    for (; x + 4 <= hs; x += 4) {
        v128_t a0 = wasm_v128_load(y + x);
        for (int32_t k = 0; k < n; k++)
            a0 = wasm_f32x4_add(a0, wasm_f32x4_mul(wasm_v128_load32_splat(w + (size_t)k * wstride),
                                                   wasm_v128_load(rows + (size_t)k * stride + x)));
        wasm_v128_store(y + x, a0);
    }
    for (; x < hs; x++) {
        float a = y[x];
        for (int32_t k = 0; k < n; k++) a += w[(size_t)k * wstride] * rows[(size_t)k * stride + x];
        y[x] = a;
    }
}
// gather_col_simd with contiguous weights (a row of the attention weights).
static inline void gather_simd(float *y, const float *w, const float *rows, size_t stride, int32_t n, int32_t hs) {
    gather_col_simd(y, w, 1, rows, stride, n, hs);
}
#endif

// out[B, T, C] (heads side by side), att[B, H, T, T]: for query i, keys j < end (end = i + 1
// causal, nkeys[b] otherwise: the encoder's padded keys get score −∞ from every query, so weight
// 0): s_j = (q_i·k_j)·(1/√hs) + bias[h, j − i + T − 1]; w = softmax(s) (max subtracted,
// pe_attention_exp); entries past end are 0. kt: [hs, head_ldt(T)] scratch (the SIMD twin's).
static void attention_forward_scalar(float *out, float *att, float *kt, const float *qkv, const float *bias,
                                     const int32_t *nkeys, int32_t b, int32_t t, int32_t c, int32_t h, int32_t causal) {
    const int32_t hs = c / h, width = 2 * t - 1;
    const float scale = 1.0f / sqrtf((float)hs);
    (void)kt;
    for (int32_t bb = 0; bb < b; bb++)
        for (int32_t hh = 0; hh < h; hh++) {
            const float *keys = qkv + (size_t)bb * t * 3 * c + c + hh * hs;   // key j: keys + j·3C
            const float *values = keys + c;                                   // value j: values + j·3C
            for (int32_t i = 0; i < t; i++) {
                const float *q = qkv + ((size_t)bb * t + i) * 3 * c + hh * hs;
                float *row = att + (((size_t)bb * h + hh) * t + i) * t;
                const float *brow = bias != NULL ? bias + (size_t)hh * width + (t - 1 - i) : NULL;
                const int32_t end = causal ? i + 1 : nkeys[bb];
                float maxv = -INFINITY;
                for (int32_t j = 0; j < end; j++) {
                    float s = dot_scalar(q, keys + (size_t)j * 3 * c, hs) * scale;
                    if (brow != NULL) s += brow[j];
                    row[j] = s;
                    if (s > maxv) maxv = s;
                }
                for (int32_t j = 0; j < end; j++) row[j] = pe_attention_exp(row[j] - maxv);
                float sum = 0.0f;
                for (int32_t j = 0; j < end; j++) sum += row[j];
                const float inv = 1.0f / sum;
                for (int32_t j = 0; j < end; j++) row[j] *= inv;
                for (int32_t j = end; j < t; j++) row[j] = 0.0f;
                gather_scalar(zeroed(out + ((size_t)bb * t + i) * c + hh * hs, hs), row, values, (size_t)3 * c, end,
                              hs);
            }
        }
}

// dqkv[B, T, 3C] += the gradient through attention_forward; datt: [T, T] scratch (the scalar
// reference uses its first row), vt: [hs, head_ldt(T)] scratch (the SIMD twin's); dbias (t5):
// [H, 2T − 1] += dscore summed over the pairs of each r = j − i.
//
// The scalar reference goes query by query: for query i it adds w_ij·dout_i to dv_j and g_ij·q_i to
// dk_j for every key j. The SIMD twin first computes every query's g_i· (keeping the rows in datt),
// then goes key by key: dv_j += Σ_i w_ij·dout_i and dk_j += Σ_i g_ij·q_i over the queries i that see
// key j, in ascending i, in registers. Each element of dv and dk receives the same float32
// additions in the same order (ascending i) either way, so the bits agree.
static void attention_backward_scalar(float *dqkv, float *dbias, float *datt, float *vt, const float *dout,
                                      const float *qkv, const float *att, const int32_t *nkeys, int32_t b, int32_t t,
                                      int32_t c, int32_t h, int32_t causal) {
    const int32_t hs = c / h, width = 2 * t - 1;
    const float scale = 1.0f / sqrtf((float)hs);
    (void)vt;
    for (int32_t bb = 0; bb < b; bb++)
        for (int32_t hh = 0; hh < h; hh++) {
            const float *values = qkv + (size_t)bb * t * 3 * c + 2 * c + hh * hs;   // value j: values + j·3C
            const float *keys = qkv + (size_t)bb * t * 3 * c + c + hh * hs;
            for (int32_t i = 0; i < t; i++) {
                const float *row = att + (((size_t)bb * h + hh) * t + i) * t;
                const float *d = dout + ((size_t)bb * t + i) * c + hh * hs;
                const float *q = qkv + ((size_t)bb * t + i) * 3 * c + hh * hs;
                float *dq = dqkv + ((size_t)bb * t + i) * 3 * c + hh * hs;
                const int32_t end = causal ? i + 1 : nkeys[bb];
                // out_i = Σ_j w_j v_j: dw_j = dout_i·v_j, dv_j += w_j·dout_i
                for (int32_t j = 0; j < end; j++) datt[j] = dot_scalar(d, values + (size_t)j * 3 * c, hs);
                float dot = 0.0f;
                for (int32_t j = 0; j < end; j++) {
                    float *dv = dqkv + ((size_t)bb * t + j) * 3 * c + 2 * c + hh * hs;
                    axpy_scalar(dv, row[j], d, hs);
                    dot += row[j] * datt[j];
                }
                // softmax: ds_j = w_j·(dw_j − Σ_k w_k dw_k); score = scale·q·k + bias
                // g_j = scale·ds_j (kept in datt); dk_j += g_j·q_i, dq_i += Σ_j g_j·k_j
                for (int32_t j = 0; j < end; j++) {
                    const float ds = row[j] * (datt[j] - dot);
                    if (dbias != NULL) dbias[(size_t)hh * width + (j - i + t - 1)] += ds;
                    const float g = ds * scale;
                    datt[j] = g;
                    axpy_scalar(dqkv + ((size_t)bb * t + j) * 3 * c + c + hh * hs, g, q, hs);
                }
                gather_scalar(dq, datt, keys, (size_t)3 * c, end, hs);
            }
        }
}

#if PE_HAVE_SIMD
// kt[x·ldt + j] = rows[j·stride + x] for j < n, x < hs: one head's keys (or values) as columns,
// so the SIMD twins take the dot products of one query with four keys at once.
static void transpose_head(float *kt, int32_t ldt, const float *rows, size_t stride, int32_t hs, int32_t n) {
    for (int32_t j = 0; j < n; j++)
        for (int32_t x = 0; x < hs; x++) kt[(size_t)x * ldt + j] = rows[(size_t)j * stride + x];
}

// Row stride of transpose_head's buffer for T keys (16-byte aligned columns).
static inline int32_t head_ldt(int32_t t) { return (t + 3) & ~3; }

// attention_forward_scalar with the head's keys transposed into kt and the scores of a row four
// at a time: the same bits.
static void attention_forward_simd(float *out, float *att, float *kt, const float *qkv, const float *bias,
                                   const int32_t *nkeys, int32_t b, int32_t t, int32_t c, int32_t h, int32_t causal) {
    const int32_t hs = c / h, width = 2 * t - 1, ldt = head_ldt(t);
    const float scale = 1.0f / sqrtf((float)hs);
    for (int32_t bb = 0; bb < b; bb++)
        for (int32_t hh = 0; hh < h; hh++) {
            const float *keys = qkv + (size_t)bb * t * 3 * c + c + hh * hs;   // key j: keys + j·3C
            const float *values = keys + c;                                   // value j: values + j·3C
            transpose_head(kt, ldt, keys, (size_t)3 * c, hs, t);
            for (int32_t i = 0; i < t; i++) {
                const float *q = qkv + ((size_t)bb * t + i) * 3 * c + hh * hs;
                float *row = att + (((size_t)bb * h + hh) * t + i) * t;
                const float *brow = bias != NULL ? bias + (size_t)hh * width + (t - 1 - i) : NULL;
                const int32_t end = causal ? i + 1 : nkeys[bb];
                dots_simd(row, q, kt, ldt, hs, end);
                const float maxv = scale_bias_max_simd(row, brow, scale, end);
                exp_shifted_simd(row, maxv, end);
                float sum = 0.0f;
                for (int32_t j = 0; j < end; j++) sum += row[j];
                scale_simd(row, 1.0f / sum, end);
                for (int32_t j = end; j < t; j++) row[j] = 0.0f;
                gather_simd(zeroed(out + ((size_t)bb * t + i) * c + hh * hs, hs), row, values, (size_t)3 * c, end, hs);
            }
        }
}

// attention_backward_scalar key by key (see above): the same bits.
static void attention_backward_simd(float *dqkv, float *dbias, float *datt, float *vt, const float *dout,
                                    const float *qkv, const float *att, const int32_t *nkeys, int32_t b, int32_t t,
                                    int32_t c, int32_t h, int32_t causal) {
    const int32_t hs = c / h, width = 2 * t - 1, ldt = head_ldt(t);
    const float scale = 1.0f / sqrtf((float)hs);
    for (int32_t bb = 0; bb < b; bb++)
        for (int32_t hh = 0; hh < h; hh++) {
            const float *values = qkv + (size_t)bb * t * 3 * c + 2 * c + hh * hs;   // value j: values + j·3C
            const float *keys = qkv + (size_t)bb * t * 3 * c + c + hh * hs;
            transpose_head(vt, ldt, values, (size_t)3 * c, hs, t);
            for (int32_t i = 0; i < t; i++) {
                const float *row = att + (((size_t)bb * h + hh) * t + i) * t;
                const float *d = dout + ((size_t)bb * t + i) * c + hh * hs;
                float *g = datt + (size_t)i * t;
                const int32_t end = causal ? i + 1 : nkeys[bb];
                dots_simd(g, d, vt, ldt, hs, end);   // dw_j = dout_i·v_j
                float dot = 0.0f;
                for (int32_t j = 0; j < end; j++) dot += row[j] * g[j];
                for (int32_t j = 0; j < end; j++) {
                    const float ds = row[j] * (g[j] - dot);
                    if (dbias != NULL) dbias[(size_t)hh * width + (j - i + t - 1)] += ds;
                    g[j] = ds * scale;
                }
                gather_simd(dqkv + ((size_t)bb * t + i) * 3 * c + hh * hs, g, keys, (size_t)3 * c, end, hs);
            }
            // a masked (padded) key j ≥ nkeys[b] is seen by no query: its dk, dv stay 0
            for (int32_t j = 0; j < (causal ? t : nkeys[bb]); j++) {
                const int32_t first = causal ? j : 0;   // the queries that see key j: i ≥ first
                float *dk = dqkv + ((size_t)bb * t + j) * 3 * c + c + hh * hs;
                const float *w = att + (((size_t)bb * h + hh) * t + first) * t + j;
                gather_col_simd(dk + c, w, (size_t)t, dout + ((size_t)bb * t + first) * c + hh * hs, (size_t)c,
                                t - first, hs);
                gather_col_simd(dk, datt + (size_t)first * t + j, (size_t)t,
                                qkv + ((size_t)bb * t + first) * 3 * c + hh * hs, (size_t)3 * c, t - first, hs);
            }
        }
}
#endif

// --- the inner loops, as sets ----------------------------------------------------------------------

static const pe_arena_ops OPS_SCALAR = {
    matmul_forward_scalar,    matmul_backward_scalar,    gelu_forward_scalar,
    gelu_backward_scalar,     layernorm_forward_scalar,  layernorm_backward_scalar,
    attention_forward_scalar, attention_backward_scalar, pe_arena_adamw_scalar,
};
#if PE_HAVE_SIMD
static const pe_arena_ops OPS_SIMD = {
    matmul_forward_simd,    matmul_backward_simd,    gelu_forward_simd,
    gelu_backward_simd,     layernorm_forward_simd,  layernorm_backward_simd,
    attention_forward_simd, attention_backward_simd, pe_arena_adamw_simd,
};
#endif

const pe_arena_ops *pe_arena_ops_scalar(void) { return &OPS_SCALAR; }
const pe_arena_ops *pe_arena_ops_default(void) {
#if PE_HAVE_SIMD
    return &OPS_SIMD;
#else
    return &OPS_SCALAR;
#endif
}

// --- cross-entropy -------------------------------------------------------------------------------

// probs[BT, V]: logits in, softmax out (every row); losses[BT] = −ln p[target] (0 without a
// target). Returns the mean over the rows with a target.
static float crossentropy_forward(float *probs, float *losses, const int32_t *targets, int32_t bt, int32_t v) {
    double total = 0.0;
    int32_t count = 0;
    for (int32_t r = 0; r < bt; r++) {
        float *p = probs + (size_t)r * v;
        float maxv = p[0];
        for (int32_t k = 1; k < v; k++)
            if (p[k] > maxv) maxv = p[k];
        const float shifted = targets[r] >= 0 ? p[targets[r]] - maxv : 0.0f;
        float sum = 0.0f;
        for (int32_t k = 0; k < v; k++) {
            p[k] = pe_attention_exp(p[k] - maxv);
            sum += p[k];
        }
        const float inv = 1.0f / sum;
        for (int32_t k = 0; k < v; k++) p[k] *= inv;
        losses[r] = 0.0f;
        if (targets[r] >= 0) {
            // −ln p = ln Σe − (logit − max): from the logits, so a tiny p keeps its digits
            losses[r] = logf(sum) - shifted;
            total += (double)losses[r];
            count++;
        }
    }
    return count > 0 ? (float)(total / count) : 0.0f;
}

// dlogits[BT, V] = (p − onehot(target))/count for rows with a target, 0 elsewhere.
static void crossentropy_backward(float *dlogits, const float *probs, const int32_t *targets, int32_t bt, int32_t v) {
    int32_t count = 0;
    for (int32_t r = 0; r < bt; r++) count += targets[r] >= 0;
    const float inv = count > 0 ? 1.0f / (float)count : 0.0f;
    for (int32_t r = 0; r < bt; r++) {
        float *d = dlogits + (size_t)r * v;
        const float *p = probs + (size_t)r * v;
        if (targets[r] < 0) {
            for (int32_t k = 0; k < v; k++) d[k] = 0.0f;
            continue;
        }
        for (int32_t k = 0; k < v; k++) d[k] = (p[k] - (k == targets[r] ? 1.0f : 0.0f)) * inv;
    }
}

// --- the whole model -----------------------------------------------------------------------------

static int64_t take(float **slot, float *base, int64_t *at, int64_t n) {
    if (base != NULL) *slot = base + *at;
    *at += (n + 3) & ~(int64_t)3;   // 16-byte aligned
    return *at;
}

int64_t pe_arena_acts_layout(pe_arena_acts *a, float *base, int32_t L, int32_t C, int32_t H, int32_t V, int32_t B,
                             int32_t T, int32_t with_grads) {
    pe_arena_acts dummy;
    if (a == NULL) a = &dummy;
    memset(a, 0, sizeof *a);
    a->B = B;
    a->T = T;
    const int64_t bt = (int64_t)B * T, btc = bt * C;
    int64_t at = 0;
    float *slot;
    take(&slot, base, &at, bt);
    a->tokens = base != NULL ? (int32_t *)(void *)slot : NULL;
    take(&slot, base, &at, bt);
    a->targets = base != NULL ? (int32_t *)(void *)slot : NULL;
    take(&slot, base, &at, B);
    a->keys = base != NULL ? (int32_t *)(void *)slot : NULL;
    take(&a->encoded, base, &at, btc);
    const int64_t head_t = (int64_t)(C / H) * ((T + 3) & ~3);
    take(&a->kt, base, &at, head_t > 2 * (int64_t)C ? head_t : 2 * (int64_t)C);
    for (int32_t l = 0; l < L; l++) {
        take(&a->ln1[l], base, &at, btc);
        take(&a->ln1_mean[l], base, &at, bt);
        take(&a->ln1_rstd[l], base, &at, bt);
        take(&a->qkv[l], base, &at, 3 * btc);
        take(&a->att[l], base, &at, bt * H * T);
        take(&a->atty[l], base, &at, btc);
        take(&a->res2[l], base, &at, btc);
        take(&a->ln2[l], base, &at, btc);
        take(&a->ln2_mean[l], base, &at, bt);
        take(&a->ln2_rstd[l], base, &at, bt);
        take(&a->fch[l], base, &at, 4 * btc);
        take(&a->fch_gelu[l], base, &at, 4 * btc);
        take(&a->res3[l], base, &at, btc);
    }
    take(&a->lnf, base, &at, btc);
    take(&a->lnf_mean, base, &at, bt);
    take(&a->lnf_rstd, base, &at, bt);
    take(&a->probs, base, &at, bt * V);
    take(&a->losses, base, &at, bt);
    if (with_grads) {
        const int64_t widest = (int64_t)C * (V > 4 * C ? V : 4 * C);   // IC·OC of any linear
        take(&a->dres, base, &at, btc);
        take(&a->dln, base, &at, btc);
        take(&a->dqkv, base, &at, 3 * btc);
        take(&a->datt, base, &at, (int64_t)T * T);
        take(&a->datty, base, &at, btc);
        take(&a->dfch, base, &at, 4 * btc);
        take(&a->dfch_gelu, base, &at, 4 * btc);
        take(&a->dlogits, base, &at, bt * V);
        take(&a->scratch, base, &at, widest);
    }
    if (base == NULL) memset(a, 0, sizeof *a);
    return at;
}

// The bias table of this forward pass: t5's from the parameters (T[bucket(r), h]); alibi's is
// constant and already in m->bias.
static void t5_bias(float *bias, const float *table, const int32_t *bucket, int32_t h, int32_t t) {
    const int32_t width = 2 * t - 1;
    for (int32_t hh = 0; hh < h; hh++)
        for (int32_t r = 0; r < width; r++) bias[(size_t)hh * width + r] = table[bucket[r] * h + hh];
}

float pe_arena_forward(const pe_arena_model *m, const pe_arena_params *p, pe_arena_acts *a, const pe_arena_ops *ops) {
    const int32_t B = a->B, T = a->T, C = m->C, H = m->H, V = m->V, L = m->L;
    const int32_t BT = B * T;
    const int32_t learned = m->encoding == PE_ARENA_LEARNED;
    encoder_forward(a->encoded, a->tokens, p->wte, learned ? p->wpe : NULL, m->wpe_rows,
                    m->encoding == PE_ARENA_SINUSOIDAL ? m->additive : NULL, B, T, C);
    if (m->encoding == PE_ARENA_T5) t5_bias(m->bias, p->t5, m->bucket, H, T);
    const float *bias = m->encoding == PE_ARENA_T5 || m->encoding == PE_ARENA_ALIBI ? m->bias : NULL;
    for (int32_t l = 0; l < L; l++) {
        const pe_arena_layer *w = &p->layer[l];
        const float *residual = l == 0 ? a->encoded : a->res3[l - 1];
        ops->layernorm_forward(a->ln1[l], a->ln1_mean[l], a->ln1_rstd[l], residual, w->ln1w, w->ln1b, a->kt, BT, C);
        ops->matmul_forward(a->qkv[l], a->ln1[l], w->qkvw, w->qkvb, BT, C, 3 * C);
        if (m->encoding == PE_ARENA_ROPE) rope_qk(a->qkv[l], m->rope_cos, m->rope_sin, B, T, C, H, 0);
        ops->attention_forward(a->atty[l], a->att[l], a->kt, a->qkv[l], bias, a->keys, B, T, C, H, m->causal);
        ops->matmul_forward(a->res2[l], a->atty[l], w->attprojw, w->attprojb, BT, C, C);
        for (int64_t i = 0; i < (int64_t)BT * C; i++) a->res2[l][i] += residual[i];
        ops->layernorm_forward(a->ln2[l], a->ln2_mean[l], a->ln2_rstd[l], a->res2[l], w->ln2w, w->ln2b, a->kt, BT, C);
        ops->matmul_forward(a->fch[l], a->ln2[l], w->fcw, w->fcb, BT, C, 4 * C);
        ops->gelu_forward(a->fch_gelu[l], a->fch[l], a->fch[l], BT * 4 * C);   // fch ← gelu'
        ops->matmul_forward(a->res3[l], a->fch_gelu[l], w->fcprojw, w->fcprojb, BT, 4 * C, C);
        for (int64_t i = 0; i < (int64_t)BT * C; i++) a->res3[l][i] += a->res2[l][i];
    }
    ops->layernorm_forward(a->lnf, a->lnf_mean, a->lnf_rstd, a->res3[L - 1], p->lnfw, p->lnfb, a->kt, BT, C);
    ops->matmul_forward(a->probs, a->lnf, p->headw, p->headb, BT, C, V);
    return crossentropy_forward(a->probs, a->losses, a->targets, BT, V);
}

void pe_arena_backward(const pe_arena_model *m, const pe_arena_params *p, const pe_arena_params *g, pe_arena_acts *a,
                       const pe_arena_ops *ops) {
    const int32_t B = a->B, T = a->T, C = m->C, H = m->H, V = m->V, L = m->L;
    const int32_t BT = B * T;
    const size_t btc = (size_t)BT * C;
    crossentropy_backward(a->dlogits, a->probs, a->targets, BT, V);
    memset(a->dln, 0, sizeof(float) * btc);
    memset(a->dres, 0, sizeof(float) * btc);
    ops->matmul_backward(a->dln, g->headw, g->headb, a->dlogits, a->lnf, p->headw, a->scratch, BT, C, V);
    ops->layernorm_backward(a->dres, g->lnfw, g->lnfb, a->dln, a->res3[L - 1], p->lnfw, a->lnf_mean, a->lnf_rstd, a->kt,
                            BT, C);
    if (m->encoding == PE_ARENA_T5) memset(m->dbias, 0, sizeof(float) * (size_t)H * (2 * T - 1));
    for (int32_t l = L - 1; l >= 0; l--) {
        const pe_arena_layer *w = &p->layer[l], *gw = &g->layer[l];
        const float *residual = l == 0 ? a->encoded : a->res3[l - 1];
        // dres = d res3 → MLP block
        memset(a->dfch_gelu, 0, sizeof(float) * 4 * btc);
        ops->matmul_backward(a->dfch_gelu, gw->fcprojw, gw->fcprojb, a->dres, a->fch_gelu[l], w->fcprojw, a->scratch,
                             BT, 4 * C, C);
        memset(a->dfch, 0, sizeof(float) * 4 * btc);
        ops->gelu_backward(a->dfch, a->fch[l], a->dfch_gelu, BT * 4 * C);   // fch holds gelu'
        memset(a->dln, 0, sizeof(float) * btc);
        ops->matmul_backward(a->dln, gw->fcw, gw->fcb, a->dfch, a->ln2[l], w->fcw, a->scratch, BT, C, 4 * C);
        ops->layernorm_backward(a->dres, gw->ln2w, gw->ln2b, a->dln, a->res2[l], w->ln2w, a->ln2_mean[l],
                                a->ln2_rstd[l], a->kt, BT, C);
        // dres = d res2 → attention block
        memset(a->datty, 0, sizeof(float) * btc);
        ops->matmul_backward(a->datty, gw->attprojw, gw->attprojb, a->dres, a->atty[l], w->attprojw, a->scratch, BT, C,
                             C);
        memset(a->dqkv, 0, sizeof(float) * 3 * btc);
        ops->attention_backward(a->dqkv, m->encoding == PE_ARENA_T5 ? m->dbias : NULL, a->datt, a->kt, a->datty,
                                a->qkv[l], a->att[l], a->keys, B, T, C, H, m->causal);
        if (m->encoding == PE_ARENA_ROPE) rope_qk(a->dqkv, m->rope_cos, m->rope_sin, B, T, C, H, 1);
        memset(a->dln, 0, sizeof(float) * btc);
        ops->matmul_backward(a->dln, gw->qkvw, gw->qkvb, a->dqkv, a->ln1[l], w->qkvw, a->scratch, BT, C, 3 * C);
        ops->layernorm_backward(a->dres, gw->ln1w, gw->ln1b, a->dln, residual, w->ln1w, a->ln1_mean[l], a->ln1_rstd[l],
                                a->kt, BT, C);
        // dres = d residual (the layer's input)
    }
    encoder_backward(g->wte, m->encoding == PE_ARENA_LEARNED ? g->wpe : NULL, m->wpe_rows, a->dres, a->tokens, B, T, C);
    if (m->encoding == PE_ARENA_T5) {
        const int32_t width = 2 * T - 1;
        for (int32_t hh = 0; hh < H; hh++)
            for (int32_t r = 0; r < width; r++) g->t5[m->bucket[r] * H + hh] += m->dbias[(size_t)hh * width + r];
    }
}

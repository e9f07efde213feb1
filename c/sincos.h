// Internal: sin and cos of p·ω, accurate for every 32-bit position p.
//
// Evaluating sin(p·ω) in float32 the obvious way loses the angle: at p = 10^6 a float32 angle is
// off by ~0.03 rad. Here the angle is kept as a *phase in turns*, a 64-bit fixed-point fraction:
//
//   T = round(ω / 2π · 2^64)            (per frequency, computed once in float64)
//   phase(p) = p·T mod 2^64             (exact integer arithmetic; wrap-around = whole turns)
//
// Only the top 32 bits of the phase are needed (resolution 2^-32 turn = 1.5e-9 rad):
//   hi = p·T_hi + floor(p·T_lo / 2^32)  (mod 2^32)
// The top two bits (rounded) pick the quadrant q, the low 30 bits (as a signed residual) give
// y ∈ [-π/4, π/4), and short minimax polynomials (scripts/fit_sincos.py) give sin y and cos y:
//   sin(qπ/2 + y), cos(qπ/2 + y) = (±sin y | ±cos y) by quadrant.
// Worst case vs float64 is about 1e-7 for any p < 2^32 (the conversion of the residual to float
// and the final rounding dominate).
//
// The scalar functions are the reference: the SIMD ones do the same operations in the same
// order, lane by lane, so both builds give bit-identical tables (tested natively).
#ifndef PE_SINCOS_H
#define PE_SINCOS_H

#include <math.h>
#include <stdint.h>

#include "pe_simd.h"

// Minimax coefficients on [-π/4, π/4] from scripts/fit_sincos.py.
#define PE_SIN0 -1.666665077e-01f
#define PE_SIN1 8.331978694e-03f
#define PE_SIN2 -1.949563593e-04f
#define PE_COS0 -5.000000000e-01f
#define PE_COS1 4.166662320e-02f
#define PE_COS2 -1.388676348e-03f
#define PE_COS3 2.439045056e-05f
// 2π / 2^34: radians per unit of (phase << 2), the residual scaled by 4 (exact in float).
#define PE_RAD_PER_PHASE4 3.6572951981678992e-10f

// A frequency as a 64-bit fixed-point phase increment per position.
typedef struct {
    uint32_t hi, lo;
} pe_turns;

// ω in radians per position → turns per position in 64-bit fixed point.
// t = ω/2π is formed in double-double (2π split into two doubles, the remainder taken with an
// exact fma), so T is right to ~2^-64 turn and positions up to 2^31 keep the ω they were given.
static inline pe_turns pe_turns_from_omega(double omega) {
    const double two_pi_hi = 6.283185307179586;
    const double two_pi_lo = 2.4492935982947064e-16;
    const double two_32 = 4294967296.0;
    double t_hi = omega / two_pi_hi;
    double remainder = fma(-t_hi, two_pi_hi, omega) - t_hi * two_pi_lo;
    double t_lo = remainder / two_pi_hi;               // t = t_hi + t_lo, |t_lo| <= ulp(t_hi)

    t_hi -= floor(t_hi);                               // whole turns per step do not matter
    double scaled = t_hi * two_32;                     // exact: power-of-two scaling
    double hi = floor(scaled);
    double lo = floor((scaled - hi) * two_32 + t_lo * (two_32 * two_32) + 0.5);
    if (lo < 0.0) {                                    // t_lo borrowed from the high word
        lo += two_32;
        hi -= 1.0;
    } else if (lo >= two_32) {                         // rounding carried into the high word
        lo -= two_32;
        hi += 1.0;
    }
    if (hi < 0.0) hi += two_32;                        // phase wraps modulo one turn
    if (hi >= two_32) hi -= two_32;
    pe_turns r = {(uint32_t)hi, (uint32_t)lo};
    return r;
}

// Top 32 bits of p·T mod 2^64.
static inline uint32_t pe_phase_hi(uint32_t p, pe_turns t) {
    uint64_t low_product = (uint64_t)p * t.lo;
    return p * t.hi + (uint32_t)(low_product >> 32);
}

static inline float pe_sin_poly(float y, float y2) {
    return y + y * y2 * (PE_SIN0 + y2 * (PE_SIN1 + y2 * PE_SIN2));
}

static inline float pe_cos_poly(float y2) {
    return 1.0f + y2 * (PE_COS0 + y2 * (PE_COS1 + y2 * (PE_COS2 + y2 * PE_COS3)));
}

// Scalar reference: sin and cos of the angle whose phase (top 32 bits) is `phase`.
static inline void pe_sincos_phase_scalar(uint32_t phase, float *sin_out, float *cos_out) {
    int32_t residual4 = (int32_t)(phase << 2);              // signed low 30 bits, times 4
    uint32_t quadrant = (phase + (1u << 29)) >> 30;         // rounded top 2 bits
    float y = (float)residual4 * PE_RAD_PER_PHASE4;
    float y2 = y * y;
    float s = pe_sin_poly(y, y2);
    float c = pe_cos_poly(y2);
    if (quadrant & 1u) {
        float swap = s;
        s = c;
        c = swap;
    }
    union { float f; uint32_t u; } su = {s}, cu = {c};
    su.u ^= (quadrant << 30) & 0x80000000u;              // sin negated in quadrants 2, 3
    cu.u ^= ((quadrant + 1u) << 30) & 0x80000000u;       // cos negated in quadrants 1, 2
    *sin_out = su.f;
    *cos_out = cu.f;
}

#if PE_HAVE_SIMD
// Advances four 64-bit phases by one position: an exact add with carry. The low words are kept
// biased by 2^31 (lo ^ 0x80000000) and t_lo_biased = t_lo ^ 0x80000000, so the unsigned
// "did it wrap" test becomes one signed compare: lo + t wrapped ⇔ biased(lo + t) <s biased(t).
static inline void pe_phase_step_x4(v128_t *hi, v128_t *lo_biased, v128_t t_hi, v128_t t_lo,
                                    v128_t t_lo_biased) {
    *lo_biased = wasm_i32x4_add(*lo_biased, t_lo);
    v128_t carry = wasm_i32x4_lt(*lo_biased, t_lo_biased);   // all ones where the low word wrapped
    *hi = wasm_i32x4_sub(wasm_i32x4_add(*hi, t_hi), carry);
}

// SIMD twin of pe_sincos_phase_scalar.
static inline void pe_sincos_phase_x4(v128_t phase, v128_t *sin_out, v128_t *cos_out) {
    v128_t y = wasm_f32x4_mul(wasm_f32x4_convert_i32x4(wasm_i32x4_shl(phase, 2)),
                              wasm_f32x4_splat(PE_RAD_PER_PHASE4));
    v128_t y2 = wasm_f32x4_mul(y, y);

    v128_t sp = wasm_f32x4_add(wasm_f32x4_splat(PE_SIN1), wasm_f32x4_mul(y2, wasm_f32x4_splat(PE_SIN2)));
    sp = wasm_f32x4_add(wasm_f32x4_splat(PE_SIN0), wasm_f32x4_mul(y2, sp));
    v128_t s = wasm_f32x4_add(y, wasm_f32x4_mul(wasm_f32x4_mul(y, y2), sp));

    v128_t cp = wasm_f32x4_add(wasm_f32x4_splat(PE_COS2), wasm_f32x4_mul(y2, wasm_f32x4_splat(PE_COS3)));
    cp = wasm_f32x4_add(wasm_f32x4_splat(PE_COS1), wasm_f32x4_mul(y2, cp));
    cp = wasm_f32x4_add(wasm_f32x4_splat(PE_COS0), wasm_f32x4_mul(y2, cp));
    v128_t c = wasm_f32x4_add(wasm_f32x4_splat(1.0f), wasm_f32x4_mul(y2, cp));

    // With r = phase + 2^29, the quadrant q is r's top two bits. Swap sin and cos when q is odd
    // (bit 30 of r); negate sin when q & 2 (bit 31 of r) and cos when (q + 1) & 2, which is
    // bit 31 xor bit 30.
    v128_t rounded = wasm_i32x4_add(phase, wasm_i32x4_splat(1 << 29));
    v128_t bit30_up = wasm_i32x4_shl(rounded, 1);                 // q's bit 0 in bit 31
    v128_t odd = wasm_i32x4_shr(bit30_up, 31);                    // all ones when q is odd
    v128_t sign_bit = wasm_i32x4_splat((int32_t)0x80000000u);
    v128_t s_sign = wasm_v128_and(rounded, sign_bit);
    v128_t c_sign = wasm_v128_and(wasm_v128_xor(rounded, bit30_up), sign_bit);
    v128_t swap = wasm_v128_and(wasm_v128_xor(s, c), odd);        // s ^ c where q is odd, else 0
    *sin_out = wasm_v128_xor(wasm_v128_xor(s, swap), s_sign);
    *cos_out = wasm_v128_xor(wasm_v128_xor(c, swap), c_sign);
}
#endif

#endif // PE_SINCOS_H

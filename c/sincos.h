// Internal: sin and cos of p·ω for runs of consecutive positions, accurate for every 32-bit p.
//
// Evaluating sin(p·ω) in float32 the obvious way loses the angle: at p = 10^6 a float32 angle is
// off by ~0.03 rad. Here it is done in two steps:
//
// 1. An exact start. ω/2π is held as a 64-bit fixed-point fraction of a turn,
//      T = round(ω / 2π · 2^64)
//    (formed in double-double so no bit of the float64 ω is lost), and the phase of the first
//    position is the exact integer product p·T mod 2^64 (wrap-around = whole turns). Its top two
//    bits (rounded) give the quadrant q, the rest a residual y ∈ [-π/4, π/4] in float64, and
//    sin(qπ/2 + y), cos(qπ/2 + y) follow from libm's sin y, cos y by swapping and negating.
// 2. Rotation down the rows in float64:
//      sin((p+1)ω) = sin(pω)·cos ω + cos(pω)·sin ω
//      cos((p+1)ω) = cos(pω)·cos ω − sin(pω)·sin ω
//    Each step adds a few float64 roundings (~1e-16), so even 2^16 steps stay near 1e-11 before
//    the kernel re-anchors exactly; the float32 output is then within half an ulp (≤ 3e-8) of
//    the true value plus that drift.
//
// The scalar functions are the reference: the SIMD ones do the same float64 operations in the
// same order, two pairs per vector, so both builds give bit-identical tables (tested natively).
#ifndef PE_SINCOS_H
#define PE_SINCOS_H

#include <math.h>
#include <stdint.h>

#include "pe_simd.h"

// A frequency as a 64-bit fixed-point phase increment per position (turns · 2^64).
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
    double t_lo = remainder / two_pi_hi;   // t = t_hi + t_lo, |t_lo| <= ulp(t_hi)

    t_hi -= floor(t_hi);   // whole turns per step do not matter
    // A huge ω (rope's inv_freq / factor with a tiny factor; found by tests/fuzz) makes t_lo whole
    // turns too: only its fraction counts, taken exactly by fmod. Ordinary ω never get here.
    if (!(fabs(t_lo) < 1.0)) t_lo = fmod(t_lo, 1.0);
    double scaled = t_hi * two_32;   // exact: power-of-two scaling
    double hi = floor(scaled);
    double lo = floor((scaled - hi) * two_32 + t_lo * (two_32 * two_32) + 0.5);
    // Carry (or borrow) whole 2^-32 turns from lo into hi. For ordinary ω, lo is in
    // [-2^32, 2^33) and the carry is -1, 0 or 1; for ω past ~2^24 rad, |t_lo·2^64| may exceed
    // 2^32 many times over, and converting such a lo to uint32_t was undefined behaviour.
    // Every step is exact: lo and hi are integer-valued and every result is representable.
    double carry = floor(lo / two_32);
    lo -= carry * two_32;
    hi += carry;
    hi -= floor(hi / two_32) * two_32;   // phase wraps modulo one turn
    pe_turns r = {(uint32_t)hi, (uint32_t)lo};
    return r;
}

// sin and cos of p·ω (ω given as turns) in float64, exact up to float64 rounding for any p.
static inline void pe_sincos_at(uint32_t p, pe_turns t, double *sin_out, double *cos_out) {
    uint64_t turns = ((uint64_t)t.hi << 32) | t.lo;
    uint64_t phase = (uint64_t)p * turns;   // mod 2^64: whole turns drop out
    uint32_t hi = (uint32_t)(phase >> 32), lo = (uint32_t)phase;
    uint32_t quadrant = (hi + (1u << 29)) >> 30;   // nearest quarter turn
    // Residual in turns, |r| <= 1/8: the signed low 30 bits of hi, then the low word.
    double residual = (double)(int32_t)(hi << 2) * 0x1p-34 + (double)lo * 0x1p-64;
    double y = residual * 6.283185307179586476925286766559;
    double s = sin(y), c = cos(y);
    // clang-format off
    switch (quadrant & 3u) {
    case 0: *sin_out = s; *cos_out = c; break;
    case 1: *sin_out = c; *cos_out = -s; break;
    case 2: *sin_out = -s; *cos_out = -c; break;
    default: *sin_out = -c; *cos_out = s; break;
    }
    // clang-format on
}

// One rotation step of a (sin, cos) pair by the angle whose (sin, cos) is (ws, wc).
static inline void pe_rotate_scalar(double *s, double *c, double ws, double wc) {
    double s_next = *s * wc + *c * ws;
    double c_next = *c * wc - *s * ws;
    *s = s_next;
    *c = c_next;
}

#if PE_HAVE_SIMD
// SIMD twin of pe_rotate_scalar for two pairs (lanes are pairs).
static inline void pe_rotate_x2(v128_t *s, v128_t *c, v128_t ws, v128_t wc) {
    v128_t s_next = wasm_f64x2_add(wasm_f64x2_mul(*s, wc), wasm_f64x2_mul(*c, ws));
    v128_t c_next = wasm_f64x2_sub(wasm_f64x2_mul(*c, wc), wasm_f64x2_mul(*s, ws));
    *s = s_next;
    *c = c_next;
}
#endif

#endif   // PE_SINCOS_H

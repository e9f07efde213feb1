// Precision lab (kind `rope_precision`, docs/reference.md): the angle error of a RoPE
// recipe whose inverse frequencies, positions, phases and cos/sin tables are each held in a
// number format (float64, float32, bfloat16 or float16). The steps, as docs/reference.md defines them:
//   f = round(ω_i, inv_freq_dtype) (or, for PE_RECIPE_FLOAT32_POW, f as frameworks form it:
//       float32 pow, then a float32 divide; pe_inv_freq_float32_pow); q = round(p, position_dtype);
//   φ = round(q·f, phase_dtype), the product exact, rounded once;
//   c, s = round(cos φ, table_dtype), round(sin φ, table_dtype), of the exact φ;
//   error = |atan2(s, c) − p·ω_i| reduced modulo 2π into [0, π] (π when c or s is not finite).
//
// Rounding (round-to-nearest-even into a format with p significant bits, normal exponents
// [emin, emax], subnormals below): with a = |x| clamped to 2^(emax+1) and e the exponent of
// max(a, 2^emin), the quantum is 2^(e−p+1) (the subnormal quantum 2^(emin−p+1) below 2^emin), and
//   C = 2^(e−p+53),  r = (a + C) − C
// rounds a to a multiple of the quantum, ties to even: a + C lies in [C, 2C], where float64's
// ulp is the quantum, and the subtraction is exact. r > the largest finite value gives ∞ (IEEE
// overflow under round-to-nearest); the sign is put back last, NaN passes through. Only float64
// additions, one multiply by a power of two and bit masks: no libm, no rounding-mode changes,
// identical in the scalar and SIMD code (two lanes), natively and in WebAssembly (-ffp-contract=off).
//
// The exact product q·f: a Dekker two-product (no fma, since the build forbids contraction) gives
// q·f = hi + lo exactly (hi = fl(q·f)). Rounding it once into a format of p ≤ 24 bits: first to
// float64 with round-to-odd (hi, moved one ulp toward zero when lo points there, with its last
// bit set when lo ≠ 0), then to nearest even into the format; round-to-odd with 53 ≥ p + 2 bits
// makes the second rounding exact (Boldo & Melquiond 2008). When q and f are both at most
// float32, q·f is exact in float64 already (lo = 0).
//
// cos φ and sin φ come from libm in float64 (full argument reduction, < 1 ulp), then are rounded
// once into the table format: correctly rounded for float32 and narrower except when cos φ lies
// within 1 float64 ulp of a midpoint (float64 tables hold libm's values as they are).
//
// The exact angle p·ω_i: ω_i as a 64-bit fixed-point fraction of a turn (pe_turns_from_omega,
// sincos.h; T = round(ω/2π·2^64) from a double-double quotient) and the phase p·T mod 2^64, an
// exact integer product. The error is then (atan2(s, c)/2π − p·T/2^64) in turns, reduced into
// [−1/2, 1/2], times 2π. Accuracy: the fixed point carries ≤ (1/2 + 2^-10)·2^-64 turn of error per
// unit of p (≤ 2.3e-13 rad at p < 2^20, ≤ 4e-10 rad at p < 2^31), the float64 subtraction of two
// turns ≤ 2^-54 turn (≤ 4e-16 rad): the errors reported are right to ~1e-15 rad + p·3.4e-19 rad,
// far below any float32 recipe's error (≥ ~1e-8 rad once p > 0) and below the float64 recipe's
// own rounding of p·f at large p.
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "pe.h"
#include "precision.h"
#include "rope.h"
#include "sincos.h"

static const double PE_PI = 3.141592653589793;
static const double PE_TWO_PI = 6.283185307179586;

// --- bits ----------------------------------------------------------------------------------------

static inline uint64_t bits_of(double x) {
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    return b;
}

static inline double value_of(uint64_t b) {
    double x;
    memcpy(&x, &b, sizeof x);
    return x;
}

#define SIGN_MASK 0x8000000000000000ull
#define EXP_MASK 0x7FF0000000000000ull

// A binary format for rounding: clamp = 2^(emax+1), min_normal = 2^emin, shift = 2^(53−p),
// max_finite = (2 − 2^(1−p))·2^emax.
typedef struct {
    double clamp, min_normal, shift, max_finite;
} pe_format;

static const pe_format FORMATS[4] = {
    {0.0, 0.0, 0.0, 0.0},                          // float64: never used (identity)
    {0x1p128, 0x1p-126, 0x1p29, 0x1.fffffep127},   // float32: p = 24, emin = −126
    {0x1p128, 0x1p-126, 0x1p45, 0x1.fep127},       // bfloat16: p = 8, emin = −126
    {0x1p16, 0x1p-14, 0x1p42, 65504.0},            // float16: p = 11, emin = −14
};

static inline int valid_dtype(int32_t dtype) { return dtype >= PE_RECIPE_FLOAT64 && dtype <= PE_RECIPE_FLOAT16; }

// The scalar reference of the rounding (see the top of the file).
static inline double round_format(double x, const pe_format *f) {
    if (x != x) return x;   // NaN as given
    const uint64_t sign = bits_of(x) & SIGN_MASK;
    double a = value_of(bits_of(x) & ~SIGN_MASK);
    if (a > f->clamp) a = f->clamp;   // also +∞: rounds to ∞ below
    const double m = a > f->min_normal ? a : f->min_normal;
    const double c = value_of(bits_of(m) & EXP_MASK) * f->shift;   // 2^(e − p + 53)
    double r = (a + c) - c;
    if (r > f->max_finite) r = INFINITY;
    return value_of(bits_of(r) | sign);
}

double pe_round_dtype(double x, int32_t dtype) {
    if (!valid_dtype(dtype)) return NAN;
    if (dtype == PE_RECIPE_FLOAT64) return x;
    return round_format(x, &FORMATS[dtype]);
}

double pe_round_float32(double x) { return round_format(x, &FORMATS[PE_RECIPE_FLOAT32]); }
double pe_round_bfloat16(double x) { return round_format(x, &FORMATS[PE_RECIPE_BFLOAT16]); }
double pe_round_float16(double x) { return round_format(x, &FORMATS[PE_RECIPE_FLOAT16]); }

// bfloat16 is the top half of a float32.
double pe_bfloat16_value(uint16_t bits) {
    uint32_t b = (uint32_t)bits << 16;
    float f;
    memcpy(&f, &b, sizeof f);
    return (double)f;
}

uint16_t pe_bfloat16_bits(double rounded) {
    float f = (float)rounded;   // exact for a bfloat16 number
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return (uint16_t)(b >> 16);
}

// float16: sign, 5 exponent bits (bias 15), 10 fraction bits; exponent 0 = subnormal (·2^-24).
double pe_float16_value(uint16_t bits) {
    const int exponent = (bits >> 10) & 0x1F, fraction = bits & 0x3FF;
    double v;
    if (exponent == 0x1F) v = fraction ? NAN : INFINITY;
    else if (exponent == 0)
        v = ldexp((double)fraction, -24);
    else
        v = ldexp((double)(fraction | 0x400), exponent - 25);
    return (bits & 0x8000) ? -v : v;
}

uint16_t pe_float16_bits(double rounded) {
    const uint16_t sign = (bits_of(rounded) & SIGN_MASK) ? 0x8000 : 0;
    const double a = fabs(rounded);
    if (a != a) return (uint16_t)(sign | 0x7E00);
    if (a == INFINITY) return (uint16_t)(sign | 0x7C00);
    if (a < 0x1p-14) return (uint16_t)(sign | (uint16_t)(a * 0x1p24));   // subnormal (or zero)
    int e;
    const double m = frexp(a, &e);   // a = m·2^e, m in [0.5, 1)
    const uint16_t fraction = (uint16_t)((m * 2.0 - 1.0) * 1024.0);
    return (uint16_t)(sign | (uint16_t)((e - 1 + 15) << 10) | fraction);
}

// --- the exact product ---------------------------------------------------------------------------

// Dekker's split constant 2^27 + 1: a = ah + al with ah, al of at most 26 bits.
static const double SPLIT = 134217729.0;

// q·f = hi + lo exactly (for |q|, |f| < 2^996 and no underflow); lo = 0 when hi or lo is not
// finite (an infinite product has nothing to add).
static inline void two_product(double a, double b, double *hi, double *lo) {
    const double p = a * b;
    const double as = SPLIT * a, ah = as - (as - a), al = a - ah;
    const double bs = SPLIT * b, bh = bs - (bs - b), bl = b - bh;
    double e = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
    if (!(p - p == 0.0) || !(e - e == 0.0)) e = 0.0;   // p or e is ±∞ or NaN
    *hi = p;
    *lo = e;
}

double pe_round_exact(double hi, double lo, int32_t dtype) {
    if (!valid_dtype(dtype)) return NAN;
    if (dtype == PE_RECIPE_FLOAT64) return hi;
    uint64_t b = bits_of(hi);
    if (lo != 0.0 && hi != 0.0 && hi - hi == 0.0) {
        // Round-to-odd into float64: truncate toward zero, then set the last bit (inexact).
        if ((bits_of(hi) ^ bits_of(lo)) & SIGN_MASK) b -= 1;   // |hi + lo| < |hi|
        b |= 1;
    }
    return round_format(value_of(b), &FORMATS[dtype]);
}

// --- array forms: scalar reference ---------------------------------------------------------------

void pe_round_array_scalar(double *out, const double *x, int32_t n, int32_t dtype) {
    if (dtype == PE_RECIPE_FLOAT64) {
        if (out != x) memmove(out, x, sizeof(double) * (size_t)n);
        return;
    }
    const pe_format *f = &FORMATS[dtype];
    for (int32_t k = 0; k < n; k++) out[k] = round_format(x[k], f);
}

void pe_phase_array_scalar(double *out, double q, const double *f, int32_t n, int32_t dtype) {
    for (int32_t k = 0; k < n; k++) {
        double hi, lo;
        two_product(q, f[k], &hi, &lo);
        out[k] = pe_round_exact(hi, lo, dtype);
    }
}

// --- array forms: SIMD (two float64 lanes), the same operations in the same order --------------

#if PE_HAVE_SIMD
static inline v128_t round_x2(v128_t x, const pe_format *f) {
    const v128_t sign = wasm_v128_and(x, wasm_i64x2_splat((int64_t)SIGN_MASK));
    v128_t a = wasm_v128_andnot(x, wasm_i64x2_splat((int64_t)SIGN_MASK));
    const v128_t clamp = wasm_f64x2_splat(f->clamp);
    a = wasm_v128_bitselect(clamp, a, wasm_f64x2_gt(a, clamp));   // a > clamp ? clamp : a
    const v128_t min_normal = wasm_f64x2_splat(f->min_normal);
    const v128_t m = wasm_v128_bitselect(a, min_normal, wasm_f64x2_gt(a, min_normal));
    const v128_t c = wasm_f64x2_mul(wasm_v128_and(m, wasm_i64x2_splat((int64_t)EXP_MASK)), wasm_f64x2_splat(f->shift));
    v128_t r = wasm_f64x2_sub(wasm_f64x2_add(a, c), c);
    r = wasm_v128_bitselect(wasm_f64x2_splat(INFINITY), r, wasm_f64x2_gt(r, wasm_f64x2_splat(f->max_finite)));
    r = wasm_v128_or(r, sign);
    return wasm_v128_bitselect(x, r, wasm_f64x2_ne(x, x));   // NaN as given
}

void pe_round_array_simd(double *out, const double *x, int32_t n, int32_t dtype) {
    if (dtype == PE_RECIPE_FLOAT64) {
        if (out != x) memmove(out, x, sizeof(double) * (size_t)n);
        return;
    }
    const pe_format *f = &FORMATS[dtype];
    int32_t k = 0;
    for (; k + 2 <= n; k += 2) wasm_v128_store(out + k, round_x2(wasm_v128_load(x + k), f));
    pe_round_array_scalar(out + k, x + k, n - k, dtype);
}

void pe_phase_array_simd(double *out, double q, const double *f, int32_t n, int32_t dtype) {
    const v128_t a = wasm_f64x2_splat(q), split = wasm_f64x2_splat(SPLIT);
    const v128_t as = wasm_f64x2_mul(split, a);
    const v128_t ah = wasm_f64x2_sub(as, wasm_f64x2_sub(as, a)), al = wasm_f64x2_sub(a, ah);
    const v128_t zero = wasm_f64x2_splat(0.0);
    int32_t k = 0;
    if (dtype != PE_RECIPE_FLOAT64) {
        const pe_format *fmt = &FORMATS[dtype];
        for (; k + 2 <= n; k += 2) {
            const v128_t b = wasm_v128_load(f + k);
            const v128_t p = wasm_f64x2_mul(a, b);
            const v128_t bs = wasm_f64x2_mul(split, b);
            const v128_t bh = wasm_f64x2_sub(bs, wasm_f64x2_sub(bs, b)), bl = wasm_f64x2_sub(b, bh);
            v128_t e = wasm_f64x2_add(
                wasm_f64x2_add(wasm_f64x2_add(wasm_f64x2_sub(wasm_f64x2_mul(ah, bh), p), wasm_f64x2_mul(ah, bl)),
                               wasm_f64x2_mul(al, bh)),
                wasm_f64x2_mul(al, bl));
            // e = 0 where p or e is not finite (x − x ≠ 0)
            const v128_t finite =
                wasm_v128_and(wasm_f64x2_eq(wasm_f64x2_sub(p, p), zero), wasm_f64x2_eq(wasm_f64x2_sub(e, e), zero));
            e = wasm_v128_and(e, finite);
            // round-to-odd where e ≠ 0 and p ≠ 0 (p finite: e is 0 otherwise)
            const v128_t inexact = wasm_v128_and(wasm_f64x2_ne(e, zero), wasm_f64x2_ne(p, zero));
            const v128_t opposite = wasm_i64x2_shr(wasm_v128_xor(p, e), 63);     // all ones: signs differ
            v128_t bits = wasm_i64x2_add(p, wasm_v128_and(opposite, inexact));   // − 1
            bits = wasm_v128_or(bits, wasm_v128_and(inexact, wasm_i64x2_splat(1)));
            wasm_v128_store(out + k, round_x2(bits, fmt));
        }
    } else {
        for (; k + 2 <= n; k += 2) wasm_v128_store(out + k, wasm_f64x2_mul(a, wasm_v128_load(f + k)));
    }
    pe_phase_array_scalar(out + k, q, f + k, n - k, dtype);
}
#endif

// --- the angle error -----------------------------------------------------------------------------

/** p·ω/2π reduced into [−1/2, 1/2) turn, from ω's fixed-point turns: the exact angle, in turns. */
static inline double exact_turns(uint32_t p, pe_turns t) {
    const uint64_t turns = ((uint64_t)t.hi << 32) | t.lo;
    const uint64_t phase = (uint64_t)p * turns;   // p·ω/2π mod 1, in units of 2^-64 turn
    int64_t signed_phase;
    memcpy(&signed_phase, &phase, sizeof signed_phase);   // the same turn in [−1/2, 1/2)
    return (double)signed_phase * 0x1p-64;
}

static double angle_error(double c, double s, uint32_t p, pe_turns t) {
    if (!(c - c == 0.0) || !(s - s == 0.0)) return PE_PI;   // not finite
    const double exact = exact_turns(p, t);
    double d = atan2(s, c) / PE_TWO_PI - exact;   // both in [−1/2, 1/2]: d in [−1, 1]
    if (d > 0.5) d -= 1.0;
    else if (d < -0.5)
        d += 1.0;
    const double e = fabs(d) * PE_TWO_PI;
    return e > PE_PI ? PE_PI : e;
}

double pe_angle_error(double c, double s, uint32_t p, double omega) {
    return angle_error(c, s, p, pe_turns_from_omega(omega));
}

// --- the kernel ----------------------------------------------------------------------------------

// Spec argument k of the rope config is argument FIRST_SPEC + k.
#define FIRST_SPEC 11
// … and of the sweep (pe_rope_precision_sweep), SWEEP_FIRST_SPEC + k.
#define SWEEP_FIRST_SPEC 8

// Step 1 as transformers' _compute_default_rope_parameters does it in float32 (precision.h):
// inv_freq = 1.0 / (base ** (torch.arange(0, d, 2, dtype=torch.int64).float() / d)).
void pe_inv_freq_float32_pow(double *f, const double *omega, const pe_rope_config *c) {
    const int32_t d = pe_rope_rotary_dim(c), n = d / 2;
    const double base32 = pe_round_float32(c->base);   // the scalar base meets a float32 tensor
    for (int32_t i = 0; i < n; i++) {
        const double e = pe_round_float32((double)(2 * i) / (double)d);   // arange(...).float() / d
        const double power = pe_round_float32(pow(base32, e));            // base ** e, float32
        const double framework = pe_round_float32(1.0 / power);           // 1.0 / (...), float32
        // ω0_i as c/rope.c forms it before scaling: for an unscaled spec ω_i / ω0_i is exactly 1.
        const double omega0 = 1.0 / pow(c->base, (double)(2 * i) / (double)d);
        f[i] = pe_round_float32(framework * (omega[i] / omega0));
    }
}

static inline int same_value(double a, double b) { return a == b || (a != a && b != b); }

// LongRoPE's list for rows offset .. offset + length − 1. transformers (Phi-3's
// LongRoPE, _compute_longrope_parameters) takes seq_len = max(position_ids) + 1 and uses
//   ext = long_factor  if seq_len > o,  short_factor otherwise
// (o = original_max_position_embeddings, else max_position_embeddings; the pair i's frequency is
// then ω_i = 1 / (ext_i · base^(2i/d))). Here seq_len = offset + length: the table is the end of
// that sequence. c/rope.c compares length alone (its rows start at 0), so it is handed the chosen
// list as both of its lists. lists were checked (pe_rope_check_lists).
static pe_rope_lists longrope_side(const pe_rope_config *c, int32_t offset, const pe_rope_lists *lists) {
    const int64_t o =
        c->original_max_position_embeddings > 0 ? c->original_max_position_embeddings : c->max_position_embeddings;
    const double *ext = (int64_t)offset + c->length > o ? lists->long_factor : lists->short_factor;
    return (pe_rope_lists){ext, ext};
}

// ω_i of a checked config into omega (n = rotary_dim/2): as `rope` computes it, LongRoPE's from the
// list longrope_side chooses. Returns pe_rope_inv_freq_lists' status.
// Dynamic NTK, likewise: transformers rescales the base for seq_len = max(position_ids) + 1, so
// rows offset .. offset + length − 1 get the base of a sequence of offset + length tokens (c/rope.c
// reads the sequence length from length; offset + length ≤ PE_MAX_POSITION was checked).
static pe_status exact_omega(double *omega, const pe_rope_config *c, int32_t offset, const pe_rope_lists *lists) {
    double attention_factor;   // not part of this kind's output
    if (c->rope_type == PE_ROPE_DYNAMIC) {
        pe_rope_config whole = *c;
        whole.length = offset + c->length;
        return pe_rope_inv_freq(omega, &attention_factor, &whole);
    }
    if (c->rope_type != PE_ROPE_LONGROPE) return pe_rope_inv_freq(omega, &attention_factor, c);
    const pe_rope_lists side = longrope_side(c, offset, lists);
    return pe_rope_inv_freq_lists(omega, &attention_factor, c, &side);
}

// The kernel (pe_rope_precision_variant) with LongRoPE's lists (NULL for every other type).
static pe_status precision_kernel(float *out, float *cos_out, float *sin_out, float *row_error, double *stats,
                                  double *scratch, int32_t offset, const int32_t dtypes[4], const pe_rope_config *c,
                                  pe_round_array_fn round_fn, pe_phase_array_fn phase_fn, const pe_rope_lists *lists) {
    if (out == NULL) return PE_ERR_ARG(1);
    if (cos_out == NULL) return PE_ERR_ARG(2);
    if (sin_out == NULL) return PE_ERR_ARG(3);
    if (row_error == NULL) return PE_ERR_ARG(4);
    if (stats == NULL) return PE_ERR_ARG(5);
    if (scratch == NULL) return PE_ERR_ARG(6);
    if (dtypes == NULL) return PE_ERR_ARG(8);
    for (int k = 0; k < 4; k++)
        if (!valid_dtype(dtypes[k]) && !(k == 0 && dtypes[k] == PE_RECIPE_FLOAT32_POW)) return PE_ERR_ARG(8 + k);
    if (c == NULL) return PE_ERR_ARG(FIRST_SPEC + 1);
    if (round_fn == NULL) return PE_ERR_ARG(28);
    if (phase_fn == NULL) return PE_ERR_ARG(29);
    pe_status status = pe_rope_check_lists(c, lists);
    if (status > 100 && status < 200) return PE_ERR_ARG(FIRST_SPEC + PE_ERR_ARG_INDEX(status));
    if (status != PE_OK) return status;
    const int32_t length = c->length, n = pe_rope_rotary_dim(c) / 2;
    // Positions p = offset + r stay within int32 (as in `sinusoidal`).
    if (offset < 0 || offset > PE_MAX_POSITION - length) return PE_ERR_ARG(7);
    if ((int64_t)length * n > PE_MAX_ELEMENTS) return PE_ERR_TOO_LARGE;

    // scratch: ω (float64, as `rope` computes it), f, the fixed-point turns of ω, φ of a row, and
    // two rows of (c, s) — this row and the one before it, for the collisions.
    double *omega = scratch, *f = scratch + n, *turn_slots = scratch + 2 * (size_t)n;
    double *phi = scratch + 3 * (size_t)n;
    double *cur_c = scratch + 4 * (size_t)n, *cur_s = scratch + 5 * (size_t)n;
    double *prev_c = scratch + 6 * (size_t)n, *prev_s = scratch + 7 * (size_t)n;
    status = exact_omega(omega, c, offset, lists);
    if (status > 100 && status < 200) return PE_ERR_ARG(FIRST_SPEC + PE_ERR_ARG_INDEX(status));
    if (status != PE_OK) return status;

    if (dtypes[0] == PE_RECIPE_FLOAT32_POW)   // step 1
        pe_inv_freq_float32_pow(f, omega, c);
    else
        round_fn(f, omega, n, dtypes[0]);
    for (int32_t i = 0; i < n; i++) {
        pe_turns t = pe_turns_from_omega(omega[i]);
        memcpy(turn_slots + i, &t, sizeof t);
    }
    double collisions = 0.0, first_collision = -1.0;
    for (int32_t r = 0; r < length; r++) {
        const uint32_t p = (uint32_t)offset + (uint32_t)r;
        const double q = pe_round_dtype((double)p, dtypes[1]);   // step 2
        phase_fn(phi, q, f, n, dtypes[2]);                       // step 3
        for (int32_t i = 0; i < n; i++) {                        // step 4
            cur_c[i] = cos(phi[i]);
            cur_s[i] = sin(phi[i]);
        }
        round_fn(cur_c, cur_c, n, dtypes[3]);
        round_fn(cur_s, cur_s, n, dtypes[3]);
        float worst = 0.0f;
        const size_t at = (size_t)r * (size_t)n;
        int same = r > 0;
        for (int32_t i = 0; i < n; i++) {
            pe_turns t;
            memcpy(&t, turn_slots + i, sizeof t);
            const float e = (float)angle_error(cur_c[i], cur_s[i], p, t);
            out[at + i] = e;
            cos_out[at + i] = (float)cur_c[i];
            sin_out[at + i] = (float)cur_s[i];
            if (e > worst) worst = e;
            if (same && !(same_value(cur_c[i], prev_c[i]) && same_value(cur_s[i], prev_s[i]))) same = 0;
        }
        row_error[r] = worst;
        if (same) {
            collisions += 1.0;
            if (first_collision < 0.0) first_collision = (double)p;
        }
        double *swap = prev_c;   // this row becomes the one before
        prev_c = cur_c;
        cur_c = swap;
        swap = prev_s;
        prev_s = cur_s;
        cur_s = swap;
    }
    stats[0] = collisions;
    stats[1] = first_collision;
    return PE_OK;
}

pe_status pe_rope_precision_variant(float *out, float *cos_out, float *sin_out, float *row_error, double *stats,
                                    double *scratch, int32_t offset, const int32_t dtypes[4], const pe_rope_config *c,
                                    pe_round_array_fn round_fn, pe_phase_array_fn phase_fn) {
    return precision_kernel(out, cos_out, sin_out, row_error, stats, scratch, offset, dtypes, c, round_fn, phase_fn,
                            NULL);
}

// --- the sweep: row_error and collisions only ------------------------------------------------------
//
// What pe_rope_precision_variant gives in row_error and stats, without forming cos, sin and the
// error of every entry. Per row, every pair's phase error is first bounded without trig:
//   d_i = (φ_i − q·f_i) + q·(f_i − ω_i) + (q − p)·ω_i      (= φ_i − p·ω_i; q·f_i by a two-product)
// and the table moves the angle by at most tb (below), so each entry's error lies within
// B_i = tb + m_i of |wrap(d_i)| (m_i: rounding of d_i and of the wrap, and the exact angle's
// fixed-point error). Only the pairs that can reach the row's largest lower bound are computed
// exactly, the kernel's way (cos, sin, round, angle_error): the row's maximum is the kernel's,
// bit for bit. A row collides with the one before when every pair's φ is the same, or, pair by
// pair, when the angles are too close for the table to tell them apart and the computed c and s
// agree; angles farther apart than 4·2^-t (wrapped) always differ in c or s.
//
// tb, the table's angle bound (t the table format's significant bits): c = round(libm cos φ),
// s = round(libm sin φ), libm within 2 ulps (≤ 4.5e-16 for values in [−1, 1]) and round to
// nearest in a format whose ulp is ≤ 2^(1−t) on [−1, 1] (2^(e+1−t) in the binade [2^e, 2^(e+1)),
// e ≤ −1; subnormals finer), so |c − cos φ|, |s − sin φ| ≤ 2^-(t+1) + 4.5e-16 and the point
// (c, s) lies in the disc of radius Δ = √2·(2^-(t+1) + 4.5e-16) around (cos φ, sin φ), at
// distance 1 from the origin: its angle differs from φ by at most asin Δ. For t = 24, 11, 8:
// Δ < 4.22e-8, 3.46e-4, 2.77e-3 and asin Δ < Δ·(1 + Δ²) < 2^-24, 2^-11, 2^-8 (each ≥ 1.41×
// asin Δ): tb = 2^-t. A float64 table is libm's values unrounded: Δ ≤ √2·4.5e-16 < 6.4e-16 and
// tb = 2·2^-51 (4.4e-16 × 2 = 8.9e-16). (Earlier revisions used 2·2^-t throughout: the window of
// candidates, 2·(tb + margin), is now about half as wide in the rounded tables.)

/** Significant bits of the table format (float64: libm's cos/sin, within 2 ulps). */
static int table_bits(int32_t dtype) {
    switch (dtype) {
    case PE_RECIPE_FLOAT32: return 24;
    case PE_RECIPE_BFLOAT16: return 8;
    case PE_RECIPE_FLOAT16: return 11;
    default: return 51;
    }
}

/** x − 2π·round(x/2π): within 1e-15·|x| of the exact reduction into [−π, π] (a hair past ±π at most). */
static inline double wrap_angle(double x) { return x - PE_TWO_PI * nearbyint(x * (1.0 / PE_TWO_PI)); }

/** The kernel's table entry and error for one pair. */
static inline double exact_entry(double phi, int32_t dtype, uint32_t p, pe_turns t, double *c, double *s) {
    *c = pe_round_dtype(cos(phi), dtype);
    *s = pe_round_dtype(sin(phi), dtype);
    return angle_error(*c, *s, p, t);
}

// --- a table entry's error without libm, when its float32 value is certain --------------------------
//
// The sweep's row maximum is the largest of a few entries' (float)angle_error(c, s, p, t), with
// c, s = round(cos φ), round(sin φ) of libm's cos and sin, as the kernel computes them. Most of
// those floats are decided long before the last bit of the double they are rounded from: here
// each is computed from our own cos, sin and angle, with a proven bound on how far that can be from
// the kernel's double, and kept only when the whole interval rounds to one float (and c, s to one
// table value each); otherwise the caller computes the entry the kernel's way (exact_entry).
//
// 1. Reduction (Cody–Waite): k = nearest(φ·2/π), r = ((φ − k·P1) − k·P2) − k·P3 with P1, P2 of
//    21 significant bits (k·P1, k·P2 exact for |k| < 2^32) and P3 = π/2 − P1 − P2 rounded to
//    double (|π/2 − P1 − P2 − P3| < 1e-31). φ − k·P1 is exact (Sterbenz: φ/(k·P1) ∈ [1/2, 2] for
//    k ≥ 1; r = φ for k = 0), the two other steps round once each (≤ 2^-54 absolute, |r| < 0.8)
//    and k·P3 rounds by ≤ 2^-63: |r − (φ − k·π/2)| ≤ 1.2e-16.
// 2. sin r, cos r by Taylor series through r^15 and r^16: the remainders are ≤ 0.8^17/17! < 7e-17
//    and ≤ 0.8^18/18! < 3e-18; 1/n! rounded to double and Horner add relative errors of a few
//    2^-53 to terms ≤ 0.09 (< 1e-16), the last additions ≤ 2^-53 each: with r's error,
//    |C − cos φ|, |S − sin φ| ≤ 5e-16 < EPS_TRIG = 1e-15.
// 3. The table: libm's cos φ is within 1 ulp (≤ 2.2e-16) of cos φ, so within TABLE_MARGIN =
//    1.5e-15 of C; when round(C − m) = round(C + m) (round is monotone) that is the kernel's c.
//    Same for s. The float64 table (libm's values as they are) never takes this path.
// 4. The angle of (c, s): θ = atan2(s, c) = φ + atan(N/D) (mod 2π) with N = s·cos φ − c·sin φ,
//    D = c·cos φ + s·sin φ > 0 (c, s are within 2^-7 of cos φ, sin φ in every table format: D ≥ 0.98).
//    With C, S for cos φ, sin φ and the products rounded: |N' − N| ≤ (|s| + |c|)·EPS_TRIG + 2·2^-53
//    ≤ 1.7e-15, |D' − D| ≤ 1.7e-15, so x' = N'/D' is within 1.8e-15 + 2^-53·|x| of x = N/D. Taken
//    only when |x'| < 0.01: atan x = x − x³/3 + x⁵/5 − x⁷/7 within |x|^9/9 < 2e-19, and the
//    series' own roundings add < 1e-18: δ = atan x to within 2e-15.
// 5. In turns, as the kernel: A = (k mod 4)/4 + (r + δ)·(1/2π) (the true θ/2π within 2e-15/2π +
//    3·2^-54 < 5e-16 turn), then D = A − X with X the exact angle in turns (the kernel's own
//    integer phase, shared: no error between the two), one more rounding (≤ 2^-53), the wrap by
//    ±1 exact (Sterbenz), e = |D|·2π: ours within 5e-16·2π + 1.2e-16·2π + 2^-52·e < 4e-15 +
//    2.3e-16·e of the true error E = |wrap(θ/2π − X)|·2π. The kernel's double is within
//    2 ulps of atan2 (≤ 9e-16) + 2π·(2^-54 + 2^-55 + 2^-53) + 2^-52·E < 2.2e-15 + 2.3e-16·E of E.
//    So the two differ by < 6.2e-15 + 4.6e-16·e: the margin 2e-14 + 1e-15·e is over 3× that.
//    (Near |d| = 1/2 the two may wrap to opposite signs, but |wrap(·)|, the distance to the
//    nearest whole turn, is continuous with slope 1: the bound holds there too.) The kernel caps
//    its double at π: min(·, π) is monotone, so both ends of the interval are capped alike.
static const double RED_P1 = 0x1.921fbp+0, RED_P2 = 0x1.5110bp-22, RED_P3 = 0x1.18469898cc517p-44;
static const double TWO_OVER_PI = 0x1.45f306dc9c883p-1, INV_TWO_PI = 0x1.45f306dc9c883p-3;
static const double TABLE_MARGIN = 1.5e-15;   // EPS_TRIG (1e-15) + 2.2e-16 (libm), rounded up

/** round(x) into the table format when x ± TABLE_MARGIN round alike; NaN otherwise. */
static inline double certain_round(double x, const pe_format *f) {
    if (f == &FORMATS[PE_RECIPE_FLOAT32]) {   // the hardware's float32 rounding: the same numbers
        const double a = (double)(float)(x - TABLE_MARGIN), b = (double)(float)(x + TABLE_MARGIN);
        return a == b ? a : NAN;
    }
    const double a = round_format(x - TABLE_MARGIN, f), b = round_format(x + TABLE_MARGIN, f);
    return a == b ? a : NAN;
}

/**
 * The kernel's (float)angle_error of the entry (φ, table format, p, t) when it is certain (see
 * above): 1 and *out set; 0 when the caller must compute it the kernel's way.
 */
static inline int fast_entry(double phi, const pe_format *fmt, double exact, float *out) {
    if (!(fabs(phi) < 0x1p31)) return 0;   // |k| < 2^31; NaN and ∞ too
    const double kd = nearbyint(phi * TWO_OVER_PI);
    const double r = ((phi - kd * RED_P1) - kd * RED_P2) - kd * RED_P3;
    const double r2 = r * r;
    // sin r = r + r³·(−1/3! + r²/5! − …), cos r = 1 − r²/2 + r⁴·(1/4! − r²/6! + …)
    const double ps =
        -0x1.5555555555555p-3 +
        r2 * (0x1.1111111111111p-7 +
              r2 * (-0x1.a01a01a01a01ap-13 +
                    r2 * (0x1.71de3a556c734p-19 +
                          r2 * (-0x1.ae64567f544e4p-26 + r2 * (0x1.6124613a86d09p-33 + r2 * -0x1.ae7f3e733b81fp-41)))));
    const double pc =
        0x1.5555555555555p-5 +
        r2 * (-0x1.6c16c16c16c17p-10 +
              r2 * (0x1.a01a01a01a01ap-16 +
                    r2 * (-0x1.27e4fb7789f5cp-22 +
                          r2 * (0x1.1eed8eff8d898p-29 + r2 * (-0x1.93974a8c07c9dp-37 + r2 * 0x1.ae7f3e733b81fp-45)))));
    const double sr = r + (r * r2) * ps, cr = 1.0 - (0.5 * r2 - (r2 * r2) * pc);
    const int quadrant = (int)((int64_t)kd & 3);
    double C, S;
    switch (quadrant) {
    case 0: C = cr, S = sr; break;
    case 1: C = -sr, S = cr; break;
    case 2: C = -cr, S = -sr; break;
    default: C = sr, S = -cr; break;
    }
    const double c = certain_round(C, fmt), s = certain_round(S, fmt);
    if (c != c || s != s) return 0;
    const double N = s * C - c * S, D = c * C + s * S;
    const double x = N / D;
    if (!(fabs(x) < 0.01)) return 0;
    const double x2 = x * x;
    const double delta = x - x * x2 * (0x1.5555555555555p-2 - x2 * (0.2 - x2 * 0x1.2492492492492p-3));
    double d = ((double)quadrant * 0.25 + (r + delta) * INV_TWO_PI) - exact;
    if (d > 0.5) d -= 1.0;
    else if (d < -0.5)
        d += 1.0;
    const double e = fabs(d) * PE_TWO_PI;
    const double margin = 2e-14 + 1e-15 * e, below = e - margin, above = e + margin;
    const float lo = (float)(below < PE_PI ? below : PE_PI), hi = (float)(above < PE_PI ? above : PE_PI);
    if (lo != hi) return 0;
    *out = lo;
    return 1;
}

#if PE_HAVE_SIMD
/**
 * fast_entry for two entries at once: the same operations in the same order (the quadrant's
 * swaps and signs and the wrap by selects), so each lane gives what fast_entry gives. Bit k of
 * the result is set when lane k is certain (out[k] then holds its float error).
 */
static inline int fast_entry_x2(v128_t phi, v128_t exact, const pe_format *fmt, float out[2]) {
    const v128_t sign = wasm_i64x2_splat((int64_t)SIGN_MASK);
    v128_t ok = wasm_f64x2_lt(wasm_f64x2_abs(phi), wasm_f64x2_splat(0x1p31));
    phi = wasm_v128_and(phi, ok);   // NaN, ∞ and huge phases: computed as 0, refused below
    const v128_t kd = wasm_f64x2_nearest(wasm_f64x2_mul(phi, wasm_f64x2_splat(TWO_OVER_PI)));
    const v128_t r = wasm_f64x2_sub(wasm_f64x2_sub(wasm_f64x2_sub(phi, wasm_f64x2_mul(kd, wasm_f64x2_splat(RED_P1))),
                                                   wasm_f64x2_mul(kd, wasm_f64x2_splat(RED_P2))),
                                    wasm_f64x2_mul(kd, wasm_f64x2_splat(RED_P3)));
    const v128_t r2 = wasm_f64x2_mul(r, r);
#define PE_SPLAT(x) wasm_f64x2_splat(x)
#define PE_MADD(a, b, c) wasm_f64x2_add((a), wasm_f64x2_mul((b), (c)))   // a + b·c, two roundings
    v128_t ps = PE_MADD(PE_SPLAT(0x1.6124613a86d09p-33), r2, PE_SPLAT(-0x1.ae7f3e733b81fp-41));
    ps = PE_MADD(PE_SPLAT(-0x1.ae64567f544e4p-26), r2, ps);
    ps = PE_MADD(PE_SPLAT(0x1.71de3a556c734p-19), r2, ps);
    ps = PE_MADD(PE_SPLAT(-0x1.a01a01a01a01ap-13), r2, ps);
    ps = PE_MADD(PE_SPLAT(0x1.1111111111111p-7), r2, ps);
    ps = PE_MADD(PE_SPLAT(-0x1.5555555555555p-3), r2, ps);
    v128_t pc = PE_MADD(PE_SPLAT(-0x1.93974a8c07c9dp-37), r2, PE_SPLAT(0x1.ae7f3e733b81fp-45));
    pc = PE_MADD(PE_SPLAT(0x1.1eed8eff8d898p-29), r2, pc);
    pc = PE_MADD(PE_SPLAT(-0x1.27e4fb7789f5cp-22), r2, pc);
    pc = PE_MADD(PE_SPLAT(0x1.a01a01a01a01ap-16), r2, pc);
    pc = PE_MADD(PE_SPLAT(-0x1.6c16c16c16c17p-10), r2, pc);
    pc = PE_MADD(PE_SPLAT(0x1.5555555555555p-5), r2, pc);
    const v128_t sr = wasm_f64x2_add(r, wasm_f64x2_mul(wasm_f64x2_mul(r, r2), ps));
    const v128_t cr = wasm_f64x2_sub(
        PE_SPLAT(1.0), wasm_f64x2_sub(wasm_f64x2_mul(PE_SPLAT(0.5), r2), wasm_f64x2_mul(wasm_f64x2_mul(r2, r2), pc)));
    // quadrant = k mod 4 (exact: |k| < 2^31); odd quadrants swap cos and sin, 1 and 2 negate cos,
    // 2 and 3 negate sin
    const v128_t quadrant =
        wasm_f64x2_sub(kd, wasm_f64x2_mul(PE_SPLAT(4.0), wasm_f64x2_floor(wasm_f64x2_mul(kd, PE_SPLAT(0.25)))));
    const v128_t odd = wasm_v128_or(wasm_f64x2_eq(quadrant, PE_SPLAT(1.0)), wasm_f64x2_eq(quadrant, PE_SPLAT(3.0)));
    const v128_t neg_c = wasm_v128_or(wasm_f64x2_eq(quadrant, PE_SPLAT(1.0)), wasm_f64x2_eq(quadrant, PE_SPLAT(2.0)));
    const v128_t neg_s = wasm_f64x2_ge(quadrant, PE_SPLAT(2.0));
    const v128_t C = wasm_v128_xor(wasm_v128_bitselect(sr, cr, odd), wasm_v128_and(neg_c, sign));
    const v128_t S = wasm_v128_xor(wasm_v128_bitselect(cr, sr, odd), wasm_v128_and(neg_s, sign));
    const v128_t m = PE_SPLAT(TABLE_MARGIN);
    v128_t c, s, c2, s2;
    if (fmt == &FORMATS[PE_RECIPE_FLOAT32]) {   // the hardware's float32 rounding (as certain_round)
#define PE_F32(x) wasm_f64x2_promote_low_f32x4(wasm_f32x4_demote_f64x2_zero(x))
        c = PE_F32(wasm_f64x2_sub(C, m)), s = PE_F32(wasm_f64x2_sub(S, m));
        c2 = PE_F32(wasm_f64x2_add(C, m)), s2 = PE_F32(wasm_f64x2_add(S, m));
#undef PE_F32
    } else {
        c = round_x2(wasm_f64x2_sub(C, m), fmt), s = round_x2(wasm_f64x2_sub(S, m), fmt);
        c2 = round_x2(wasm_f64x2_add(C, m), fmt), s2 = round_x2(wasm_f64x2_add(S, m), fmt);
    }
    ok = wasm_v128_and(ok, wasm_v128_and(wasm_f64x2_eq(c, c2), wasm_f64x2_eq(s, s2)));
    const v128_t N = wasm_f64x2_sub(wasm_f64x2_mul(s, C), wasm_f64x2_mul(c, S));
    const v128_t D = wasm_f64x2_add(wasm_f64x2_mul(c, C), wasm_f64x2_mul(s, S));
    const v128_t x = wasm_f64x2_div(N, D);
    ok = wasm_v128_and(ok, wasm_f64x2_lt(wasm_f64x2_abs(x), PE_SPLAT(0.01)));
    const v128_t x2 = wasm_f64x2_mul(x, x);
    v128_t at = wasm_f64x2_sub(PE_SPLAT(0.2), wasm_f64x2_mul(x2, PE_SPLAT(0x1.2492492492492p-3)));
    at = wasm_f64x2_sub(PE_SPLAT(0x1.5555555555555p-2), wasm_f64x2_mul(x2, at));
    const v128_t delta = wasm_f64x2_sub(x, wasm_f64x2_mul(wasm_f64x2_mul(x, x2), at));
    v128_t d = wasm_f64x2_sub(wasm_f64x2_add(wasm_f64x2_mul(quadrant, PE_SPLAT(0.25)),
                                             wasm_f64x2_mul(wasm_f64x2_add(r, delta), PE_SPLAT(INV_TWO_PI))),
                              exact);
    const v128_t one = PE_SPLAT(1.0);
    d = wasm_f64x2_sub(d, wasm_v128_and(wasm_f64x2_gt(d, PE_SPLAT(0.5)), one));   // − 1 or − 0 (exact)
    d = wasm_f64x2_add(d, wasm_v128_and(wasm_f64x2_lt(d, PE_SPLAT(-0.5)), one));
    const v128_t e = wasm_f64x2_mul(wasm_f64x2_abs(d), PE_SPLAT(PE_TWO_PI));
    const v128_t margin = PE_MADD(PE_SPLAT(2e-14), PE_SPLAT(1e-15), e), pi = PE_SPLAT(PE_PI);
    const v128_t below = wasm_f64x2_sub(e, margin), above = wasm_f64x2_add(e, margin);
    const v128_t lo = wasm_f32x4_demote_f64x2_zero(wasm_v128_bitselect(below, pi, wasm_f64x2_lt(below, pi)));
    const v128_t hi = wasm_f32x4_demote_f64x2_zero(wasm_v128_bitselect(above, pi, wasm_f64x2_lt(above, pi)));
    const v128_t same = wasm_f32x4_eq(lo, hi);   // lanes 0, 1
    out[0] = wasm_f32x4_extract_lane(lo, 0);
    out[1] = wasm_f32x4_extract_lane(lo, 1);
    const int bits = wasm_i64x2_bitmask(ok);
    return bits & ((wasm_i32x4_extract_lane(same, 0) ? 1 : 0) | (wasm_i32x4_extract_lane(same, 1) ? 2 : 0));
#undef PE_SPLAT
#undef PE_MADD
}
#endif

// The sweep's candidates (entries that may hold their row's maximum), evaluated in batches so the
// SIMD build can take two at a time: phase, exact angle in turns, position, pair and row.
#define SWEEP_BATCH 64
typedef struct {
    double phi[SWEEP_BATCH], exact[SWEEP_BATCH];
    uint32_t p[SWEEP_BATCH];
    int32_t pair[SWEEP_BATCH], row[SWEEP_BATCH];
    int count;
} sweep_batch;

/** Every candidate's float error (fast_entry when certain, else the kernel's way), maxed into its row. */
static void flush_batch(sweep_batch *b, float *row_error, const pe_format *fmt, int32_t table,
                        const double *turn_slots) {
    int k = 0;
#if PE_HAVE_SIMD
    for (; k + 2 <= b->count; k += 2) {
        float e[2];
        const int certain = fast_entry_x2(wasm_v128_load(b->phi + k), wasm_v128_load(b->exact + k), fmt, e);
        for (int j = 0; j < 2; j++) {
            if (!(certain & (1 << j))) {
                pe_turns t;
                memcpy(&t, turn_slots + b->pair[k + j], sizeof t);
                double cc, ss;
                e[j] = (float)exact_entry(b->phi[k + j], table, b->p[k + j], t, &cc, &ss);
            }
            if (e[j] > row_error[b->row[k + j]]) row_error[b->row[k + j]] = e[j];
        }
    }
#endif
    for (; k < b->count; k++) {
        float e;
        if (!fast_entry(b->phi[k], fmt, b->exact[k], &e)) {
            pe_turns t;
            memcpy(&t, turn_slots + b->pair[k], sizeof t);
            double cc, ss;
            e = (float)exact_entry(b->phi[k], table, b->p[k], t, &cc, &ss);
        }
        if (e > row_error[b->row[k]]) row_error[b->row[k]] = e;
    }
    b->count = 0;
}

int pe_precision_fast_entry(double phi, int32_t table_dtype, uint32_t p, double omega, float *out) {
    if (table_dtype != PE_RECIPE_FLOAT32 && table_dtype != PE_RECIPE_BFLOAT16 && table_dtype != PE_RECIPE_FLOAT16)
        return 0;
    return fast_entry(phi, &FORMATS[table_dtype], exact_turns(p, pe_turns_from_omega(omega)), out);
}

int pe_precision_fast_entry_pair(const double phi[2], int32_t table_dtype, const uint32_t p[2], const double omega[2],
                                 float out[2]) {
    if (table_dtype != PE_RECIPE_FLOAT32 && table_dtype != PE_RECIPE_BFLOAT16 && table_dtype != PE_RECIPE_FLOAT16)
        return 0;
    const double exact[2] = {exact_turns(p[0], pe_turns_from_omega(omega[0])),
                             exact_turns(p[1], pe_turns_from_omega(omega[1]))};
#if PE_HAVE_SIMD
    return fast_entry_x2(wasm_v128_load(phi), wasm_v128_load(exact), &FORMATS[table_dtype], out);
#else
    return fast_entry(phi[0], &FORMATS[table_dtype], exact[0], out) |
           fast_entry(phi[1], &FORMATS[table_dtype], exact[1], out + 1) << 1;
#endif
}

// The sweep (pe_rope_precision_sweep_variant) with LongRoPE's lists (NULL for every other type).
static pe_status sweep_kernel(float *row_error, double *stats, double *scratch, int32_t offset, const int32_t dtypes[4],
                              const pe_rope_config *c, pe_round_array_fn round_fn, pe_phase_array_fn phase_fn,
                              const pe_rope_lists *lists) {
    if (row_error == NULL) return PE_ERR_ARG(1);
    if (stats == NULL) return PE_ERR_ARG(2);
    if (scratch == NULL) return PE_ERR_ARG(3);
    if (dtypes == NULL) return PE_ERR_ARG(5);
    for (int k = 0; k < 4; k++)
        if (!valid_dtype(dtypes[k]) && !(k == 0 && dtypes[k] == PE_RECIPE_FLOAT32_POW)) return PE_ERR_ARG(5 + k);
    if (c == NULL) return PE_ERR_ARG(SWEEP_FIRST_SPEC + 1);
    if (round_fn == NULL) return PE_ERR_ARG(25);
    if (phase_fn == NULL) return PE_ERR_ARG(26);
    pe_status status = pe_rope_check_lists(c, lists);
    if (status > 100 && status < 200) return PE_ERR_ARG(SWEEP_FIRST_SPEC + PE_ERR_ARG_INDEX(status));
    if (status != PE_OK) return status;
    const int32_t length = c->length, n = pe_rope_rotary_dim(c) / 2;
    if (offset < 0 || offset > PE_MAX_POSITION - length) return PE_ERR_ARG(4);
    if ((int64_t)n > PE_MAX_ELEMENTS) return PE_ERR_TOO_LARGE;

    // scratch: ω, f, the turns of ω, φ of this row and of the row before, each pair's bound, f − ω,
    // and the suffix bounds.
    double *omega = scratch, *f = scratch + n, *turn_slots = scratch + 2 * (size_t)n;
    double *phi = scratch + 3 * (size_t)n, *prev = scratch + 4 * (size_t)n, *w = scratch + 5 * (size_t)n;
    double *df = scratch + 6 * (size_t)n;
    status = exact_omega(omega, c, offset, lists);
    if (status > 100 && status < 200) return PE_ERR_ARG(SWEEP_FIRST_SPEC + PE_ERR_ARG_INDEX(status));
    if (status != PE_OK) return status;
    if (dtypes[0] == PE_RECIPE_FLOAT32_POW) pe_inv_freq_float32_pow(f, omega, c);
    else
        round_fn(f, omega, n, dtypes[0]);
    for (int32_t i = 0; i < n; i++) {
        pe_turns t = pe_turns_from_omega(omega[i]);
        memcpy(turn_slots + i, &t, sizeof t);
    }
    const int32_t table = dtypes[3];
    // the table's format for fast_entry (none for float64 tables: libm's values as they are)
    const pe_format *tfmt = table != PE_RECIPE_FLOAT64 ? &FORMATS[table] : NULL;
    sweep_batch batch;
    batch.count = 0;
    const double tb = (table == PE_RECIPE_FLOAT64 ? 2.0 : 1.0) * ldexp(1.0, -table_bits(table));   // see above
    const double apart = 4.0 * ldexp(1.0, -table_bits(table)) + 1e-12;   // angles the table tells apart
    // q and f of at most 24 bits each (float32 or narrower): q·f is exact in float64.
    const int narrow = dtypes[0] != PE_RECIPE_FLOAT64 && dtypes[1] != PE_RECIPE_FLOAT64;
    // … and float32 angles: step 3 is then a plain float32 rounding of that product, done in the
    // bound loop (the same value phase_fn gives: one round-to-nearest-even, subnormals and ∞ alike).
    const int fused = narrow && dtypes[2] == PE_RECIPE_FLOAT32;
    // f − ω (exact: f is ω rounded, within a factor 2 of it, or 0) and the largest f, |f − ω|, ω,
    // for the margin of each row: d's three terms are at most |q|·(f + |f − ω|)·2 and |q − p|·ω.
    double fbig = 0.0, dfmax = 0.0, omax = 0.0;
    for (int32_t i = 0; i < n; i++) {
        df[i] = f[i] - omega[i];
        fbig = fbig > fabs(f[i]) ? fbig : fabs(f[i]);
        dfmax = dfmax > fabs(df[i]) ? dfmax : fabs(df[i]);
        omax = omax > fabs(omega[i]) ? omax : fabs(omega[i]);
    }
    // suffix[i] = max over pairs j ≥ i of f_j·2^-24 + |f_j − ω_j|: q·suffix[i] bounds |d_j| there
    // when positions are exact and angles float32 (|φ − q·f| ≤ half a float32 ulp of q·f).
    double *suffix = scratch + 7 * (size_t)n;
    for (int32_t i = n - 1; i >= 0; i--) {
        const double b = fabs(f[i]) * 0x1p-24 + fabs(df[i]);
        suffix[i] = i + 1 < n && suffix[i + 1] > b ? suffix[i + 1] : b;
    }
    double collisions = 0.0, first_collision = -1.0, qprev = 0.0, qlast = 0.0;
    int prev_fused = 0;
    for (int32_t r = 0; r < length; r++) {
        const uint32_t p = (uint32_t)offset + (uint32_t)r;
        // step 2; float32 positions by the hardware's rounding (nearest even, as round_format: p < 2^32
        // never reaches float32's overflow)
        const double q = dtypes[1] == PE_RECIPE_FLOAT32 ? (double)(float)p : pe_round_dtype((double)p, dtypes[1]);
        const int fuse = fused && q - q == 0.0;   // (a non-finite q leaves every φ non-finite)
        if (!fuse) phase_fn(phi, q, f, n, dtypes[2]);
        // Bounds: w[i] = |wrap(d_i)| (φ finite), the row's margin for the rounding of d_i and of
        // the wrap, and whether some φ is not finite (that entry's error is π exactly).
        const double qp = q - (double)p;
        int all_pi = !(q - q == 0.0);
        double lower = 0.0;   // the largest lower bound of the row's maximum
        double margin = 2e-9;
        int32_t stop = n;   // pairs from stop on cannot hold the row's maximum
        if (!all_pi) {
            margin += 1e-15 * (fabs(q) * (fbig + dfmax) * 2.0 + fabs(qp) * omax);
            int32_t i = 0;
            double top = 0.0;
#if PE_HAVE_SIMD
            if (fuse && qp == 0.0 && q * suffix[0] < 3.0) {
                // float32 positions, frequencies and angles (transformers' path): φ = fl32(q·f) and
                // d = (φ − q·f) + q·(f − ω), |d| ≤ q·suffix[0] < 3 < π here (no wrap). By blocks of 4 pairs, stopping
                // once no later pair can reach the row's maximum (q·suffix[i] bounds them all).
                const v128_t vq = wasm_f64x2_splat(q);
                v128_t vtop = wasm_f64x2_splat(0.0);
                for (; i + 4 <= n;) {
                    for (int k = 0; k < 2; k++, i += 2) {
                        const v128_t prod = wasm_f64x2_mul(vq, wasm_v128_load(f + i));
                        const v128_t ph = wasm_f64x2_promote_low_f32x4(wasm_f32x4_demote_f64x2_zero(prod));
                        v128_t d = wasm_f64x2_sub(ph, prod);
                        d = wasm_f64x2_abs(wasm_f64x2_add(d, wasm_f64x2_mul(vq, wasm_v128_load(df + i))));
                        wasm_v128_store(w + i, d);
                        vtop = wasm_f64x2_pmax(vtop, d);
                    }
                    // bound < max(lanes of vtop) (no NaN here: q and f finite), tested in both lanes
                    const v128_t bound =
                        wasm_f64x2_splat(q * suffix[i < n ? i : n - 1] + 0x1p-140 + 2.0 * (tb + margin));
                    if (i < n && wasm_v128_any_true(wasm_f64x2_lt(bound, vtop))) {
                        stop = i;
                        break;
                    }
                }
                const double t0 = wasm_f64x2_extract_lane(vtop, 0), t1 = wasm_f64x2_extract_lane(vtop, 1);
                top = t0 > t1 ? t0 : t1;
                if (stop < n) i = n;   // done: the scalar loop below has nothing left
            } else if (narrow) {
                // d without the wrap (|d| ≤ π in nearly every row; the row is redone below if not)
                const v128_t vq = wasm_f64x2_splat(q), vqp = wasm_f64x2_splat(qp), zero = wasm_f64x2_splat(0.0);
                v128_t vtop = zero, bad = wasm_i64x2_splat(0);
                for (; i + 2 <= n; i += 2) {
                    const v128_t prod = wasm_f64x2_mul(vq, wasm_v128_load(f + i));   // q·f, exact
                    // step 3 fused for float32 angles: the exact product rounded once into float32
                    const v128_t ph = fuse ? wasm_f64x2_promote_low_f32x4(wasm_f32x4_demote_f64x2_zero(prod))
                                           : wasm_v128_load(phi + i);
                    if (fuse) wasm_v128_store(phi + i, ph);
                    bad = wasm_v128_or(bad, wasm_f64x2_ne(wasm_f64x2_sub(ph, ph), zero));
                    v128_t d = wasm_f64x2_sub(ph, prod);                                     // e1
                    d = wasm_f64x2_add(d, wasm_f64x2_mul(vq, wasm_v128_load(df + i)));       // + e2
                    d = wasm_f64x2_add(d, wasm_f64x2_mul(vqp, wasm_v128_load(omega + i)));   // + e3
                    d = wasm_f64x2_abs(d);
                    wasm_v128_store(w + i, d);
                    vtop = wasm_f64x2_pmax(vtop, d);
                }
                if (wasm_v128_any_true(bad)) all_pi = 1;
                const double t0 = wasm_f64x2_extract_lane(vtop, 0), t1 = wasm_f64x2_extract_lane(vtop, 1);
                top = t0 > t1 ? t0 : t1;
                if (top > PE_PI) {   // some |d| needs the wrap: the scalar loop below does the row
                    i = 0;
                    top = 0.0;
                }
            }
#endif
            for (; i < n; i++) {
                if (fuse) phi[i] = (double)(float)(q * f[i]);
                if (!(phi[i] - phi[i] == 0.0)) {
                    all_pi = 1;
                    w[i] = 0.0;
                    continue;
                }
                double hi = q * f[i], lo = 0.0;
                if (!narrow) two_product(q, f[i], &hi, &lo);
                const double d = ((phi[i] - hi) - lo) + q * df[i] + qp * omega[i];
                w[i] = fabs(wrap_angle(d));
                if (w[i] > top) top = w[i];
            }
            lower = top - tb - margin;
        }
        // The row's maximum: π when an entry is not finite, else the largest candidate's error.
        // With a float32-or-narrower table the candidates wait in the batch (maxed into
        // row_error[r] when it is flushed: when full, and at the end).
        row_error[r] = all_pi ? (float)PE_PI : 0.0f;
        if (!all_pi) {
#if PE_HAVE_SIMD
            const v128_t vtb = wasm_f64x2_splat(tb), vmargin = wasm_f64x2_splat(margin);
            const v128_t vlower = wasm_f64x2_splat(lower);
#endif
            for (int32_t i = 0; i < stop; i++) {
#if PE_HAVE_SIMD
                // most pairs cannot be the maximum: skip them two at a time (the test below, per
                // lane), from the start and again after each candidate
                while (i + 2 <= stop &&
                       wasm_i64x2_all_true(
                           wasm_f64x2_lt(wasm_f64x2_add(wasm_f64x2_add(wasm_v128_load(w + i), vtb), vmargin), vlower)))
                    i += 2;
                if (i >= stop) break;
#endif
                if (w[i] + tb + margin < lower) continue;   // cannot be the row's maximum
                pe_turns t;
                memcpy(&t, turn_slots + i, sizeof t);
                const double ph = fuse ? (double)(float)(q * f[i]) : phi[i];
                if (tfmt == NULL) {
                    double cc, ss;
                    const float e = (float)exact_entry(ph, table, p, t, &cc, &ss);
                    if (e > row_error[r]) row_error[r] = e;
                    continue;
                }
                const int k = batch.count++;
                batch.phi[k] = ph;
                batch.exact[k] = exact_turns(p, t);
                batch.p[k] = p;
                batch.pair[k] = i;
                batch.row[k] = r;
                if (batch.count == SWEEP_BATCH) flush_batch(&batch, row_error, tfmt, table, turn_slots);
            }
        }
        // Collisions: every pair's c and s equal to the row before's (a fused row's φ is
        // recomputed here: fl32(q·f), as above).
        // A row whose q equals the row before's has the same φ, c and s in every pair (they depend
        // on q and f alone): it collides, nothing to compare (far out, where positions round).
        int same = r > 0;
        const int same_q = same && q == qlast;
        if (same_q) same = 0;
        for (int32_t i = 0; same && i < n; i++) {
            const double a = fuse ? (double)(float)(q * f[i]) : phi[i];
            const double b = prev_fused ? (double)(float)(qprev * f[i]) : prev[i];
            if (same_value(a, b)) continue;   // the same φ gives the same c and s
            const int fa = a - a == 0.0, fb = b - b == 0.0;
            if (!fa && !fb) continue;   // both give NaN c and s
            if (fa != fb) {
                same = 0;   // NaN against a number
                break;
            }
            const double gap = fabs(wrap_angle(a - b));
            if (gap > apart + 1e-15 * (fabs(a) + fabs(b))) {
                same = 0;
                break;
            }
            const pe_turns t0 = {0, 0};
            double ca, sa, cb, sb;
            (void)exact_entry(a, table, p, t0, &ca, &sa);
            (void)exact_entry(b, table, p, t0, &cb, &sb);
            if (!(same_value(ca, cb) && same_value(sa, sb))) same = 0;
        }
        if (same || same_q) {
            collisions += 1.0;
            if (first_collision < 0.0) first_collision = (double)p;
        }
        qlast = q;
        if (fuse) {   // φ of this row was not kept: the next row recomputes it from q
            qprev = q;
            prev_fused = 1;
        } else {
            double *swap = prev;
            prev = phi;
            phi = swap;
            prev_fused = 0;
        }
    }
    if (batch.count > 0) flush_batch(&batch, row_error, tfmt, table, turn_slots);
    stats[0] = collisions;
    stats[1] = first_collision;
    return PE_OK;
}

pe_status pe_rope_precision_sweep_variant(float *row_error, double *stats, double *scratch, int32_t offset,
                                          const int32_t dtypes[4], const pe_rope_config *c, pe_round_array_fn round_fn,
                                          pe_phase_array_fn phase_fn) {
    return sweep_kernel(row_error, stats, scratch, offset, dtypes, c, round_fn, phase_fn, NULL);
}

#if PE_HAVE_SIMD
#define PRECISION_ROUND pe_round_array_simd
#define PRECISION_PHASE pe_phase_array_simd
#else
#define PRECISION_ROUND pe_round_array_scalar
#define PRECISION_PHASE pe_phase_array_scalar
#endif

// --- LongRoPE: the kernel and the sweep with the per-pair lists ----------------------------------
//
// pe_rope_precision and pe_rope_precision_sweep take no lists and refuse rope_type longrope; these
// two take the spec arguments in the same order followed by LongRoPE's lists (rope_scaling's
// short_factor and long_factor, rotary_dim/2 float64 each, finite and > 0; NULL for every other
// type), as pe_rope does. ω_i = 1 / (ext_i · base^(2i/d)) with ext the list of the table's side
// of the switch (longrope_side: long_factor once offset + length > o, else short_factor); every
// step after that is the kernel's. Statuses: those of pe_rope_precision (pe_rope_precision_sweep),
// and for a NULL list or one with an entry that is not finite and > 0, PE_ERR_ARG(28) or (29)
// (PE_ERR_ARG(25) or (26) for the sweep): spec arguments 17 and 18 (PE_ROPE_ARG_SHORT_FACTOR,
// PE_ROPE_ARG_LONG_FACTOR). Never allocates; never aborts. Both are declared in c/precision.h.

pe_status pe_rope_precision_lists(float *out, float *cos_out, float *sin_out, float *row_error, double *stats,
                                  double *scratch, int32_t offset, int32_t inv_freq_dtype, int32_t position_dtype,
                                  int32_t phase_dtype, int32_t table_dtype, int32_t length, int32_t dim, double base,
                                  double partial_rotary_factor, int32_t max_position_embeddings, int32_t rope_type,
                                  double factor, int32_t original_max_position_embeddings, double beta_fast,
                                  double beta_slow, int32_t truncate, double mscale, double mscale_all_dim,
                                  double attention_factor, double low_freq_factor, double high_freq_factor,
                                  const double *short_factor, const double *long_factor) {
    const pe_rope_config c = PE_ROPE_SPEC_CONFIG;
    const pe_rope_lists lists = {short_factor, long_factor};
    const int32_t dtypes[4] = {inv_freq_dtype, position_dtype, phase_dtype, table_dtype};
    return precision_kernel(out, cos_out, sin_out, row_error, stats, scratch, offset, dtypes, &c, PRECISION_ROUND,
                            PRECISION_PHASE, &lists);
}

pe_status pe_rope_precision_sweep_lists(
    float *row_error, double *stats, double *scratch, int32_t offset, int32_t inv_freq_dtype, int32_t position_dtype,
    int32_t phase_dtype, int32_t table_dtype, int32_t length, int32_t dim, double base, double partial_rotary_factor,
    int32_t max_position_embeddings, int32_t rope_type, double factor, int32_t original_max_position_embeddings,
    double beta_fast, double beta_slow, int32_t truncate, double mscale, double mscale_all_dim, double attention_factor,
    double low_freq_factor, double high_freq_factor, const double *short_factor, const double *long_factor) {
    const pe_rope_config c = PE_ROPE_SPEC_CONFIG;
    const pe_rope_lists lists = {short_factor, long_factor};
    const int32_t dtypes[4] = {inv_freq_dtype, position_dtype, phase_dtype, table_dtype};
    return sweep_kernel(row_error, stats, scratch, offset, dtypes, &c, PRECISION_ROUND, PRECISION_PHASE, &lists);
}

pe_status pe_round_values(double *out, const double *x, int32_t n, int32_t dtype) {
    if (out == NULL) return PE_ERR_ARG(1);
    if (x == NULL) return PE_ERR_ARG(2);
    if (n < 0) return PE_ERR_ARG(3);
    if (!valid_dtype(dtype)) return PE_ERR_ARG(4);
    if (n > PE_MAX_ELEMENTS) return PE_ERR_TOO_LARGE;
    PRECISION_ROUND(out, x, n, dtype);
    return PE_OK;
}

pe_status pe_rope_precision(float *out, float *cos_out, float *sin_out, float *row_error, double *stats,
                            double *scratch, int32_t offset, int32_t inv_freq_dtype, int32_t position_dtype,
                            int32_t phase_dtype, int32_t table_dtype, int32_t length, int32_t dim, double base,
                            double partial_rotary_factor, int32_t max_position_embeddings, int32_t rope_type,
                            double factor, int32_t original_max_position_embeddings, double beta_fast, double beta_slow,
                            int32_t truncate, double mscale, double mscale_all_dim, double attention_factor,
                            double low_freq_factor, double high_freq_factor) {
    const pe_rope_config c = PE_ROPE_SPEC_CONFIG;
    const int32_t dtypes[4] = {inv_freq_dtype, position_dtype, phase_dtype, table_dtype};
    return pe_rope_precision_variant(out, cos_out, sin_out, row_error, stats, scratch, offset, dtypes, &c,
                                     PRECISION_ROUND, PRECISION_PHASE);
}

pe_status pe_rope_precision_sweep(float *row_error, double *stats, double *scratch, int32_t offset,
                                  int32_t inv_freq_dtype, int32_t position_dtype, int32_t phase_dtype,
                                  int32_t table_dtype, int32_t length, int32_t dim, double base,
                                  double partial_rotary_factor, int32_t max_position_embeddings, int32_t rope_type,
                                  double factor, int32_t original_max_position_embeddings, double beta_fast,
                                  double beta_slow, int32_t truncate, double mscale, double mscale_all_dim,
                                  double attention_factor, double low_freq_factor, double high_freq_factor) {
    const pe_rope_config c = PE_ROPE_SPEC_CONFIG;
    const int32_t dtypes[4] = {inv_freq_dtype, position_dtype, phase_dtype, table_dtype};
    return pe_rope_precision_sweep_variant(row_error, stats, scratch, offset, dtypes, &c, PRECISION_ROUND,
                                           PRECISION_PHASE);
}

// libFuzzer harness of every public table kernel (all but attention, and the matrix readers,
// which have fuzz_matrix.c): the input picks a kernel and decodes its arguments (fuzz_util.h:
// ints and doubles biased toward the ends of every documented range, NaN, ±Inf, tiny and huge
// values; NULL pointers on request).
//
// For each call the harness works out on its own, from the kernel's header:
//   - which arguments are invalid (a bit mask of argument positions) and whether the output would
//     pass PE_MAX_ELEMENTS; it computes the output size in 64-bit arithmetic;
//   - allocates every output and input at exactly that size (or, when the size is invalid or
//     above FUZZ_CAP, a FUZZ_SMALL-element block: then the kernel has to refuse, and a write past
//     it is an ASan report);
//   - requires the status it predicted: PE_ERR_ARG(k) for an argument k it found invalid,
//     PE_ERR_TOO_LARGE, or PE_OK (a valid spec that fits but is above FUZZ_CAP is skipped);
//   - on PE_OK, checks the output against the documented formula (exactly where the kernel
//     promises bits, within the documented error where it promises accuracy; sampled for big
//     tables), that nothing is NaN where the kernel promises none, and that the SIMD build agrees
//     bit for bit with the scalar reference where the kernel exposes both.
#include <stddef.h>

#include "colormap.h"
#include "fuzz_util.h"
#include "pe.h"
#include "precision.h"
#include "../native/rope_config.h"   // rope_c, apply_c: as the native tests call them

#define MAXE ((int64_t)PE_MAX_ELEMENTS)
// Output size above which the SIMD/scalar comparisons and full scans are sampled instead.
#define FULL_CHECK ((int64_t)1 << 16)

// --- arithmetic on sizes ---------------------------------------------------------------------------

// a·b for sizes: −1 when either is negative (an invalid size), saturating at INT64_MAX.
static int64_t mul_size(int64_t a, int64_t b) {
    if (a < 0 || b < 0) return -1;
    if (a == 0 || b == 0) return 0;
    if (a > INT64_MAX / b) return INT64_MAX;
    return a * b;
}

// --- status expectations -----------------------------------------------------------------------------

// Checks a kernel's status against the harness' prediction and returns 1 for PE_OK.
//   bad:       argument positions the harness found invalid; any of them may be reported
//   too_large: the output would pass PE_MAX_ELEMENTS (PE_ERR_TOO_LARGE is then also accepted
//              alongside an invalid argument, since the size is only meaningful for valid ones)
//   derived:   argument positions a kernel may blame for a derived value (rope's frequencies)
static int expect(const char *kernel, pe_status st, uint64_t bad, int too_large, uint64_t derived) {
    int arg = st > 100 && st < 164 ? PE_ERR_ARG_INDEX(st) : -1;
    if (fuzz_verbose())
        fprintf(stderr, "%s: status %d (invalid 0x%llx%s)\n", kernel, st, (unsigned long long)bad,
                too_large ? ", too large" : "");
    if (bad != 0) {
        REQUIRE((arg > 0 && (bad & BIT(arg))) || (too_large && st == PE_ERR_TOO_LARGE),
                "%s: returned %d for arguments the harness finds invalid (mask 0x%llx%s)", kernel, st,
                (unsigned long long)bad, too_large ? ", too large" : "");
    } else if (too_large) {
        REQUIRE(st == PE_ERR_TOO_LARGE, "%s: returned %d for a valid spec over PE_MAX_ELEMENTS", kernel, st);
    } else {
        REQUIRE(st == PE_OK || (arg > 0 && (derived & BIT(arg))),
                "%s: returned %d for a valid spec that fits (derived mask 0x%llx)", kernel, st,
                (unsigned long long)derived);
    }
    return st == PE_OK;
}

// The harness' sampling generator (seeded from the input) and a sample index below n.
static uint64_t sample_state;
static int64_t sample(int64_t n) { return (int64_t)(mix64(&sample_state) % (uint64_t)n); }

// Indices to check in an output of n elements: all of them when small, else 64 samples plus
// both ends. Returns how many it wrote to idx[].
static int pick(int64_t *idx, int64_t n) {
    int count = 0;
    if (n <= 256) {
        for (int64_t k = 0; k < n; k++) idx[count++] = k;
        return count;
    }
    idx[count++] = 0;
    idx[count++] = n - 1;
    while (count < 66) idx[count++] = sample(n);
    return count;
}

static int base_valid(double base) { return base > 1.0 && isfinite(base); }

// --- sinusoidal references (long double: an error far below the kernels' 2e-7) ----------------------

static double omega_pow(int64_t i, int64_t n, double base) { return pow(base, -2.0 * (double)i / (double)n); }

// Column `col` of the n-wide interleaved 1-D table at position p.
static long double ref_interleaved(long double p, int64_t col, int64_t n, double base) {
    long double angle = p * (long double)omega_pow(col / 2, n, base);
    return col % 2 == 0 ? sinl(angle) : cosl(angle);
}

// Column `col` of the n-wide concat (or tensor2tensor) 1-D table at position p.
static long double ref_concat(long double p, int64_t col, int64_t n, double base, int t2t) {
    int64_t h = n / 2;
    if (col >= 2 * h) return 0.0L;
    int64_t i = col % h;
    double omega = t2t ? exp(-(double)i * log(base) / (double)(h - 1 > 1 ? h - 1 : 1)) : omega_pow(i, n, base);
    long double angle = p * (long double)omega;
    return col < h ? sinl(angle) : cosl(angle);
}

static void check_close(const char *kernel, float got, long double want, double tol, int64_t at) {
    REQUIRE(fabsl((long double)got - want) <= tol, "%s: element %lld is %.9g, the formula gives %.12Lg (tolerance %g)",
            kernel, (long long)at, got, want, tol);
}

// Every element finite with |v| <= bound.
static void check_bounded(const char *kernel, const float *v, int64_t n, float bound) {
    for (int64_t k = 0; k < n; k++)
        REQUIRE(isfinite(v[k]) && fabsf(v[k]) <= bound, "%s: element %lld is %g (expected finite, |v| <= %g)", kernel,
                (long long)k, v[k], bound);
}

// --- sinusoidal ----------------------------------------------------------------------------------------

static void fuzz_sinusoidal(reader *r, uint64_t nulls) {
    int32_t length = rd_int(r, 16), dim = rd_int(r, 8);
    double base = rd_double(r, 10000.0);
    int32_t layout = rd_enum(r, 3, 0), offset = rd_int(r, 0);
    uint64_t bad = 0;
    if (nulls & 1) bad |= BIT(1);
    if (!in_range(length, 1, PE_MAX_LENGTH)) bad |= BIT(2);
    if (!in_range(dim, 1, PE_MAX_DIM)) bad |= BIT(3);
    if (!base_valid(base)) bad |= BIT(4);
    if (!in_range(layout, 0, 2)) bad |= BIT(5);
    if (offset < 0 || (int64_t)offset + length > PE_MAX_POSITION) bad |= BIT(6);   // offset + length ≤ 2^31 − 1
    int64_t need = mul_size(length, dim);
    int too_large = need > MAXE;
    if (!bad && !too_large && need > FUZZ_CAP) return;   // valid but too big to fuzz quickly
    int exact;
    float *out = alloc_exact(bad ? -1 : need, sizeof(float), &exact);
    pe_status st = pe_sinusoidal((nulls & 1) ? NULL : out, length, dim, base, layout, offset);
    if (expect("pe_sinusoidal", st, bad, too_large, 0)) {
        check_bounded("pe_sinusoidal", out, need, 1.0f);
        int64_t idx[300];
        int count = pick(idx, need);
        for (int k = 0; k < count; k++) {
            int64_t row = idx[k] / dim, col = idx[k] % dim;
            long double p = (long double)offset + (long double)row;
            long double want = layout == PE_SIN_INTERLEAVED
                                   ? ref_interleaved(p, col, dim, base)
                                   : ref_concat(p, col, dim, base, layout == PE_SIN_TENSOR2TENSOR);
            check_close("pe_sinusoidal", out[idx[k]], want, 2e-7, idx[k]);
        }
        if (need <= FULL_CHECK) {   // SIMD (SIMDe) against the scalar reference, bit for bit
            float *ref = alloc_exact(need, sizeof(float), NULL);
            REQUIRE(pe_sinusoidal_variant(ref, length, dim, base, layout, offset, pe_rotate_table_scalar) == PE_OK,
                    "pe_sinusoidal_variant refuses what pe_sinusoidal accepts");
            REQUIRE(memcmp(ref, out, (size_t)need * sizeof(float)) == 0,
                    "pe_sinusoidal: SIMD and scalar tables differ");
            free(ref);
        }
    }
    free(out);
}

// --- sinusoidal2d / 3d -------------------------------------------------------------------------------

static void fuzz_sinusoidal2d(reader *r, uint64_t nulls) {
    int32_t height = rd_int(r, 4), width = rd_int(r, 4), dim = rd_int(r, 8);
    double base = rd_double(r, 10000.0);
    int32_t layout = rd_enum(r, 3, 0);
    uint64_t bad = 0;
    if (nulls & 1) bad |= BIT(1);
    if (!in_range(height, 1, PE_MAX_GRID)) bad |= BIT(2);
    if (!in_range(width, 1, PE_MAX_GRID)) bad |= BIT(3);
    if (!in_range(dim, 1, PE_MAX_DIM)) bad |= BIT(4);
    if (!base_valid(base)) bad |= BIT(5);
    if (!in_range(layout, 0, 2)) bad |= BIT(6);
    if (layout == PE_2D_MAE && dim % 4 != 0) bad |= BIT(4);   // mae needs dim % 4 == 0
    int64_t need = mul_size(mul_size(height, width), dim);
    int too_large = need > MAXE;
    if (!bad && !too_large && need > FUZZ_CAP) return;
    float *out = alloc_exact(bad ? -1 : need, sizeof(float), NULL);
    pe_status st = pe_sinusoidal2d((nulls & 1) ? NULL : out, height, width, dim, base, layout);
    if (expect("pe_sinusoidal2d", st, bad, too_large, 0)) {
        check_bounded("pe_sinusoidal2d", out, need, layout == PE_2D_SUM ? 2.0f : 1.0f);
        int64_t idx[300];
        int count = pick(idx, need);
        for (int k = 0; k < count; k++) {
            int64_t token = idx[k] / dim, ch = idx[k] % dim;
            long double row = (long double)(token / width), col = (long double)(token % width), want;
            if (layout == PE_2D_MAE) {   // [concat1d(col; dim/2) | concat1d(row; dim/2)]
                int64_t half = dim / 2;
                want = ch < half ? ref_concat(col, ch, half, base, 0) : ref_concat(row, ch - half, half, base, 0);
            } else if (layout == PE_2D_SUM) {   // each term rounded to float32, added in float32
                want = (long double)((float)ref_interleaved(row, ch, dim, base) +
                                     (float)ref_interleaved(col, ch, dim, base));
            } else {   // [interleaved1d(row; w) | interleaved1d(col; w)][:dim], w = 2·ceil(dim/4)
                int64_t w = 2 * ((dim + 3) / 4);
                want = ch < w ? ref_interleaved(row, ch, w, base) : ref_interleaved(col, ch - w, w, base);
            }
            check_close("pe_sinusoidal2d", out[idx[k]], want, layout == PE_2D_SUM ? 4.5e-7 : 2e-7, idx[k]);
        }
    }
    free(out);
}

static void fuzz_sinusoidal3d(reader *r, uint64_t nulls) {
    int32_t depth = rd_int(r, 2), height = rd_int(r, 3), width = rd_int(r, 4), dim = rd_int(r, 12);
    double base = rd_double(r, 10000.0);
    uint64_t bad = 0;
    if (nulls & 1) bad |= BIT(1);
    if (!in_range(depth, 1, PE_MAX_GRID)) bad |= BIT(2);
    if (!in_range(height, 1, PE_MAX_GRID)) bad |= BIT(3);
    if (!in_range(width, 1, PE_MAX_GRID)) bad |= BIT(4);
    if (!in_range(dim, 1, PE_MAX_DIM)) bad |= BIT(5);
    if (!base_valid(base)) bad |= BIT(6);
    int64_t need = mul_size(mul_size(mul_size(depth, height), width), dim);
    int too_large = need > MAXE;
    if (!bad && !too_large && need > FUZZ_CAP) return;
    float *out = alloc_exact(bad ? -1 : need, sizeof(float), NULL);
    pe_status st = pe_sinusoidal3d((nulls & 1) ? NULL : out, depth, height, width, dim, base);
    if (expect("pe_sinusoidal3d", st, bad, too_large, 0)) {
        check_bounded("pe_sinusoidal3d", out, need, 1.0f);
        int64_t idx[300], w = 2 * ((dim + 5) / 6);   // [i1d(d; w) | i1d(row; w) | i1d(col; w)][:dim]
        int count = pick(idx, need);
        for (int k = 0; k < count; k++) {
            int64_t token = idx[k] / dim, ch = idx[k] % dim;
            int64_t pos[3] = {token / ((int64_t)height * width), token / width % height, token % width};
            check_close("pe_sinusoidal3d", out[idx[k]], ref_interleaved((long double)pos[ch / w], ch % w, w, base),
                        2e-7, idx[k]);
        }
    }
    free(out);
}

// --- mrope ----------------------------------------------------------------------------------------------

// A Qwen2-VL / Qwen2.5-VL time id (mrope.h): the frame, or floor(frame · seconds · tps) in float32.
static double mrope_time(int32_t type, double seconds, int32_t frame, double tps) {
    if (!(tps > 0.0)) return frame;
    if (type != PE_SEG_VIDEO) return 0.0;
    float product = (float)frame * (float)seconds;
    product = product * (float)tps;
    return floor((double)product);
}

static void fuzz_mrope(reader *r, uint64_t nulls) {
    int32_t count = rd_int(r, 2);
    const int32_t slots = in_range(count, 1, PE_MROPE_MAX_SEGMENTS) ? count : 0;
    int32_t *segments = alloc_exact(slots ? 4 * (int64_t)slots : -1, sizeof(int32_t), NULL);
    double *seconds = alloc_exact(slots ? slots : -1, sizeof(double), NULL);
    for (int32_t s = 0; s < (slots ? slots : 4); s++) {
        int32_t type = rd_enum(r, 3, s % 2);
        segments[4 * s] = type;
        segments[4 * s + 1] = rd_int(r, type == PE_SEG_TEXT ? 3 : 2);
        segments[4 * s + 2] = rd_int(r, 4);
        segments[4 * s + 3] = rd_int(r, 4);
        seconds[s] = rd_double(r, 1.0);
    }
    const uint8_t n_mode = rd_u8(r, 0);
    int32_t n_given = (n_mode & 3) == 3 ? rd_int(r, 1) : 0;
    int32_t dim = rd_int(r, 8);
    double base = rd_double(r, 10000.0);
    int32_t section[3];
    const uint8_t section_mode = rd_u8(r, 0);
    if (section_mode & 1) {
        for (int a = 0; a < 3; a++) section[a] = rd_int(r, 1);
    } else {   // a valid split of dim/2 when dim is
        int32_t half = dim / 2, first = rd_int(r, 1), second = rd_int(r, 1);
        section[0] = half > 0 ? (int32_t)((uint32_t)first % (uint32_t)(half + 1)) : 0;
        section[1] = half - section[0] > 0 ? (int32_t)((uint32_t)second % (uint32_t)(half - section[0] + 1)) : 0;
        section[2] = half - section[0] - section[1];
    }
    int32_t merge = rd_int(r, 2);
    double tps = rd_double(r, 0.0);
    const int want_angles = !(nulls & 2);

    // What the header allows, argument by argument.
    uint64_t bad = 0;
    if (nulls & 1) bad |= BIT(1);
    if (nulls & 4) bad |= BIT(3);
    if (nulls & 8) bad |= BIT(4);
    if (!slots) bad |= BIT(5);
    if (!(in_range(dim, 2, PE_MAX_DIM) && dim % 2 == 0)) bad |= BIT(7);
    if (!base_valid(base)) bad |= BIT(8);
    if ((nulls & 16) || section[0] < 0 || section[1] < 0 || section[2] < 0 ||
        (int64_t)section[0] + section[1] + section[2] != dim / 2)
        bad |= BIT(9);
    if (!in_range(merge, 1, 64)) bad |= BIT(10);
    if (isnan(tps) || tps > FLT_MAX) bad |= BIT(11);   // mrope.h: float32 products
    // The segments, their tokens (after merging) and the ids they use up.
    int64_t total = 0;
    double next_id = 0.0;
    int too_large = 0;
    if (slots && in_range(merge, 1, 64) && !(bad & BIT(11))) {
        for (int32_t s = 0; s < slots; s++) {
            const int32_t *seg = segments + 4 * s;
            if (seg[0] == PE_SEG_TEXT) {
                if (!in_range(seg[1], 1, PE_MAX_LENGTH)) {
                    bad |= BIT(3);
                    continue;
                }
                total += seg[1];
                next_id += seg[1];
            } else if (seg[0] == PE_SEG_IMAGE || seg[0] == PE_SEG_VIDEO) {
                int ok = in_range(seg[1], 1, PE_MROPE_MAX_GRID) && in_range(seg[2], 1, PE_MROPE_MAX_GRID) &&
                         in_range(seg[3], 1, PE_MROPE_MAX_GRID) && seg[2] % merge == 0 && seg[3] % merge == 0;
                if (seg[0] == PE_SEG_VIDEO && !(seconds[s] > 0.0 && seconds[s] <= FLT_MAX)) ok = 0;
                if (!ok) {
                    bad |= BIT(3);
                    continue;
                }
                total += (int64_t)seg[1] * (seg[2] / merge) * (seg[3] / merge);
                double top = mrope_time(seg[0], seconds[s], seg[1] - 1, tps);
                double span = fmax(top, fmax(seg[2] / merge - 1, seg[3] / merge - 1));
                next_id += span + 1.0;
            } else {
                bad |= BIT(3);
            }
        }
        if (total > PE_MAX_LENGTH) too_large = 1;
        if (next_id > PE_MROPE_MAX_ID) bad |= BIT(3);
    }
    int32_t n = (n_mode & 3) == 3 ? n_given : (int32_t)(total >= 1 && total <= PE_MAX_LENGTH ? total : 1);
    if (!in_range(n, 1, PE_MAX_LENGTH) || (!too_large && total != n)) bad |= BIT(6);
    int64_t need_angles = (bad & (BIT(6) | BIT(7))) ? -1 : mul_size(n, dim / 2);
    if (want_angles && need_angles > MAXE) too_large = 1;
    if (!bad && !too_large && 3 * (int64_t)n > FUZZ_CAP) {   // valid, but the ids are above the cap
        free(segments), free(seconds);
        return;
    }
    int angles_given = want_angles && !(!bad && !too_large && need_angles > FUZZ_CAP);   // else NULL
    float *ids = alloc_exact(in_range(n, 1, PE_MAX_LENGTH) ? 3 * (int64_t)n : -1, sizeof(float), NULL);
    float *angles = angles_given ? alloc_exact(need_angles > FUZZ_CAP ? -1 : need_angles, sizeof(float), NULL) : NULL;
    pe_status st =
        pe_mrope((nulls & 1) ? NULL : ids, angles, (nulls & 4) ? NULL : segments, (nulls & 8) ? NULL : seconds, count,
                 n, dim, base, (nulls & 16) ? NULL : section, merge, tps);
    if (expect("pe_mrope", st, bad, too_large, 0)) {
        // The ids, rebuilt from the rules in mrope.h: exact small integers.
        int64_t k = 0;
        double start = 0.0;
        for (int32_t s = 0; s < count; s++) {
            const int32_t *seg = segments + 4 * s;
            if (seg[0] == PE_SEG_TEXT) {
                for (int32_t j = 0; j < seg[1]; j++, k++)
                    for (int a = 0; a < 3; a++)
                        REQUIRE(ids[a * (int64_t)n + k] == (float)(start + j),
                                "pe_mrope: id [%d, %lld] is %g, expected %g", a, (long long)k, ids[a * (int64_t)n + k],
                                start + j);
                start += seg[1];
                continue;
            }
            int32_t gh = seg[2] / merge, gw = seg[3] / merge;
            double top = 0.0;
            for (int32_t f = 0; f < seg[1]; f++) {
                double t = mrope_time(seg[0], seconds[s], f, tps);
                top = fmax(top, t);
                for (int32_t y = 0; y < gh; y++)
                    for (int32_t x = 0; x < gw; x++, k++) {
                        const double want[3] = {start + t, start + y, start + x};
                        for (int a = 0; a < 3; a++)
                            REQUIRE(ids[a * (int64_t)n + k] == (float)want[a],
                                    "pe_mrope: id [%d, %lld] is %g, expected %g", a, (long long)k,
                                    ids[a * (int64_t)n + k], want[a]);
                    }
            }
            start += fmax(top, fmax(gh - 1, gw - 1)) + 1.0;
        }
        REQUIRE(k == n, "pe_mrope: %lld tokens from the segments, n = %d", (long long)k, n);
        for (int64_t j = 0; j < 3 * (int64_t)n; j++)
            REQUIRE(is_integer(ids[j]) && ids[j] >= 0.0f && ids[j] <= (float)PE_MROPE_MAX_ID,
                    "pe_mrope: id %lld is %g (expected an integer in [0, 2^24])", (long long)j, ids[j]);
        if (angles != NULL) {   // angle[k, i] = ids[axis(i), k] · base^(−2i/dim)
            int64_t half = dim / 2, idx[300];
            int samples = pick(idx, (int64_t)n * half);
            for (int q = 0; q < samples; q++) {
                int64_t tok = idx[q] / half, i = idx[q] % half;
                int axis = i < section[0] ? 0 : i < section[0] + section[1] ? 1 : 2;
                float want = (float)((double)ids[axis * (int64_t)n + tok] * pow(base, -2.0 * (double)i / (double)dim));
                REQUIRE(angles[idx[q]] == want, "pe_mrope: angle [%lld, %lld] is %g, expected %g", (long long)tok,
                        (long long)i, angles[idx[q]], want);
            }
        }
    }
    free(ids);
    free(angles);
    free(segments);
    free(seconds);
}

// --- rope -------------------------------------------------------------------------------------------------

static pe_rope_config rd_rope_config(reader *r) {
    pe_rope_config c;
    c.length = rd_int(r, 16);
    c.dim = rd_int(r, 8);
    c.base = rd_double(r, 10000.0);
    c.partial_rotary_factor = rd_double(r, 1.0);
    c.max_position_embeddings = rd_int(r, 0);
    c.rope_type = rd_enum(r, 7, 0);   // 0 .. 6 (longrope) and one past
    c.factor = rd_double(r, 2.0);
    c.original_max_position_embeddings = rd_int(r, 0);
    c.beta_fast = rd_double(r, 32.0);
    c.beta_slow = rd_double(r, 1.0);
    c.truncate = rd_enum(r, 2, 1);
    c.mscale = rd_double(r, NAN);
    c.mscale_all_dim = rd_double(r, NAN);
    c.attention_factor = rd_double(r, NAN);
    c.low_freq_factor = rd_double(r, 1.0);
    c.high_freq_factor = rd_double(r, 4.0);
    return c;
}

static int finite_positive(double v) { return isfinite(v) && v > 0.0; }

// rotary_dim when dim and partial_rotary_factor are valid, else 0.
static int32_t rope_rotary(const pe_rope_config *c) {
    if (!in_range(c->dim, 2, PE_MAX_DIM) || !(c->partial_rotary_factor > 0.0 && c->partial_rotary_factor <= 1.0))
        return 0;
    return (int32_t)((double)c->dim * c->partial_rotary_factor);
}

// Invalid spec fields (field k → argument shift + k), from rope.h's struct comments and the
// reference (docs/reference.md; rotary_dim even; ≥ 4 where d/(d−2) is taken).
static uint64_t rope_bad(const pe_rope_config *c, int shift) {
    uint64_t bad = 0;
#define FIELD(k) BIT(shift + (k))
    if (!in_range(c->length, 1, PE_MAX_LENGTH)) bad |= FIELD(1);
    if (!in_range(c->dim, 2, PE_MAX_DIM)) bad |= FIELD(2);
    if (!base_valid(c->base)) bad |= FIELD(3);
    if (!(c->partial_rotary_factor > 0.0 && c->partial_rotary_factor <= 1.0)) bad |= FIELD(4);
    if (c->max_position_embeddings < 0) bad |= FIELD(5);
    if (!in_range(c->rope_type, PE_ROPE_DEFAULT, PE_ROPE_LONGROPE)) return bad | FIELD(6);
    int32_t rotary = rope_rotary(c);
    int32_t min = c->rope_type == PE_ROPE_DYNAMIC || c->rope_type == PE_ROPE_NTK ? 4 : 2;
    if (!(bad & (FIELD(2) | FIELD(4))) && (rotary < min || rotary % 2 != 0)) bad |= FIELD(2) | FIELD(4);
    if (c->rope_type == PE_ROPE_DEFAULT) return bad;
    if (c->rope_type == PE_ROPE_LONGROPE) {
        // The harness passes no factor lists (NULL), so longrope is always refused: on the lists
        // (field 17) or on a scalar field checked before them.
        if (c->original_max_position_embeddings < 0) bad |= FIELD(8);
        if (!isnan(c->factor) && !finite_positive(c->factor)) bad |= FIELD(7);
        int32_t o =
            c->original_max_position_embeddings > 0 ? c->original_max_position_embeddings : c->max_position_embeddings;
        if (o < 1) bad |= FIELD(5) | FIELD(8);
        if (!isnan(c->attention_factor) && !(finite_positive(c->attention_factor) && c->attention_factor <= FLT_MAX))
            bad |= FIELD(14);
        return bad | FIELD(17);
    }
    if (!finite_positive(c->factor)) bad |= FIELD(7);
    if (c->original_max_position_embeddings < 0) bad |= FIELD(8);
    switch (c->rope_type) {
    case PE_ROPE_DYNAMIC:
        if (c->max_position_embeddings == 0 && c->original_max_position_embeddings == 0) bad |= FIELD(5) | FIELD(8);
        break;
    case PE_ROPE_YARN:
        if (c->max_position_embeddings == 0 && c->original_max_position_embeddings == 0) bad |= FIELD(5) | FIELD(8);
        if (!finite_positive(c->beta_fast)) bad |= FIELD(9);
        if (!finite_positive(c->beta_slow) || c->beta_slow > c->beta_fast) bad |= FIELD(10);
        if (c->truncate != 0 && c->truncate != 1) bad |= FIELD(11);
        if (!isnan(c->mscale) && !(isfinite(c->mscale) && c->mscale >= 0.0)) bad |= FIELD(12);
        if (!isnan(c->mscale_all_dim) && !(isfinite(c->mscale_all_dim) && c->mscale_all_dim >= 0.0)) bad |= FIELD(13);
        if (!isnan(c->attention_factor) && !(finite_positive(c->attention_factor) && c->attention_factor <= FLT_MAX))
            bad |= FIELD(14);   // rope.h: at most FLT_MAX
        break;
    case PE_ROPE_LLAMA3:
        if (c->original_max_position_embeddings < 1) bad |= FIELD(8);
        if (!finite_positive(c->low_freq_factor)) bad |= FIELD(15);
        if (!(isfinite(c->high_freq_factor) && c->high_freq_factor >= c->low_freq_factor)) bad |= FIELD(16);
        break;
    default: break;
    }
#undef FIELD
    return bad;
}

// Frequencies and attention factor of an accepted spec: finite, and for the types with a closed
// form, exactly that form.
static void check_frequencies(const char *kernel, const pe_rope_config *c, const double *inv_freq, double af) {
    const int32_t d = rope_rotary(c), n = d / 2;
    REQUIRE(finite_positive(af) && af <= FLT_MAX, "%s: attention factor %g", kernel, af);
    if (c->rope_type != PE_ROPE_YARN)
        REQUIRE(af == 1.0, "%s: attention factor %g for a type other than yarn", kernel, af);
    for (int32_t i = 0; i < n; i++) {
        REQUIRE(isfinite(inv_freq[i]) && inv_freq[i] >= 0.0, "%s: inv_freq[%d] = %g", kernel, i, inv_freq[i]);
        double plain = 1.0 / pow(c->base, (double)(2 * i) / (double)d);
        if (c->rope_type == PE_ROPE_DEFAULT)
            REQUIRE(inv_freq[i] == plain, "%s: default inv_freq[%d] = %.17g, expected %.17g", kernel, i, inv_freq[i],
                    plain);
        if (c->rope_type == PE_ROPE_LINEAR)
            REQUIRE(inv_freq[i] == plain / c->factor, "%s: linear inv_freq[%d] = %.17g, expected %.17g", kernel, i,
                    inv_freq[i], plain / c->factor);
    }
}

// cos or sin of p·inv_freq in long double, when the product is small enough for that to be
// accurate (else returns 0 and the sample is skipped).
static int ref_angle(long double p, double inv_freq, long double *cos_out, long double *sin_out) {
    long double angle = p * (long double)inv_freq;
    if (!(angle <= 4294967296.0L)) return 0;
    *cos_out = cosl(angle);
    *sin_out = sinl(angle);
    return 1;
}

static void fuzz_rope(reader *r, uint64_t nulls) {
    const uint8_t tables = rd_u8(r, 7);   // bit 0: angles, bit 1: cos, bit 2: sin
    pe_rope_config c = rd_rope_config(r);
    const int want_angles = tables & 1, want_cos = (tables >> 1) & 1, want_sin = (tables >> 2) & 1;
    uint64_t bad = rope_bad(&c, 5);
    if (!want_angles && !want_cos && !want_sin) bad |= BIT(1);
    if (want_cos != want_sin) bad |= BIT(want_cos ? 3 : 2);   // the missing one is named
    if (nulls & 1) bad |= BIT(4);
    if (nulls & 2) bad |= BIT(5);
    const int32_t n = rope_rotary(&c) / 2;
    int64_t need = mul_size(c.length, n);
    int too_large = !(bad & (BIT(6) | BIT(7) | BIT(9))) && need > MAXE;
    if (!bad && !too_large && need > FUZZ_CAP) return;
    const int64_t alloc = bad || too_large ? -1 : need;
    float *angles = want_angles ? alloc_exact(alloc, sizeof(float), NULL) : NULL;
    float *cos_out = want_cos ? alloc_exact(alloc, sizeof(float), NULL) : NULL;
    float *sin_out = want_sin ? alloc_exact(alloc, sizeof(float), NULL) : NULL;
    double *inv_freq = alloc_exact(bad || n == 0 ? -1 : n, sizeof(double), NULL), af = -1.0;
    pe_status st = rope_c(angles, cos_out, sin_out, (nulls & 1) ? NULL : inv_freq, (nulls & 2) ? NULL : &af, &c);
    // A frequency that comes out non-finite is reported on factor (rope.h: pe_rope_inv_freq).
    if (expect("pe_rope", st, bad, too_large, BIT(5 + 7))) {
        check_frequencies("pe_rope", &c, inv_freq, af);
        int64_t idx[300];
        int count = pick(idx, need);
        for (int k = 0; k < count; k++) {
            int64_t p = idx[k] / n, i = idx[k] % n;
            if (angles != NULL)
                REQUIRE(angles[idx[k]] == (float)((double)p * inv_freq[i]),
                        "pe_rope: angle [%lld, %lld] is %.9g, expected %.9g", (long long)p, (long long)i,
                        angles[idx[k]], (float)((double)p * inv_freq[i]));
            long double cw, sw;
            if (cos_out != NULL && ref_angle((long double)p, inv_freq[i], &cw, &sw)) {
                check_close("pe_rope cos", cos_out[idx[k]], cw, 2e-7, idx[k]);
                check_close("pe_rope sin", sin_out[idx[k]], sw, 2e-7, idx[k]);
            }
        }
        if (cos_out != NULL) {
            check_bounded("pe_rope cos", cos_out, need, 1.0f);
            check_bounded("pe_rope sin", sin_out, need, 1.0f);
        }
        if (angles != NULL)
            for (int64_t k = 0; k < need; k++) REQUIRE(!isnan(angles[k]), "pe_rope: angle %lld is NaN", (long long)k);
        if (need <= FULL_CHECK) {   // the scalar reference build of the same spec, bit for bit
            float *a2 = alloc_exact(need, sizeof(float), NULL), *c2 = alloc_exact(need, sizeof(float), NULL);
            float *s2 = alloc_exact(need, sizeof(float), NULL);
            double *inv2 = alloc_exact(n, sizeof(double), NULL), af2 = 0.0;
            REQUIRE(pe_rope_variant(a2, c2, s2, inv2, &af2, &c, pe_rope_angles_scalar, pe_rotate_table_scalar, NULL) ==
                        PE_OK,
                    "pe_rope_variant (scalar) refuses what pe_rope accepts");
            REQUIRE(af2 == af && memcmp(inv2, inv_freq, (size_t)n * sizeof(double)) == 0,
                    "pe_rope: scalar frequencies differ");
            REQUIRE(angles == NULL || memcmp(a2, angles, (size_t)need * sizeof(float)) == 0,
                    "pe_rope: SIMD and scalar angles differ");
            REQUIRE(cos_out == NULL || (memcmp(c2, cos_out, (size_t)need * sizeof(float)) == 0 &&
                                        memcmp(s2, sin_out, (size_t)need * sizeof(float)) == 0),
                    "pe_rope: SIMD and scalar cos/sin tables differ");
            free(a2), free(c2), free(s2), free(inv2);
        }
    }
    free(angles), free(cos_out), free(sin_out), free(inv_freq);
}

static void fuzz_rope_apply(reader *r, uint64_t nulls) {
    const uint8_t mode = rd_u8(r, 0);   // bit 0: in place, bit 1: partial overlap, bit 2: extreme x values
    int32_t heads = rd_int(r, 2), layout = rd_enum(r, 2, 0);
    pe_rope_config c = rd_rope_config(r);
    const uint64_t seed = rd_le(r, 8);
    const int in_place = mode & 1, overlap = !in_place && (mode & 2), extreme = (mode >> 2) & 1;
    uint64_t bad = rope_bad(&c, 6);
    if (nulls & 1) bad |= BIT(1);
    if (nulls & 2) bad |= BIT(2);
    if (nulls & 4) bad |= BIT(3);
    if (nulls & 8) bad |= BIT(4);
    if (heads < 1) bad |= BIT(5);
    if (layout != PE_ROPE_HALF && layout != PE_ROPE_INTERLEAVED) bad |= BIT(6);
    int64_t need = mul_size(mul_size(heads, c.length), c.dim);
    int too_large = !(bad & (BIT(5) | BIT(7) | BIT(8))) && need > MAXE;
    if (!bad && !too_large && need > FUZZ_CAP) return;
    const int32_t n = rope_rotary(&c) / 2, rotary = 2 * n;
    const int64_t alloc = bad || too_large ? -1 : need;   // a real, full-size overlap below
    if (overlap && !(nulls & 3)) bad |= BIT(1);           // out and x overlap without being equal
    const int64_t x_count = alloc < 0 ? FUZZ_SMALL : overlap ? alloc + 1 : alloc;
    float *x = alloc_block(x_count, sizeof(float));
    fill_floats(x, (size_t)x_count, seed, extreme);
    if (alloc > 0 && n > 0 && rope_rotary(&c) <= c.dim)   // zero pairs (both channels): their rotation is 0
        for (int64_t row = 0; row < alloc / c.dim; row++)
            for (int64_t i = row % 5; i < n; i += 5) {
                int64_t a = row * c.dim + (layout == PE_ROPE_INTERLEAVED ? 2 * i : i),
                        b = a + (layout == PE_ROPE_INTERLEAVED ? 1 : n);
                x[a] = x[b] = 0.0f;
            }
    float *x0 = alloc_block(x_count, sizeof(float));   // x before the call (in place)
    memcpy(x0, x, (size_t)x_count * sizeof(float));
    float *out = in_place ? x : overlap ? x + 1 : alloc_exact(alloc, sizeof(float), NULL);
    double *inv_freq = alloc_exact(alloc < 0 || n == 0 ? -1 : n, sizeof(double), NULL), af = -1.0;
    pe_status st = apply_c((nulls & 1) ? NULL : out, (nulls & 2) ? NULL : x, (nulls & 4) ? NULL : inv_freq,
                           (nulls & 8) ? NULL : &af, heads, layout, &c);
    // Extreme x (FLT_MAX among them) may rotate beyond float32: PE_ERR_ARG(2) (c/rope.h).
    if (expect("pe_rope_apply", st, bad, too_large, BIT(6 + 7) | (extreme ? BIT(2) : 0))) {
        check_frequencies("pe_rope_apply", &c, inv_freq, af);
        const int32_t dim = c.dim, length = c.length;
        const int64_t rows = need / dim;
        // Pass-through channels are copied bit for bit; a row with finite x of moderate size
        // has finite outputs whenever af is moderate too (no NaN from finite input).
        for (int64_t row = 0; row < rows; row++) {
            if (rotary < dim)
                REQUIRE(memcmp(out + row * dim + rotary, x0 + row * dim + rotary,
                               sizeof(float) * (size_t)(dim - rotary)) == 0,
                        "pe_rope_apply: channels past rotary_dim changed in row %lld", (long long)row);
        }
        // |x| < 8 and 16·af below the float32 range: no product can overflow.
        if (!extreme && af <= FLT_MAX / 16)
            for (int64_t k = 0; k < need; k++)
                REQUIRE(isfinite(out[k]),
                        "pe_rope_apply: out[%lld] = %g from finite x in [-8, 8) (attention factor %g)", (long long)k,
                        out[k], af);
        // Rotated pairs against a long double evaluation.
        int64_t idx[300];
        int count = pick(idx, rows * n);
        for (int q = 0; count > 0 && n > 0 && q < count; q++) {
            int64_t row = idx[q] / n, i = idx[q] % n, p = row % length;
            int64_t a = row * dim + (layout == PE_ROPE_HALF ? i : 2 * i), b = a + (layout == PE_ROPE_HALF ? n : 1);
            long double cw, sw, xa = x0[a], xb = x0[b];
            if (x0[a] == 0.0f && x0[b] == 0.0f)   // out = x·(af·cos) ∓ x·(af·sin) = 0 for any finite af
                REQUIRE(out[a] == 0.0f && out[b] == 0.0f,
                        "pe_rope_apply: the zero pair %lld of row %lld became (%g, %g) (attention factor %g)",
                        (long long)i, (long long)row, out[a], out[b], af);
            if (!ref_angle((long double)p, inv_freq[i], &cw, &sw) || !isfinite(x0[a]) || !isfinite(x0[b])) continue;
            long double wa = (xa * cw - xb * sw) * af, wb = (xb * cw + xa * sw) * af;
            long double tol = 1e-6L * (long double)af * (fabsl(xa) + fabsl(xb)) + 1e-37L;
            if (!(fabsl(wa) < 1e38L && fabsl(wb) < 1e38L && tol < 1e37L)) continue;   // float32 overflow territory
            REQUIRE(fabsl(out[a] - wa) <= tol && fabsl(out[b] - wb) <= tol,
                    "pe_rope_apply: pair %lld of row %lld is (%g, %g), expected (%Lg, %Lg)", (long long)i,
                    (long long)row, out[a], out[b], wa, wb);
        }
        if (need <= FULL_CHECK && !overlap) {   // scalar reference build, bit for bit
            float *o2 = alloc_exact(need, sizeof(float), NULL);
            double *inv2 = alloc_exact(n, sizeof(double), NULL), af2 = 0.0;
            REQUIRE(pe_rope_apply_variant(o2, x0, inv2, &af2, heads, layout, &c, pe_rotate_table_scalar,
                                          pe_rope_rotate_scalar, NULL) == PE_OK,
                    "pe_rope_apply_variant (scalar) refuses what pe_rope_apply accepts");
            REQUIRE(memcmp(o2, out, (size_t)need * sizeof(float)) == 0,
                    "pe_rope_apply: SIMD and scalar outputs differ");
            free(o2), free(inv2);
        }
    }
    if (!in_place && !overlap) free(out);
    free(x), free(x0), free(inv_freq);
}

// --- axial 2-D RoPE (vision.h) and rotation by given tables (rope.h) ---------------------------------

static void fuzz_rope_axial(reader *r, uint64_t nulls) {
    const uint8_t tables = rd_u8(r, 7);   // bit 0: angles, bit 1: cos, bit 2: sin
    int32_t height = rd_int(r, 3), width = rd_int(r, 4), rotary = rd_int(r, 8);
    double base = rd_double(r, 100.0);
    const int want_angles = tables & 1, want_cos = (tables >> 1) & 1, want_sin = (tables >> 2) & 1;
    uint64_t bad = 0;
    if (!want_angles && !want_cos && !want_sin) bad |= BIT(1);
    if (want_cos != want_sin) bad |= BIT(want_cos ? 3 : 2);
    if (nulls & 1) bad |= BIT(4);
    if (!in_range(height, 1, PE_MAX_GRID)) bad |= BIT(5);
    if (!in_range(width, 1, PE_MAX_GRID)) bad |= BIT(6);
    if (!(in_range(rotary, 4, PE_MAX_DIM) && rotary % 4 == 0)) bad |= BIT(7);
    if (!base_valid(base)) bad |= BIT(8);
    const int32_t F = (bad & BIT(7)) ? 0 : rotary / 2, half = F / 2;   // F frequency pairs, F/2 per axis
    const int64_t tokens = mul_size(height, width), need = mul_size(tokens, F);
    const int too_large = !(bad & (BIT(5) | BIT(6) | BIT(7))) && (tokens > PE_MAX_LENGTH || need > MAXE);
    if (!bad && !too_large && need > FUZZ_CAP) return;
    const int64_t alloc = bad || too_large ? -1 : need;
    float *angles = want_angles ? alloc_exact(alloc, sizeof(float), NULL) : NULL;
    float *cos_out = want_cos ? alloc_exact(alloc, sizeof(float), NULL) : NULL;
    float *sin_out = want_sin ? alloc_exact(alloc, sizeof(float), NULL) : NULL;
    double *inv_freq = alloc_exact(bad || F == 0 ? -1 : F, sizeof(double), NULL);
    pe_status st = pe_rope_axial(angles, cos_out, sin_out, (nulls & 1) ? NULL : inv_freq, height, width, rotary, base);
    if (expect("pe_rope_axial", st, bad, too_large, 0)) {
        // θ_j = base^(−2j/F) for both halves; angle[k, i] = axis · θ (row for i < F/2, column after).
        for (int32_t i = 0; i < F; i++) {
            double want = pow(base, -2.0 * (double)(i % half) / (double)F);
            REQUIRE(inv_freq[i] == want, "pe_rope_axial: inv_freq[%d] = %.17g, expected %.17g", i, inv_freq[i], want);
        }
        int64_t idx[300];
        int count = pick(idx, need);
        for (int q = 0; q < count; q++) {
            int64_t k = idx[q] / F, i = idx[q] % F;
            double axis = (double)(i < half ? k / width : k % width),
                   theta = pow(base, -2.0 * (double)(i % half) / (double)F);
            if (angles != NULL)
                REQUIRE(angles[idx[q]] == (float)(axis * theta),
                        "pe_rope_axial: angle [%lld, %lld] is %.9g, expected %.9g", (long long)k, (long long)i,
                        angles[idx[q]], (float)(axis * theta));
            long double cw, sw;
            if (cos_out != NULL && ref_angle((long double)axis, theta, &cw, &sw)) {
                check_close("pe_rope_axial cos", cos_out[idx[q]], cw, 2e-7, idx[q]);
                check_close("pe_rope_axial sin", sin_out[idx[q]], sw, 2e-7, idx[q]);
            }
        }
        if (cos_out != NULL) {
            check_bounded("pe_rope_axial cos", cos_out, need, 1.0f);
            check_bounded("pe_rope_axial sin", sin_out, need, 1.0f);
        }
    }
    free(angles), free(cos_out), free(sin_out), free(inv_freq);
}

static void fuzz_rope_apply_tables(reader *r, uint64_t nulls) {
    // mode bit 0: in place; bit 1: out overlaps x; bit 2: extreme values; bit 3: out overlaps cos_table
    const uint8_t mode = rd_u8(r, 0);
    int32_t heads = rd_int(r, 2), length = rd_int(r, 4), dim = rd_int(r, 8), rotary = rd_int(r, 8);
    int32_t layout = rd_enum(r, 2, 0);
    const uint64_t seed = rd_le(r, 8);
    const int in_place = mode & 1, overlap_x = !in_place && (mode & 2), extreme = (mode >> 2) & 1;
    const int overlap_table = !in_place && !overlap_x && (mode & 8);
    uint64_t bad = 0;
    for (int k = 0; k < 4; k++)
        if (nulls & (1u << k)) bad |= BIT(k + 1);
    if (heads < 1) bad |= BIT(5);
    if (!in_range(length, 1, PE_MAX_LENGTH)) bad |= BIT(6);
    if (!in_range(dim, 2, PE_MAX_DIM)) bad |= BIT(7);
    if (!(rotary >= 2 && rotary <= dim && rotary % 2 == 0)) bad |= BIT(8);
    if (layout != PE_ROPE_HALF && layout != PE_ROPE_INTERLEAVED) bad |= BIT(9);
    const int64_t need = mul_size(mul_size(heads, length), dim);
    const int too_large = !(bad & (BIT(5) | BIT(6) | BIT(7))) && need > MAXE;
    if (!bad && !too_large && need > FUZZ_CAP) return;
    // Buffers of the documented sizes when the shape is valid (else FUZZ_SMALL floats each); the
    // overlaps are then real, full-size ones.
    const int sized = !bad && !too_large;
    const int64_t n = sized ? rotary / 2 : 0, xn = sized ? need : FUZZ_SMALL,
                  tn = sized ? mul_size(length, n) : FUZZ_SMALL;
    if (overlap_x && !(nulls & 3)) bad |= BIT(1);
    if (overlap_table && !(nulls & 5)) bad |= BIT(1) | BIT(3);   // rope.h: "partly overlapping buffers"
    float *x_block = alloc_block(xn + (overlap_x ? 1 : 0), sizeof(float));
    float *out_block = in_place || overlap_x ? NULL : alloc_block(xn + (overlap_table ? tn - 1 : 0), sizeof(float));
    float *cos_block = overlap_table ? NULL : alloc_exact(tn, sizeof(float), NULL);
    float *sin_t = alloc_exact(tn, sizeof(float), NULL);
    float *x = x_block, *out = in_place ? x : overlap_x ? x + 1 : out_block;
    float *cos_t = overlap_table ? out_block + xn - 1 : cos_block;   // overlapping out's last float
    fill_floats(x_block, (size_t)(xn + (overlap_x ? 1 : 0)), seed, extreme);
    fill_floats(cos_t, (size_t)tn, seed ^ 0xC05, extreme);
    fill_floats(sin_t, (size_t)tn, seed ^ 0x5E1, extreme);
    float *x0 = alloc_exact(xn, sizeof(float), NULL), *cos0 = alloc_exact(tn, sizeof(float), NULL);
    memcpy(x0, x, (size_t)xn * sizeof(float));
    memcpy(cos0, cos_t, (size_t)tn * sizeof(float));
    pe_status st = pe_rope_apply_tables((nulls & 1) ? NULL : out, (nulls & 2) ? NULL : x, (nulls & 4) ? NULL : cos_t,
                                        (nulls & 8) ? NULL : sin_t, heads, length, dim, rotary, layout);
    if (expect("pe_rope_apply_tables", st, bad, too_large, extreme ? BIT(2) : 0)) {
        // Sampled rows, every element, exactly: the float32 operations of rope.h's formula (no FMA
        // on either side).
        const int64_t rows = need / dim;
        int64_t idx[300];
        int count = pick(idx, rows);
        for (int q = 0; q < count; q++) {
            const int64_t row = idx[q], p = row % length;
            for (int64_t c = 0; c < dim; c++) {
                float want;
                if (c >= 2 * n) {
                    want = x0[row * dim + c];
                } else {
                    int64_t i = layout == PE_ROPE_HALF ? c % n : c / 2,
                            first = layout == PE_ROPE_HALF ? c < n : c % 2 == 0;
                    int64_t a = row * dim + (layout == PE_ROPE_HALF ? i : 2 * i),
                            b = a + (layout == PE_ROPE_HALF ? n : 1);
                    float co = cos0[p * n + i], si = sin_t[p * n + i], xa = x0[a], xb = x0[b];
                    want = first ? xa * co - xb * si : xb * co + xa * si;
                }
                float got = out[row * dim + c];
                // Where the float32 operations overflow for finite x, rope.h's float64 value of
                // the same operands may be given instead (rows of |x| past the fast path's bound).
                if (c < 2 * n && !isfinite(want) && memcmp(&got, &want, 4) != 0) {
                    int64_t i = layout == PE_ROPE_HALF ? c % n : c / 2,
                            first = layout == PE_ROPE_HALF ? c < n : c % 2 == 0;
                    int64_t a = row * dim + (layout == PE_ROPE_HALF ? i : 2 * i),
                            b = a + (layout == PE_ROPE_HALF ? n : 1);
                    double co = cos0[p * n + i], si = sin_t[p * n + i], xa = x0[a], xb = x0[b];
                    if (isfinite(xa) && isfinite(xb)) want = (float)(first ? xa * co - xb * si : xb * co + xa * si);
                }
                REQUIRE(memcmp(&got, &want, 4) == 0 || (isnan(got) && isnan(want)),
                        "pe_rope_apply_tables: [%lld, %lld] is %.9g, expected %.9g", (long long)row, (long long)c, got,
                        want);
            }
        }
    }
    free(x_block), free(out_block), free(cos_block), free(sin_t), free(x0), free(cos0);
}

// --- biases ------------------------------------------------------------------------------------------------

// Press et al.'s get_slopes(n), written out independently in float64.
static void ref_slopes(double *out, int32_t n) {
    int32_t closest = 1;
    while (closest * 2 <= n) closest *= 2;
    double start = pow(2.0, -pow(2.0, -(log2((double)closest) - 3.0)));
    for (int32_t h = 0; h < closest; h++) out[h] = start * pow(start, (double)h);
    if (closest < n) {
        double start2 = pow(2.0, -pow(2.0, -(log2((double)(2 * closest)) - 3.0)));
        for (int32_t k = 0; k < n - closest; k++) out[closest + k] = start2 * pow(start2, (double)(2 * k));
    }
}

static void fuzz_alibi(reader *r, uint64_t nulls) {
    int32_t length = rd_int(r, 8), heads = rd_int(r, 4), mode = rd_enum(r, 2, 0);
    uint64_t bad = 0;
    if (nulls & 1) bad |= BIT(1);
    if (nulls & 2) bad |= BIT(2);
    if (!in_range(length, 1, PE_MAX_BIAS_LENGTH)) bad |= BIT(3);
    if (!in_range(heads, 1, PE_MAX_ALIBI_HEADS)) bad |= BIT(4);
    if (mode != PE_BIAS_CAUSAL && mode != PE_BIAS_SYMMETRIC) bad |= BIT(5);
    int64_t need = mul_size(heads, mul_size(length, length));
    int too_large = need > MAXE;
    if (!bad && !too_large && need > FUZZ_CAP) return;
    float *out = alloc_exact(bad || too_large ? -1 : need, sizeof(float), NULL);
    float *slopes = alloc_exact(bad || too_large ? -1 : heads, sizeof(float), NULL);
    pe_status st = pe_alibi((nulls & 1) ? NULL : out, (nulls & 2) ? NULL : slopes, length, heads, mode);
    if (expect("pe_alibi", st, bad, too_large, 0)) {
        double m[PE_MAX_ALIBI_HEADS];
        ref_slopes(m, heads);
        for (int32_t h = 0; h < heads; h++)
            REQUIRE(slopes[h] == (float)m[h] && slopes[h] > 0.0f, "pe_alibi: slope %d is %.9g, get_slopes gives %.17g",
                    h, slopes[h], m[h]);
        int64_t idx[300];
        int count = need <= FULL_CHECK ? 0 : pick(idx, need);
        for (int64_t q = 0; q < (need <= FULL_CHECK ? need : count); q++) {
            int64_t at = need <= FULL_CHECK ? q : idx[q];
            int64_t h = at / ((int64_t)length * length), i = at / length % length, j = at % length;
            float want =
                mode == PE_BIAS_CAUSAL && j > i ? -INFINITY : (float)(0.0 - m[h] * (double)(i > j ? i - j : j - i));
            REQUIRE(out[at] == want && !signbit(out[at]) == !signbit(want),
                    "pe_alibi: [%lld, %lld, %lld] is %.9g, expected %.9g", (long long)h, (long long)i, (long long)j,
                    out[at], want);
        }
    }
    free(out), free(slopes);
}

// Checks a (length, length) Toeplitz table entry by entry against f(j − i) (sampled when big).
typedef float (*rel_fn)(int32_t r, const void *ctx);

static void check_relative(const char *kernel, const float *out, int32_t length, rel_fn f, const void *ctx) {
    const int64_t need = (int64_t)length * length;
    int64_t idx[300];
    int count = need <= FULL_CHECK ? 0 : pick(idx, need);
    for (int64_t q = 0; q < (need <= FULL_CHECK ? need : count); q++) {
        int64_t at = need <= FULL_CHECK ? q : idx[q];
        int32_t i = (int32_t)(at / length), j = (int32_t)(at % length);
        float want = f(j - i, ctx);
        REQUIRE(memcmp(&out[at], &want, 4) == 0, "%s: [%d, %d] is %.9g, expected %.9g", kernel, i, j, out[at], want);
    }
    if (need <= FULL_CHECK) {   // the scalar Toeplitz fill from the same first and last rows
        float *ref = alloc_exact(need, sizeof(float), NULL);
        memcpy(ref, out, sizeof(float) * (size_t)length);
        memcpy(ref + need - length, out + need - length, sizeof(float) * (size_t)length);
        pe_toeplitz_fill_scalar(ref, length);
        REQUIRE(memcmp(ref, out, sizeof(float) * (size_t)need) == 0, "%s: SIMD and scalar Toeplitz fills differ",
                kernel);
        free(ref);
    }
}

typedef struct {
    int32_t num_buckets, max_distance, bidirectional;
} t5_ctx;

// T5's _relative_position_bucket (transformers), with its float32 log branch (relative.c's
// comment): independently written here.
static float t5_ref(int32_t r, const void *p) {
    const t5_ctx *c = p;
    int32_t buckets = c->num_buckets, bucket = 0, n;
    if (c->bidirectional) {
        buckets /= 2;
        if (r > 0) bucket = buckets;
        n = r < 0 ? -r : r;
    } else {
        n = r < 0 ? -r : 0;
    }
    int32_t exact = buckets / 2;
    if (n < exact) return (float)(bucket + n);
    float y = (float)log((double)((float)n / (float)exact)) / (float)log((double)c->max_distance / (double)exact) *
              (float)(buckets - exact);
    int32_t large = exact + (y >= (float)(buckets - 1 - exact) ? buckets - 1 - exact : (int32_t)y);
    return (float)(bucket + large);
}

static void fuzz_t5(reader *r, uint64_t nulls) {
    int32_t length = rd_int(r, 8), num_buckets = rd_int(r, 32), max_distance = rd_int(r, 128), bidi = rd_enum(r, 2, 1);
    uint64_t bad = 0;
    if (nulls & 1) bad |= BIT(1);
    if (!in_range(length, 1, PE_MAX_BIAS_LENGTH)) bad |= BIT(2);
    if (!in_range(num_buckets, 4, PE_MAX_T5_BUCKETS)) bad |= BIT(3);
    if (bidi != 0 && bidi != 1) bad |= BIT(5);
    if (!(bad & (BIT(3) | BIT(5)))) {
        int32_t max_exact = (bidi ? num_buckets / 2 : num_buckets) / 2;
        if (max_distance <= max_exact || max_distance > PE_MAX_LENGTH) bad |= BIT(4);
    } else if (max_distance > PE_MAX_LENGTH || max_distance < 1) {
        bad |= BIT(4);
    }
    int64_t need = mul_size(length, length);
    if (!bad && need > FUZZ_CAP) return;
    float *out = alloc_exact(bad ? -1 : need, sizeof(float), NULL);
    pe_status st = pe_t5((nulls & 1) ? NULL : out, length, num_buckets, max_distance, bidi);
    if (expect("pe_t5", st, bad, 0, 0)) {
        t5_ctx ctx = {num_buckets, max_distance, bidi};
        check_relative("pe_t5", out, length, t5_ref, &ctx);
        for (int64_t k = 0; k < need; k++)
            REQUIRE(is_integer(out[k]) && out[k] >= 0.0f && out[k] < (float)num_buckets,
                    "pe_t5: bucket %g out of range", out[k]);
    }
    free(out);
}

static float shaw_ref(int32_t r, const void *p) {
    int32_t k = *(const int32_t *)p;
    return (float)((r < -k ? -k : r > k ? k : r) + k);
}

static void fuzz_shaw(reader *r, uint64_t nulls) {
    int32_t length = rd_int(r, 8), k = rd_int(r, 4);
    uint64_t bad = 0;
    if (nulls & 1) bad |= BIT(1);
    if (!in_range(length, 1, PE_MAX_BIAS_LENGTH)) bad |= BIT(2);
    if (!in_range(k, 0, PE_MAX_LENGTH)) bad |= BIT(3);
    int64_t need = mul_size(length, length);
    if (!bad && need > FUZZ_CAP) return;
    float *out = alloc_exact(bad ? -1 : need, sizeof(float), NULL);
    pe_status st = pe_shaw((nulls & 1) ? NULL : out, length, k);
    if (expect("pe_shaw", st, bad, 0, 0)) check_relative("pe_shaw", out, length, shaw_ref, &k);
    free(out);
}

typedef struct {
    int32_t function, mode;
    double strength, scale;
} distance_ctx;

// b(d) of relative.h, u = d / scale; −Infinity for a key after the query when causal.
static float distance_ref(int32_t r, const void *p) {
    const distance_ctx *c = p;
    if (c->mode == PE_BIAS_CAUSAL && r > 0) return -INFINITY;
    double u = (double)(r < 0 ? -r : r) / c->scale, b;
    switch (c->function) {
    case PE_DIST_LINEAR: b = 0.0 - c->strength * u; break;
    case PE_DIST_LOG: b = 0.0 - c->strength * log1p(u); break;
    case PE_DIST_GAUSSIAN: b = 0.0 - c->strength * (0.5 * u * u); break;
    default: b = 0.0 + c->strength * expm1(-u); break;
    }
    return (float)b;
}

static void fuzz_distance(reader *r, uint64_t nulls) {
    int32_t length = rd_int(r, 8), function = rd_enum(r, 4, 0);
    double strength = rd_double(r, 1.0), scale = rd_double(r, 1.0);
    int32_t mode = rd_enum(r, 2, 0);
    uint64_t bad = 0;
    if (nulls & 1) bad |= BIT(1);
    if (!in_range(length, 1, PE_MAX_BIAS_LENGTH)) bad |= BIT(2);
    if (!in_range(function, 0, 3)) bad |= BIT(3);
    if (!(strength >= 0.0 && strength <= 1000.0)) bad |= BIT(4);
    if (!(scale >= 0.01 && scale <= 1e6)) bad |= BIT(5);
    if (mode != PE_BIAS_CAUSAL && mode != PE_BIAS_SYMMETRIC) bad |= BIT(6);
    int64_t need = mul_size(length, length);
    if (!bad && need > FUZZ_CAP) return;
    float *out = alloc_exact(bad ? -1 : need, sizeof(float), NULL);
    pe_status st = pe_distance((nulls & 1) ? NULL : out, length, function, strength, scale, mode);
    if (expect("pe_distance", st, bad, 0, 0)) {
        distance_ctx ctx = {function, mode, strength, scale};
        check_relative("pe_distance", out, length, distance_ref, &ctx);
        for (int64_t k = 0; k < need; k++)
            REQUIRE(!isnan(out[k]) && out[k] <= 0.0f && (isfinite(out[k]) || mode == PE_BIAS_CAUSAL),
                    "pe_distance: element %lld is %g", (long long)k, out[k]);
    }
    free(out);
}

// --- integer, binary, learned ---------------------------------------------------------------------------

static uint64_t table_bad(uint64_t nulls, int32_t length, int32_t dim) {
    uint64_t bad = 0;
    if (nulls & 1) bad |= BIT(1);
    if (!in_range(length, 1, PE_MAX_LENGTH)) bad |= BIT(2);
    if (!in_range(dim, 1, PE_MAX_DIM)) bad |= BIT(3);
    return bad;
}

static void fuzz_absolute(reader *r, uint64_t nulls, int kind) {
    static const char *names[3] = {"pe_integer", "pe_binary", "pe_learned"};
    int32_t length = rd_int(r, 8), dim = rd_int(r, 8);
    int32_t normalize = kind == 0 ? rd_enum(r, 2, 0) : 0;
    double std = kind == 2 ? rd_double(r, 0.02) : 0.0, seed = kind == 2 ? rd_double(r, 0.0) : 0.0;
    uint64_t bad = table_bad(nulls, length, dim);
    if (kind == 0 && normalize != 0 && normalize != 1) bad |= BIT(4);
    if (kind == 2 && !(std > 0.0 && std <= 10.0)) bad |= BIT(4);
    if (kind == 2 && !(seed >= 0.0 && seed <= PE_MAX_SEED && seed == floor(seed))) bad |= BIT(5);
    int64_t need = mul_size(length, dim);
    int too_large = need > MAXE;
    if (!bad && !too_large && need > FUZZ_CAP) return;
    float *out = alloc_exact(bad || too_large ? -1 : need, sizeof(float), NULL);
    float *o = (nulls & 1) ? NULL : out;
    pe_status st = kind == 0   ? pe_integer(o, length, dim, normalize)
                   : kind == 1 ? pe_binary(o, length, dim)
                               : pe_learned(o, length, dim, std, seed);
    if (expect(names[kind], st, bad, too_large, 0)) {
        int64_t idx[300];
        int count = need <= FULL_CHECK ? 0 : pick(idx, need);
        for (int64_t q = 0; q < (need <= FULL_CHECK ? need : count); q++) {
            int64_t at = need <= FULL_CHECK ? q : idx[q];
            int64_t p = at / dim, col = at % dim;
            float want;
            if (kind == 0)
                want = !normalize ? (float)p : length == 1 ? 0.0f : (float)((double)p / (double)(length - 1));
            else if (kind == 1)
                want = col < 32 && ((p >> col) & 1) ? 1.0f : 0.0f;
            else
                want = (float)(std * pe_random_normal((uint64_t)seed, (uint32_t)p, (uint32_t)col));
            REQUIRE(out[at] == want && isfinite(out[at]), "%s: [%lld, %lld] is %.9g, expected %.9g", names[kind],
                    (long long)p, (long long)col, out[at], want);
        }
        if (kind < 2 && need <= FULL_CHECK) {   // the scalar row writers give the same rows
            float *row = alloc_exact(dim, sizeof(float), NULL);
            for (int32_t p = 0; p < length; p++) {
                if (kind == 0) pe_fill_row_scalar(row, dim, out[(int64_t)p * dim]);
                else
                    pe_bits_row_scalar(row, dim, (uint32_t)p);
                REQUIRE(memcmp(row, out + (int64_t)p * dim, (size_t)dim * sizeof(float)) == 0,
                        "%s: row %d differs from the scalar row writer", names[kind], p);
            }
            free(row);
        }
    }
    free(out);
}

// --- colorize ------------------------------------------------------------------------------------------------

static void fuzz_colorize(reader *r, uint64_t nulls) {
    int32_t count = rd_int(r, 16), map = rd_enum(r, PE_COLORMAP_COUNT, 0);
    double vmin_d = rd_double(r, -1.0), vmax_d = rd_double(r, 1.0);
    const float vmin = (float)vmin_d, vmax = (float)vmax_d;
    const uint8_t mode = rd_u8(r, 0);   // bit 0: own special colours, bit 1: extreme values
    uint8_t special[12];
    for (int k = 0; k < 12; k++) special[k] = rd_u8(r, (uint8_t)(17 * k));
    const uint64_t seed = rd_le(r, 8);
    uint64_t bad = 0;
    if (nulls & 1) bad |= BIT(1);
    if ((nulls & 2) && count > 0) bad |= BIT(2);
    if (!in_range(count, 0, PE_MAX_ELEMENTS)) bad |= BIT(3);
    if (!in_range(map, 0, PE_COLORMAP_COUNT - 1)) bad |= BIT(4);
    if (!isfinite(vmin)) bad |= BIT(5);
    float range = vmax - vmin;
    if (!isfinite(vmax) || !(vmax > vmin) || !isfinite(range) || !isfinite(256.0f / range)) bad |= BIT(6);
    if (!bad && count > FUZZ_CAP) return;
    const int64_t n = bad ? -1 : count;
    uint8_t *out = alloc_exact(n, 4, NULL);   // RGBA: 4 bytes a value
    int exact;
    float *values = alloc_exact(n, sizeof(float), &exact);
    const int64_t filled = exact ? n : FUZZ_SMALL;
    fill_floats(values, (size_t)filled, seed, (mode >> 1) & 1);
    for (int64_t k = 0; k < filled; k += 3)   // a third spread over [vmin, vmax] (and just past it)
        if (isfinite(range))
            values[k] = vmin + (float)((double)(mix64(&sample_state) >> 11) * 0x1p-53 * 1.2 - 0.1) * range;
    const uint8_t *sp = (mode & 1) ? special : NULL;
    pe_status st = pe_colorize((nulls & 1) ? NULL : out, (nulls & 2) ? NULL : values, count, map, vmin, vmax, sp);
    if (expect("pe_colorize", st, bad, 0, 0)) {
        const uint8_t *lut = pe_colormap_table(map), *def = pe_colormap_default_special(map);
        const float scale = 256.0f / (vmax - vmin);
        int64_t idx[300];
        int samples = n <= FULL_CHECK ? 0 : pick(idx, n);
        for (int64_t q = 0; q < (n <= FULL_CHECK ? n : samples); q++) {
            const int64_t k = n <= FULL_CHECK ? q : idx[q];
            float v = values[k];
            const uint8_t *want;
            if (isnan(v)) want = (sp ? sp : def) + 4 * PE_SPECIAL_NAN;
            else if (isinf(v))
                want = (sp ? sp : def) + 4 * (v > 0 ? PE_SPECIAL_POS_INF : PE_SPECIAL_NEG_INF);
            else {
                float t = (v - vmin) * scale;
                float f = floorf(t);
                int32_t idx = !(f > 0.0f) ? 0 : f >= 255.0f ? 255 : (int32_t)f;
                want = lut + 4 * idx;
            }
            REQUIRE(memcmp(out + 4 * k, want, 4) == 0,
                    "pe_colorize: pixel %lld of %.9g (vmin %.9g, vmax %.9g) is %u,%u,%u,%u, expected %u,%u,%u,%u",
                    (long long)k, v, vmin, vmax, out[4 * k], out[4 * k + 1], out[4 * k + 2], out[4 * k + 3], want[0],
                    want[1], want[2], want[3]);
        }
        if (n <= FULL_CHECK) {
            uint8_t *ref = alloc_exact(n, 4, NULL);
            pe_colorize_scalar(ref, values, count, map, vmin, vmax, sp ? sp : def);
            REQUIRE(memcmp(ref, out, (size_t)(4 * n)) == 0, "pe_colorize: SIMD and scalar pixels differ");
            free(ref);
        }
    }
    free(out), free(values);
}

// --- rope_precision ------------------------------------------------------------------------------------------

// Output size above which a pe_rope_precision call is skipped (each entry takes an exact angle
// error; the harness stays quick).
#define PRECISION_CAP ((int64_t)1 << 18)

static int same_float(float a, float b) { return a == b || (isnan(a) && isnan(b)); }

// pe_rope_precision (c/precision.h): out, cos_out, sin_out, row_error, stats, scratch (1..6),
// offset (7), four recipe dtypes (8..11), then the rope spec (12 = length ...).
static void fuzz_rope_precision(reader *r, uint64_t nulls) {
    int32_t dtypes[4];
    // dtypes 0 .. 3 and one past; inv_freq_dtype also PE_RECIPE_FLOAT32_POW (4) and one past that.
    for (int k = 0; k < 4; k++) dtypes[k] = rd_enum(r, k == 0 ? 5 : 4, k == 3 ? PE_RECIPE_FLOAT32 : PE_RECIPE_FLOAT64);
    const int32_t offset = rd_int(r, 0);
    pe_rope_config c = rd_rope_config(r);
    uint64_t bad = rope_bad(&c, 11);
    for (int k = 0; k < 6; k++)
        if (nulls & (1u << k)) bad |= BIT(k + 1);
    for (int k = 0; k < 4; k++)
        if (!in_range(dtypes[k], PE_RECIPE_FLOAT64, PE_RECIPE_FLOAT16) &&
            !(k == 0 && dtypes[k] == PE_RECIPE_FLOAT32_POW))
            bad |= BIT(8 + k);
    // Positions offset + r stay within int32; with an invalid length the bound is meaningless, and
    // the kernel may name offset as well as length.
    if (offset < 0 || (int64_t)offset > (int64_t)PE_MAX_POSITION - c.length || (bad & BIT(12))) bad |= BIT(7);
    const int32_t n = rope_rotary(&c) / 2;
    const int64_t need = mul_size(c.length, n);
    const int too_large = !(bad & (BIT(12) | BIT(13) | BIT(15))) && need > MAXE;
    if (!bad && !too_large && need > PRECISION_CAP) return;
    const int64_t alloc = bad || too_large ? -1 : need;
    float *out = alloc_exact(alloc, sizeof(float), NULL), *cos_out = alloc_exact(alloc, sizeof(float), NULL);
    float *sin_out = alloc_exact(alloc, sizeof(float), NULL);
    float *row_error = alloc_exact(bad || too_large ? -1 : c.length, sizeof(float), NULL);
    double *stats = alloc_exact(2, sizeof(double), NULL);
    double *scratch = alloc_exact(bad || too_large ? -1 : PE_PRECISION_SCRATCH(n), sizeof(double), NULL);
    pe_status st = pe_rope_precision(
        (nulls & 1) ? NULL : out, (nulls & 2) ? NULL : cos_out, (nulls & 4) ? NULL : sin_out,
        (nulls & 8) ? NULL : row_error, (nulls & 16) ? NULL : stats, (nulls & 32) ? NULL : scratch, offset, dtypes[0],
        dtypes[1], dtypes[2], dtypes[3], c.length, c.dim, c.base, c.partial_rotary_factor, c.max_position_embeddings,
        c.rope_type, c.factor, c.original_max_position_embeddings, c.beta_fast, c.beta_slow, c.truncate, c.mscale,
        c.mscale_all_dim, c.attention_factor, c.low_freq_factor, c.high_freq_factor);
    // As pe_rope: a frequency that comes out non-finite is reported on factor.
    if (expect("pe_rope_precision", st, bad, too_large, BIT(11 + 7))) {
        const float pi = (float)3.14159265358979323846;
        int64_t collisions = 0, first = -1;
        for (int32_t row = 0; row < c.length; row++) {
            float worst = 0.0f;
            int same = row > 0;
            for (int32_t i = 0; i < n; i++) {
                const int64_t at = (int64_t)row * n + i;
                const float e = out[at], cv = cos_out[at], sv = sin_out[at];
                REQUIRE(e >= 0.0f && e <= pi, "pe_rope_precision: error [%d, %d] = %.9g outside [0, pi]", row, i, e);
                REQUIRE((isnan(cv) || fabsf(cv) <= 1.0f) && (isnan(sv) || fabsf(sv) <= 1.0f),
                        "pe_rope_precision: (cos, sin) [%d, %d] = (%.9g, %.9g)", row, i, cv, sv);
                if (isnan(cv) || isnan(sv))
                    REQUIRE(e == pi, "pe_rope_precision: error %.9g with a NaN table entry [%d, %d]", e, row, i);
                if (e > worst) worst = e;
                if (same && !(same_float(cv, cos_out[at - n]) && same_float(sv, sin_out[at - n]))) same = 0;
            }
            REQUIRE(row_error[row] == worst, "pe_rope_precision: row_error[%d] = %.9g, the row's largest is %.9g", row,
                    row_error[row], worst);
            if (same) {
                collisions++;
                if (first < 0) first = (int64_t)offset + row;
            }
        }
        const double count = stats[0], at = stats[1];
        REQUIRE(is_integer(count) && count >= 0 && count <= c.length - 1, "pe_rope_precision: %g collisions", count);
        REQUIRE(count == 0 ? at == -1.0
                           : is_integer(at) && at >= (double)offset + 1 && at <= (double)offset + c.length - 1,
                "pe_rope_precision: first collision %g with %g collisions", at, count);
        // Tables in bfloat16, float16 or float32 are exact in the float32 outputs: the harness
        // counts the repeated rows itself.
        if (dtypes[3] != PE_RECIPE_FLOAT64)
            REQUIRE(count == (double)collisions && at == (double)first,
                    "pe_rope_precision: %g collisions from row %g, the tables show %lld from %lld", count, at,
                    (long long)collisions, (long long)first);
        // All in float64: the angles are right to float64 rounding of p·f (when p·f < 2^30).
        double *inv_freq = alloc_exact(n, sizeof(double), NULL), af = 0.0;
        float *angles = alloc_exact(need, sizeof(float), NULL);
        if (dtypes[0] == 0 && dtypes[1] == 0 && dtypes[2] == 0 && dtypes[3] == 0 &&
            rope_c(angles, NULL, NULL, inv_freq, &af, &c) == PE_OK)
            for (int32_t i = 0; i < n; i++)
                if (((double)offset + c.length) * inv_freq[i] < 1073741824.0)
                    for (int32_t row = 0; row < c.length; row++)
                        REQUIRE(out[(int64_t)row * n + i] <= 1e-6f,
                                "pe_rope_precision: a float64 recipe is off by %.9g at [%d, %d]",
                                out[(int64_t)row * n + i], row, i);
        free(inv_freq), free(angles);
        if (need <= FULL_CHECK) {   // the scalar reference loops, bit for bit
            float *o2 = alloc_exact(need, sizeof(float), NULL), *c2 = alloc_exact(need, sizeof(float), NULL);
            float *s2 = alloc_exact(need, sizeof(float), NULL), *r2 = alloc_exact(c.length, sizeof(float), NULL);
            double st2[2], *sc2 = alloc_exact(PE_PRECISION_SCRATCH(n), sizeof(double), NULL);
            REQUIRE(pe_rope_precision_variant(o2, c2, s2, r2, st2, sc2, offset, dtypes, &c, pe_round_array_scalar,
                                              pe_phase_array_scalar) == PE_OK,
                    "pe_rope_precision_variant (scalar) refuses what pe_rope_precision accepts");
            REQUIRE(memcmp(o2, out, (size_t)need * sizeof(float)) == 0 &&
                        memcmp(c2, cos_out, (size_t)need * sizeof(float)) == 0 &&
                        memcmp(s2, sin_out, (size_t)need * sizeof(float)) == 0 &&
                        memcmp(r2, row_error, (size_t)c.length * sizeof(float)) == 0 &&
                        memcmp(st2, stats, sizeof st2) == 0,
                    "pe_rope_precision: SIMD and scalar loops differ");
            free(o2), free(c2), free(s2), free(r2), free(sc2);
        }
    }
    free(out), free(cos_out), free(sin_out), free(row_error), free(stats), free(scratch);
}

// --- the rest of the API ------------------------------------------------------------------------------------

static void fuzz_misc(reader *r) {
    int32_t status = rd_int(r, 0);
    const char *m = pe_status_message(status);
    REQUIRE(m != NULL && m[0] != '\0', "pe_status_message(%d) is empty", status);
    int32_t simd = pe_simd_enabled();
    REQUIRE(simd == 0 || simd == 1, "pe_simd_enabled() = %d", simd);
}

// clang-format off
enum { K_SINUSOIDAL, K_SIN2D, K_SIN3D, K_MROPE, K_ROPE, K_ROPE_APPLY, K_ALIBI, K_T5, K_SHAW, K_DISTANCE,
       K_INTEGER, K_BINARY, K_LEARNED, K_COLORIZE, K_ROPE_AXIAL, K_ROPE_APPLY_TABLES, K_MISC, K_ROPE_PRECISION,
       K_COUNT };
// clang-format on

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    reader r = {data, size};
    sample_state = 0x5EED;
    for (size_t k = 0; k < size; k++) sample_state = sample_state * 0x100000001B3ull ^ data[k];
    const uint8_t kernel = rd_u8(&r, 0) % K_COUNT;
    const uint8_t flags = rd_u8(&r, 0);
    const uint64_t nulls = (flags & 0x80) ? (flags & 0x7F) : 0;   // pointer arguments to pass as NULL
    switch (kernel) {
    case K_SINUSOIDAL: fuzz_sinusoidal(&r, nulls); break;
    case K_SIN2D: fuzz_sinusoidal2d(&r, nulls); break;
    case K_SIN3D: fuzz_sinusoidal3d(&r, nulls); break;
    case K_MROPE: fuzz_mrope(&r, nulls); break;
    case K_ROPE: fuzz_rope(&r, nulls); break;
    case K_ROPE_APPLY: fuzz_rope_apply(&r, nulls); break;
    case K_ALIBI: fuzz_alibi(&r, nulls); break;
    case K_T5: fuzz_t5(&r, nulls); break;
    case K_SHAW: fuzz_shaw(&r, nulls); break;
    case K_DISTANCE: fuzz_distance(&r, nulls); break;
    case K_INTEGER: fuzz_absolute(&r, nulls, 0); break;
    case K_BINARY: fuzz_absolute(&r, nulls, 1); break;
    case K_LEARNED: fuzz_absolute(&r, nulls, 2); break;
    case K_COLORIZE: fuzz_colorize(&r, nulls); break;
    case K_ROPE_AXIAL: fuzz_rope_axial(&r, nulls); break;
    case K_ROPE_APPLY_TABLES: fuzz_rope_apply_tables(&r, nulls); break;
    case K_ROPE_PRECISION: fuzz_rope_precision(&r, nulls); break;
    default: fuzz_misc(&r); break;
    }
    return 0;
}

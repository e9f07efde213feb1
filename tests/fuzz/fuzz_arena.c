// libFuzzer harness of the Arena (c/arena.h): a tiny transformer built from arbitrary spec numbers,
// trained a few steps, evaluated, its attention dumped, its parameters read, written and
// differentiated. Only the public functions of c/arena.h are called.
//
// Input (fuzz_util.h tokens): the 13 spec arguments of pe_arena_size / pe_arena_init (train_length
// then train_length_min; a missing one defaults to train_length), then a
// control byte (NULL pointers, a misaligned or short arena), the steps to train, the evaluation's
// length, samples, seed, rope_type and factor, and a byte picking extra calls.
//
// As fuzz_kernels.c, the harness predicts every status from the header alone: PE_ERR_ARG(k) for
// an argument it finds invalid (any of them may be named), PE_ERR_TOO_LARGE only for a spec whose
// activations are large, PE_OK otherwise. On PE_OK it checks what the header promises: the
// parameter count and tensor list of the header's layout, the initial values (LayerNorm weights
// 1, biases and the t5 table 0, matrices small and finite), finite non-negative losses (or the
// arena's own "diverged" status), accuracies in [0, 1], attention rows summing to 1 with masked
// entries 0, and the tokens of the example. The arena and scratch are heap blocks of exactly the
// size asked for. Specs whose training or evaluation would be slow (the harness's estimate) run
// only the size and argument checks, so that a run stays quick.
#include <stddef.h>

#include "arena.h"
#include "fuzz_util.h"
#include "pe.h"

// Work (multiply-adds, the harness's estimate) above which a spec is not trained or evaluated.
#define WORK_CAP ((int64_t)1 << 20)
// Bytes above which an arena or scratch buffer is not allocated.
#define BYTES_CAP ((int64_t)64 << 20)

static int seed_ok(double s) { return is_integer(s) && s >= 0.0 && s <= 4294967295.0; }

// The spec's invalid fields as a mask of field numbers 1 (task) .. 13 (seed), from arena.h.
static uint64_t spec_bad(const pe_arena_spec *s) {
    uint64_t bad = 0;
    if (!in_range(s->task, PE_ARENA_COPY, PE_ARENA_SORT)) bad |= BIT(1);
    if (!in_range(s->encoding, PE_ARENA_NONE, PE_ARENA_ROPE)) bad |= BIT(2);
    if (s->causal != 0 && s->causal != 1) bad |= BIT(3);
    if (!in_range(s->layers, 1, PE_ARENA_MAX_LAYERS)) bad |= BIT(4);
    // An even head size is at least 2, so C ≥ 2 and even whatever H is.
    const int d_ok = in_range(s->d_model, 2, PE_ARENA_MAX_D_MODEL), h_ok = in_range(s->heads, 1, PE_ARENA_MAX_HEADS);
    if (!d_ok || s->d_model % 2 != 0) bad |= BIT(5);
    if (!h_ok) bad |= BIT(6);
    // "C, a multiple of heads with an even head size C/H": either field may be named.
    if (d_ok && h_ok && (s->d_model % s->heads != 0 || (s->d_model / s->heads) % 2 != 0)) bad |= BIT(5) | BIT(6);
    if (!in_range(s->symbols, 1, PE_ARENA_MAX_SYMBOLS)) bad |= BIT(7);
    const int n_ok = in_range(s->train_length, 1, PE_ARENA_MAX_TRAIN_LENGTH);
    if (!n_ok) bad |= BIT(8);
    if (s->task == PE_ARENA_KBACK && s->train_length < 3) bad |= BIT(8);   // kback scores y_3 … y_n
    if (!in_range(s->train_length_min, 1, PE_ARENA_MAX_TRAIN_LENGTH) || (n_ok && s->train_length_min > s->train_length))
        bad |= BIT(9);
    if (!in_range(s->batch, 1, PE_ARENA_MAX_BATCH)) bad |= BIT(10);
    if (!(s->lr > 0.0 && s->lr <= 1.0)) bad |= BIT(11);
    if (!(s->weight_decay >= 0.0 && s->weight_decay <= 1.0)) bad |= BIT(12);
    if (!seed_ok(s->seed)) bad |= BIT(13);
    return bad;
}

// A status against the prediction (as fuzz_kernels.c's expect); 1 for PE_OK.
static int expect(const char *fn, pe_status st, uint64_t bad, int may_be_too_large) {
    const int arg = st > 100 && st < 164 ? PE_ERR_ARG_INDEX(st) : -1;
    if (fuzz_verbose()) fprintf(stderr, "%s: status %d (invalid 0x%llx)\n", fn, st, (unsigned long long)bad);
    if (bad != 0)
        REQUIRE(arg > 0 && (bad & BIT(arg)), "%s: returned %d for arguments the harness finds invalid (mask 0x%llx)",
                fn, st, (unsigned long long)bad);
    else
        REQUIRE(st == PE_OK || (may_be_too_large && st == PE_ERR_TOO_LARGE), "%s: returned %d for valid arguments", fn,
                st);
    return st == PE_OK;
}

// T for n symbols (64-bit: n may be any int before it is validated).
static int64_t seq_len(const pe_arena_spec *s, int64_t n) { return s->causal ? 2 * n + 1 : n + 1; }

// Parameter count and tensors of the header's layout: {id, rows, cols} in order.
static int32_t layout(const pe_arena_spec *s, int32_t out[][3]) {
    const int32_t C = s->d_model, V = s->symbols + 2, H = s->heads;
    int32_t k = 0;
#define T(id, r, c) (out[k][0] = (id), out[k][1] = (r), out[k][2] = (c), k++)
    T(PE_T_WTE, V, C);
    if (s->encoding == PE_ARENA_LEARNED) T(PE_T_WPE, (int32_t)seq_len(s, s->train_length), C);
    if (s->encoding == PE_ARENA_T5) T(PE_T_T5, PE_ARENA_T5_BUCKETS, H);
    for (int32_t l = 0; l < s->layers; l++) {
        T(PE_T_LN1W, 1, C), T(PE_T_LN1B, 1, C), T(PE_T_QKVW, C, 3 * C), T(PE_T_QKVB, 1, 3 * C);
        T(PE_T_ATTPROJW, C, C), T(PE_T_ATTPROJB, 1, C), T(PE_T_LN2W, 1, C), T(PE_T_LN2B, 1, C);
        T(PE_T_FCW, C, 4 * C), T(PE_T_FCB, 1, 4 * C), T(PE_T_FCPROJW, 4 * C, C), T(PE_T_FCPROJB, 1, C);
    }
    T(PE_T_LNFW, 1, C), T(PE_T_LNFB, 1, C), T(PE_T_HEADW, C, V), T(PE_T_HEADB, 1, V);
#undef T
    return k;
}

// Multiply-adds of a forward pass over b sequences of T tokens (the harness's estimate).
static int64_t work(const pe_arena_spec *s, int64_t b, int64_t T) {
    const int64_t C = s->d_model, V = s->symbols + 2;
    return b * T * (s->layers * (12 * C * C + 2 * T * C) + C * V);
}

static void *alloc_aligned(int64_t bytes) {
    size_t n = (size_t)(bytes + 15) / 16 * 16;   // aligned_alloc: a multiple of the alignment
    void *p = aligned_alloc(16, n > 0 ? n : 16);
    if (p == NULL) abort();
    memset(p, 0xA5, n > 0 ? n : 16);
    return p;
}

static void check_params(const pe_arena_spec *s, void *arena, int32_t count, int32_t tensors[][3], int32_t nt) {
    float *params = alloc_block(count, sizeof(float));   // bounded by BYTES_CAP
    REQUIRE(pe_arena_get_params(params, arena) == PE_OK, "pe_arena_get_params refuses an initialised arena");
    int64_t at = 0;
    for (int32_t t = 0; t < nt; t++) {
        const int32_t id = tensors[t][0], n = tensors[t][1] * tensors[t][2];
        const int ln_weight = id == PE_T_LN1W || id == PE_T_LN2W || id == PE_T_LNFW;
        const int zero = id == PE_T_T5 || id == PE_T_LN1B || id == PE_T_QKVB || id == PE_T_ATTPROJB ||
                         id == PE_T_LN2B || id == PE_T_FCB || id == PE_T_FCPROJB || id == PE_T_LNFB || id == PE_T_HEADB;
        for (int32_t k = 0; k < n; k++) {
            const float v = params[at + k];
            if (ln_weight) REQUIRE(v == 1.0f, "init: LayerNorm weight (tensor %d) %g", t, v);
            else if (zero)
                REQUIRE(v == 0.0f, "init: bias or t5 table (tensor %d) %g", t, v);
            else   // 0.02·N(0, 1): far below 1 unless the generator is broken
                REQUIRE(isfinite(v) && fabsf(v) < 0.2f, "init: matrix (tensor %d) value %g", t, v);
        }
        at += n;
    }
    // Written back unchanged, read back the same; a NaN is refused and changes nothing.
    REQUIRE(pe_arena_set_params(arena, params) == PE_OK, "pe_arena_set_params refuses the arena's own parameters");
    float saved = params[count / 2];
    params[count / 2] = NAN;
    REQUIRE(pe_arena_set_params(arena, params) == PE_ERR_ARG(2), "pe_arena_set_params accepts a NaN");
    params[count / 2] = saved;
    float *again = alloc_block(count, sizeof(float));
    REQUIRE(pe_arena_get_params(again, arena) == PE_OK && memcmp(again, params, sizeof(float) * (size_t)count) == 0,
            "parameters changed by a refused write");
    (void)s;
    free(params), free(again);
}

// Loss and gradients of a batch of fuzz-chosen tokens; out-of-range ones must be refused.
static void check_gradients(const pe_arena_spec *s, void *arena, int32_t count, reader *r) {
    const int32_t T = (int32_t)seq_len(s, s->train_length), V = s->symbols + 2;
    const int32_t b = 1 + rd_u8(r, 0) % (s->batch < 2 ? 1 : 2);
    int32_t *tokens = alloc_exact((int64_t)b * T, sizeof(int32_t), NULL);
    int32_t *targets = alloc_exact((int64_t)b * T, sizeof(int32_t), NULL);
    uint64_t state = rd_le(r, 4), bad = 0;
    // 1: a token out of range, 2: a target out of range, 3: no target; 0 with bit 6: the last row
    // padded (tokens −1, targets −1) from a fuzz-chosen position ≥ 1, as a shorter example is
    const uint8_t mode = rd_u8(r, 0);
    for (int32_t k = 0; k < b * T; k++) {
        tokens[k] = (int32_t)(mix64(&state) % (uint64_t)V);
        targets[k] = (int32_t)(mix64(&state) % (uint64_t)(V + 1)) - 1;
    }
    targets[0] = 2;   // at least one target
    if (mode % 4 == 0 && (mode & 0x40)) {
        const int32_t from = 1 + (int32_t)(state % (uint64_t)(T - 1));
        for (int32_t t = from; t < T; t++) tokens[(b - 1) * T + t] = targets[(b - 1) * T + t] = -1;
    }
    if (mode % 4 == 1) tokens[b * T - 1] = (mode & 0x80) ? -2 : V, bad |= BIT(4);
    if (mode % 4 == 2) targets[b * T - 1] = (mode & 0x80) ? -2 : V, bad |= BIT(5);
    if (mode % 4 == 3) {
        for (int32_t k = 0; k < b * T; k++) targets[k] = -1;
        bad |= BIT(5);
    }
    float *grads = alloc_block(count, sizeof(float)), loss = -1.0f;
    pe_status st = pe_arena_gradients(grads, &loss, arena, tokens, targets, b);
    if (expect("pe_arena_gradients", st, bad, 0)) {
        REQUIRE(isfinite(loss) && loss >= 0.0f, "pe_arena_gradients: loss %g", loss);
        for (int32_t k = 0; k < count; k++)
            REQUIRE(isfinite(grads[k]), "pe_arena_gradients: gradient %d = %g", k, grads[k]);
        REQUIRE(pe_arena_adamw(arena, grads) == PE_OK, "pe_arena_adamw refuses finite gradients");
    }
    if (!bad)
        REQUIRE(pe_arena_gradients(grads, &loss, arena, tokens, targets, s->batch + 1) == PE_ERR_ARG(6),
                "pe_arena_gradients: a batch above the spec's is not refused");
    free(tokens), free(targets), free(grads);
}

// pe_arena_evaluate and pe_arena_attention with fuzz-chosen arguments. finite: the parameters are
// all finite (training at a high rate can leave NaN behind: the calls must still return statuses,
// but their numbers are not checked then).
static void check_evaluation(const pe_arena_spec *s, void *arena, reader *r, uint8_t control, int finite) {
    const int32_t length = rd_int(r, s->train_length), samples = rd_int(r, 4);
    const double seed = rd_double(r, 3.0);
    const int32_t rope_type = rd_enum(r, 6, 0);
    const double factor = rd_double(r, 2.0);
    int32_t bytes = -1;
    const int length_ok = in_range(length, 1, PE_ARENA_MAX_EVAL_LENGTH);
    pe_status st = pe_arena_eval_size(&bytes, arena, length);
    if (!expect("pe_arena_eval_size", st, length_ok ? 0 : BIT(3), 1)) return;
    REQUIRE(bytes > 0, "pe_arena_eval_size: %d bytes", bytes);
    // Arguments of pe_arena_evaluate: 5 length, 6 samples, 7 seed, 8 rope_type, 9 factor.
    uint64_t bad = 0;
    const int known_type = rope_type == 0 || rope_type == 1 || rope_type == 3 || rope_type == 5;
    if (!known_type) bad |= BIT(8);
    if (rope_type != 0 && known_type) {
        if (s->encoding != PE_ARENA_ROPE) bad |= BIT(8);
        if (!(isfinite(factor) && factor >= 1.0 && factor <= 1024.0)) bad |= BIT(9);   // the page's range
        if (rope_type == 5 && s->d_model / s->heads < 4) bad |= BIT(8);                // ntk: hs/(hs − 2)
    }
    if (!seed_ok(seed)) bad |= BIT(7);
    if (!in_range(samples, 1, PE_ARENA_MAX_SAMPLES)) bad |= BIT(6);
    if (s->task == PE_ARENA_KBACK && length < 3) bad |= BIT(5);   // nothing scored below 3
    const int64_t T = seq_len(s, length);
    if (!bad && work(s, samples, T) > WORK_CAP) return;
    // A scratch buffer past BYTES_CAP is given as 16 bytes: too short, which is refused too.
    const int big = bytes > BYTES_CAP;
    void *scratch = alloc_aligned(big ? 16 : bytes);
    int32_t given = big ? 16 : bytes;
    if (big) bad |= BIT(4);
    if (control & 0x40) given -= 1, bad |= BIT(4);   // one byte short
    float out[3] = {-1, -1, -1};
    st = pe_arena_evaluate(out, arena, scratch, given, length, samples, seed, rope_type, factor);
    // A forward pass that is not finite (parameters left NaN by a diverging step) is a status.
    if (st == PE_ARENA_NOT_FINITE) REQUIRE(!bad, "pe_arena_evaluate: PE_ARENA_NOT_FINITE for invalid arguments");
    else if (expect("pe_arena_evaluate", st, bad, 0) && finite) {
        REQUIRE(out[0] >= 0.0f && out[0] <= 1.0f && out[1] >= 0.0f && out[1] <= 1.0f && out[0] <= out[1],
                "pe_arena_evaluate: accuracy %g, token accuracy %g", out[0], out[1]);
        REQUIRE(isfinite(out[2]) && out[2] >= 0.0f, "pe_arena_evaluate: loss %g", out[2]);
    }
    // The attention of one example: arguments shift by one (6 length, 7 seed, 8 rope_type, 9 factor).
    uint64_t abad = 0;
    bad &= ~BIT(5);   // attention needs no target: any length ≥ 1
    if (bad & BIT(4)) abad |= BIT(5);
    if (bad & BIT(7)) abad |= BIT(7);
    if (bad & BIT(8)) abad |= BIT(8);
    if (bad & BIT(9)) abad |= BIT(9);
    const int64_t att_n = (int64_t)s->layers * s->heads * T * T;
    if (att_n > FUZZ_CAP && !abad) {
        free(scratch);
        return;
    }
    float *att = alloc_exact(abad ? -1 : att_n, sizeof(float), NULL);
    int32_t *tokens = alloc_exact(abad ? -1 : T, sizeof(int32_t), NULL);
    st = pe_arena_attention(att, tokens, arena, scratch, given, length, seed, rope_type, factor);
    if (st == PE_ARENA_NOT_FINITE) REQUIRE(!abad, "pe_arena_attention: PE_ARENA_NOT_FINITE for invalid arguments");
    else if (expect("pe_arena_attention", st, abad, 0) && finite) {
        REQUIRE(tokens[0] == PE_ARENA_BOS, "pe_arena_attention: token 0 is %d, not BOS", tokens[0]);
        for (int32_t k = 1; k < T; k++)
            REQUIRE(in_range(tokens[k], 0, s->symbols + 1), "pe_arena_attention: token %d is %d", k, tokens[k]);
        if (s->causal) REQUIRE(tokens[length + 1] == PE_ARENA_SEP, "pe_arena_attention: no SEP after x");
        for (int64_t row = 0; row < att_n / T; row++) {
            const int64_t i = row % T;
            double sum = 0.0;
            for (int64_t j = 0; j < T; j++) {
                const float w = att[row * T + j];
                REQUIRE(isfinite(w) && w >= 0.0f && w <= 1.0f, "pe_arena_attention: weight %g", w);
                if (s->causal && j > i)
                    REQUIRE(w == 0.0f, "pe_arena_attention: masked weight %g at (%lld, %lld)", w, (long long)i,
                            (long long)j);
                sum += w;
            }
            REQUIRE(fabs(sum - 1.0) < 1e-4, "pe_arena_attention: row %lld sums to %.9g", (long long)row, sum);
        }
    }
    free(att), free(tokens), free(scratch);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    reader r = {data, size};
    pe_arena_spec s;
    s.task = rd_enum(&r, 4, PE_ARENA_COPY);
    s.encoding = rd_enum(&r, 6, PE_ARENA_ROPE);
    s.causal = rd_enum(&r, 2, 1);
    s.layers = rd_int(&r, 1);
    s.d_model = rd_int(&r, 16);
    s.heads = rd_int(&r, 2);
    s.symbols = rd_int(&r, 8);
    s.train_length = rd_int(&r, 4);
    s.train_length_min = rd_int(&r, s.train_length);
    s.batch = rd_int(&r, 4);
    s.lr = rd_double(&r, 0.01);
    s.weight_decay = rd_double(&r, 0.0);
    s.seed = rd_double(&r, 1.0);
    // control: bit 0 bytes NULL, bit 1 arena NULL, bit 2 misaligned arena, bit 3 one byte short,
    // bit 4 losses NULL, bit 5 an invalid number of steps, bit 6 scratch one byte short.
    const uint8_t control = rd_u8(&r, 0);
    const int32_t steps = rd_int(&r, 2);

    const uint64_t fields = spec_bad(&s);
    int32_t bytes = -1;
    pe_status st =
        pe_arena_size((control & 1) ? NULL : &bytes, s.task, s.encoding, s.causal, s.layers, s.d_model, s.heads,
                      s.symbols, s.train_length, s.train_length_min, s.batch, s.lr, s.weight_decay, s.seed);
    const int64_t T = seq_len(&s, s.train_length);
    // PE_ERR_TOO_LARGE (past 1 GiB) is credible only when the activations alone are large: the
    // attention weights and their gradients take 2·layers·batch·heads·T² floats.
    const int64_t att_bytes = fields ? 0 : 8 * (int64_t)s.layers * s.batch * s.heads * T * T;
    if (!expect("pe_arena_size", st, ((control & 1) ? BIT(1) : 0) | (fields << 1), att_bytes > (1 << 26)) ||
        (control & 1))
        return 0;
    REQUIRE(bytes > 0 && bytes <= PE_ARENA_MAX_BYTES, "pe_arena_size: %d bytes", bytes);
    int32_t tensors[PE_ARENA_MAX_TENSORS][3];
    const int32_t nt = layout(&s, tensors);
    int64_t count = 0;
    for (int32_t t = 0; t < nt; t++) count += (int64_t)tensors[t][1] * tensors[t][2];
    REQUIRE(bytes >= 16 * count, "pe_arena_size: %d bytes for %lld parameters (with gradients and AdamW)", bytes,
            (long long)count);
    if (bytes > BYTES_CAP) return 0;

    // Init, with the argument faults the control byte asks for.
    void *block = alloc_aligned((int64_t)bytes + 16);
    void *arena = (control & 2) ? NULL : (control & 4) ? (uint8_t *)block + 8 : block;
    const int32_t given = (control & 8) ? bytes - 1 : bytes;
    uint64_t bad = 0;
    if (control & 6) bad |= BIT(1);
    if (control & 8) bad |= BIT(2);
    st = pe_arena_init(arena, given, s.task, s.encoding, s.causal, s.layers, s.d_model, s.heads, s.symbols,
                       s.train_length, s.train_length_min, s.batch, s.lr, s.weight_decay, s.seed);
    if (!expect("pe_arena_init", st, bad, 0)) {
        // An arena that was never initialised is refused by every other call.
        float loss;
        int32_t eval_bytes;
        REQUIRE(pe_arena_step(&loss, block, 1) == PE_ERR_ARG(2) &&
                    pe_arena_eval_size(&eval_bytes, block, 4) == PE_ERR_ARG(2),
                "an arena that was never initialised is accepted");
        free(block);
        return 0;
    }

    // What init laid out: info, the tensor list, the initial values.
    int32_t info[8];
    REQUIRE(pe_arena_info(info, arena) == PE_OK, "pe_arena_info refuses an initialised arena");
    const int32_t V = s.symbols + 2;
    // param_count: the tensors' floats, padded to a multiple of 4 (the SIMD width; arena.h does not
    // say so).
    REQUIRE(info[0] >= count && info[0] < count + 4 && info[1] == nt && info[2] == T &&
                info[3] == (s.encoding == PE_ARENA_LEARNED ? T : 0) && info[4] == 0 && info[5] == V &&
                info[6] == s.d_model && info[7] == s.heads,
            "pe_arena_info: [%d, %d, %d, %d, %d, %d, %d, %d], expected %lld params, %d tensors, T %d", info[0], info[1],
            info[2], info[3], info[4], info[5], info[6], info[7], (long long)count, nt, (int)T);
    int32_t *listed = alloc_exact((int64_t)nt * 5, sizeof(int32_t), NULL);
    REQUIRE(pe_arena_tensors(listed, arena) == PE_OK, "pe_arena_tensors refuses an initialised arena");
    int64_t offset = 0;
    for (int32_t t = 0; t < nt; t++) {
        const int32_t *e = listed + 5 * t;
        REQUIRE(e[0] == tensors[t][0] && e[2] == offset && e[3] == tensors[t][1] && e[4] == tensors[t][2],
                "pe_arena_tensors: entry %d is {%d, %d, %d, %d, %d}, the header's layout {%d, ·, %lld, %d, %d}", t,
                e[0], e[1], e[2], e[3], e[4], tensors[t][0], (long long)offset, tensors[t][1], tensors[t][2]);
        offset += (int64_t)e[3] * e[4];
    }
    free(listed);
    count = info[0];
    check_params(&s, arena, (int32_t)count, tensors, nt);
    float *table = alloc_exact(s.encoding == PE_ARENA_LEARNED ? (int64_t)T * s.d_model : 1, sizeof(float), NULL);
    REQUIRE(pe_arena_position_table(table, arena) == (s.encoding == PE_ARENA_LEARNED ? PE_OK : PE_ERR_ARG(2)),
            "pe_arena_position_table: wrong status for encoding %d", s.encoding);
    free(table);

    // Training steps (a few, and only for a spec that is quick to train).
    const int train = work(&s, s.batch, T) * 3 <= WORK_CAP;
    const int32_t n_steps = (control & 32) ? steps : 1 + (steps & 3);
    uint64_t step_bad = (control & 16) ? BIT(1) : 0;
    if (!in_range(n_steps, 1, PE_ARENA_MAX_STEPS)) step_bad |= BIT(3);
    if (train || step_bad) {
        float *losses = alloc_exact(step_bad ? -1 : n_steps, sizeof(float), NULL);
        st = pe_arena_step((control & 16) ? NULL : losses, arena, n_steps);
        if (st == PE_ARENA_DIVERGED) {   // lr near 1 can blow a tiny model up: a status, not a trap
            REQUIRE(!step_bad, "pe_arena_step: diverged for invalid arguments");
            if (fuzz_verbose()) fprintf(stderr, "pe_arena_step: diverged (status %d)\n", st);
        } else if (expect("pe_arena_step", st, step_bad, 0)) {
            for (int32_t k = 0; k < n_steps; k++)
                REQUIRE(isfinite(losses[k]) && losses[k] >= 0.0f, "pe_arena_step: loss %d = %g", k, losses[k]);
            REQUIRE(pe_arena_info(info, arena) == PE_OK && info[4] == n_steps, "pe_arena_info: %d steps taken, %d run",
                    info[4], n_steps);
        }
        free(losses);
    }
    float *params = alloc_block(count, sizeof(float));
    REQUIRE(pe_arena_get_params(params, arena) == PE_OK, "pe_arena_get_params refuses a trained arena");
    int finite = 1;
    for (int64_t k = 0; k < count; k++) finite &= isfinite(params[k]) != 0;
    free(params);
    if (train && finite) check_gradients(&s, arena, (int32_t)count, &r);
    check_evaluation(&s, arena, &r, control, finite);
    free(block);
    return 0;
}

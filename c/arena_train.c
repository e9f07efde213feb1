// Arena training: the arena buffer (size, layout, initialisation), AdamW, the step loop,
// evaluation, the attention dump, the position table and parameter access (see c/arena.h).
//
// One arena = a header (the spec, offsets, the tensor list, the step counters) followed by floats:
//   params, grads, AdamW m, AdamW v        (param_count each)
//   training activations and their gradients for [batch, T]   (pe_arena_acts_layout)
//   the encoding's constant tables for T: sinusoidal [T, C]; rope cos, sin [T, hs/2]; the bias
//   [H, 2T − 1] and its gradient; t5 buckets [2T − 1]
// The evaluation buffer (pe_arena_eval_size) holds the same tables for the evaluation length and
// the forward activations of a chunk of examples.
//
// AdamW is torch.optim.AdamW's update (Loshchilov & Hutter, 2019), β = (0.9, 0.95), ε = 1e-8:
//   p ← p·(1 − lr·wd)   (matrices only; wd = weight_decay)
//   m ← β1·m + (1 − β1)·g,  v ← β2·v + (1 − β2)·g²
//   p ← p − (lr / (1 − β1^t))·m / (√v / √(1 − β2^t) + ε)
// with the bias corrections in float64, then rounded to float32 once per step.
#include <math.h>
#include <string.h>

#include "arena.h"
#include "random.h"
#include "relative.h"     // pe_alibi_slopes, pe_t5_bucket
#include "rope.h"         // pe_rope_config, pe_rope_check, pe_rope_inv_freq
#include "sinusoidal.h"   // pe_sinusoidal

#define ARENA_MAGIC 0x41524E41u   // "ARNA"
#define BETA1 0.9
#define BETA2 0.95
#define ADAM_EPS 1e-8f
#define STREAM_DATA 6                 // training examples: seed + 6·2^32
#define STREAM_INIT 7                 // parameters:        seed + 7·2^32
#define STREAM_EVAL 8                 // evaluation:        eval seed + 8·2^32
#define EVAL_CHUNK_FLOATS (1 << 22)   // forward activations of one evaluation chunk, at most
#define EVAL_MAX_CHUNK 64

// Argument numbers (PE_ERR_ARG) of the entry points whose checks are shared. The spec arguments
// of pe_arena_size and pe_arena_init come in pe_arena_spec's order: SPEC_* counts from the first
// (task), whose number is SIZE_TASK or INIT_TASK.
enum {
    SPEC_TASK,
    SPEC_ENCODING,
    SPEC_CAUSAL,
    SPEC_LAYERS,
    SPEC_D_MODEL,
    SPEC_HEADS,
    SPEC_SYMBOLS,
    SPEC_TRAIN_LENGTH,
    SPEC_TRAIN_LENGTH_MIN,
    SPEC_BATCH,
    SPEC_LR,
    SPEC_WEIGHT_DECAY,
    SPEC_SEED,
};
enum { SIZE_BYTES = 1, SIZE_TASK };               // pe_arena_size(bytes, task, …)
enum { INIT_ARENA = 1, INIT_BYTES, INIT_TASK };   // pe_arena_init(arena, bytes, task, …)

// The arguments evaluate and attention share, by number (eval_setup checks them).
typedef struct {
    int32_t arena, scratch, scratch_bytes, length, seed, rope_type, factor;
} eval_args;
enum {
    EVAL_OUT = 1,
    EVAL_ARENA,
    EVAL_SCRATCH,
    EVAL_SCRATCH_BYTES,
    EVAL_LENGTH,
    EVAL_SAMPLES,
    EVAL_SEED,
    EVAL_ROPE_TYPE,
    EVAL_FACTOR
};
enum {
    ATT_ATT = 1,
    ATT_TOKENS,
    ATT_ARENA,
    ATT_SCRATCH,
    ATT_SCRATCH_BYTES,
    ATT_LENGTH,
    ATT_SEED,
    ATT_ROPE_TYPE,
    ATT_FACTOR
};
static const eval_args EVALUATE_ARGS = {EVAL_ARENA, EVAL_SCRATCH,   EVAL_SCRATCH_BYTES, EVAL_LENGTH,
                                        EVAL_SEED,  EVAL_ROPE_TYPE, EVAL_FACTOR};
static const eval_args ATTENTION_ARGS = {ATT_ARENA, ATT_SCRATCH,   ATT_SCRATCH_BYTES, ATT_LENGTH,
                                         ATT_SEED,  ATT_ROPE_TYPE, ATT_FACTOR};

typedef struct {
    uint32_t magic;
    int32_t scalar;   // 1: the scalar reference loops (native tests)
    pe_arena_spec spec;
    int32_t L, C, H, V, hs, T, Tp;   // T: training sequence length, Tp: wpe rows
    int32_t n_params, n_tensors;
    int32_t rope_type;   // the RoPE scaling the arena trains with (pe_rope_type; 0 none): pe_arena_fork
    int32_t orig_T;      // yarn's original_max_position_embeddings: T of the arena first initialised
    double factor;       // its factor (1 when rope_type is 0)
    int64_t adam_t;      // AdamW steps taken
    int64_t steps;       // training batches consumed
    int64_t bytes;
    int64_t off_params, off_grads, off_m, off_v, off_acts, off_additive, off_cos, off_sin, off_bias, off_dbias,
        off_bucket, floats;
    pe_arena_tensor tensors[PE_ARENA_MAX_TENSORS];
} arena_header;

#define HEADER_FLOATS ((int64_t)((sizeof(arena_header) + 15) / 16 * 4))

static float *arena_floats(const void *arena) { return (float *)arena + HEADER_FLOATS; }

static int64_t round4(int64_t n) { return (n + 3) & ~(int64_t)3; }

// --- spec checks and the layout --------------------------------------------------------------------

// PE_OK or PE_ERR_ARG(first + SPEC_<field>) for a bad field (first: the number of the task argument).
static pe_status check_spec(const pe_arena_spec *s, int32_t first) {
    if (s->task < PE_ARENA_COPY || s->task > PE_ARENA_SORT) return PE_ERR_ARG(first + SPEC_TASK);
    if (s->encoding < PE_ARENA_NONE || s->encoding > PE_ARENA_ROPE) return PE_ERR_ARG(first + SPEC_ENCODING);
    if (s->causal != 0 && s->causal != 1) return PE_ERR_ARG(first + SPEC_CAUSAL);
    if (s->layers < 1 || s->layers > PE_ARENA_MAX_LAYERS) return PE_ERR_ARG(first + SPEC_LAYERS);
    if (s->d_model < 2 || s->d_model > PE_ARENA_MAX_D_MODEL) return PE_ERR_ARG(first + SPEC_D_MODEL);
    if (s->heads < 1 || s->heads > PE_ARENA_MAX_HEADS) return PE_ERR_ARG(first + SPEC_HEADS);
    if (s->d_model % s->heads != 0 || (s->d_model / s->heads) % 2 != 0) return PE_ERR_ARG(first + SPEC_HEADS);
    if (s->symbols < 1 || s->symbols > PE_ARENA_MAX_SYMBOLS) return PE_ERR_ARG(first + SPEC_SYMBOLS);
    if (s->train_length < 1 || s->train_length > PE_ARENA_MAX_TRAIN_LENGTH)
        return PE_ERR_ARG(first + SPEC_TRAIN_LENGTH);
    if (s->task == PE_ARENA_KBACK && s->train_length < 3)
        return PE_ERR_ARG(first + SPEC_TRAIN_LENGTH);   // nothing scored
    if (s->train_length_min < 1 || s->train_length_min > s->train_length)
        return PE_ERR_ARG(first + SPEC_TRAIN_LENGTH_MIN);
    if (s->batch < 1 || s->batch > PE_ARENA_MAX_BATCH) return PE_ERR_ARG(first + SPEC_BATCH);
    if (!(s->lr > 0.0 && s->lr <= 1.0)) return PE_ERR_ARG(first + SPEC_LR);
    if (!(s->weight_decay >= 0.0 && s->weight_decay <= 1.0)) return PE_ERR_ARG(first + SPEC_WEIGHT_DECAY);
    if (!pe_random_seed_ok(s->seed)) return PE_ERR_ARG(first + SPEC_SEED);
    return PE_OK;
}

// A RoPE scaling for an arena (evaluate, attention, fork): PE_OK, or 1 for a bad rope_type (an
// unknown one, any scaling of an encoding other than rope, ntk with a head size below 4), 2 for a
// bad factor (not finite, or outside [1, 1024]). rope_type 0 (none) takes no factor.
static int check_scaling(const pe_arena_spec *s, int32_t hs, int32_t rope_type, double factor) {
    if (rope_type != PE_ROPE_DEFAULT && rope_type != PE_ROPE_LINEAR && rope_type != PE_ROPE_NTK &&
        rope_type != PE_ROPE_YARN)
        return 1;
    if (rope_type == PE_ROPE_DEFAULT) return PE_OK;
    if (s->encoding != PE_ARENA_ROPE) return 1;
    if (rope_type == PE_ROPE_NTK && hs < 4) return 1;
    if (!(isfinite(factor) && factor >= 1.0 && factor <= 1024.0)) return 2;
    return PE_OK;
}

static void add_tensor(arena_header *h, int32_t id, int32_t layer, int32_t rows, int32_t cols) {
    pe_arena_tensor *t = &h->tensors[h->n_tensors++];
    t->id = id;
    t->layer = layer;
    t->offset = h->n_params;
    t->rows = rows;
    t->cols = cols;
    h->n_params += (int32_t)round4((int64_t)rows * cols);   // each tensor 16-byte aligned
}

// Fills every size field of the header from a valid spec; returns the total bytes.
static int64_t plan(arena_header *h, const pe_arena_spec *s) {
    memset(h, 0, sizeof *h);
    h->magic = ARENA_MAGIC;
    h->spec = *s;
    const int32_t L = s->layers, C = s->d_model, H = s->heads, V = s->symbols + 2;
    h->L = L;
    h->C = C;
    h->H = H;
    h->V = V;
    h->hs = C / H;
    h->T = pe_arena_seq_len(s->train_length, s->causal);
    h->Tp = s->encoding == PE_ARENA_LEARNED ? h->T : 0;
    add_tensor(h, PE_T_WTE, -1, V, C);
    if (s->encoding == PE_ARENA_LEARNED) add_tensor(h, PE_T_WPE, -1, h->Tp, C);
    if (s->encoding == PE_ARENA_T5) add_tensor(h, PE_T_T5, -1, PE_ARENA_T5_BUCKETS, H);
    for (int32_t l = 0; l < L; l++) {
        add_tensor(h, PE_T_LN1W, l, 1, C);
        add_tensor(h, PE_T_LN1B, l, 1, C);
        add_tensor(h, PE_T_QKVW, l, C, 3 * C);
        add_tensor(h, PE_T_QKVB, l, 1, 3 * C);
        add_tensor(h, PE_T_ATTPROJW, l, C, C);
        add_tensor(h, PE_T_ATTPROJB, l, 1, C);
        add_tensor(h, PE_T_LN2W, l, 1, C);
        add_tensor(h, PE_T_LN2B, l, 1, C);
        add_tensor(h, PE_T_FCW, l, C, 4 * C);
        add_tensor(h, PE_T_FCB, l, 1, 4 * C);
        add_tensor(h, PE_T_FCPROJW, l, 4 * C, C);
        add_tensor(h, PE_T_FCPROJB, l, 1, C);
    }
    add_tensor(h, PE_T_LNFW, -1, 1, C);
    add_tensor(h, PE_T_LNFB, -1, 1, C);
    add_tensor(h, PE_T_HEADW, -1, C, V);
    add_tensor(h, PE_T_HEADB, -1, 1, V);
    const int64_t np = h->n_params, T = h->T, width = 2 * T - 1;
    int64_t at = 0;
    h->off_params = at, at += np;
    h->off_grads = at, at += np;
    h->off_m = at, at += np;
    h->off_v = at, at += np;
    h->off_acts = at, at += pe_arena_acts_layout(NULL, NULL, L, C, H, V, s->batch, h->T, 1);
    h->off_additive = at, at += round4(T * C);
    h->off_cos = at, at += round4(T * (h->hs / 2));
    h->off_sin = at, at += round4(T * (h->hs / 2));
    h->off_bias = at, at += round4(H * width);
    h->off_dbias = at, at += round4(H * width);
    h->off_bucket = at, at += round4(width);
    h->floats = at;
    h->bytes = (HEADER_FLOATS + at) * (int64_t)sizeof(float);
    return h->bytes;
}

static pe_arena_spec make_spec(int32_t task, int32_t encoding, int32_t causal, int32_t layers, int32_t d_model,
                               int32_t heads, int32_t symbols, int32_t train_length, int32_t train_length_min,
                               int32_t batch, double lr, double weight_decay, double seed) {
    pe_arena_spec s = {task,         encoding,         causal, layers, d_model,      heads, symbols,
                       train_length, train_length_min, batch,  lr,     weight_decay, seed};
    return s;
}

// Checks a spec (its task is argument `first`) and plans its arena into h; PE_ERR_TOO_LARGE when
// the arena (h->bytes) would pass PE_ARENA_MAX_BYTES.
static pe_status plan_checked(arena_header *h, const pe_arena_spec *s, int32_t first) {
    pe_status st = check_spec(s, first);
    if (st != PE_OK) return st;
    return plan(h, s) > PE_ARENA_MAX_BYTES ? PE_ERR_TOO_LARGE : PE_OK;
}

static pe_status header_ok(const void *arena) {
    if (arena == NULL || ((uintptr_t)arena & 15u) != 0) return 1;
    const arena_header *h = (const arena_header *)arena;
    return h->magic == ARENA_MAGIC ? PE_OK : 1;
}

// Pointers of every tensor of a flat vector laid out like the parameters.
static void bind_params(pe_arena_params *p, float *base, const arena_header *h) {
    memset(p, 0, sizeof *p);
    for (int32_t k = 0; k < h->n_tensors; k++) {
        const pe_arena_tensor *t = &h->tensors[k];
        float *x = base + t->offset;
        pe_arena_layer *w = t->layer >= 0 ? &p->layer[t->layer] : NULL;
        switch (t->id) {
        case PE_T_WTE: p->wte = x; break;
        case PE_T_WPE: p->wpe = x; break;
        case PE_T_T5: p->t5 = x; break;
        case PE_T_LN1W: w->ln1w = x; break;
        case PE_T_LN1B: w->ln1b = x; break;
        case PE_T_QKVW: w->qkvw = x; break;
        case PE_T_QKVB: w->qkvb = x; break;
        case PE_T_ATTPROJW: w->attprojw = x; break;
        case PE_T_ATTPROJB: w->attprojb = x; break;
        case PE_T_LN2W: w->ln2w = x; break;
        case PE_T_LN2B: w->ln2b = x; break;
        case PE_T_FCW: w->fcw = x; break;
        case PE_T_FCB: w->fcb = x; break;
        case PE_T_FCPROJW: w->fcprojw = x; break;
        case PE_T_FCPROJB: w->fcprojb = x; break;
        case PE_T_LNFW: p->lnfw = x; break;
        case PE_T_LNFB: p->lnfb = x; break;
        case PE_T_HEADW: p->headw = x; break;
        default: p->headb = x; break;
        }
    }
}

static int is_matrix(const pe_arena_tensor *t) { return t->rows > 1 && t->id != PE_T_T5; }

// --- the encoding's tables -------------------------------------------------------------------------

// The tables for sequence length T at rope scaling (rope_type, factor), written to the given
// buffers (NULL: not needed). Returns PE_OK or 1 for a rope scaling pe_rope refuses.
static pe_status build_tables(pe_arena_model *m, const arena_header *h, int32_t T, float *additive, float *cos_t,
                              float *sin_t, float *bias, int32_t *bucket, int32_t rope_type, double factor) {
    const pe_arena_spec *s = &h->spec;
    memset(m, 0, sizeof *m);
    m->L = h->L;
    m->C = h->C;
    m->H = h->H;
    m->V = h->V;
    m->causal = s->causal;
    m->encoding = s->encoding;
    m->wpe_rows = h->Tp;
    const int32_t width = 2 * T - 1, H = h->H;
    switch (s->encoding) {
    case PE_ARENA_SINUSOIDAL:
        if (pe_sinusoidal(additive, T, h->C, 10000.0, PE_SIN_INTERLEAVED, 0) != PE_OK) return 1;
        m->additive = additive;
        break;
    case PE_ARENA_ROPE: {
        pe_rope_config c = {
            T, h->hs, PE_ARENA_ROPE_BASE, 1.0, 0, rope_type, factor, h->orig_T, 32.0, 1.0, 1, NAN, NAN, NAN, NAN, NAN};
        double inv_freq[PE_ARENA_MAX_D_MODEL / 2], af = 1.0;
        if (pe_rope_check(&c) != PE_OK || pe_rope_inv_freq(inv_freq, &af, &c) != PE_OK) return 1;
        const int32_t half = h->hs / 2;
        for (int32_t t = 0; t < T; t++)
            for (int32_t i = 0; i < half; i++) {
                const double angle = (double)t * inv_freq[i];
                cos_t[(size_t)t * half + i] = (float)(cos(angle) * af);
                sin_t[(size_t)t * half + i] = (float)(sin(angle) * af);
            }
        m->rope_cos = cos_t;
        m->rope_sin = sin_t;
        break;
    }
    case PE_ARENA_ALIBI: {
        double slopes[PE_ARENA_MAX_HEADS];
        pe_alibi_slopes(slopes, H);
        for (int32_t hh = 0; hh < H; hh++)
            for (int32_t k = 0; k < width; k++) {
                const int32_t r = k - (T - 1);   // j − i
                const double d = s->causal ? (r <= 0 ? (double)-r : 0.0) : fabs((double)r);
                bias[(size_t)hh * width + k] = (float)(-slopes[hh] * d);
            }
        m->bias = bias;
        break;
    }
    case PE_ARENA_T5:
        for (int32_t k = 0; k < width; k++)
            bucket[k] = pe_t5_bucket(k - (T - 1), PE_ARENA_T5_BUCKETS, PE_ARENA_T5_MAX_DISTANCE, !s->causal);
        m->bias = bias;
        m->bucket = bucket;
        break;
    default: break;
    }
    return PE_OK;
}

static const pe_arena_ops *ops_of(const arena_header *h) {
    return h->scalar ? pe_arena_ops_scalar() : pe_arena_ops_default();
}

// An arena's model, its parameters and their gradients, the training activations and the loops.
typedef struct {
    pe_arena_model m;
    pe_arena_params p, g;
    pe_arena_acts a;
    const pe_arena_ops *ops;
} train_run;

// The model and the training activations of an arena.
static void train_view(train_run *r, void *arena) {
    arena_header *h = (arena_header *)arena;
    float *f = arena_floats(arena);
    pe_arena_model *m = &r->m;
    bind_params(&r->p, f + h->off_params, h);
    bind_params(&r->g, f + h->off_grads, h);
    pe_arena_acts_layout(&r->a, f + h->off_acts, h->L, h->C, h->H, h->V, h->spec.batch, h->T, 1);
    r->ops = ops_of(h);
    // The tables were built by init; rebuild the model view around them (cheap pointers only).
    m->L = h->L;
    m->C = h->C;
    m->H = h->H;
    m->V = h->V;
    m->causal = h->spec.causal;
    m->encoding = h->spec.encoding;
    m->wpe_rows = h->Tp;
    m->additive = h->spec.encoding == PE_ARENA_SINUSOIDAL ? f + h->off_additive : NULL;
    m->rope_cos = h->spec.encoding == PE_ARENA_ROPE ? f + h->off_cos : NULL;
    m->rope_sin = h->spec.encoding == PE_ARENA_ROPE ? f + h->off_sin : NULL;
    const int with_bias = h->spec.encoding == PE_ARENA_ALIBI || h->spec.encoding == PE_ARENA_T5;
    m->bias = with_bias ? f + h->off_bias : NULL;
    m->dbias = h->spec.encoding == PE_ARENA_T5 ? f + h->off_dbias : NULL;
    m->bucket = h->spec.encoding == PE_ARENA_T5 ? (const int32_t *)(const void *)(f + h->off_bucket) : NULL;
}

// The gradients of the last forward pass's loss, into the arena's zeroed gradients (f: its floats).
static void train_backward(train_run *r, const arena_header *h, float *f) {
    memset(f + h->off_grads, 0, sizeof(float) * (size_t)h->n_params);
    pe_arena_backward(&r->m, &r->p, &r->g, &r->a, r->ops);
}

// --- public: size and init ---------------------------------------------------------------------------

pe_status pe_arena_size(int32_t *bytes, int32_t task, int32_t encoding, int32_t causal, int32_t layers, int32_t d_model,
                        int32_t heads, int32_t symbols, int32_t train_length, int32_t train_length_min, int32_t batch,
                        double lr, double weight_decay, double seed) {
    if (bytes == NULL) return PE_ERR_ARG(SIZE_BYTES);
    const pe_arena_spec s = make_spec(task, encoding, causal, layers, d_model, heads, symbols, train_length,
                                      train_length_min, batch, lr, weight_decay, seed);
    arena_header h;
    pe_status st = plan_checked(&h, &s, SIZE_TASK);
    if (st != PE_OK) return st;
    *bytes = (int32_t)h.bytes;
    return PE_OK;
}

pe_status pe_arena_init(void *arena, int32_t bytes, int32_t task, int32_t encoding, int32_t causal, int32_t layers,
                        int32_t d_model, int32_t heads, int32_t symbols, int32_t train_length, int32_t train_length_min,
                        int32_t batch, double lr, double weight_decay, double seed) {
    if (arena == NULL || ((uintptr_t)arena & 15u) != 0) return PE_ERR_ARG(INIT_ARENA);
    const pe_arena_spec s = make_spec(task, encoding, causal, layers, d_model, heads, symbols, train_length,
                                      train_length_min, batch, lr, weight_decay, seed);
    arena_header plan_h;
    pe_status st = plan_checked(&plan_h, &s, INIT_TASK);
    if (st != PE_OK) return st;
    if (bytes < plan_h.bytes) return PE_ERR_ARG(INIT_BYTES);
    arena_header *h = (arena_header *)arena;
    *h = plan_h;
    h->orig_T = h->T;
    h->factor = 1.0;
    float *f = arena_floats(arena);
    memset(f, 0, sizeof(float) * (size_t)h->floats);
    // Parameters: matrices 0.02·G, biases and the t5 table 0, LayerNorm weights 1.
    const uint64_t init_seed = (uint64_t)s.seed + ((uint64_t)STREAM_INIT << 32);
    float *params = f + h->off_params;
    for (int32_t k = 0; k < h->n_tensors; k++) {
        const pe_arena_tensor *t = &h->tensors[k];
        float *x = params + t->offset;
        if (t->id == PE_T_LN1W || t->id == PE_T_LN2W || t->id == PE_T_LNFW) {
            for (int32_t c = 0; c < t->cols; c++) x[c] = 1.0f;
        } else if (is_matrix(t)) {
            for (int32_t r = 0; r < t->rows; r++)
                pe_random_row_scalar(x + (size_t)r * t->cols, init_seed, ((uint32_t)k << 16) + (uint32_t)r, t->cols,
                                     0.02, NULL);
        }
    }
    pe_arena_model m;
    if (build_tables(&m, h, h->T, f + h->off_additive, f + h->off_cos, f + h->off_sin, f + h->off_bias,
                     (int32_t *)(void *)(f + h->off_bucket), PE_ROPE_DEFAULT, NAN) != PE_OK)
        return PE_ERR_ARG(INIT_TASK + SPEC_D_MODEL);   // cannot happen for a valid spec
    return PE_OK;
}

// --- fork: continue training at another length, with a RoPE scaling -------------------------------

enum { FSIZE_BYTES = 1, FSIZE_SRC, FSIZE_LENGTH, FSIZE_LENGTH_MIN };
enum { FORK_DST = 1, FORK_BYTES, FORK_SRC, FORK_LENGTH, FORK_LENGTH_MIN, FORK_ROPE_TYPE, FORK_FACTOR };

// The header of src's fork at (train_length, train_length_min), into h; the length arguments are
// numbered `length` and length + 1.
static pe_status plan_fork(arena_header *h, const arena_header *src, int32_t train_length, int32_t train_length_min,
                           int32_t length) {
    pe_arena_spec s = src->spec;
    s.train_length = train_length;
    s.train_length_min = train_length_min;
    const pe_status st = plan_checked(h, &s, 0);
    if (st == PE_ERR_ARG(SPEC_TRAIN_LENGTH)) return PE_ERR_ARG(length);
    if (st == PE_ERR_ARG(SPEC_TRAIN_LENGTH_MIN)) return PE_ERR_ARG(length + 1);
    return st;   // PE_OK or PE_ERR_TOO_LARGE (src's other fields are valid)
}

pe_status pe_arena_fork_size(int32_t *bytes, const void *src, int32_t train_length, int32_t train_length_min) {
    if (bytes == NULL) return PE_ERR_ARG(FSIZE_BYTES);
    if (header_ok(src) != PE_OK) return PE_ERR_ARG(FSIZE_SRC);
    arena_header h;
    const pe_status st = plan_fork(&h, (const arena_header *)src, train_length, train_length_min, FSIZE_LENGTH);
    if (st != PE_OK) return st;
    *bytes = (int32_t)h.bytes;
    return PE_OK;
}

// One tensor's floats of src (rows_src × cols) into dst (rows_dst × cols): the common rows, and
// past them (a learned table grown for a longer T) the last row again (`repeat`: the parameters,
// so the fork computes what src computes at those positions) or zeros (the AdamW moments).
static void copy_rows(float *dst, const float *src, int32_t rows_dst, int32_t rows_src, int32_t cols, int repeat) {
    const int32_t common = rows_dst < rows_src ? rows_dst : rows_src;
    memcpy(dst, src, sizeof(float) * (size_t)common * (size_t)cols);
    for (int32_t r = common; r < rows_dst; r++) {
        if (repeat) memcpy(dst + (size_t)r * cols, src + (size_t)(rows_src - 1) * cols, sizeof(float) * (size_t)cols);
        else
            memset(dst + (size_t)r * cols, 0, sizeof(float) * (size_t)cols);
    }
}

pe_status pe_arena_fork(void *dst, int32_t bytes, const void *src, int32_t train_length, int32_t train_length_min,
                        int32_t rope_type, double factor) {
    if (dst == NULL || ((uintptr_t)dst & 15u) != 0) return PE_ERR_ARG(FORK_DST);
    if (header_ok(src) != PE_OK) return PE_ERR_ARG(FORK_SRC);
    const arena_header *sh = (const arena_header *)src;
    arena_header plan_h;
    pe_status st = plan_fork(&plan_h, sh, train_length, train_length_min, FORK_LENGTH);
    if (st != PE_OK) return st;
    const int bad = check_scaling(&sh->spec, sh->hs, rope_type, factor);
    if (bad) return PE_ERR_ARG(bad == 1 ? FORK_ROPE_TYPE : FORK_FACTOR);
    if (bytes < plan_h.bytes) return PE_ERR_ARG(FORK_BYTES);
    const uintptr_t d0 = (uintptr_t)dst, s0 = (uintptr_t)src;
    if (d0 < s0 + (uintptr_t)sh->bytes && s0 < d0 + (uintptr_t)plan_h.bytes) return PE_ERR_ARG(FORK_DST);   // overlap
    arena_header *h = (arena_header *)dst;
    *h = plan_h;
    h->scalar = sh->scalar;
    h->orig_T = sh->orig_T;
    h->rope_type = rope_type;
    h->factor = rope_type == PE_ROPE_DEFAULT ? 1.0 : factor;
    h->adam_t = sh->adam_t;
    h->steps = sh->steps;
    float *f = arena_floats(dst);
    const float *g = arena_floats(src);
    memset(f, 0, sizeof(float) * (size_t)h->floats);
    // The same tensors in the same order (same encoding and sizes); only wpe's rows follow T.
    for (int32_t k = 0; k < h->n_tensors; k++) {
        const pe_arena_tensor *t = &h->tensors[k], *u = &sh->tensors[k];
        copy_rows(f + h->off_params + t->offset, g + sh->off_params + u->offset, t->rows, u->rows, t->cols, 1);
        copy_rows(f + h->off_m + t->offset, g + sh->off_m + u->offset, t->rows, u->rows, t->cols, 0);
        copy_rows(f + h->off_v + t->offset, g + sh->off_v + u->offset, t->rows, u->rows, t->cols, 0);
    }
    pe_arena_model m;
    if (build_tables(&m, h, h->T, f + h->off_additive, f + h->off_cos, f + h->off_sin, f + h->off_bias,
                     (int32_t *)(void *)(f + h->off_bucket), h->rope_type, h->factor) != PE_OK)
        return PE_ERR_ARG(FORK_FACTOR);   // cannot happen after check_scaling
    return PE_OK;
}

pe_status pe_arena_use_scalar(void *arena, int32_t scalar) {
    if (header_ok(arena) != PE_OK) return PE_ERR_ARG(1);
    if (scalar != 0 && scalar != 1) return PE_ERR_ARG(2);
    ((arena_header *)arena)->scalar = scalar;
    return PE_OK;
}

// --- AdamW ---------------------------------------------------------------------------------------

void pe_arena_adamw_scalar(float *p, float *m, float *v, const float *g, int32_t n, float decay, float step_size,
                           float bc2_sqrt) {
    const float b1 = (float)BETA1, b2 = (float)BETA2, c1 = (float)(1.0 - BETA1), c2 = (float)(1.0 - BETA2);
    for (int32_t i = 0; i < n; i++) {
        const float pi = p[i] * decay;
        const float mi = b1 * m[i] + c1 * g[i];
        const float vi = b2 * v[i] + c2 * (g[i] * g[i]);
        m[i] = mi;
        v[i] = vi;
        p[i] = pi - step_size * (mi / (sqrtf(vi) / bc2_sqrt + ADAM_EPS));
    }
}

#if PE_HAVE_SIMD
void pe_arena_adamw_simd(float *p, float *m, float *v, const float *g, int32_t n, float decay, float step_size,
                         float bc2_sqrt) {
    const v128_t b1 = wasm_f32x4_splat((float)BETA1), b2 = wasm_f32x4_splat((float)BETA2);
    const v128_t c1 = wasm_f32x4_splat((float)(1.0 - BETA1)), c2 = wasm_f32x4_splat((float)(1.0 - BETA2));
    const v128_t dv = wasm_f32x4_splat(decay), sv = wasm_f32x4_splat(step_size);
    const v128_t bv = wasm_f32x4_splat(bc2_sqrt), ev = wasm_f32x4_splat(ADAM_EPS);
    const int32_t n4 = n & ~3;
    for (int32_t i = 0; i < n4; i += 4) {
        const v128_t gi = wasm_v128_load(g + i);
        const v128_t pi = wasm_f32x4_mul(wasm_v128_load(p + i), dv);
        const v128_t mi = wasm_f32x4_add(wasm_f32x4_mul(b1, wasm_v128_load(m + i)), wasm_f32x4_mul(c1, gi));
        const v128_t vi =
            wasm_f32x4_add(wasm_f32x4_mul(b2, wasm_v128_load(v + i)), wasm_f32x4_mul(c2, wasm_f32x4_mul(gi, gi)));
        wasm_v128_store(m + i, mi);
        wasm_v128_store(v + i, vi);
        const v128_t denom = wasm_f32x4_add(wasm_f32x4_div(wasm_f32x4_sqrt(vi), bv), ev);
        wasm_v128_store(p + i, wasm_f32x4_sub(pi, wasm_f32x4_mul(sv, wasm_f32x4_div(mi, denom))));
    }
    pe_arena_adamw_scalar(p + n4, m + n4, v + n4, g + n4, n - n4, decay, step_size, bc2_sqrt);
}
#endif

static void adamw_update(arena_header *h, float *f, const pe_arena_ops *ops) {
    h->adam_t++;
    const pe_arena_spec *s = &h->spec;
    const double bc1 = 1.0 - pow(BETA1, (double)h->adam_t), bc2 = 1.0 - pow(BETA2, (double)h->adam_t);
    const float step_size = (float)(s->lr / bc1), bc2_sqrt = (float)sqrt(bc2);
    const float decay = (float)(1.0 - s->lr * s->weight_decay);
    for (int32_t k = 0; k < h->n_tensors; k++) {
        const pe_arena_tensor *t = &h->tensors[k];
        const int64_t off = t->offset;
        ops->adamw(f + h->off_params + off, f + h->off_m + off, f + h->off_v + off, f + h->off_grads + off,
                   t->rows * t->cols, is_matrix(t) ? decay : 1.0f, step_size, bc2_sqrt);
    }
}

// --- training --------------------------------------------------------------------------------------

pe_status pe_arena_step(float *losses, void *arena, int32_t steps) {
    if (losses == NULL) return PE_ERR_ARG(1);
    if (header_ok(arena) != PE_OK) return PE_ERR_ARG(2);
    if (steps < 1 || steps > PE_ARENA_MAX_STEPS) return PE_ERR_ARG(3);
    arena_header *h = (arena_header *)arena;
    float *f = arena_floats(arena);
    train_run r;
    train_view(&r, arena);
    pe_arena_acts *a = &r.a;
    const pe_arena_spec *s = &h->spec;
    const uint64_t stream = (uint64_t)s->seed + ((uint64_t)STREAM_DATA << 32);
    for (int32_t k = 0; k < steps; k++) {
        pe_arena_batch(a->tokens, a->targets, a->keys, s->task, s->causal, s->symbols, s->train_length_min,
                       s->train_length, s->batch, stream, (uint64_t)h->steps * (uint64_t)s->batch);
        const float loss = pe_arena_forward(&r.m, &r.p, a, r.ops);
        if (!isfinite(loss)) return PE_ARENA_DIVERGED;
        train_backward(&r, h, f);
        adamw_update(h, f, r.ops);
        h->steps++;
        losses[k] = loss;
    }
    return PE_OK;
}

pe_status pe_arena_gradients(float *grads, float *loss, void *arena, const int32_t *tokens, const int32_t *targets,
                             int32_t batch) {
    if (grads == NULL) return PE_ERR_ARG(1);
    if (loss == NULL) return PE_ERR_ARG(2);
    if (header_ok(arena) != PE_OK) return PE_ERR_ARG(3);
    if (tokens == NULL) return PE_ERR_ARG(4);
    if (targets == NULL) return PE_ERR_ARG(5);
    arena_header *h = (arena_header *)arena;
    if (batch < 1 || batch > h->spec.batch) return PE_ERR_ARG(6);
    const int32_t n = batch * h->T;
    int32_t any = 0;
    for (int32_t b = 0; b < batch; b++) {
        int32_t padded = 0;   // −1 tokens: a padding suffix after at least one real token
        for (int32_t t = 0; t < h->T; t++) {
            const int32_t i = b * h->T + t;
            if (tokens[i] == -1 && t > 0) padded = 1;
            if ((tokens[i] < 0 && !padded) || (padded && tokens[i] != -1) || tokens[i] >= h->V) return PE_ERR_ARG(4);
            if (targets[i] < -1 || targets[i] >= h->V || (padded && targets[i] != -1)) return PE_ERR_ARG(5);
            any |= targets[i] >= 0;
        }
    }
    if (!any) return PE_ERR_ARG(5);
    float *f = arena_floats(arena);
    train_run r;
    train_view(&r, arena);
    pe_arena_acts *a = &r.a;
    a->B = batch;
    memcpy(a->targets, targets, sizeof(int32_t) * (size_t)n);
    for (int32_t b = 0; b < batch; b++) {
        a->keys[b] = h->T;
        for (int32_t t = 0; t < h->T; t++) {
            const int32_t i = b * h->T + t;
            a->tokens[i] = tokens[i] == -1 ? PE_ARENA_SEP : tokens[i];
            if (tokens[i] == -1 && a->keys[b] == h->T && !h->spec.causal) a->keys[b] = t;
        }
    }
    *loss = pe_arena_forward(&r.m, &r.p, a, r.ops);
    train_backward(&r, h, f);
    memcpy(grads, f + h->off_grads, sizeof(float) * (size_t)h->n_params);
    return PE_OK;
}

pe_status pe_arena_adamw(void *arena, const float *grads) {
    if (header_ok(arena) != PE_OK) return PE_ERR_ARG(1);
    if (grads == NULL) return PE_ERR_ARG(2);
    arena_header *h = (arena_header *)arena;
    float *f = arena_floats(arena);
    memcpy(f + h->off_grads, grads, sizeof(float) * (size_t)h->n_params);
    adamw_update(h, f, ops_of(h));
    return PE_OK;
}

// --- evaluation ------------------------------------------------------------------------------------

typedef struct {
    int32_t T, chunk;
    int64_t off_acts, off_additive, off_cos, off_sin, off_bias, off_bucket, floats;
} eval_plan;

static void plan_eval(eval_plan *e, const arena_header *h, int32_t length) {
    const int32_t T = pe_arena_seq_len(length, h->spec.causal), width = 2 * T - 1;
    const int64_t one = pe_arena_acts_layout(NULL, NULL, h->L, h->C, h->H, h->V, 1, T, 0);
    int64_t chunk = EVAL_CHUNK_FLOATS / one;
    chunk = chunk < 1 ? 1 : chunk > EVAL_MAX_CHUNK ? EVAL_MAX_CHUNK : chunk;
    e->T = T;
    e->chunk = (int32_t)chunk;
    int64_t at = 0;
    e->off_acts = at, at += pe_arena_acts_layout(NULL, NULL, h->L, h->C, h->H, h->V, e->chunk, T, 0);
    e->off_additive = at, at += round4((int64_t)T * h->C);
    e->off_cos = at, at += round4((int64_t)T * (h->hs / 2));
    e->off_sin = at, at += round4((int64_t)T * (h->hs / 2));
    e->off_bias = at, at += round4((int64_t)h->H * width);
    e->off_bucket = at, at += round4(width);
    e->floats = at;
}

pe_status pe_arena_eval_size(int32_t *bytes, const void *arena, int32_t length) {
    if (bytes == NULL) return PE_ERR_ARG(1);
    if (header_ok(arena) != PE_OK) return PE_ERR_ARG(2);
    if (length < 1 || length > PE_ARENA_MAX_EVAL_LENGTH) return PE_ERR_ARG(3);
    eval_plan e;
    plan_eval(&e, (const arena_header *)arena, length);
    if (e.floats * (int64_t)sizeof(float) > PE_ARENA_MAX_BYTES) return PE_ERR_TOO_LARGE;
    *bytes = (int32_t)(e.floats * (int64_t)sizeof(float));
    return PE_OK;
}

// The model of an arena set up for evaluation on a scratch buffer (eval_setup), and the examples it
// is shown: those of evaluation seed `seed`, stream seed + STREAM_EVAL·2^32, `length` tokens long.
typedef struct {
    pe_arena_model m;
    pe_arena_params p;
    pe_arena_acts a;
    eval_plan e;
    const arena_header *h;
    uint64_t stream;
    int32_t length;
} eval_run;

// Checks the shared arguments of evaluate/attention (numbered as `arg` says) and sets up the
// model on the scratch buffer.
static pe_status eval_setup(eval_run *r, void *arena, void *scratch, int32_t scratch_bytes, int32_t length, double seed,
                            int32_t rope_type, double factor, const eval_args *arg) {
    if (header_ok(arena) != PE_OK) return PE_ERR_ARG(arg->arena);
    if (scratch == NULL || ((uintptr_t)scratch & 15u) != 0) return PE_ERR_ARG(arg->scratch);
    if (length < 1 || length > PE_ARENA_MAX_EVAL_LENGTH) return PE_ERR_ARG(arg->length);
    if (!pe_random_seed_ok(seed)) return PE_ERR_ARG(arg->seed);
    const arena_header *h = (const arena_header *)arena;
    const int bad = check_scaling(&h->spec, h->hs, rope_type, factor);
    if (bad) return PE_ERR_ARG(bad == 1 ? arg->rope_type : arg->factor);
    if (rope_type == PE_ROPE_DEFAULT) {   // the scaling the arena trains with (none unless forked with one)
        rope_type = h->rope_type;
        factor = h->factor;
    }
    eval_plan *e = &r->e;
    plan_eval(e, h, length);
    if (scratch_bytes < e->floats * (int64_t)sizeof(float)) return PE_ERR_ARG(arg->scratch_bytes);
    float *f = (float *)scratch;
    if (build_tables(&r->m, h, e->T, f + e->off_additive, f + e->off_cos, f + e->off_sin, f + e->off_bias,
                     (int32_t *)(void *)(f + e->off_bucket), rope_type, factor) != PE_OK)
        return PE_ERR_ARG(arg->factor);
    bind_params(&r->p, arena_floats(arena) + h->off_params, h);
    pe_arena_acts_layout(&r->a, f + e->off_acts, h->L, h->C, h->H, h->V, e->chunk, e->T, 0);
    r->h = h;
    r->stream = (uint64_t)seed + ((uint64_t)STREAM_EVAL << 32);
    r->length = length;
    return PE_OK;
}

// The forward pass over b evaluation examples, from example `first` of the run's stream.
static void eval_forward(eval_run *r, int32_t b, uint64_t first) {
    const pe_arena_spec *s = &r->h->spec;
    r->a.B = b;
    pe_arena_batch(r->a.tokens, r->a.targets, r->a.keys, s->task, s->causal, s->symbols, r->length, r->length, b,
                   r->stream, first);
    pe_arena_forward(&r->m, &r->p, &r->a, ops_of(r->h));
}

pe_status pe_arena_evaluate(float *out, void *arena, void *scratch, int32_t scratch_bytes, int32_t length,
                            int32_t samples, double seed, int32_t rope_type, double factor) {
    if (out == NULL) return PE_ERR_ARG(EVAL_OUT);
    if (samples < 1 || samples > PE_ARENA_MAX_SAMPLES) return PE_ERR_ARG(EVAL_SAMPLES);
    if (header_ok(arena) == PE_OK && ((const arena_header *)arena)->spec.task == PE_ARENA_KBACK && length < 3)
        return PE_ERR_ARG(EVAL_LENGTH);   // kback scores y_3 … y_n: nothing to count below 3
    eval_run r;
    pe_status st = eval_setup(&r, arena, scratch, scratch_bytes, length, seed, rope_type, factor, &EVALUATE_ARGS);
    if (st != PE_OK) return st;
    const arena_header *h = r.h;
    const pe_arena_acts *a = &r.a;
    const int32_t chunk = r.e.chunk, T = r.e.T;
    int64_t right_examples = 0, right_tokens = 0, tokens = 0;
    double loss = 0.0;
    for (int32_t first = 0; first < samples; first += chunk) {
        const int32_t b = samples - first < chunk ? samples - first : chunk;
        eval_forward(&r, b, (uint64_t)first);
        for (int32_t bb = 0; bb < b; bb++) {
            int32_t all = 1;
            for (int32_t t = 0; t < T; t++) {
                const size_t row = (size_t)bb * T + t;
                const int32_t target = a->targets[row];
                if (target < 0) continue;
                // −ln p is finite only if the row's logits are (a NaN or ±∞ logit makes it NaN)
                if (!isfinite(a->losses[row])) return PE_ARENA_NOT_FINITE;
                const float *pr = a->probs + row * h->V;
                int32_t best = 0;
                for (int32_t k = 1; k < h->V; k++)
                    if (pr[k] > pr[best]) best = k;
                right_tokens += best == target;
                all &= best == target;
                tokens++;
                loss += (double)a->losses[row];
            }
            right_examples += all;
        }
    }
    out[0] = (float)((double)right_examples / samples);
    out[1] = (float)((double)right_tokens / (double)tokens);
    out[2] = (float)(loss / (double)tokens);
    return PE_OK;
}

pe_status pe_arena_attention(float *att, int32_t *tokens, void *arena, void *scratch, int32_t scratch_bytes,
                             int32_t length, double seed, int32_t rope_type, double factor) {
    if (att == NULL) return PE_ERR_ARG(ATT_ATT);
    if (tokens == NULL) return PE_ERR_ARG(ATT_TOKENS);
    eval_run r;
    pe_status st = eval_setup(&r, arena, scratch, scratch_bytes, length, seed, rope_type, factor, &ATTENTION_ARGS);
    if (st != PE_OK) return st;
    eval_forward(&r, 1, 0);
    const int32_t L = r.h->L, T = r.e.T;
    const size_t plane = (size_t)r.h->H * T * T;
    for (int32_t l = 0; l < L; l++)
        for (size_t i = 0; i < plane; i++)
            if (!isfinite(r.a.att[l][i])) return PE_ARENA_NOT_FINITE;
    for (int32_t l = 0; l < L; l++) memcpy(att + (size_t)l * plane, r.a.att[l], sizeof(float) * plane);
    memcpy(tokens, r.a.tokens, sizeof(int32_t) * (size_t)T);
    return PE_OK;
}

// --- parameters and information --------------------------------------------------------------------

pe_status pe_arena_info(int32_t *info, const void *arena) {
    if (info == NULL) return PE_ERR_ARG(1);
    if (header_ok(arena) != PE_OK) return PE_ERR_ARG(2);
    const arena_header *h = (const arena_header *)arena;
    info[0] = h->n_params;
    info[1] = h->n_tensors;
    info[2] = h->T;
    info[3] = h->Tp;
    info[4] = (int32_t)(h->steps > 2147483647 ? 2147483647 : h->steps);
    info[5] = h->V;
    info[6] = h->C;
    info[7] = h->H;
    return PE_OK;
}

pe_status pe_arena_tensors(int32_t *out, const void *arena) {
    if (out == NULL) return PE_ERR_ARG(1);
    if (header_ok(arena) != PE_OK) return PE_ERR_ARG(2);
    const arena_header *h = (const arena_header *)arena;
    for (int32_t k = 0; k < h->n_tensors; k++) {
        const pe_arena_tensor *t = &h->tensors[k];
        out[5 * k + 0] = t->id;
        out[5 * k + 1] = t->layer;
        out[5 * k + 2] = t->offset;
        out[5 * k + 3] = t->rows;
        out[5 * k + 4] = t->cols;
    }
    return PE_OK;
}

pe_status pe_arena_get_params(float *out, const void *arena) {
    if (out == NULL) return PE_ERR_ARG(1);
    if (header_ok(arena) != PE_OK) return PE_ERR_ARG(2);
    const arena_header *h = (const arena_header *)arena;
    memcpy(out, arena_floats(arena) + h->off_params, sizeof(float) * (size_t)h->n_params);
    return PE_OK;
}

pe_status pe_arena_set_params(void *arena, const float *params) {
    if (header_ok(arena) != PE_OK) return PE_ERR_ARG(1);
    if (params == NULL) return PE_ERR_ARG(2);
    arena_header *h = (arena_header *)arena;
    for (int32_t i = 0; i < h->n_params; i++)
        if (!isfinite(params[i])) return PE_ERR_ARG(2);
    memcpy(arena_floats(arena) + h->off_params, params, sizeof(float) * (size_t)h->n_params);
    return PE_OK;
}

pe_status pe_arena_position_table(float *out, const void *arena) {
    if (out == NULL) return PE_ERR_ARG(1);
    if (header_ok(arena) != PE_OK) return PE_ERR_ARG(2);
    const arena_header *h = (const arena_header *)arena;
    if (h->spec.encoding != PE_ARENA_LEARNED) return PE_ERR_ARG(2);
    for (int32_t k = 0; k < h->n_tensors; k++)
        if (h->tensors[k].id == PE_T_WPE) {
            memcpy(out, arena_floats(arena) + h->off_params + h->tensors[k].offset,
                   sizeof(float) * (size_t)h->Tp * (size_t)h->C);
            return PE_OK;
        }
    return PE_ERR_ARG(2);
}

// Writes docs/reference.md, the reference of every spec kind and of the Arena, from the schema
// (web/api/schema/): each field's type, default, range, rule and help, each kind's shape and
// the shape of its default spec come from the schema itself; what a kind computes, its extras
// and its sources are the prose below, one entry per kind (the script refuses a kind without
// one). tests/house/reference.test.js checks that the committed file is what this writes.
//
//   node scripts/gen-reference.js            write docs/reference.md
//   node scripts/gen-reference.js --check    exit 1 when docs/reference.md differs
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SCHEMA } from '../web/api/schema/index.js';
import * as limits from '../web/api/schema/limits.js';
import ARENA from '../web/api/schema/arena.js';
import { defaults, normalizeSpec } from '../web/api/spec.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const OUT = path.join(ROOT, 'docs', 'reference.md');

// ---------------------------------------------------------------------------------------------
// Prose: what each kind computes (the schema says which numbers it takes; this says what it does
// with them), its result's extras beside `data`, and the published definition it follows.

const PROSE = {
  sinusoidal: `
Row r is position p = offset + r. With ω_i = base^(−2i/dim):
- \`interleaved\`: column 2i = sin(p·ω_i), column 2i + 1 = cos(p·ω_i); an odd dim ends with a sine.
- \`concat\`: with h = ⌊dim/2⌋, columns [0, h) are sin(p·ω_i) and [h, 2h) cos(p·ω_i); an odd dim leaves the last column 0.
- \`tensor2tensor\`: \`concat\` with ω_k = exp(−k·ln(base)/max(h − 1, 1)) (tensor2tensor's get_timing_signal_1d).

Extras: none. Follows Vaswani et al. (2017) and the PyTorch tutorial's table.`,
  sinusoidal2d: `
Tokens are row-major over the grid (token k = row·width + column).
- \`mae\`: [the 1-D \`concat\` encoding of the column in dim/2 channels | that of the row], ω_i = base^(−i/(dim/4)); dim must be a multiple of 4 (MAE's get_2d_sincos_pos_embed).
- \`sum\`: the \`interleaved\` 1-D encoding of the row plus that of the column, each rounded to float32 first.
- \`tatp22\`: with ch = 2·⌈dim/4⌉, [row block | column block], each ch channels of interleaved sin/cos with inverse frequencies base^(−2k/ch), cut to dim (the positional-encodings package's PositionalEncoding2D).

Extras: none.`,
  sinusoidal3d: `
Tokens are depth-major, then row, then column. With ch = 2·⌈dim/6⌉: [depth block | row block | column block], each ch channels of interleaved sin/cos with inverse frequencies base^(−2k/ch), cut to dim (the positional-encodings package's PositionalEncoding3D).

Extras: none.`,
  learned2d: `
Rows: the class token's row when \`cls_token\` (row 0), then the grid row-major (row 1 + r·width + c), as ViT's \`pos_embed\` [1, 1 + rows·columns, dim] without its leading 1.
- \`init\`: \`sincos\` is MAE's get_2d_sincos_pos_embed (the \`sinusoidal2d\` \`mae\` table, base 10000) with a zero class row; \`normal\` is the \`learned\` kind's N(0, std²) table of 1 + rows·columns rows from the seed (the class row drawn like the rest).
- With \`resize_height\` and \`resize_width\` (both or neither), \`data\` is the table with its grid resized to resize_height × resize_width as torch.nn.functional.interpolate(grid as [1, dim, rows, columns], size, mode='bicubic', align_corners=False) computes it: per axis, source x = (n_in/n_out)·(dst + 0.5) − 0.5, taps ⌊x⌋ − 1 … ⌊x⌋ + 2 clamped into the grid, Keys' cubic weights with A = −0.75; the class row copied (Hugging Face's interpolate_pos_encoding, timm's resample_abs_pos_embed with antialias=False). C kernel of the resize: \`c/vision_resize.c\` (\`pe_resize_bicubic\`). Worst difference from PyTorch's float64 result: below 2e-6 of the table's largest value (tests/vision-resize.test.js).

Extras: \`source\` (with a resize): the table before it, [cls + rows·columns, dim] float32.`,
  mrope: `
\`data\` holds the position ids (t, h, w) of every token, as transformers' \`get_rope_index\`: a text run continues from the next free id with t = h = w; an image or video covers t × (h/merge) × (w/merge) tokens, ids (frame, row, column) plus the start id. With tokens_per_second set (Qwen2.5-VL) the time id is ⌊frame · second_per_grid_t · tokens_per_second⌋ in float32 (images: 0). After a segment the next start is the largest id + 1. The \`convention\` picks the transformers version: \`4.52\` truncates second_per_grid_t to an integer before multiplying; \`5.x\` does the same, gives image frames one step each, and resumes after an image or video at its start + max(h, w)/merge.

Extras: \`angles\` [tokens, dim/2] float32: frequency i = base^(−2i/dim) times the id of the axis that mrope_section gives it (the first mrope_section[0] frequencies read t, the next h, the last w).`,
  rope: `
With rotary_dim d = int(dim · partial_rotary_factor), \`data\` holds the angles p·θ_i for positions p = 0 … length − 1 and pairs i < d/2, θ_i = base^(−2i/d) scaled as transformers' \`modeling_rope_utils\` does for \`rope_scaling.rope_type\`:
- \`linear\`: θ_i / factor. \`ntk\` (static NTK-aware): base' = base · factor^(d/(d−2)).
- \`dynamic\`: base' = base · (factor·L/m − (factor − 1))^(d/(d−2)), L = max(length, m), m = max_position_embeddings.
- \`yarn\`: a linear ramp between θ_i (fast pairs, more than beta_fast turns over the original context) and θ_i / factor (slow pairs, fewer than beta_slow), ends rounded when \`truncate\`; attention_factor 0.1·ln(factor) + 1 (or the mscale ratio, or as given). Before transformers 4.56 a set original context replaced factor by max_position_embeddings / original.
- \`llama3\`: wavelengths above original/low_freq_factor divided by factor, below original/high_freq_factor kept, a smooth blend between.
- \`longrope\`: θ_i / ext_i with ext = long_factor once length exceeds the original context o, else short_factor; attention_factor √(1 + ln s / ln o).

Axial 2-D RoPE (grid_height and grid_width set): the first d/4 pairs turn with the row, the next d/4 with the column, θ_k = base^(−2k/(d/2)). \`layout\` does not change the angles; it says which channels pair when they rotate q and k (\`pe.applyRope\`, \`attention\`).

Extras: \`inv_freq\` [d/2] float32 and \`attention_factor\` (a number; cos and sin are multiplied by it when rotating).`,
  rope_precision: `
What a recipe of number formats does to RoPE's rotation angle, for positions p = offset … offset + length − 1 and the (scaled) frequencies ω_i of \`rope\`:
1. f = round(ω_i) in inv_freq_dtype (\`float32_pow\`: 1.0 / (base ** (arange(0, d, 2) / d)) in float32, as frameworks form it);
2. q = round(p) in position_dtype;
3. φ = round(q · f) in phase_dtype (the product exact, rounded once);
4. the tables cos φ and sin φ, each rounded once in table_dtype.

With rope_type \`longrope\`, the per-pair factors are chosen as transformers chooses them: \`long_factor\` once offset + length exceeds original_max_position_embeddings, \`short_factor\` otherwise.

\`data\` is the angle error |atan2(sin, cos) − p·ω_i| wrapped to [0, π], against the exact p·ω_i; π where the recipe overflows. Named recipes are listed under \`recipe\` below.

Extras: \`cos\`, \`sin\` [length, d/2] (the rounded tables), \`row_error\` [length] (the worst pair of each row), \`collisions\` and \`first_collision\` (rows r ≥ 1 whose cos and sin rows both equal those of the row before, and the first of them, or −1), \`exact_inv_freq\` and \`inv_freq\` [d/2] float64 (ω_i, and f as the recipe rounds it).`,
  integer: `
Every column of row p holds p, or p/(length − 1) when \`normalize\` (0 for a single position).

Extras: none.`,
  binary: `
Column c of row p holds bit c of p (0 for c ≥ 32).

Extras: none.`,
  learned: `
A stand-in for a trained table: entry (p, c) = std · z, z an N(0, 1) deviate from SplitMix64 and Box–Muller (c/random.h), drawn from the pair q = p·8192 + ⌊c/2⌋ (cosine branch for even c, sine for odd), so a table never depends on length or dim. \`pe.loadMatrix\` reads a real one from .npy or .safetensors.

Extras: none.`,
  alibi: `
Head h adds −m_h·(i − j) to the score of query i and key j ≤ i, and −∞ above the diagonal (\`causal\`), or −m_h·|i − j| everywhere (\`symmetric\`). The slopes are Press et al.'s get_slopes: for n a power of two m_h = s^(h+1), s = 2^(−8/n); otherwise those of the largest power of two c below n, then every other slope of 2c.

Extras: \`slopes\` [heads] float32.`,
  t5: `
Entry [i, j] is the bucket of the relative position j − i, as transformers' \`T5Attention._relative_position_bucket\`: bidirectional halves the buckets and the sign picks the half; within a direction, distances below max_exact = buckets/2 have their own bucket and longer ones share log-spaced buckets up to max_distance (the log evaluated in float32, as torch does).

Extras: none. The model adds a learned bias per head and bucket; \`attention\` draws one.`,
  shaw: `
Entry [i, j] is clip(j − i, −k, k) + k, k = max_relative_position: the index of the relative-position embedding of Shaw et al. (2018).

Extras: none.`,
  distance: `
A bias b(u) of the distance u = |i − j| / scale: \`linear\` −strength·u, \`log\` −strength·ln(1 + u), \`gaussian\` −strength·u²/2, \`exponential\` strength·(e^(−u) − 1); −∞ above the diagonal in \`causal\` mode.

Extras: none.`,
  attention: `
softmax(q·kᵀ/√dim) per head with the encoding applied the way it enters a transformer, with G(s, p, c) the \`learned\` generator's deviate for seed s and S(t) = seed + t·2^32:
- content \`random\`: q[h, i, c] = G(S(1), h·2^20 + i, c), k with S(2); \`tokens\`: one vector per whitespace-separated word, e(w)[c] = G(fnv1a64(UTF-8 of w) + seed, 0, c), projected per head by W_q[h][r, c] = G(S(4), h·2^20 + r, c)/√dim (W_k with S(5)); \`none\`: positions alone. Every G value is rounded to float32.
- additive encodings (sinusoidal, sinusoidal2d/3d, integer, binary, learned) are added to the content; \`rope\` rotates q and k by its exact cos/sin times attention_factor; \`mrope\` rotates (half pairing) by its float32 angles; \`alibi\` and \`distance\` add their bias; \`t5\` and \`shaw\` add a learned bias float32(G(S(3), h, index)) per head and index; null: no position information.
- the causal mask sets keys j > i to −∞; the diagonal is never masked.

The encoding takes length and dim (and alibi's heads) from the attention spec. Extras: \`entropy\` and \`local_mass\` [heads, length] (the entropy of each row, and its weight on keys with |i − j| < 16), and \`attention_factor\` when the encoding is \`rope\`.`,
};

const ARENA_PROSE = `
\`pe.trainer(spec)\` trains a small transformer in WebAssembly (c/arena.h) on a sequence task with one positional encoding, and evaluates it on longer sequences than it saw. The spec is not a kind of \`pe.compute\`; web/api/schema/arena.js describes it and web/api/kernels/arena.js validates it.

### Tasks

An example is a sequence x of \`train_length\` symbols drawn from \`symbols\`, and its target y:
- \`copy\`: y = x. \`reverse\`: y = x reversed. \`sort\`: y = x in ascending order.
- \`kback\`: y_j = x_{j−2} for j ≥ 3; y_1 and y_2 are not scored (there is no symbol two back, and nothing wraps around), so train_length must be at least 3.

A decoder (\`causal\`: true) reads \`BOS x SEP y\` and is trained teacher-forced to predict each y_j; an encoder (\`causal\`: false) reads \`BOS x\` and predicts y_j at x_j. The token ids are BOS = 0, SEP = 1, and the symbols after them.

When \`train_length_min\` is below \`train_length\`, each training example's length is drawn uniformly from [train_length_min, train_length]; a batch is padded to its longest example, the padding carries no loss, and the encoder masks padded keys.

### Model

- Token embedding [symbols + 2, d_model].
- The encoding, in its role: \`sinusoidal\` adds the interleaved table (base 10000) to the embeddings; \`learned\` adds a trained table initialised N(0, 0.02²), one row per training position, and a longer evaluation reuses the last row; \`rope\` rotates q and k in every head (half layout, base 10000); \`alibi\` biases the scores by −m·(i − j) when causal and −m·|i − j| otherwise; \`t5\` learns a [32 buckets, heads] bias table, initialised to 0, with max_distance 128; \`none\` (or null) has no position information.
- \`layers\` pre-norm blocks: x += W_o · attn(LN(x)), then x += W_2 · gelu_tanh(W_1 · LN(x) + b_1) + b_2, the MLP 4·d_model wide; \`heads\` heads of size d_model/heads (even).
- A final LayerNorm and an output head of its own (not tied to the embedding); LayerNorm ε = 1e-5.
- AdamW with β = (0.9, 0.95), ε = 1e-8, the learning rate \`lr\` without a schedule, weight decay \`weight_decay\` on the matrices only; no dropout.
- \`rope\` may be scaled (\`rope_scaling\`: \`linear\`, \`ntk\`, \`yarn\` with a factor, the numbers of the \`rope\` kind) in training and, by default, in evaluation; \`t.evaluate(length, { rope_scaling })\` replaces it there (\`{ rope_type: 'linear', factor: 1 }\` is the unscaled model).

### Fine-tuning at another length

\`t.finetune({ train_length, train_length_min = train_length, rope_scaling = null })\` returns a new trainer that continues \`t\` (its parameters, AdamW moments and step count) at the new lengths, training with \`rope_scaling\`: with \`{ rope_type: 'linear', factor: 2 }\` at twice the length this is position interpolation (Chen et al. 2023). Its \`spec\` has the new lengths and \`rope_scaling\`; \`t2.pretrained\` is \`{ spec, steps }\` of the trainer it came from; \`t\` is unchanged and both are freed on their own. The factor is relative to the first trainer's length (yarn takes that as original_max_position_embeddings); a learned table grows by repeating its last row. A fine-tuned trainer cannot be fine-tuned again. A fork at the same lengths with no scaling continues exactly as \`t\` would.`;

// ---------------------------------------------------------------------------------------------

const cell = (text) => String(text).replace(/\|/g, '\\|').replace(/\n/g, ' ');
const code = (text) => `\`${String(text).replace(/`/g, "'")}\``;

/** The body of an arrow function, as written: `(s) => s.length - 1` → `s.length - 1`. */
function body(fn) {
  const src = fn.toString();
  const arrow = src.indexOf('=>');
  return (arrow < 0 ? src : src.slice(arrow + 2)).replace(/\s+/g, ' ').trim();
}

const bound = (b) => (typeof b === 'function' ? body(b) : String(b));

/** A field's allowed values, from its descriptor. */
export function rangeOf(field) {
  let text;
  switch (field.type) {
    case 'int':
    case 'number': {
      const lo = `${field.exclusiveMin ? '(' : '['}${bound(field.min)}`;
      const hi = field.max === undefined ? '∞)' : `${bound(field.max)}]`;
      text = `${field.type === 'int' ? 'integer' : 'number'} in ${lo}, ${hi}`;
      break;
    }
    case 'enum': text = field.values.map((v) => `"${v}"`).join(', '); break;
    case 'bool': text = 'true, false'; break;
    case 'string': text = `text of at most ${field.maxLength} characters`; break;
    case 'list': text = `${field.minItems}–${bound(field.maxItems)} items, each ${field.item.type === 'object' ? 'an object (below)' : rangeOf(field.item)}`; break;
    case 'object':
      text = field.fields ? `object (below)${field.discriminator ? `, by ${field.discriminator}` : ''}`
        : `{ ${field.discriminator}: ${Object.keys(field.variants).map((v) => `"${v}"`).join(' | ')} }`;
      break;
    case 'spec': text = `a spec of kind ${field.kinds.map((k) => `"${k}"`).join(', ')}`; break;
    case 'named': text = `${Object.keys(field.presets).map((k) => `"${k}"`).join(', ')}, or an object (below)`; break;
    default: throw new Error(`reference: no range for field type ${field.type}`);
  }
  if (field.nullable && !field.rule?.startsWith('or null')) text += ', or null';
  if (field.rule) text += field.rule.startsWith('or ') ? `, ${field.rule}` : `; ${field.rule}`;
  return text;
}

const json = (v) => (v === undefined ? '—' : JSON.stringify(v));

function fieldTable(fields, { required = true } = {}) {
  const head = required ? ['| field | type | default | allowed | required | meaning |', '| --- | --- | --- | --- | --- | --- |']
    : ['| field | type | default | allowed | meaning |', '| --- | --- | --- | --- | --- |'];
  const rows = Object.entries(fields).map(([name, f]) => {
    const cols = [code(name), f.type, cell(code(json(f.default))), cell(rangeOf(f))];
    if (required) cols.push(f.required ? 'yes' : 'no');
    cols.push(cell(f.help?.en ?? ''));
    return `| ${cols.join(' | ')} |`;
  });
  return [...head, ...rows].join('\n');
}

/** The sub-tables of a kind's nested fields: objects, lists of objects, named recipes. */
function nested(name, field) {
  const out = [];
  const inner = field.type === 'list' ? field.item : field;
  if (inner.type === 'object') {
    out.push(`\`${name}\`${field.type === 'list' ? ' items' : ''}:`, '', fieldTable(inner.fields, { required: false }));
    if (inner.variants) {
      out.push('', `By \`${inner.discriminator}\`:`, '');
      for (const [v, spec] of Object.entries(inner.variants)) {
        const parts = [];
        if (spec.required?.length) parts.push(`requires ${spec.required.map(code).join(', ')}`);
        if (spec.optional?.length) parts.push(`may set ${spec.optional.map(code).join(', ')}`);
        out.push(`- \`${v}\`: ${parts.join('; ') || 'no other field'}`);
      }
    }
  } else if (inner.type === 'named') {
    out.push(`\`${name}\` as an object:`, '', fieldTable(inner.fields, { required: false }), '', `Named \`${name}\`s:`, '');
    const keys = Object.keys(inner.fields);
    out.push(`| name | ${keys.join(' | ')} |`, `| --- | ${keys.map(() => '---').join(' | ')} |`);
    for (const [p, v] of Object.entries(inner.presets)) out.push(`| ${code(p)} | ${keys.map((k) => v[k]).join(' | ')} |`);
  }
  return out.length ? ['', ...out] : [];
}

function schemaFiles() {
  const dir = path.join(ROOT, 'web', 'api', 'schema');
  return readdirSync(dir).filter((f) => f.endsWith('.js') && !['index.js', 'limits.js', 'arena.js'].includes(f)).sort();
}

async function kindFiles() {
  const where = {};
  for (const f of schemaFiles()) {
    const mod = await import(pathToFileURL(path.join(ROOT, 'web', 'api', 'schema', f)).href);
    for (const kind of Object.keys(mod.default ?? {})) where[kind] = f;
  }
  return where;
}

function kindSection(kind, where) {
  const k = SCHEMA[kind];
  if (!PROSE[kind]) throw new Error(`reference: no prose for kind "${kind}" in scripts/gen-reference.js`);
  const family = where[kind].replace(/\.js$/, '');
  const kernel = existsSync(path.join(ROOT, 'c', `${family}.c`)) ? `, C kernel \`c/${family}.c\`` : '';
  const spec = normalizeSpec(defaults(kind));
  const out = [
    `## ${kind}`,
    '',
    `**${k.label.en}**: group \`${k.group}\`, schema \`web/api/schema/${where[kind]}\`${kernel}.`,
    '',
    k.help.en,
    PROSE[kind].trimEnd(),
    '',
    fieldTable(k.fields),
  ];
  for (const [name, field] of Object.entries(k.fields)) out.push(...nested(name, field));
  out.push('', `Shape of \`data\`: ${code(body(k.shape))}; for the default spec [${k.shape(spec).join(', ')}].`);
  return out.join('\n');
}

function arenaSection() {
  const a = ARENA.arena;
  const d = Object.fromEntries(Object.entries(a.fields).map(([n, f]) => [n, f.default]));
  return [
    '## Arena',
    '',
    a.help.en,
    ARENA_PROSE.trimEnd(),
    '',
    '### Fields',
    '',
    fieldTable(a.fields, { required: false }),
    ...Object.entries(a.fields).flatMap(([name, field]) => nested(name, field)),
    '',
    `The default spec: ${code(JSON.stringify(d))}.`,
  ].join('\n');
}

/** docs/reference.md as the schema and the prose make it. */
export async function reference() {
  const where = await kindFiles();
  const groups = [...new Set(Object.values(SCHEMA).map((k) => k.group))];
  const toc = groups.map((g) => `- ${g}: ${Object.keys(SCHEMA).filter((kind) => SCHEMA[kind].group === g).map((kind) => `[${kind}](#${kind.replace(/[^a-z0-9_-]/g, '')})`).join(', ')}`);
  const parts = [
    '# PE Lab reference',
    '',
    '<!-- Written by scripts/gen-reference.js from web/api/schema/ and the prose in that script; do not edit by hand: run `node scripts/gen-reference.js` (tests/house/reference.test.js compares). -->',
    '',
    'Every spec kind of `pe.compute(spec)`: its fields (type, default, allowed values), what it computes, the shape of its `data` and the extras beside it; then the Arena (`pe.trainer`). The schema in `web/api/schema/` is the source of every table here.',
    '',
    '`pe.compute(spec)` returns `{ data, shape, spec, …extras }`: `data` is a float32 array in row-major order of `shape`, `spec` the normalized spec (every default filled in). A spec is refused with a `PEError` that names the field (`err.param`) and what it allows.',
    '',
    'The arrays of a result are the caller\'s: nothing the module does later changes them. To compute a large output again and again (a slider, a loop), give each result back when done with it: `pe.release(result)` detaches its arrays (they read as empty from then on, never as a later result) and keeps their memory, and the next output of the same byte length is copied into it instead of into new memory, which the system must map and zero page by page (at 2000 × 1600 that costs more than computing the table). Only arrays of 64 KiB or more are kept, at most 16 of them and 256 MiB; releasing anything else (twice, another module\'s array, an `options.reuse` array the caller made) throws a `PEError` naming `result`. `pe.compute(spec, { reuse: array })` instead copies the output into an array of the caller\'s, when the lengths match. The one exception to "the arrays are the caller\'s" is explicit: `pe.compute(spec, { borrow: true })` copies nothing and returns `data` as a view of the kernel\'s output in WebAssembly memory, with `borrowed: true` in the result; it is valid only until the next call of any method of the module, which may overwrite it or leave it empty, so copy what must outlive it (`data.slice()`).',
    '',
    'Limits shared by every kind (c/pe.h): ' + Object.entries(limits).map(([n, v]) => `\`${n}\` = ${v}`).join(', ') + '. A bound written as an expression (`PE_MAX_POSITION - spec.length`) is evaluated on the spec\'s fields checked before it.',
    '',
    ...toc,
    '- [Arena](#arena)',
    '',
    ...Object.keys(SCHEMA).map((kind) => `${kindSection(kind, where)}\n`),
    arenaSection(),
    '',
  ];
  return parts.join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const text = await reference();
  if (process.argv.includes('--check')) {
    const same = existsSync(OUT) && readFileSync(OUT, 'utf8') === text;
    if (!same) console.error('docs/reference.md is not what scripts/gen-reference.js writes: run node scripts/gen-reference.js');
    process.exit(same ? 0 : 1);
  }
  writeFileSync(OUT, text);
  console.log(`wrote ${path.relative(ROOT, OUT)} (${text.length} characters)`);
}

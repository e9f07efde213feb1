// Types of PE Lab's public JS API (web/pe.js). The reference of every kind, with ranges and
// defaults, is docs/reference.md (written from web/api/schema/<family>.js); here are the shapes.
// Every field but `kind` is optional in a spec: pe.defaults(kind) fills in the rest.
// tests/types/usage.ts is compiled against this file by `npm test` (tsc --noEmit).

/** Thrown for any bad input; `param` names the spec field (dotted for nested fields). */
/** What a field allows, as data, so that a page can say it in its own language. */
export interface PEExpected {
  type: string;
  nullable?: boolean;
  min?: number;
  max?: number;
  exclusiveMin?: boolean;
  values?: readonly unknown[];
  minItems?: number;
  maxItems?: number;
  item?: PEExpected;
  maxLength?: number;
  keys?: readonly string[];
  tag?: string;
}

export class PEError extends Error {
  constructor(param: string, message: string, details?: { expected?: PEExpected; got?: string | number | boolean | null });
  readonly name: 'PEError';
  /** The field at fault, e.g. 'dim', 'rope_scaling.factor', 'segments[2].h', 'bytes'. */
  param: string;
  /** For a value outside the field's range: what the field allows. */
  expected?: PEExpected;
  /** For a value outside the field's range: the value given (strings cut to 40 characters). */
  got?: string | number | boolean | null;
}

// --- specs ----------------------------------------------------------------------------------

export interface SinusoidalSpec {
  kind: 'sinusoidal';
  length: number;
  dim: number;
  base?: number;
  layout?: 'interleaved' | 'concat' | 'tensor2tensor';
  offset?: number;
}
export interface Sinusoidal2dSpec {
  kind: 'sinusoidal2d';
  height: number;
  width: number;
  dim: number;
  base?: number;
  layout?: 'mae' | 'sum' | 'tatp22';
}
export interface Sinusoidal3dSpec {
  kind: 'sinusoidal3d';
  depth: number;
  height: number;
  width: number;
  dim: number;
  base?: number;
}
/**
 * A ViT-style position table on a patch grid, [cls_token + rows·columns, dim] (row 0 the class
 * token's when cls_token), optionally with its grid resized by bicubic interpolation as
 * torch.nn.functional.interpolate(mode='bicubic', align_corners=False, antialias=resize_antialias)
 * does (the class row kept).
 */
export interface Learned2dSpec {
  kind: 'learned2d';
  height: number;
  width: number;
  dim: number;
  cls_token?: boolean;
  /** 'sincos': MAE's 2-D sin-cos table (class row zero); 'normal': N(0, std²) from the seed. */
  init?: 'sincos' | 'normal';
  std?: number;
  seed?: number;
  /** The new grid (both or neither); data is then [cls_token + resize_height·resize_width, dim]. */
  resize_height?: number | null;
  resize_width?: number | null;
  /**
   * false (default): Hugging Face ViT's interpolate_pos_encoding (no antialias, A = −0.75);
   * true: timm's resample_abs_pos_embed default (antialias=True, A = −0.5, widened when shrinking).
   */
  resize_antialias?: boolean;
}
export type RopeType = 'default' | 'linear' | 'dynamic' | 'yarn' | 'llama3' | 'ntk' | 'longrope';
/** transformers' rope_scaling; which keys apply depends on rope_type. */
export interface RopeScaling {
  rope_type: RopeType;
  factor?: number;
  original_max_position_embeddings?: number | null;
  beta_fast?: number;
  beta_slow?: number;
  truncate?: boolean;
  mscale?: number | null;
  mscale_all_dim?: number | null;
  attention_factor?: number | null;
  low_freq_factor?: number;
  high_freq_factor?: number;
  /** longrope: one divisor per frequency pair (rotary_dim/2), used while length ≤ the original context. */
  short_factor?: number[];
  /** longrope: the divisors used once length exceeds the original context. */
  long_factor?: number[];
  /**
   * yarn: the transformers version whose factor to use. Before 4.56 transformers replaced factor
   * by max_position_embeddings / original_max_position_embeddings whenever both were set.
   */
  convention?: 'since_4.56' | 'before_4.56';
}
export interface RopeSpec {
  kind: 'rope';
  length: number;
  dim: number;
  base?: number;
  layout?: 'half' | 'interleaved';
  partial_rotary_factor?: number;
  rope_scaling?: RopeScaling | null;
  max_position_embeddings?: number | null;
  /** Axial 2-D RoPE over a grid_height × grid_width grid of patches (both or neither). */
  grid_height?: number | null;
  grid_width?: number | null;
}
export type RecipeDtype = 'float64' | 'float32' | 'bfloat16' | 'float16';
/** The named recipes of rope_precision (inv_freq, position, phase, table dtypes). */
export type RecipeName = 'exact' | 'float32' | 'float32_pow' | 'bf16_table' | 'bf16_positions' | 'bf16_inv_freq' | 'bf16_phase' | 'fp16';
export interface Recipe {
  /** 'float32_pow': float32 as frameworks form it (a float32 pow, then a divide). */
  inv_freq_dtype: RecipeDtype | 'float32_pow';
  position_dtype: RecipeDtype;
  phase_dtype: RecipeDtype;
  table_dtype: RecipeDtype;
}
/** The precision lab: the angle error of a RoPE recipe (the rope fields mean what they mean in rope). */
export interface RopePrecisionSpec {
  kind: 'rope_precision';
  length: number;
  dim: number;
  base?: number;
  /** Position of row 0. */
  offset?: number;
  partial_rotary_factor?: number;
  rope_scaling?: RopeScaling | null;
  max_position_embeddings?: number | null;
  /** A named recipe, or every one of the four dtypes. */
  recipe?: RecipeName | Recipe;
}
export type MropeSegment =
  | { type: 'text'; length?: number }
  | { type: 'image'; t?: number; h?: number; w?: number }
  | { type: 'video'; t?: number; h?: number; w?: number; second_per_grid_t?: number };
export interface MropeSpec {
  kind: 'mrope';
  dim?: number;
  base?: number;
  /** Pairs per axis (t, h, w); sums to dim / 2. */
  mrope_section?: [number, number, number];
  spatial_merge_size?: number;
  tokens_per_second?: number | null;
  segments?: MropeSegment[];
  /**
   * The transformers version whose get_rope_index the ids follow: '4.49' (4.49–4.51, default),
   * '4.52' (4.52+ 4.x: second_per_grid_t truncated first), '5.x' (text after a visual block
   * resumes at its start + max(h, w)/merge).
   */
  convention?: '4.49' | '4.52' | '5.x';
}
export interface IntegerSpec {
  kind: 'integer';
  length: number;
  dim: number;
  normalize?: boolean;
}
export interface BinarySpec {
  kind: 'binary';
  length: number;
  dim: number;
}
export interface LearnedSpec {
  kind: 'learned';
  length: number;
  dim: number;
  std?: number;
  seed?: number;
}
export interface AlibiSpec {
  kind: 'alibi';
  length: number;
  heads?: number;
  mode?: 'causal' | 'symmetric';
}
export interface T5Spec {
  kind: 't5';
  length: number;
  num_buckets?: number;
  max_distance?: number;
  bidirectional?: boolean;
}
export interface ShawSpec {
  kind: 'shaw';
  length: number;
  max_relative_position?: number;
}
export interface DistanceSpec {
  kind: 'distance';
  length: number;
  function?: 'linear' | 'log' | 'gaussian' | 'exponential';
  strength?: number;
  scale?: number;
  mode?: 'causal' | 'symmetric';
}
/** The encoding inside an attention spec: any positional kind; length and dim come from the attention spec. */
export type EncodingSpec =
  | Omit<SinusoidalSpec, 'length' | 'dim'>
  | Omit<Sinusoidal2dSpec, 'dim'>
  | Omit<Sinusoidal3dSpec, 'dim'>
  | Omit<RopeSpec, 'length' | 'dim'>
  | Omit<MropeSpec, 'dim'>
  | Omit<IntegerSpec, 'length' | 'dim'>
  | Omit<BinarySpec, 'length' | 'dim'>
  | Omit<LearnedSpec, 'length' | 'dim'>
  | Omit<AlibiSpec, 'length' | 'heads'>
  | Omit<T5Spec, 'length'>
  | Omit<ShawSpec, 'length'>
  | Omit<DistanceSpec, 'length'>;
export interface AttentionSpec {
  kind: 'attention';
  length: number;
  dim?: number;
  heads?: number;
  causal?: boolean;
  encoding?: EncodingSpec | null;
  content?: 'random' | 'tokens' | 'none';
  /** Whitespace-separated words when content is 'tokens'. */
  tokens?: string | null;
  seed?: number;
}

export type Spec =
  | SinusoidalSpec
  | Sinusoidal2dSpec
  | Sinusoidal3dSpec
  | Learned2dSpec
  | MropeSpec
  | RopeSpec
  | RopePrecisionSpec
  | IntegerSpec
  | BinarySpec
  | LearnedSpec
  | AlibiSpec
  | T5Spec
  | ShawSpec
  | DistanceSpec
  | AttentionSpec;
export type Kind = Spec['kind'];
/** A spec with every default filled in (what pe.defaults and result.spec hold). */
export type FullSpec<S extends Spec = Spec> = Required<S>;
export type SpecOf<K extends Kind> = Extract<Spec, { kind: K }>;

// --- results --------------------------------------------------------------------------------

/** Options of compute. */
export interface ComputeOptions {
  /** An array to write the output into when the lengths match (see compute). */
  reuse?: Float32Array | null;
  /**
   * true: `data` is the kernel's output itself, a view into the module's WebAssembly memory (no
   * copy), valid only until the next call of any method of the module (see compute). Not with reuse.
   */
  borrow?: boolean;
}

/** Every result: a row-major float32 copy, its shape, and the normalized spec that was computed. */
export interface Result<S extends Spec = Spec> {
  data: Float32Array;
  shape: number[];
  spec: FullSpec<S>;
}
export interface RopeResult extends Result<RopeSpec> {
  /** [rotary_dim / 2] frequencies after scaling. */
  inv_freq: Float32Array;
  attention_factor: number;
}
export interface RopePrecisionResult extends Result<RopePrecisionSpec> {
  /** data: the angle error [length, rotary_dim / 2] in radians, in [0, π]. cos, sin: the recipe's
   * tables (same shape; NaN where the recipe overflows, e.g. float16 positions ≥ 65520). */
  cos: Float32Array;
  sin: Float32Array;
  /** [length]: the largest error of each row. */
  row_error: Float32Array;
  /** Rows whose cos and sin rows equal the previous row's exactly, and the first such position (−1: none). */
  collisions: number;
  first_collision: number;
  /** [rotary_dim / 2]: the recipe's inverse frequencies f_i (step 1) and the exact ω_i (float64). */
  inv_freq: Float64Array;
  exact_inv_freq: Float64Array;
}
export interface Learned2dResult extends Result<Learned2dSpec> {
  /** With a resize: the table before it, [cls_token + height·width, dim]. */
  source?: Float32Array;
}
export interface MropeResult extends Result<MropeSpec> {
  /** data: position ids [3, tokens]; angles: [tokens, dim / 2]. */
  angles: Float32Array;
}
export interface AlibiResult extends Result<AlibiSpec> {
  slopes: Float32Array;
}
export interface AttentionResult extends Result<AttentionSpec> {
  /** [heads, length]: the entropy of each query row, and its weight on the nearest keys. */
  entropy: Float32Array;
  local_mass: Float32Array;
  attention_factor: number;
  /** The words of `tokens` (content 'tokens'), one per position. */
  tokens?: string[];
}
/** The result of each kind. */
export interface ResultByKind {
  sinusoidal: Result<SinusoidalSpec>;
  sinusoidal2d: Result<Sinusoidal2dSpec>;
  sinusoidal3d: Result<Sinusoidal3dSpec>;
  learned2d: Learned2dResult;
  mrope: MropeResult;
  rope: RopeResult;
  rope_precision: RopePrecisionResult;
  integer: Result<IntegerSpec>;
  binary: Result<BinarySpec>;
  learned: Result<LearnedSpec>;
  alibi: AlibiResult;
  t5: Result<T5Spec>;
  shaw: Result<ShawSpec>;
  distance: Result<DistanceSpec>;
  attention: AttentionResult;
}

export interface RopeTables {
  cos: Float32Array;
  sin: Float32Array;
  shape: [number, number];
  spec: FullSpec<RopeSpec>;
  inv_freq: Float32Array;
  attention_factor: number;
}
export interface MatrixResult {
  data: Float32Array;
  shape: [number, number];
  dtype: string;
  format: 'npy' | 'safetensors';
  name?: string;
  kind: 'learned';
}
export type ColorMap = 'viridis' | 'cividis' | 'diverging';

/** The arena spec of pe.trainer (docs/reference.md#arena); every field has a default. */
export interface ArenaSpec {
  kind?: 'arena';
  task?: 'copy' | 'reverse' | 'kback' | 'sort';
  encoding?: { kind: 'none' | 'sinusoidal' | 'learned' | 'alibi' | 't5' | 'rope' } | null;
  causal?: boolean;
  layers?: number;
  d_model?: number;
  heads?: number;
  symbols?: number;
  /** Symbols per training example (the longest, with train_length_min). */
  train_length?: number;
  /**
   * 1 … train_length (default train_length): each training example's length is drawn uniformly
   * from [train_length_min, train_length]; a batch is padded to its longest example and the
   * padding carries no loss (decoder: after y; encoder: masked keys).
   */
  train_length_min?: number;
  batch?: number;
  lr?: number;
  weight_decay?: number;
  /**
   * RoPE scaling the model trains with, and evaluates with unless evaluate/attention give their
   * own (rope only; null: unscaled). Usually set by t.finetune; yarn's
   * original_max_position_embeddings is the first trainer's training sequence length.
   */
  rope_scaling?: ArenaRopeScaling | null;
  seed?: number;
}
/** RoPE scaling (an extension of the contract; rope trainers only): factor in [1, 1024]. */
export interface ArenaRopeScaling {
  rope_type: 'linear' | 'ntk' | 'yarn';
  factor: number;
}
/** What t.finetune continues at: train_length_min defaults to train_length, rope_scaling to null. */
export interface ArenaFinetune {
  train_length: number;
  train_length_min?: number;
  rope_scaling?: ArenaRopeScaling | null;
}
export interface ArenaEvaluation {
  /** Fraction of examples whose whole y is right (teacher-forced = greedy exact match). */
  accuracy: number;
  token_accuracy: number;
  /** Mean cross-entropy over the y tokens. */
  loss: number;
}
export interface ArenaTensor {
  name: string;
  shape: number[];
  offset: number;
}
export interface Trainer {
  readonly spec: Required<ArenaSpec>;
  readonly sequenceLength: number;
  readonly paramCount: number;
  readonly steps: number;
  /** Floating-point operations of one step, about (web/api/kernels/arena.js stepCost). */
  readonly cost: number;
  /** The largest n one step(n) call accepts for this model (1e12 / cost, at least 1). */
  readonly maxSteps: number;
  /** A fine-tuned trainer's origin: the spec of the trainer it continues and its steps then; else null. */
  readonly pretrained: { spec: Required<ArenaSpec>; steps: number } | null;
  step(n?: number): Float32Array;
  /**
   * A new trainer continuing this one (parameters, AdamW state, step count) at the new lengths
   * with rope_scaling (Chen et al. 2023's position interpolation: linear). This one is unchanged.
   */
  finetune(options: ArenaFinetune): Trainer;
  /** rope_scaling replaces the trained scaling (spec.rope_scaling); { rope_type: 'linear', factor: 1 } is unscaled. */
  evaluate(length: number, options?: { samples?: number; seed?: number; rope_scaling?: ArenaRopeScaling | null }): ArenaEvaluation;
  positionTable(): { data: Float32Array; shape: [number, number] } | null;
  attention(length: number, options?: { seed?: number; rope_scaling?: ArenaRopeScaling | null }): {
    data: Float32Array;
    shape: [number, number, number, number];
    tokens: Int32Array;
  };
  tensors(): ArenaTensor[];
  params(): Float32Array;
  /** paramCount values, each finite with |value| ≤ 1e4; a PEError on params names the tensor. */
  setParams(data: Float32Array): void;
  free(): void;
}

export interface HeatmapOptions {
  rows: number;
  cols: number;
  /** Index of the first value (a slice of a 3-D output); default 0. */
  offset?: number;
  /** The part of the table to draw, in cells: 0 ≤ x0 < x1 ≤ cols, 0 ≤ y0 < y1 ≤ rows. */
  window?: { x0: number; x1: number; y0: number; y1: number };
  /** Pixels, 1 … 8192 each. */
  width: number;
  height: number;
  map?: ColorMap;
  /** Default: the table's finite range (symmetric around 0 for 'diverging'). */
  vmin?: number;
  vmax?: number;
  /**
   * Instead of vmin and vmax: the colour range chosen from the table's range (heatmapRange's
   * result for this table and offset). Where the window is the whole table and cells are smaller
   * than pixels, that range comes from the same pass that resamples the table (it is not read
   * twice), and a heatmapRange of the same table after costs nothing. It must not call
   * heatmap or heatmapRange (PEError 'colorRange').
   */
  colorRange?: (range: TableRange) => [number, number];
  special?: { nan?: [number, number, number, number]; negInf?: [number, number, number, number]; posInf?: [number, number, number, number] };
}
export interface TableRange {
  lo: number;
  hi: number;
  negInf: boolean;
  posInf: boolean;
  nan: boolean;
  finite: boolean;
}

export interface PE {
  /** True when the loaded build runs SIMD kernels. */
  readonly simd: boolean;
  /** Bytes of WebAssembly memory. */
  readonly memoryBytes: number;
  defaults<K extends Kind>(kind: K): FullSpec<SpecOf<K>>;
  normalize<K extends Kind>(spec: SpecOf<K>): FullSpec<SpecOf<K>>;
  /**
   * The result's arrays are the caller's: nothing changes them until the caller gives them back
   * with release. options.reuse: a Float32Array the caller no longer needs; when its length is the
   * output's, the values are copied into it and it is the result's `data` (one copy, no new
   * allocation). Left as it was otherwise, and when compute throws.
   * options.borrow: true is the one exception: `data` is not copied out of WebAssembly memory, and
   * the result has `borrowed: true`; the next call of any method of this module may overwrite
   * `data` or leave it empty (length 0). Copy what must outlive it (data.slice()).
   */
  compute<K extends Kind>(spec: SpecOf<K>, options: ComputeOptions & { borrow: true }): ResultByKind[K] & { borrowed: true };
  compute<K extends Kind>(spec: SpecOf<K>, options?: ComputeOptions | null): ResultByKind[K];
  /**
   * Gives back a result of this module (compute, applyRope, ropeTables, ropeView, relativeProfile,
   * precisionSweep, loadMatrix, colorize) or one of its arrays: the next output of the same byte
   * length (64 KiB or more) is copied into that memory instead of new memory the system must map
   * and zero (at most 16 buffers and 256 MiB are kept, oldest dropped first). The given arrays and
   * every view of their buffers are detached at once: they read as empty (length 0), never as a
   * later result. Arrays the caller made (options.reuse) are left alone. Throws PEError (param
   * 'result') when nothing given is an array this module returned that is still the caller's.
   */
  release(result: object): void;
  colorize(
    values: Float32Array,
    options?: { map?: ColorMap; vmin?: number; vmax?: number; special?: boolean },
  ): Uint8ClampedArray;
  /**
   * A heatmap's RGBA pixels in C: the window (in cells; default the whole table) resampled to
   * width × height (the cell under each pixel when magnified, a tent-weighted mean when minified)
   * and coloured as colorize colours. The last table stays in WebAssembly memory, recognised by
   * identity: never change a drawn array in place. Throws PEError.
   */
  heatmap(table: Float32Array, options: HeatmapOptions): Uint8ClampedArray;
  /** The finite range (NaN when none) and the non-finite kinds of values[offset, offset + count). */
  heatmapRange(values: Float32Array, options?: { offset?: number; count?: number }): TableRange;
  loadMatrix(bytes: ArrayBuffer | ArrayBufferView, options?: { name?: string }): MatrixResult;
  applyRope(x: Float32Array, spec: RopeSpec, options?: { heads?: number }): RopeResult;
  /**
   * A caller's ViT-style table [cls_token + height·width, dim] (e.g. from loadMatrix) with its grid
   * resized as learned2d does (bicubic, align_corners false, antialiased as timm when
   * resize_antialias); `table` is not modified.
   */
  resizeTable(table: Float32Array, spec: Omit<Learned2dSpec, 'kind' | 'init' | 'std' | 'seed'>): Learned2dResult;
  ropeTables(spec: RopeSpec): RopeTables;
  /** One table a view draws in place of the angles: cos, sin (ropeTables') or wrapped into [0, 2π], from the kernel's float64 angles. */
  ropeView(spec: RopeSpec, options?: { transform?: 'cos' | 'sin' | 'wrapped' }): {
    data: Float32Array;
    shape: [number, number];
    spec: FullSpec<RopeSpec>;
    transform: 'cos' | 'sin' | 'wrapped';
  };
  /** A relative kind's value at every r = −(length − 1) … length − 1, without the table. */
  relativeProfile(spec: AlibiSpec | T5Spec | ShawSpec | DistanceSpec): {
    data: Float32Array;
    shape: number[];
    r0: number;
    spec: FullSpec<AlibiSpec | T5Spec | ShawSpec | DistanceSpec>;
    slopes?: Float32Array;
  };
  /** rope_precision's row_error and collisions alone (bit for bit compute's), without its tables. */
  precisionSweep(spec: Omit<RopePrecisionSpec, 'kind'> & { kind?: 'rope_precision' }): {
    /** [length]: the largest angle error of each row, radians in [0, π]. */
    row_error: Float32Array;
    shape: number[];
    collisions: number;
    first_collision: number;
    spec: FullSpec<RopePrecisionSpec>;
  };
  /** A tiny transformer trained in WebAssembly (web/api/kernels/arena.js). */
  trainer(spec?: ArenaSpec): Trainer;
}

export interface CreateOptions {
  /** 'auto' (default): SIMD when the engine supports it; true requires it; false forces scalar. */
  simd?: 'auto' | boolean;
  /**
   * The module's bytes, URL, or a WebAssembly.Module already compiled (the page starts compiling
   * it while its script loads), instead of the .wasm file beside web/pe.js.
   */
  wasm?: ArrayBuffer | Uint8Array | URL | string | WebAssembly.Module;
}

export function createPE(options?: CreateOptions): Promise<PE>;
/** True when this engine supports WebAssembly 128-bit SIMD. */
export function simdSupported(): boolean;
export function defaults<K extends Kind>(kind: K): FullSpec<SpecOf<K>>;
/** Every kind's schema: group, label, help, fields (descriptors), shape(spec). */
export const SCHEMA: Record<Kind, { group: string; label: { en: string; ko: string }; fields: Record<string, unknown> }>;
export const KINDS: Kind[];
/** The largest output, in float32 values (2^26). */
export const PE_MAX_ELEMENTS: number;

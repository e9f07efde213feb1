// "Paste your model's config": a Hugging Face config.json → the spec PE Lab computes for that
// model's positions. Pure JS, no WASM, no network.
//
//   import { fromHFConfig, fromPreset } from './hfconfig.js';
//   const { spec, notes, report, alternates } = fromHFConfig(text);   // text, bytes or an object
//   pe.compute(spec);
//
// The attention layout decides the kind and the rotary part (first match wins):
//   ALiBi        model_type bloom; mpt with attn_config.alibi; alibi: true (Falcon)  → kind alibi,
//                heads from n_head / n_heads / num_attention_heads
//   M-RoPE       rope_scaling (or rope_parameters) with mrope_section (Qwen2-VL, Qwen2.5-VL) → kind
//                mrope (dim, base, mrope_section, vision_config.spatial_merge_size and
//                tokens_per_second); the plain RoPE of text tokens is an alternate
//   MLA          qk_rope_head_dim (DeepSeek-V2/V3): the rotary head is qk_rope_head_dim channels,
//                interleaved (the qk_nope_head_dim part carries no position)
//   otherwise    kind rope:
//   base                   rope_parameters.rope_theta, rope_theta, rotary_emb_base, rotary_base; else
//                          10000; ChatGLM multiplies it by rope_ratio
//   dim (head dim)         head_dim, kv_channels (ChatGLM), else hidden_size (n_embd, d_model) ÷
//                          num_attention_heads (n_head, n_heads, num_heads), floor division
//   partial_rotary_factor  rope_parameters.partial_rotary_factor, partial_rotary_factor, rotary_pct,
//                          rotary_dim ÷ head dim (GPT-J); ChatGLM rotates half the head; else 1
//   rope_scaling           rope_scaling, else transformers v5's rope_parameters (its rope_type and
//                          scaling keys); the legacy key "type" is read as rope_type ("su" as
//                          longrope); keys the type does not use are dropped (and reported);
//                          longrope takes the top-level original_max_position_embeddings (Phi-3)
//   max_position_embeddings  max_position_embeddings, n_positions, n_ctx, seq_length
//   layout                 interleaved for GPT-J, CodeGen, ChatGLM / GLM, Cohere, Llama 4, DeepSeek MLA and
//                          configs with rope_interleave / rotary_emb_interleaved true; else half
//   length                 options.length, else min(max_position_embeddings, 4096)
// Layers with another base (Gemma 3's rope_local_base_freq for sliding-window layers, v5
// rope_parameters per layer type) come back as `alternates`: [{ layers, spec, en, ko }].
// Multimodal configs whose language model sits in text_config are read from there.
//
// What it cannot model it leaves out and says so: `report` lists, per config key that bears on
// positions, whether it was used (and for what) or ignored (and why): [{ key, used, en, ko }].
// Errors (PEErrors whose .param names the config key at fault, 'config' for the JSON itself) are
// kept for configs that are not valid: bad JSON, no head dimension, values out of range. Each
// names the key its value came from (vision_config.spatial_merge_size, rope_scaling.mrope_section[2]).
// Keys and names the config supplies (model_type "toString", a layer type "__proto__") are read
// as own properties only, never looked up through Object.prototype; the input is not modified.
// notes: [{ en, ko }], what was inferred, assumed or left out, in words.
import { PEError, normalizeSpec, describe, checkValue } from './spec.js';
import ropeSchema, { ROPE_TYPES } from './schema/rope.js';
import { PRESETS } from './models.js';
import { TEXT } from './hfconfig-text.js';

const ROPE_FIELDS = ropeSchema.rope.fields;
const SCALING = ROPE_FIELDS.rope_scaling;
const DEFAULT_LENGTH = 4096;

const INTERLEAVED_MODELS = new Set(['gptj', 'codegen', 'chatglm', 'glm', 'glm4', 'cohere', 'cohere2', 'llama4', 'llama4_text']);
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
// Every lookup by a key the config supplies (model_type, layer-type names, rope_type) and every
// read of a config key goes through own properties only: a model_type "toString" or "__proto__"
// must not find Object.prototype's members.
const has = (o, k) => isObject(o) && Object.hasOwn(o, k) && o[k] !== null && o[k] !== undefined;
/** o[k] if o is an object with k as its own property, else undefined. */
const own = (o, k) => (isObject(o) && Object.hasOwn(o, k) ? o[k] : undefined);
/** table[k] for a table of the reader's own (keys a config names), else undefined. */
const lookup = (table, k) => (typeof k === 'string' && Object.hasOwn(table, k) ? table[k] : undefined);
// transformers' config-class defaults for RoPE keys that published config.json files omit (the
// class fills them in when the model loads). Gemma 3: configuration_gemma3.py, Gemma3TextConfig
// (rope_theta 1_000_000.0, rope_local_base_freq 10_000.0, max_position_embeddings 131_072).
const GEMMA3_TEXT = {
  cls: 'Gemma3TextConfig',
  keys: { rope_theta: 1000000, rope_local_base_freq: 10000, max_position_embeddings: 131072 },
};
const CLASS_DEFAULTS = Object.freeze({ __proto__: null, gemma3: GEMMA3_TEXT, gemma3_text: GEMMA3_TEXT });

const SCALING_META = ['rope_theta', 'partial_rotary_factor', 'rope_type', 'type'];
// Where a config gives its context length and its head count (the first one present is read).
const MAX_POSITION_KEYS = ['max_position_embeddings', 'n_positions', 'n_ctx', 'seq_length'];
const HEAD_COUNT_KEYS = ['num_attention_heads', 'n_head', 'n_heads', 'num_heads'];
const ALIBI_HEAD_COUNT_KEYS = ['n_head', 'n_heads', 'num_attention_heads', 'num_heads'];   // BLOOM, MPT first

/**
 * Keys that bear on positions or on the head's shape. A config key in this list that the reader
 * did not use is reported as ignored (with the reason given here), so nothing is dropped silently.
 */
const OTHER_KEYS = {
  sliding_window: ['limits how far back attention looks (a mask), not the positional encoding', '어텐션이 볼 수 있는 거리(마스크)를 정할 뿐 위치 인코딩은 아닙니다'],
  use_sliding_window: ['switches the sliding-window mask, not the positional encoding', '슬라이딩 윈도 마스크를 켜고 끌 뿐 위치 인코딩은 아닙니다'],
  max_window_layers: ['says which layers use the sliding window, not the positional encoding', '어느 레이어가 슬라이딩 윈도를 쓰는지 정할 뿐 위치 인코딩은 아닙니다'],
  num_key_value_heads: ['grouped-query attention shares keys between heads; it does not change RoPE', 'GQA로 키를 헤드끼리 나눠 쓰는 설정이며 RoPE는 바꾸지 않습니다'],
  qk_nope_head_dim: ['these channels of q and k carry no position (only qk_rope_head_dim rotates)', 'q, k에서 이 채널들은 위치 정보를 싣지 않습니다 (qk_rope_head_dim만 회전)'],
  v_head_dim: ['values are not rotated', '값(v)은 회전하지 않습니다'],
  kv_lora_rank: ['MLA\'s compression of keys and values, not a positional setting', 'MLA의 키·값 압축이며 위치 설정이 아닙니다'],
  q_lora_rank: ['MLA\'s compression of queries, not a positional setting', 'MLA의 쿼리 압축이며 위치 설정이 아닙니다'],
  query_pre_attn_scalar: ['scales the scores (1/√query_pre_attn_scalar), not the positions', '점수 배율(1/√query_pre_attn_scalar)이며 위치와는 무관합니다'],
  layer_types: ['read only through rope_parameters per layer type', '레이어 종류별 rope_parameters를 통해서만 읽습니다'],
  original_rope: ['ChatGLM\'s switch between two equal implementations of the same rotation', 'ChatGLM에서 같은 회전을 구현하는 두 방식 사이의 스위치입니다'],
  no_rope_layers: ['marks the layers that use no positional encoding at all (NoPE); the RoPE shown is that of the others', '위치 인코딩을 전혀 쓰지 않는 레이어(NoPE)를 표시합니다. 보이는 RoPE는 나머지 레이어의 것입니다'],
  attn_temperature_tuning: ['Llama 4 scales the queries of its NoPE layers with the position, outside RoPE', 'Llama 4는 NoPE 레이어의 쿼리를 위치에 따라 키우며, RoPE 밖의 일입니다'],
  position_embedding_type: ['PE Lab reads the rotary settings directly', 'PE Lab은 회전 설정을 직접 읽습니다'],
  rope_ratio: null, rope_local_base_freq: null, alibi: null, attn_config: null, // reported where read
};

/** The first key of `keys` that `obj` has (not null): [key, value] or null. */
function first(obj, keys, prefix = '') {
  for (const k of keys) if (has(obj, k)) return [prefix + k, obj[k]];
  return null;
}

function parse(input) {
  let config = input;
  if (typeof input === 'string') {
    try {
      config = JSON.parse(input);
    } catch (e) {
      throw new PEError('config', `config.json is not valid JSON: ${e.message}`);
    }
  } else if (input instanceof Uint8Array || input instanceof ArrayBuffer) {
    return parse(new TextDecoder().decode(input));
  }
  if (!isObject(config)) {
    throw new PEError('config', `config must be a JSON object (the contents of a model's config.json), got ${describe(config)}`);
  }
  return config;
}

/** A positive integer read from the config, or a PEError naming its key. */
function positiveInt(key, value) {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new PEError(key, `${key} must be a positive integer, got ${describe(value)}`);
  }
  return value;
}

/**
 * A number read from the config at `key` for the spec field `name` (its range is checked with the
 * spec); anything but a number is refused here, naming the key and what the field allows, since
 * the notes and the report quote the value and the reader computes with it.
 */
function numeric(key, name, value) {
  if (typeof value === 'number') return value;
  try {
    checkValue(name, ROPE_FIELDS[name], value);
  } catch (e) {
    if (e instanceof PEError) throw new PEError(key, `${key}: ${e.message}`, e);
    throw e;
  }
  throw new PEError(key, `${key} must be a number, got ${describe(value)}`);
}


/** A positive finite number read from the config, or a PEError naming its key. */
function positiveNumber(key, value) {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new PEError(key, `${key} must be a finite number > 0, got ${describe(value)}`);
  }
  return value;
}

/** Validates a spec, naming the config key a bad value came from (from: spec field → key). */
function finish(spec, from, scalingKey) {
  try {
    return normalizeSpec(spec);
  } catch (e) {
    if (!(e instanceof PEError)) throw e;
    let key = lookup(from, e.param);
    if (key === undefined && e.param.startsWith('rope_scaling.')) {
      key = `${scalingKey}.${e.param.slice('rope_scaling.'.length)}`;
    } else if (key === undefined) {
      // An item of a list field (mrope_section[2]): the list's key plus the index.
      const [, head, rest] = /^([^.[]+)(.*)$/.exec(e.param) ?? [];
      const at = lookup(from, head);
      if (at !== undefined && !at.includes(' / ')) key = at + rest;
    }
    if (key === undefined) throw e;
    // A value derived from two keys (hidden_size / num_attention_heads) is blamed on the first,
    // and the message says how it was derived: "dim" is not a key of the config.
    if (key.includes(' / ')) throw new PEError(key.split(' / ')[0], `${key} gives the head dimension: ${e.message}`);
    throw new PEError(key, `${key}: ${e.message}`);
  }
}


// --- the report ---------------------------------------------------------------------------------

/**
 * What the reader says about one config as it reads it: notes [{ en, ko }], the report of
 * positional keys [{ key, used, en, ko }], the keys reported so far (seen) and `from` (spec field
 * → the config key it came from). key(k) names a key as the report shows it (text_config.k when
 * the language model's settings sit there).
 */
class Report {
  constructor() {
    this.notes = [];
    this.report = [];
    this.seen = new Set();
    this.from = {};
    this.prefix = '';
  }

  key(k) {
    return this.prefix + k;
  }

  note([en, ko]) {
    this.notes.push({ en, ko });
  }

  used(key, [en, ko]) {
    this.seen.add(key);
    this.report.push({ key, used: true, en, ko });
  }

  ignored(key, [en, ko]) {
    this.seen.add(key);
    this.report.push({ key, used: false, en, ko });
  }

  /** Reports the positional keys of c nobody read (OTHER_KEYS), then returns the result. */
  done(c, spec, alternates, from = this.from) {
    for (const [key, why] of Object.entries(OTHER_KEYS)) {
      if (why && has(c, key) && !this.seen.has(this.key(key))) this.ignored(this.key(key), why);
    }
    return { spec, notes: this.notes, from, report: this.report, alternates };
  }
}

// --- the readers, in the order fromHFConfig calls them -------------------------------------------

/** The config object to read (text_config for a multimodal one), its model_type, class defaults filled in. */
function readModel(root, r) {
  let c = root;
  if (isObject(own(c, 'text_config')) && !has(c, 'hidden_size') && !has(c, 'head_dim') && !has(c, 'rope_theta')) {
    c = c.text_config;
    r.prefix = 'text_config.';
    r.note(TEXT.textConfig());
  }
  const type = typeof own(c, 'model_type') === 'string' ? c.model_type : typeof own(root, 'model_type') === 'string' ? root.model_type : null;
  // Keys a published config leaves out because transformers' config class supplies them.
  const defaults = lookup(CLASS_DEFAULTS, type);
  if (defaults) {
    const missing = Object.keys(defaults.keys).filter((k) => !has(c, k));
    if (missing.length) {
      c = { ...c, ...Object.fromEntries(missing.map((k) => [k, defaults.keys[k]])) };
      r.note(TEXT.classDefaults(defaults.cls, missing.map((k) => `${k} ${defaults.keys[k]}`).join(', ')));
    }
  }
  return { c, type };
}

/** max_position_embeddings (every kind reads it): { at (the config's key) or null, maxPos }. */
function readMaxPos(c, r) {
  const found = first(c, MAX_POSITION_KEYS);
  if (!found) return { at: null, maxPos: null };
  const at = r.key(found[0]);
  r.from.max_position_embeddings = at;
  return { at, maxPos: numeric(at, 'max_position_embeddings', found[1]) };
}

/**
 * transformers v5's rope_parameters, possibly one set per layer type: { rp (the set the main spec
 * reads, or null), rpKey (its key), all (rope_parameters when it holds sets), others (the other
 * layer types) }.
 */
function readRopeParameters(c, r) {
  const rp = isObject(own(c, 'rope_parameters')) ? c.rope_parameters : null;
  // Keys as the config spells them: text_config.rope_parameters… when the text model is nested.
  const plain = { rp, rpKey: r.key('rope_parameters'), all: null, others: [] };
  if (!rp || has(rp, 'rope_type') || has(rp, 'type') || has(rp, 'rope_theta')) return plain;
  const layerTypes = Object.keys(rp).filter((k) => isObject(rp[k]));
  const pick = layerTypes.includes('full_attention') ? 'full_attention' : layerTypes[0];
  if (pick === undefined) return plain;
  const others = layerTypes.filter((t) => t !== pick);
  r.note(TEXT.layerSets(layerTypes, pick, others));
  return { rp: rp[pick], rpKey: r.key(`rope_parameters.${pick}`), all: rp, others };
}

/** The rotary head: { dim, mla, layoutWhy } from MLA's qk_rope_head_dim, head_dim / kv_channels, or hidden ÷ heads. */
function readHead(c, r) {
  if (has(c, 'qk_rope_head_dim')) {
    const dim = positiveInt(r.key('qk_rope_head_dim'), c.qk_rope_head_dim);
    r.from.dim = r.key('qk_rope_head_dim');
    r.used(r.key('qk_rope_head_dim'), TEXT.mlaDim(dim));
    for (const k of ['head_dim', 'hidden_size', 'num_attention_heads']) if (has(c, k)) r.ignored(r.key(k), TEXT.mlaNotHead());
    return { dim, mla: true, layoutWhy: TEXT.mlaLayout() };
  }
  const headAt = first(c, ['head_dim', 'kv_channels']);
  if (headAt) {
    r.from.dim = r.key(headAt[0]);
    const dim = positiveInt(r.key(headAt[0]), headAt[1]);
    r.used(r.key(headAt[0]), TEXT.headDim(dim));
    for (const k of ['hidden_size', 'num_attention_heads']) if (has(c, k)) r.ignored(r.key(k), TEXT.headDimDirect(headAt[0]));
    return { dim, mla: false, layoutWhy: null };
  }
  const hidden = first(c, ['hidden_size', 'n_embd', 'd_model']);
  const heads = first(c, HEAD_COUNT_KEYS);
  if (!hidden || !heads) {
    throw new PEError('head_dim', 'the config gives neither head_dim nor hidden_size and num_attention_heads (or n_embd and n_head): the head dimension is unknown');
  }
  const dim = Math.floor(positiveInt(r.key(hidden[0]), hidden[1]) / positiveInt(r.key(heads[0]), heads[1]));
  r.from.dim = `${r.key(hidden[0])} / ${r.key(heads[0])}`;
  if (dim < 1) throw new PEError(r.key(heads[0]), `${heads[0]} (${heads[1]}) is larger than ${hidden[0]} (${hidden[1]}): the head dimension would be 0`);
  r.used(r.key(hidden[0]), TEXT.headDimDivided(hidden[1], heads[1], dim));
  r.used(r.key(heads[0]), TEXT.headDimDivided(hidden[1], heads[1], dim));
  return { dim, mla: false, layoutWhy: null };
}

/** The base: rope_theta (v5's set first) or its older names, else 10000; ChatGLM's rope_ratio. */
function readBase(c, type, { rp, rpKey }, r) {
  const inSet = first(rp, ['rope_theta'], `${rpKey}.`);
  const baseAt = inSet ?? first(c, ['rope_theta', 'rotary_emb_base', 'rotary_base']);
  let base = 10000;
  if (baseAt) {
    r.from.base = inSet ? baseAt[0] : r.key(baseAt[0]);
    base = numeric(r.from.base, 'base', baseAt[1]);
    r.used(r.from.base, TEXT.base(base));
  } else if (type !== 'chatglm') {
    r.note(TEXT.noTheta());
  }
  if (type === 'chatglm') {
    const ratio = has(c, 'rope_ratio') ? positiveNumber(r.key('rope_ratio'), c.rope_ratio) : 1;
    base *= ratio;
    r.from.base = has(c, 'rope_ratio') ? r.key('rope_ratio') : r.from.base;
    if (has(c, 'rope_ratio')) r.used(r.key('rope_ratio'), TEXT.ropeRatio(ratio, base));
    r.note(TEXT.chatglm(base));
  }
  return base;
}

/** partial_rotary_factor: v5's set, partial_rotary_factor / rotary_pct, GPT-J's rotary_dim, ChatGLM's half; MLA 1. */
function readPartial(c, type, { dim, mla }, { rp, rpKey }, r) {
  const inSet = first(rp, ['partial_rotary_factor'], `${rpKey}.`);
  const partialAt = inSet ?? first(c, ['partial_rotary_factor', 'rotary_pct']);
  if (mla) return 1;   // the whole qk_rope_head_dim rotates
  if (partialAt) {
    r.from.partial_rotary_factor = inSet ? partialAt[0] : r.key(partialAt[0]);
    const partial = numeric(r.from.partial_rotary_factor, 'partial_rotary_factor', partialAt[1]);
    r.used(r.from.partial_rotary_factor, TEXT.partial(partial, dim));
    return partial;
  }
  if (has(c, 'rotary_dim')) {
    const rotary = positiveInt(r.key('rotary_dim'), c.rotary_dim);
    if (rotary > dim) throw new PEError(r.key('rotary_dim'), `rotary_dim (${rotary}) is larger than the head dimension (${dim})`);
    // A factor whose int(dim · factor) is exactly rotary_dim, whatever the rounding of rotary/dim.
    const partial = Math.trunc(dim * (rotary / dim)) === rotary ? rotary / dim : (rotary + 0.5) / dim;
    r.from.partial_rotary_factor = r.key('rotary_dim');
    r.used(r.key('rotary_dim'), TEXT.rotaryDim(rotary, dim, partial));
    r.note(TEXT.rotaryDimNote(rotary, dim, partial));
    return partial;
  }
  if (type === 'chatglm') {
    r.from.partial_rotary_factor = r.key('model_type');
    return 0.5;
  }
  return 1;
}

/** half or interleaved: options.layout, else the model's (GPT-J, ChatGLM, MLA …) or rope_interleave. */
function readLayout(c, type, { mla, layoutWhy }, options, r) {
  if (options.layout !== undefined) return options.layout;
  const interleaved = mla ? own(c, 'rope_interleave') !== false
    : INTERLEAVED_MODELS.has(type) || own(c, 'rope_interleave') === true || own(c, 'rotary_emb_interleaved') === true;
  if (!interleaved) return 'half';
  r.from.layout = r.key(mla ? 'qk_rope_head_dim' : own(c, 'rope_interleave') === true ? 'rope_interleave'
    : own(c, 'rotary_emb_interleaved') === true ? 'rotary_emb_interleaved' : 'model_type');
  r.note(layoutWhy ?? TEXT.interleaved(type));
  if (has(c, 'rope_interleave')) r.used(r.key('rope_interleave'), TEXT.interleavedPairs());
  return 'interleaved';
}

/**
 * rope_scaling (v4) or the scaling part of rope_parameters (v5): { scaling (the spec's
 * rope_scaling or null), scalingKey (where it was read), mropeSection (or null) }.
 */
function readScaling(c, { rp, rpKey }, maxPos, r) {
  let raw = null;
  let scalingKey = r.key('rope_scaling');
  if (isObject(own(c, 'rope_scaling'))) raw = c.rope_scaling;
  else if (rp) [raw, scalingKey] = [rp, rpKey];
  else if (has(c, 'rope_scaling')) throw new PEError(r.key('rope_scaling'), `rope_scaling must be null or an object, got ${describe(c.rope_scaling)}`);
  if (!raw) return { scaling: null, scalingKey, mropeSection: null };
  const mropeSection = has(raw, 'mrope_section') ? raw.mrope_section : null;
  const typeKey = has(raw, 'rope_type') ? 'rope_type' : 'type';
  const scalingKeys = Object.keys(raw).filter((k) => !SCALING_META.includes(k) && raw[k] !== null && k !== 'mrope_section' && k !== 'mrope_interleaved');
  if (own(raw, typeKey) == null && scalingKeys.length) {
    // transformers looks the type up (rope_type, else type) and fails without one; the rest
    // of the config still applies, and the report says what was left out.
    for (const k of scalingKeys) r.ignored(`${scalingKey}.${k}`, TEXT.scalingUntyped(scalingKey));
    r.note(TEXT.scalingUntypedNote(scalingKey, scalingKeys));
  }
  let rtype = own(raw, typeKey) ?? 'default';
  if (rtype === 'mrope') rtype = 'default';   // Qwen2-VL: default frequencies per axis (mrope_section)
  if (rtype === 'su') {
    rtype = 'longrope';
    r.note(TEXT.su());
  }
  if (typeof rtype !== 'string' || !ROPE_TYPES.includes(rtype)) {
    // Not a type PE Lab computes: everything else still applies; the report says what was left out.
    r.ignored(`${scalingKey}.${typeKey}`, TEXT.unknownType(rtype));
    for (const k of scalingKeys) r.ignored(`${scalingKey}.${k}`, TEXT.unknownTypeKey(rtype));
    r.note(TEXT.unknownTypeNote(`${scalingKey}.${typeKey}`, rtype));
    return { scaling: null, scalingKey, mropeSection };
  }
  if (rtype === 'default') {
    if (own(raw, typeKey) != null) r.used(`${scalingKey}.${typeKey}`, TEXT.noScaling(raw[typeKey] === 'mrope'));
    return { scaling: null, scalingKey, mropeSection };
  }
  return { scaling: readScalingType(c, raw, rtype, { scalingKey, typeKey }, maxPos, r), scalingKey, mropeSection };
}

/** The spec's rope_scaling of a type PE Lab computes: the keys the type uses, the others reported. */
function readScalingType(c, raw, rtype, { scalingKey, typeKey }, maxPos, r) {
  const variant = lookup(SCALING.variants, rtype);
  const keep = [...(variant.required ?? []), ...(variant.optional ?? [])];
  const scaling = { rope_type: rtype };
  for (const k of keep) {
    if (!has(raw, k)) continue;
    scaling[k] = raw[k];
    r.used(`${scalingKey}.${k}`, TEXT.scalingKey(k, rtype));
  }
  r.used(`${scalingKey}.${typeKey}`, TEXT.scalingType(rtype));
  if (rtype === 'longrope' && !has(scaling, 'original_max_position_embeddings') && has(c, 'original_max_position_embeddings')) {
    scaling.original_max_position_embeddings = c.original_max_position_embeddings;
    r.from['rope_scaling.original_max_position_embeddings'] = r.key('original_max_position_embeddings');
    r.used(r.key('original_max_position_embeddings'), TEXT.longropeOriginal());
  }
  const dropped = Object.keys(raw).filter((k) => !SCALING_META.includes(k) && !keep.includes(k) && raw[k] !== null);
  for (const k of dropped) r.ignored(`${scalingKey}.${k}`, TEXT.notUsedBy(rtype));
  if (dropped.length) r.note(TEXT.notUsedByNote(rtype, dropped));
  const orig = scaling.original_max_position_embeddings;
  if (rtype === 'yarn' && typeof orig === 'number' && typeof maxPos === 'number' && typeof scaling.factor === 'number' && maxPos !== orig * scaling.factor) {
    r.note(TEXT.yarnBefore456(scaling.factor, maxPos / orig));
  }
  return scaling;
}

/** length: options.length, else min(max_position_embeddings, 4096), with a note when scaling needs more. */
function readLength(maxPos, scaling, options, r) {
  if (options.length !== undefined) return options.length;
  const length = typeof maxPos === 'number' && Number.isInteger(maxPos) && maxPos >= 1 ? Math.min(maxPos, DEFAULT_LENGTH) : DEFAULT_LENGTH;
  if (scaling?.rope_type === 'dynamic' && length <= (maxPos ?? 0)) r.note(TEXT.dynamicLength());
  if (scaling?.rope_type === 'longrope') {
    const o = scaling.original_max_position_embeddings ?? maxPos;
    if (typeof o === 'number' && length <= o) r.note(TEXT.longropeLength(o));
  }
  return length;
}

/** Other layer types: Gemma 3's local base, v5's per-layer rope_parameters: [{ layers, spec, en, ko }]. */
function readAlternates(c, spec, { all, others }, scalingKey, r) {
  const alternates = [];
  if (has(c, 'rope_local_base_freq')) {
    const local = c.rope_local_base_freq;
    const alt = finish({ ...spec, base: local, rope_scaling: null }, { base: r.key('rope_local_base_freq') }, scalingKey);
    r.used(r.key('rope_local_base_freq'), TEXT.localBase(local));
    const [en, ko] = TEXT.localAlternate(local, spec);
    alternates.push({ layers: 'sliding_attention', spec: alt, en, ko });
    r.note(TEXT.twoBases(local, spec));
  }
  for (const name of others) {
    const set = all[name];
    const t = own(set, 'rope_type') ?? own(set, 'type') ?? 'default';
    const known = t !== 'default' && ROPE_TYPES.includes(t);
    const sub = {};
    if (known) {
      const variant = lookup(SCALING.variants, t);
      for (const k of [...(variant.required ?? []), ...(variant.optional ?? [])]) if (has(set, k)) sub[k] = set[k];
    }
    const alt = finish({
      ...spec, base: has(set, 'rope_theta') ? set.rope_theta : spec.base,
      partial_rotary_factor: has(set, 'partial_rotary_factor') ? set.partial_rotary_factor : spec.partial_rotary_factor,
      rope_scaling: known ? { rope_type: t, ...sub } : null,
    }, { base: r.key(`rope_parameters.${name}.rope_theta`) }, r.key(`rope_parameters.${name}`));
    r.used(r.key(`rope_parameters.${name}`), TEXT.layerSet(name));
    const [en, ko] = TEXT.layerSetAlternate(name, alt);
    alternates.push({ layers: name, spec: alt, en, ko });
  }
  return alternates;
}

/** Qwen2-VL's M-RoPE (3-D position ids): the mrope spec, with vision_config's merge size and time rate. */
function readMrope(root, spec, mropeSection, scalingKey, r) {
  const vision = isObject(own(root, 'vision_config')) ? root.vision_config : {};
  const mrope = { kind: 'mrope', dim: spec.dim, base: spec.base, mrope_section: mropeSection };
  if (has(vision, 'spatial_merge_size')) mrope.spatial_merge_size = vision.spatial_merge_size;
  if (has(vision, 'tokens_per_second')) mrope.tokens_per_second = vision.tokens_per_second;
  // Each bad value is blamed on the key it came from; dim and base were read for the rope spec.
  const mspec = finish(mrope, {
    ...r.from, mrope_section: `${scalingKey}.mrope_section`,
    spatial_merge_size: 'vision_config.spatial_merge_size', tokens_per_second: 'vision_config.tokens_per_second',
  }, scalingKey);
  r.used(`${scalingKey}.mrope_section`, TEXT.mropeSection(mspec.mrope_section));
  if (has(vision, 'spatial_merge_size')) r.used('vision_config.spatial_merge_size', TEXT.mropeMerge(mspec.spatial_merge_size));
  if (has(vision, 'tokens_per_second')) r.used('vision_config.tokens_per_second', TEXT.mropeTime(mspec.tokens_per_second));
  r.note(TEXT.mrope());
  return mspec;
}

/**
 * Converts a config.json (string, bytes or object) into a spec. options: { length, layout }
 * override what the config implies. Returns { spec, notes, from, report, alternates } (see the
 * top of this file).
 */
export function fromHFConfig(input, options = {}) {
  const r = new Report();
  const root = parse(input);
  const { c, type } = readModel(root, r);
  const { at: maxPosAt, maxPos } = readMaxPos(c, r);
  const mptAlibi = own(own(c, 'attn_config'), 'alibi') === true;
  if (type === 'bloom' || mptAlibi || own(c, 'alibi') === true) return alibiSpec(c, type, mptAlibi, maxPos, options, r);

  const params = readRopeParameters(c, r);
  const head = readHead(c, r);
  const base = readBase(c, type, params, r);
  const partial = readPartial(c, type, head, params, r);
  const layout = readLayout(c, type, head, options, r);
  if (type === 'cohere2') r.note(TEXT.cohere2());
  if (maxPosAt) r.used(maxPosAt, TEXT.maxPos(maxPos));
  const { scaling, scalingKey, mropeSection } = readScaling(c, params, maxPos, r);
  const originalAt = r.key('original_max_position_embeddings');
  if (has(c, 'original_max_position_embeddings') && scaling?.rope_type !== 'longrope' && !r.seen.has(originalAt)) {
    r.ignored(originalAt, TEXT.originalTopLevel());
  }
  const length = readLength(maxPos, scaling, options, r);

  const spec = finish({
    kind: 'rope', length, dim: head.dim, base, layout, partial_rotary_factor: partial, rope_scaling: scaling,
    max_position_embeddings: maxPos,
  }, r.from, scalingKey);
  const alternates = readAlternates(c, spec, params, scalingKey, r);
  if (mropeSection === null) return r.done(c, spec, alternates);
  const mspec = readMrope(root, spec, mropeSection, scalingKey, r);
  alternates.unshift({ layers: 'text', spec, en: TEXT.mropeText()[0], ko: TEXT.mropeText()[1] });
  return r.done(c, mspec, alternates);
}

/** ALiBi models (BLOOM, MPT, Falcon with alibi: true): kind alibi with the model's head count. */
function alibiSpec(c, type, mptAlibi, maxPos, options, r) {
  const headsAt = first(c, ALIBI_HEAD_COUNT_KEYS);
  if (!headsAt) throw new PEError('num_attention_heads', 'an ALiBi model needs its head count (n_head, n_heads or num_attention_heads): the slopes depend on it');
  const headsKey = r.key(headsAt[0]);
  const heads = positiveInt(headsKey, headsAt[1]);
  r.used(headsKey, TEXT.alibiHeads(heads));
  if (type === 'bloom') r.used(r.key('model_type'), TEXT.bloom());
  if (mptAlibi) r.used(r.key('attn_config.alibi'), TEXT.mpt());
  if (own(c, 'alibi') === true) r.used(r.key('alibi'), TEXT.falcon());
  if (mptAlibi && has(c.attn_config, 'alibi_bias_max')) {
    const m = c.attn_config.alibi_bias_max;
    if (m === 8 && (heads & (heads - 1)) === 0) r.used(r.key('attn_config.alibi_bias_max'), TEXT.alibiBiasMax());
    else r.ignored(r.key('attn_config.alibi_bias_max'), TEXT.alibiBiasMaxOther(m, heads));
  }
  for (const k of ['rope_theta', 'rotary_emb_base', 'rope_scaling', 'rotary_pct', 'partial_rotary_factor']) {
    if (has(c, k)) r.ignored(r.key(k), TEXT.alibiNoRotation());
  }
  if (maxPos !== null) r.used(r.key(first(c, MAX_POSITION_KEYS)[0]), TEXT.alibiLength(maxPos));
  // [heads, length, length] must fit PE_MAX_ELEMENTS; 256 keeps the heatmaps readable.
  const cap = Math.max(1, Math.min(256, Math.floor(Math.sqrt(2 ** 26 / heads))));
  const length = options.length ?? Math.min(cap, typeof maxPos === 'number' && maxPos >= 1 ? maxPos : cap);
  r.note(TEXT.alibi(heads, length));
  let spec;
  try {
    spec = normalizeSpec({ kind: 'alibi', heads, length });
  } catch (e) {
    if (!(e instanceof PEError)) throw e;
    // A length from the config's own maximum (max_position_embeddings 3.7) is that key's fault.
    const key = e.param === 'heads' ? headsKey : options.length === undefined && maxPos !== null ? r.key(first(c, MAX_POSITION_KEYS)[0]) : 'length';
    throw new PEError(key, `${key}: ${e.message}`);
  }
  return r.done(c, spec, [], { heads: headsKey });
}

/** The spec of a preset (the id of one of models.js's PRESETS); options as for fromHFConfig. */
export function fromPreset(name, options = {}) {
  const preset = PRESETS.find((p) => p.id === name);
  if (preset === undefined) {
    throw new PEError('preset', `preset must be one of ${PRESETS.map((p) => `"${p.id}"`).join(', ')}, got ${describe(name)}`);
  }
  return fromHFConfig(preset.config, options);
}

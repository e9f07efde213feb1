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

/** A value as the notes quote it: a number or string as is, anything else described. */
const quote = (v) => (typeof v === 'number' || typeof v === 'string' ? String(v) : describe(v));

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

/**
 * Converts a config.json (string, bytes or object) into a spec. options: { length, layout }
 * override what the config implies. Returns { spec, notes, from, report, alternates } (see the
 * top of this file).
 */
export function fromHFConfig(input, options = {}) {
  const notes = [];
  const note = (en, ko) => notes.push({ en, ko });
  const report = [];
  const seen = new Set();
  const used = (key, en, ko) => {
    seen.add(key);
    report.push({ key, used: true, en, ko });
  };
  const ignored = (key, en, ko) => {
    seen.add(key);
    report.push({ key, used: false, en, ko });
  };
  const root = parse(input);
  let c = root;
  let prefix = '';
  if (isObject(own(c, 'text_config')) && !has(c, 'hidden_size') && !has(c, 'head_dim') && !has(c, 'rope_theta')) {
    c = c.text_config;
    prefix = 'text_config.';
    note('Read the language model\'s settings from text_config.', '언어 모델 설정을 text_config에서 읽었습니다.');
  }
  const K = (k) => prefix + k;   // a key's name as the report shows it
  const from = {};
  const type = typeof own(c, 'model_type') === 'string' ? c.model_type : typeof own(root, 'model_type') === 'string' ? root.model_type : null;
  // Keys a published config leaves out because transformers' config class supplies them.
  const defaults = lookup(CLASS_DEFAULTS, type);
  if (defaults) {
    const missing = Object.keys(defaults.keys).filter((k) => !has(c, k));
    if (missing.length) {
      c = { ...c, ...Object.fromEntries(missing.map((k) => [k, defaults.keys[k]])) };
      const list = missing.map((k) => `${k} ${defaults.keys[k]}`).join(', ');
      note(`Not in the config, so taken from transformers' ${defaults.cls} defaults, as the model loads: ${list}.`,
        `config에 없어서 모델을 불러올 때처럼 transformers ${defaults.cls}의 기본값을 썼습니다: ${list}.`);
    }
  }

  // max_position_embeddings (every kind reads it)
  const mpeAt = first(c, ['max_position_embeddings', 'n_positions', 'n_ctx', 'seq_length']);
  let maxPos = null;
  if (mpeAt) {
    [from.max_position_embeddings, maxPos] = mpeAt;
    from.max_position_embeddings = K(from.max_position_embeddings);
    maxPos = numeric(from.max_position_embeddings, 'max_position_embeddings', maxPos);
  }

  // --- ALiBi models: no rotation at all, a bias per head ---------------------------------------
  const mptAlibi = own(own(c, 'attn_config'), 'alibi') === true;
  if (type === 'bloom' || mptAlibi || own(c, 'alibi') === true) {
    return alibiSpec(c, { type, mptAlibi, maxPos, options, notes, note, report, used, ignored, seen, K });
  }

  // transformers v5 keeps rope settings in rope_parameters, possibly one set per layer type.
  let rp = isObject(own(c, 'rope_parameters')) ? c.rope_parameters : null;
  let rpKey = 'rope_parameters';
  let rpAll = null;   // rope_parameters when it holds one set per layer type
  const layerSets = [];
  if (rp && !has(rp, 'rope_type') && !has(rp, 'type') && !has(rp, 'rope_theta')) {
    const layerTypes = Object.keys(rp).filter((k) => isObject(rp[k]));
    const pick = layerTypes.includes('full_attention') ? 'full_attention' : layerTypes[0];
    if (pick !== undefined) {
      for (const other of layerTypes) if (other !== pick) layerSets.push(other);
      rpAll = rp;
      rp = rpAll[pick];
      rpKey = `rope_parameters.${pick}`;
      note(`rope_parameters has one set per layer type (${layerTypes.join(', ')}): the main spec is ${pick}'s${layerSets.length ? `; ${layerSets.join(', ')} ${layerSets.length > 1 ? 'are' : 'is'} given as ${layerSets.length > 1 ? 'alternates' : 'an alternate'}` : ''}.`,
        `rope_parameters에 레이어 종류별 설정(${layerTypes.join(', ')})이 있습니다. 기본 스펙은 ${pick}의 것이고${layerSets.length ? `, ${layerSets.join(', ')}은(는) 따로 보여 줍니다` : ''}.`);
    }
  }

  // --- rotary head: MLA, ChatGLM, head_dim, hidden / heads --------------------------------------
  let dim;
  let partial = 1;
  let layoutWhy = null;
  const mla = has(c, 'qk_rope_head_dim');
  if (mla) {
    dim = positiveInt(K('qk_rope_head_dim'), c.qk_rope_head_dim);
    from.dim = K('qk_rope_head_dim');
    used(K('qk_rope_head_dim'), `the rotary part of each q/k head: dim ${dim} (MLA: only these channels rotate)`, `q/k 헤드에서 회전하는 부분: dim ${dim} (MLA에서는 이 채널만 회전합니다)`);
    layoutWhy = ['DeepSeek\'s MLA rotates interleaved pairs (2i, 2i+1) of the qk_rope_head_dim channels.', 'DeepSeek의 MLA는 qk_rope_head_dim 채널을 (2i, 2i+1)로 짝지어 회전합니다.'];
    for (const k of ['head_dim', 'hidden_size', 'num_attention_heads']) {
      if (has(c, k)) ignored(K(k), 'MLA: the rotary width is qk_rope_head_dim, not the full head', 'MLA: 회전 폭은 헤드 전체가 아니라 qk_rope_head_dim입니다');
    }
  } else {
    const headAt = first(c, ['head_dim', 'kv_channels']);
    if (headAt) {
      from.dim = K(headAt[0]);
      dim = positiveInt(K(headAt[0]), headAt[1]);
      used(K(headAt[0]), `head dimension ${dim}`, `헤드 차원 ${dim}`);
      for (const k of ['hidden_size', 'num_attention_heads']) {
        if (has(c, k)) ignored(K(k), `${headAt[0]} gives the head dimension directly`, `${headAt[0]} 값이 헤드 차원을 직접 정합니다`);
      }
    } else {
      const hidden = first(c, ['hidden_size', 'n_embd', 'd_model']);
      const heads = first(c, ['num_attention_heads', 'n_head', 'n_heads', 'num_heads']);
      if (!hidden || !heads) {
        throw new PEError('head_dim', 'the config gives neither head_dim nor hidden_size and num_attention_heads (or n_embd and n_head): the head dimension is unknown');
      }
      dim = Math.floor(positiveInt(K(hidden[0]), hidden[1]) / positiveInt(K(heads[0]), heads[1]));
      from.dim = `${K(hidden[0])} / ${K(heads[0])}`;
      if (dim < 1) throw new PEError(K(heads[0]), `${heads[0]} (${heads[1]}) is larger than ${hidden[0]} (${hidden[1]}): the head dimension would be 0`);
      used(K(hidden[0]), `head dimension ${hidden[1]} / ${heads[1]} = ${dim}`, `헤드 차원 ${hidden[1]} / ${heads[1]} = ${dim}`);
      used(K(heads[0]), `head dimension ${hidden[1]} / ${heads[1]} = ${dim}`, `헤드 차원 ${hidden[1]} / ${heads[1]} = ${dim}`);
    }
  }

  // --- base ---------------------------------------------------------------------------------------
  const baseAt = first(rp, ['rope_theta'], `${rpKey}.`) ?? first(c, ['rope_theta', 'rotary_emb_base', 'rotary_base']);
  let base = 10000;
  if (baseAt) {
    [from.base, base] = baseAt;
    if (!baseAt[0].startsWith('rope_parameters')) from.base = K(from.base);
    base = numeric(from.base, 'base', base);
    used(from.base, `base ${base}`, `밑 ${base}`);
  } else if (type !== 'chatglm') {
    note('No rope_theta in the config: used 10000 (the RoFormer / GPT-J value).', 'config에 rope_theta가 없어 10000 (RoFormer / GPT-J 값)을 썼습니다.');
  }
  if (type === 'chatglm') {
    const ratio = has(c, 'rope_ratio') ? positiveNumber(K('rope_ratio'), c.rope_ratio) : 1;
    base *= ratio;
    from.base = has(c, 'rope_ratio') ? K('rope_ratio') : from.base;
    if (has(c, 'rope_ratio')) used(K('rope_ratio'), `base 10000 × rope_ratio ${ratio} = ${base}`, `밑 10000 × rope_ratio ${ratio} = ${base}`);
    note(`ChatGLM: base = 10000 × rope_ratio = ${base}; only the first half of each head rotates (rotary_dim = head dim / 2), in interleaved pairs.`,
      `ChatGLM: 밑 = 10000 × rope_ratio = ${base}. 헤드마다 앞쪽 절반만 (rotary_dim = 헤드 차원 / 2) 인접한 두 채널씩 짝지어 회전합니다.`);
  }

  // --- partial rotary -----------------------------------------------------------------------------
  const partialAt = first(rp, ['partial_rotary_factor'], `${rpKey}.`) ?? first(c, ['partial_rotary_factor', 'rotary_pct']);
  if (mla) {
    // nothing: the whole qk_rope_head_dim rotates
  } else if (partialAt) {
    [from.partial_rotary_factor, partial] = partialAt;
    if (!partialAt[0].startsWith('rope_parameters')) from.partial_rotary_factor = K(from.partial_rotary_factor);
    partial = numeric(from.partial_rotary_factor, 'partial_rotary_factor', partial);
    used(from.partial_rotary_factor, `rotary fraction ${partial}: rotary_dim = int(${dim} · ${partial}) = ${Math.trunc(dim * partial)}`, `회전 비율 ${partial}: rotary_dim = int(${dim} · ${partial}) = ${Math.trunc(dim * partial)}`);
  } else if (has(c, 'rotary_dim')) {
    const rotary = positiveInt(K('rotary_dim'), c.rotary_dim);
    if (rotary > dim) throw new PEError(K('rotary_dim'), `rotary_dim (${rotary}) is larger than the head dimension (${dim})`);
    // A factor whose int(dim · factor) is exactly rotary_dim, whatever the rounding of rotary/dim.
    partial = Math.trunc(dim * (rotary / dim)) === rotary ? rotary / dim : (rotary + 0.5) / dim;
    from.partial_rotary_factor = K('rotary_dim');
    used(K('rotary_dim'), `rotary_dim ${rotary} of ${dim} channels: partial_rotary_factor ${partial}`, `${dim}채널 중 rotary_dim ${rotary}: partial_rotary_factor ${partial}`);
    note(`rotary_dim ${rotary} of a ${dim}-channel head: partial_rotary_factor ${partial}.`,
      `헤드 ${dim}채널 중 rotary_dim ${rotary}: partial_rotary_factor ${partial}.`);
  } else if (type === 'chatglm') {
    partial = 0.5;
    from.partial_rotary_factor = K('model_type');
  }

  // --- layout -------------------------------------------------------------------------------------
  let layout = 'half';
  if (options.layout !== undefined) {
    layout = options.layout;
  } else if (mla ? own(c, 'rope_interleave') !== false : (INTERLEAVED_MODELS.has(type) || own(c, 'rope_interleave') === true || own(c, 'rotary_emb_interleaved') === true)) {
    layout = 'interleaved';
    from.layout = mla ? K('qk_rope_head_dim') : own(c, 'rope_interleave') === true ? K('rope_interleave') : own(c, 'rotary_emb_interleaved') === true ? K('rotary_emb_interleaved') : K('model_type');
    const [en, ko] = layoutWhy ?? [`Pairs are interleaved (2i, 2i+1) in ${type ?? 'this model'}, as in GPT-J's rotate_every_two.`, `${type ?? '이 모델'}은(는) GPT-J의 rotate_every_two처럼 (2i, 2i+1)을 짝짓습니다.`];
    note(en, ko);
    if (has(c, 'rope_interleave')) used(K('rope_interleave'), 'interleaved pairs', '인접 채널 짝짓기');
  }
  if (type === 'cohere2') {
    note('Cohere2 (Command R7B): the sliding-window layers use this RoPE; its full-attention layers use no positional encoding at all.',
      'Cohere2 (Command R7B): 슬라이딩 윈도 레이어가 이 RoPE를 쓰고, 전체 어텐션 레이어는 위치 인코딩을 전혀 쓰지 않습니다.');
  }
  if (mpeAt) used(from.max_position_embeddings, `max_position_embeddings ${maxPos}`, `max_position_embeddings ${maxPos}`);

  // --- rope_scaling (v4) or the scaling part of rope_parameters (v5) -------------------------------
  let scaling = null;
  let scalingKey = K('rope_scaling');
  let raw = null;
  let mropeSection = null;
  if (isObject(own(c, 'rope_scaling'))) raw = c.rope_scaling;
  else if (rp) { raw = rp; scalingKey = rpKey; }
  else if (has(c, 'rope_scaling')) throw new PEError(K('rope_scaling'), `rope_scaling must be null or an object, got ${describe(c.rope_scaling)}`);
  if (raw) {
    const typeKey = has(raw, 'rope_type') ? 'rope_type' : 'type';
    let rtype = own(raw, typeKey) ?? 'default';
    const scalingKeys = Object.keys(raw).filter((k) => !SCALING_META.includes(k) && raw[k] !== null && k !== 'mrope_section' && k !== 'mrope_interleaved');
    if (has(raw, 'mrope_section')) mropeSection = raw.mrope_section;
    if (own(raw, typeKey) == null && scalingKeys.length) {
      // transformers looks the type up (rope_type, else type) and fails without one; the rest
      // of the config still applies, and the report says what was left out.
      for (const k of scalingKeys) {
        ignored(`${scalingKey}.${k}`, `${scalingKey} has no rope_type (or type), so its keys are not applied: transformers refuses such a config. Add e.g. "rope_type": "linear" to use them`,
          `${scalingKey}에 rope_type(또는 type)이 없어 적용하지 않았습니다. transformers도 이런 config는 받지 않습니다. 쓰려면 "rope_type": "linear"처럼 종류를 적어 주세요`);
      }
      note(`${scalingKey} gives ${scalingKeys.join(', ')} but no rope_type (or type), so it is not applied: transformers refuses such a config. Add e.g. "rope_type": "linear" to use it.`,
        `${scalingKey}에 ${scalingKeys.join(', ')}은(는) 있지만 rope_type(또는 type)이 없어 적용하지 않았습니다. transformers도 이런 config는 받지 않습니다. 쓰려면 "rope_type": "linear"처럼 종류를 적어 주세요.`);
    }
    if (rtype === 'mrope') rtype = 'default';   // Qwen2-VL: default frequencies per axis (mrope_section)
    if (rtype === 'su') {
      rtype = 'longrope';
      note('rope_scaling type "su" is the early name of "longrope" (Phi-3): read as longrope.', 'rope_scaling type "su"는 "longrope"(Phi-3)의 예전 이름이라 longrope로 읽었습니다.');
    }
    if (typeof rtype !== 'string' || !ROPE_TYPES.includes(rtype)) {
      // Not a type PE Lab computes: everything else still applies; the report says what was left out.
      ignored(`${scalingKey}.${typeKey}`, `${describe(rtype)} is not a scaling PE Lab computes (it knows ${ROPE_TYPES.join(', ')}): the frequencies are shown unscaled`,
        `${describe(rtype)}은(는) PE Lab이 계산하는 스케일링이 아닙니다 (${ROPE_TYPES.join(', ')}만 압니다). 주파수는 스케일링 없이 보여 줍니다`);
      for (const k of scalingKeys) ignored(`${scalingKey}.${k}`, `belongs to the unknown rope_type ${describe(rtype)}`, `알 수 없는 rope_type ${describe(rtype)}의 키입니다`);
      note(`${scalingKey}.${typeKey} ${describe(rtype)} is not a type PE Lab computes, so the frequencies are shown without it; the rest of the config applies.`,
        `${scalingKey}.${typeKey} ${describe(rtype)}은(는) PE Lab이 계산하지 않는 종류라 빼고 보여 줍니다. 나머지 설정은 적용했습니다.`);
    } else if (rtype !== 'default') {
      const variant = lookup(SCALING.variants, rtype);
      const keep = [...(variant.required ?? []), ...(variant.optional ?? [])];
      scaling = { rope_type: rtype };
      for (const k of keep) {
        if (has(raw, k)) {
          scaling[k] = raw[k];
          used(`${scalingKey}.${k}`, `rope_scaling.${k} of ${rtype}`, `${rtype}의 rope_scaling.${k}`);
        }
      }
      used(`${scalingKey}.${typeKey}`, `scaling type ${rtype}`, `스케일링 종류 ${rtype}`);
      if (rtype === 'longrope' && !has(scaling, 'original_max_position_embeddings') && has(c, 'original_max_position_embeddings')) {
        scaling.original_max_position_embeddings = c.original_max_position_embeddings;
        from['rope_scaling.original_max_position_embeddings'] = K('original_max_position_embeddings');
        used(K('original_max_position_embeddings'), 'LongRoPE\'s original context (Phi-3 keeps it at the top level): length is compared with it, and max_position_embeddings / it sets the attention factor',
          'LongRoPE의 원래 문맥 길이 (Phi-3는 최상위에 둡니다): length를 이 값과 비교하고, max_position_embeddings / 이 값으로 어텐션 배율을 정합니다');
      }
      const dropped = Object.keys(raw).filter((k) => !SCALING_META.includes(k) && !keep.includes(k) && raw[k] !== null);
      for (const k of dropped) {
        ignored(`${scalingKey}.${k}`, `not used by rope_type "${rtype}" in transformers' modeling_rope_utils`, `transformers의 modeling_rope_utils에서 rope_type "${rtype}"이(가) 쓰지 않는 키입니다`);
      }
      if (dropped.length) {
        note(`Not used by rope_type "${rtype}": ${dropped.join(', ')}.`, `rope_type "${rtype}"에서 쓰지 않는 키: ${dropped.join(', ')}.`);
      }
      const orig = scaling.original_max_position_embeddings;
      if (rtype === 'yarn' && typeof orig === 'number' && typeof maxPos === 'number' && typeof scaling.factor === 'number' && maxPos !== orig * scaling.factor) {
        note(`transformers before 4.56 (PR #40320) replaced factor ${scaling.factor} by max_position_embeddings / original_max_position_embeddings = ${maxPos / orig} here; PE Lab uses factor, as transformers does now (set rope_scaling.convention to "before_4.56" to see the older result).`,
          `transformers 4.56 이전(PR #40320 전)은 여기서 factor ${scaling.factor} 대신 max_position_embeddings / original_max_position_embeddings = ${maxPos / orig}를 썼습니다. PE Lab은 지금의 transformers처럼 factor를 씁니다 (예전 결과를 보려면 rope_scaling.convention을 "before_4.56"으로 바꾸세요).`);
      }
    } else if (own(raw, typeKey) != null) {
      used(`${scalingKey}.${typeKey}`, raw[typeKey] === 'mrope' ? 'M-RoPE (the default frequencies per axis)' : 'no scaling', raw[typeKey] === 'mrope' ? 'M-RoPE (축마다 기본 주파수)' : '스케일링 없음');
    }
  }
  if (has(c, 'original_max_position_embeddings') && scaling?.rope_type !== 'longrope' && !seen.has(K('original_max_position_embeddings'))) {
    ignored(K('original_max_position_embeddings'), 'PE Lab reads it at the top level only for longrope (Phi-3); the other types take it from rope_scaling',
      'PE Lab은 최상위의 이 값을 longrope(Phi-3)에서만 읽습니다. 다른 종류는 rope_scaling 안의 값을 씁니다');
  }

  // length
  let length;
  if (options.length !== undefined) {
    length = options.length;
  } else {
    length = typeof maxPos === 'number' && Number.isInteger(maxPos) && maxPos >= 1 ? Math.min(maxPos, DEFAULT_LENGTH) : DEFAULT_LENGTH;
    if (scaling?.rope_type === 'dynamic' && length <= (maxPos ?? 0)) {
      note('Dynamic NTK changes nothing until length exceeds max_position_embeddings: raise length to see it.',
        'dynamic NTK는 length가 max_position_embeddings를 넘어야 달라집니다. length를 늘려 보세요.');
    }
    if (scaling?.rope_type === 'longrope') {
      const o = scaling.original_max_position_embeddings ?? maxPos;
      if (typeof o === 'number' && length <= o) {
        note(`LongRoPE uses short_factor up to ${o} positions and long_factor beyond: raise length above ${o} to see the long factors.`,
          `LongRoPE는 ${o} 위치까지 short_factor를, 그 뒤로는 long_factor를 씁니다. long 배수를 보려면 length를 ${o}보다 크게 하세요.`);
      }
    }
  }

  const spec = finish({
    kind: 'rope', length, dim, base, layout, partial_rotary_factor: partial, rope_scaling: scaling,
    max_position_embeddings: maxPos,
  }, from, scalingKey);

  // --- other layer types: Gemma 3's local base, v5's per-layer rope_parameters ------------------
  const alternates = [];
  if (has(c, 'rope_local_base_freq')) {
    const local = finish({ ...spec, base: c.rope_local_base_freq, rope_scaling: null }, { base: K('rope_local_base_freq') }, scalingKey);
    used(K('rope_local_base_freq'), `base ${c.rope_local_base_freq} of the sliding-window (local) layers, without rope_scaling: shown as an alternate`,
      `슬라이딩 윈도(로컬) 레이어의 밑 ${c.rope_local_base_freq}, rope_scaling 없이: 따로 보여 줍니다`);
    alternates.push({ layers: 'sliding_attention', spec: local,
      en: `Sliding-window layers: base ${c.rope_local_base_freq}, no scaling (the main spec is the global layers': base ${spec.base}${spec.rope_scaling ? `, ${spec.rope_scaling.rope_type} ×${spec.rope_scaling.factor}` : ''}).`,
      ko: `슬라이딩 윈도 레이어: 밑 ${c.rope_local_base_freq}, 스케일링 없음 (기본 스펙은 전역 레이어의 것: 밑 ${spec.base}${spec.rope_scaling ? `, ${spec.rope_scaling.rope_type} ×${spec.rope_scaling.factor}` : ''}).` });
    note(`Two kinds of layers: the global ones use base ${spec.base}${spec.rope_scaling ? ` with ${spec.rope_scaling.rope_type} scaling` : ''} (shown), the sliding-window ones base ${c.rope_local_base_freq} without scaling (an alternate).`,
      `레이어가 두 종류입니다. 전역 레이어는 밑 ${spec.base}${spec.rope_scaling ? `에 ${spec.rope_scaling.rope_type} 스케일링` : ''}을 쓰고 (지금 보이는 것), 슬라이딩 윈도 레이어는 스케일링 없이 밑 ${c.rope_local_base_freq}을 씁니다 (따로 보여 줌).`);
  }
  for (const name of layerSets) {
    const set = rpAll[name];
    const sub = {};
    const t = own(set, 'rope_type') ?? own(set, 'type') ?? 'default';
    if (t !== 'default' && ROPE_TYPES.includes(t)) {
      const variant = lookup(SCALING.variants, t);
      for (const k of [...(variant.required ?? []), ...(variant.optional ?? [])]) if (has(set, k)) sub[k] = set[k];
    }
    const alt = finish({
      ...spec, base: has(set, 'rope_theta') ? set.rope_theta : spec.base,
      partial_rotary_factor: has(set, 'partial_rotary_factor') ? set.partial_rotary_factor : spec.partial_rotary_factor,
      rope_scaling: t !== 'default' && ROPE_TYPES.includes(t) ? { rope_type: t, ...sub } : null,
    }, { base: `rope_parameters.${name}.rope_theta` }, `rope_parameters.${name}`);
    used(`rope_parameters.${name}`, `the ${name} layers' RoPE (an alternate)`, `${name} 레이어의 RoPE (따로 보여 줌)`);
    alternates.push({ layers: name, spec: alt, en: `${name} layers: base ${alt.base}${alt.rope_scaling ? `, ${alt.rope_scaling.rope_type}` : ', no scaling'}.`, ko: `${name} 레이어: 밑 ${alt.base}${alt.rope_scaling ? `, ${alt.rope_scaling.rope_type}` : ', 스케일링 없음'}.` });
  }

  // --- M-RoPE: the 3-D position ids of Qwen2-VL ---------------------------------------------------
  if (mropeSection !== null) {
    const vision = isObject(own(root, 'vision_config')) ? root.vision_config : {};
    const mrope = { kind: 'mrope', dim: spec.dim, base: spec.base, mrope_section: mropeSection };
    if (has(vision, 'spatial_merge_size')) mrope.spatial_merge_size = vision.spatial_merge_size;
    if (has(vision, 'tokens_per_second')) mrope.tokens_per_second = vision.tokens_per_second;
    // Each bad value is blamed on the key it came from; dim and base were read for the rope spec.
    const mspec = finish(mrope, {
      ...from, mrope_section: `${scalingKey}.mrope_section`,
      spatial_merge_size: 'vision_config.spatial_merge_size', tokens_per_second: 'vision_config.tokens_per_second',
    }, scalingKey);
    used(`${scalingKey}.mrope_section`, `M-RoPE: frequency bands for t, h, w = ${JSON.stringify(mspec.mrope_section)}: opens kind mrope`, `M-RoPE: t, h, w 주파수 구간 ${JSON.stringify(mspec.mrope_section)}: kind mrope로 엽니다`);
    if (has(vision, 'spatial_merge_size')) {
      used('vision_config.spatial_merge_size', `M-RoPE spatial_merge_size ${mspec.spatial_merge_size}`, `M-RoPE spatial_merge_size ${mspec.spatial_merge_size}`);
    }
    if (has(vision, 'tokens_per_second')) {
      used('vision_config.tokens_per_second', `video time ids at ${mspec.tokens_per_second} per second (Qwen2.5-VL)`, `비디오 시간 id: 초당 ${mspec.tokens_per_second} (Qwen2.5-VL)`);
    }
    note('Qwen2-VL\'s M-RoPE: text, image and video tokens get (t, h, w) position ids and each frequency band follows one of them; opened as kind mrope. For text alone the three ids agree, which is plain RoPE (an alternate).',
      'Qwen2-VL의 M-RoPE: 텍스트, 이미지, 비디오 토큰이 (t, h, w) 위치 id를 받고, 주파수 구간마다 그중 하나를 따릅니다. kind mrope로 엽니다. 텍스트만 있으면 세 id가 같아 일반 RoPE가 됩니다 (따로 보여 줌).');
    alternates.unshift({ layers: 'text', spec, en: 'Text tokens alone: plain RoPE with the same base and head.', ko: '텍스트 토큰만: 밑과 헤드가 같은 일반 RoPE.' });
    return done({ spec: mspec, notes, from, report, alternates }, c, seen, ignored, K);
  }
  return done({ spec, notes, from, report, alternates }, c, seen, ignored, K);
}

/** Reports the positional keys nobody read, then returns the result. */
function done(result, c, seen, ignored, K) {
  for (const [key, why] of Object.entries(OTHER_KEYS)) {
    if (why && has(c, key) && !seen.has(K(key))) ignored(K(key), why[0], why[1]);
  }
  return result;
}

/** ALiBi models (BLOOM, MPT, Falcon with alibi: true): kind alibi with the model's head count. */
function alibiSpec(c, { type, mptAlibi, maxPos, options, notes, note, report, used, ignored, seen, K }) {
  const headsAt = first(c, ['n_head', 'n_heads', 'num_attention_heads', 'num_heads']);
  if (!headsAt) throw new PEError('num_attention_heads', 'an ALiBi model needs its head count (n_head, n_heads or num_attention_heads): the slopes depend on it');
  const heads = positiveInt(K(headsAt[0]), headsAt[1]);
  used(K(headsAt[0]), `${heads} heads, one ALiBi slope each`, `헤드 ${heads}개, 헤드마다 ALiBi 기울기 하나`);
  if (type === 'bloom') used(K('model_type'), 'BLOOM uses ALiBi (no rotary embedding)', 'BLOOM은 ALiBi를 씁니다 (회전 임베딩 없음)');
  if (mptAlibi) used(K('attn_config.alibi'), 'MPT with ALiBi', 'ALiBi를 쓰는 MPT');
  if (own(c, 'alibi') === true) used(K('alibi'), 'ALiBi instead of rotary embeddings', '회전 임베딩 대신 ALiBi');
  if (mptAlibi && has(c.attn_config, 'alibi_bias_max')) {
    const m = c.attn_config.alibi_bias_max;
    if (m === 8 && (heads & (heads - 1)) === 0) used(K('attn_config.alibi_bias_max'), 'slopes 2^(−8k/heads): the same as Press et al.\'s for this head count', '기울기 2^(−8k/헤드 수): 이 헤드 수에서는 Press 외의 것과 같습니다');
    else ignored(K('attn_config.alibi_bias_max'), `PE Lab uses Press et al.'s slopes (as with alibi_bias_max 8 and a power-of-two head count); MPT's own rule for ${quote(m)} / ${heads} heads may differ`, `PE Lab은 Press 외의 기울기를 씁니다 (alibi_bias_max 8, 헤드 수가 2의 거듭제곱일 때와 같음). ${quote(m)} / 헤드 ${heads}개에서는 MPT의 규칙과 다를 수 있습니다`);
  }
  for (const k of ['rope_theta', 'rotary_emb_base', 'rope_scaling', 'rotary_pct', 'partial_rotary_factor']) {
    if (has(c, k)) ignored(K(k), 'ALiBi models do not rotate q and k', 'ALiBi 모델은 q와 k를 회전하지 않습니다');
  }
  if (maxPos !== null) used(K(first(c, ['max_position_embeddings', 'n_positions', 'n_ctx', 'seq_length'])[0]), `training length ${maxPos}; ALiBi has no table to run out of, so length is PE Lab's choice`, `학습 길이 ${maxPos}. ALiBi는 표가 없어 길이 제한이 없으므로 length는 PE Lab이 정합니다`);
  // [heads, length, length] must fit PE_MAX_ELEMENTS; 256 keeps the heatmaps readable.
  const cap = Math.max(1, Math.min(256, Math.floor(Math.sqrt(2 ** 26 / heads))));
  const length = options.length ?? Math.min(cap, typeof maxPos === 'number' && maxPos >= 1 ? maxPos : cap);
  note(`ALiBi (Press et al.): no rotation; each of the ${heads} heads adds −m_h·(i − j) to its scores. Opened as kind alibi with ${length} positions.`,
    `ALiBi (Press 외): 회전이 없고, 헤드 ${heads}개가 각자 점수에 −m_h·(i − j)를 더합니다. 위치 ${length}개로 kind alibi를 엽니다.`);
  let spec;
  try {
    spec = normalizeSpec({ kind: 'alibi', heads, length });
  } catch (e) {
    if (!(e instanceof PEError)) throw e;
    throw new PEError(e.param === 'heads' ? K(headsAt[0]) : 'length', `${e.param === 'heads' ? K(headsAt[0]) : 'length'}: ${e.message}`);
  }
  return done({ spec, notes, from: { heads: K(headsAt[0]) }, report, alternates: [] }, c, seen, ignored, K);
}

/** The spec of a preset (the id of one of models.js's PRESETS); options as for fromHFConfig. */
export function fromPreset(name, options = {}) {
  const preset = PRESETS.find((p) => p.id === name);
  if (preset === undefined) {
    throw new PEError('preset', `preset must be one of ${PRESETS.map((p) => `"${p.id}"`).join(', ')}, got ${describe(name)}`);
  }
  return fromHFConfig(preset.config, options);
}

// "Paste your model's config": a Hugging Face config.json → a spec of kind `rope`. Pure JS, no
// WASM, no network.
//
//   import { fromHFConfig, PRESETS, fromPreset } from './hfconfig.js';
//   const { spec, notes } = fromHFConfig(text);      // text or an already parsed object
//   pe.compute(spec);
//
// Read from the config (first match wins):
//   base                   rope_parameters.rope_theta, rope_theta, rotary_emb_base, rotary_base; else 10000
//   dim (head dim)         head_dim, else hidden_size (n_embd, d_model) ÷ num_attention_heads (n_head,
//                          num_heads), floor division as transformers does
//   partial_rotary_factor  rope_parameters.partial_rotary_factor, partial_rotary_factor, rotary_pct,
//                          rotary_dim ÷ head dim (GPT-J); else 1
//   rope_scaling           rope_scaling, else transformers v5's rope_parameters (its rope_type and
//                          scaling keys); the legacy key "type" is read as rope_type; keys the type
//                          does not use are dropped (and listed in the notes)
//   max_position_embeddings  max_position_embeddings, n_positions, n_ctx, seq_length
//   layout                 interleaved for GPT-J-style models (model_type gptj, codegen) and configs
//                          with rope_interleave / rotary_emb_interleaved true; else half
//   length                 options.length, else min(max_position_embeddings, 4096)
// Multimodal configs whose language model sits in text_config are read from there.
//
// Errors are PEErrors whose .param names the config key at fault ('config' for the JSON itself),
// and whose message says what is allowed. notes: [{ en, ko }], what was inferred or ignored.
import { PEError, normalizeSpec, describe } from './spec.js';
import ropeSchema, { ROPE_TYPES } from './schema/rope.js';

const SCALING = ropeSchema.rope.fields.rope_scaling;
const DEFAULT_LENGTH = 4096;

/**
 * Known models, from their published config.json (the RoPE-relevant keys). Qwen2.5's rope_scaling
 * is the one its model card says to add for contexts beyond 32,768 tokens.
 */
export const PRESETS = {
  'llama-3.1-8b': {
    label: 'Llama 3.1 8B',
    repo: 'meta-llama/Llama-3.1-8B',
    config: {
      model_type: 'llama', hidden_size: 4096, num_attention_heads: 32, num_key_value_heads: 8,
      max_position_embeddings: 131072, rope_theta: 500000.0,
      rope_scaling: { factor: 8.0, low_freq_factor: 1.0, high_freq_factor: 4.0, original_max_position_embeddings: 8192, rope_type: 'llama3' },
    },
  },
  'qwen2.5-7b-yarn': {
    label: 'Qwen2.5 7B Instruct (YaRN, 128K)',
    repo: 'Qwen/Qwen2.5-7B-Instruct',
    config: {
      model_type: 'qwen2', hidden_size: 3584, num_attention_heads: 28, num_key_value_heads: 4,
      max_position_embeddings: 32768, rope_theta: 1000000.0,
      rope_scaling: { factor: 4.0, original_max_position_embeddings: 32768, type: 'yarn' },
    },
  },
  'mistral-7b': {
    label: 'Mistral 7B v0.1',
    repo: 'mistralai/Mistral-7B-v0.1',
    config: {
      model_type: 'mistral', hidden_size: 4096, num_attention_heads: 32, num_key_value_heads: 8,
      max_position_embeddings: 32768, rope_theta: 10000.0, sliding_window: 4096,
    },
  },
  'gpt-neox-20b': {
    label: 'GPT-NeoX 20B (partial rotary)',
    repo: 'EleutherAI/gpt-neox-20b',
    config: {
      model_type: 'gpt_neox', hidden_size: 6144, num_attention_heads: 64, max_position_embeddings: 2048,
      rotary_pct: 0.25, rotary_emb_base: 10000,
    },
  },
  'gpt-j-6b': {
    label: 'GPT-J 6B (interleaved)',
    repo: 'EleutherAI/gpt-j-6b',
    config: { model_type: 'gptj', n_embd: 4096, n_head: 16, n_positions: 2048, rotary_dim: 64 },
  },
};

const INTERLEAVED_MODELS = new Set(['gptj', 'codegen']);
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const has = (o, k) => isObject(o) && Object.prototype.hasOwnProperty.call(o, k) && o[k] !== null && o[k] !== undefined;

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
 * Converts a config.json (string, bytes or object) into a rope spec. options: { length, layout }
 * override what the config implies. Returns { spec, notes, from } where from maps each spec
 * field to the config key it was read from.
 */
export function fromHFConfig(input, options = {}) {
  const notes = [];
  const note = (en, ko) => notes.push({ en, ko });
  let c = parse(input);
  if (isObject(c.text_config) && !has(c, 'hidden_size') && !has(c, 'head_dim') && !has(c, 'rope_theta')) {
    c = c.text_config;
    note('Read the language model\'s settings from text_config.', '언어 모델 설정을 text_config에서 읽었습니다.');
  }
  const from = {};

  // transformers v5 keeps rope settings in rope_parameters, possibly one set per layer type.
  let rp = isObject(c.rope_parameters) ? c.rope_parameters : null;
  let rpKey = 'rope_parameters';
  if (rp && !has(rp, 'rope_type') && !has(rp, 'type') && !has(rp, 'rope_theta')) {
    const layerTypes = Object.keys(rp).filter((k) => isObject(rp[k]));
    const pick = layerTypes.includes('full_attention') ? 'full_attention' : layerTypes[0];
    if (pick !== undefined) {
      rp = rp[pick];
      rpKey = `rope_parameters.${pick}`;
      note(`rope_parameters has one set per layer type (${layerTypes.join(', ')}): used ${pick}.`,
        `rope_parameters에 레이어 종류별 설정(${layerTypes.join(', ')})이 있어 ${pick}을 썼습니다.`);
    }
  }

  // base
  const baseAt = first(rp, ['rope_theta'], `${rpKey}.`) ?? first(c, ['rope_theta', 'rotary_emb_base', 'rotary_base']);
  let base = 10000;
  if (baseAt) [from.base, base] = baseAt;
  else note('No rope_theta in the config: used 10000 (the RoFormer / GPT-J value).', 'config에 rope_theta가 없어 10000 (RoFormer / GPT-J 값)을 썼습니다.');

  // head dim
  let dim;
  const headAt = first(c, ['head_dim']);
  if (headAt) {
    [from.dim] = headAt;
    dim = positiveInt('head_dim', headAt[1]);
  } else {
    const hidden = first(c, ['hidden_size', 'n_embd', 'd_model']);
    const heads = first(c, ['num_attention_heads', 'n_head', 'num_heads']);
    if (!hidden || !heads) {
      throw new PEError('head_dim', 'the config gives neither head_dim nor hidden_size and num_attention_heads (or n_embd and n_head): the head dimension is unknown');
    }
    dim = Math.floor(positiveInt(hidden[0], hidden[1]) / positiveInt(heads[0], heads[1]));
    from.dim = `${hidden[0]} / ${heads[0]}`;
    if (dim < 1) throw new PEError(heads[0], `${heads[0]} (${heads[1]}) is larger than ${hidden[0]} (${hidden[1]}): the head dimension would be 0`);
  }

  // partial rotary
  let partial = 1;
  const partialAt = first(rp, ['partial_rotary_factor'], `${rpKey}.`) ?? first(c, ['partial_rotary_factor', 'rotary_pct']);
  if (partialAt) {
    [from.partial_rotary_factor, partial] = partialAt;
  } else if (has(c, 'rotary_dim')) {
    const rotary = positiveInt('rotary_dim', c.rotary_dim);
    if (rotary > dim) throw new PEError('rotary_dim', `rotary_dim (${rotary}) is larger than the head dimension (${dim})`);
    // A factor whose int(dim · factor) is exactly rotary_dim, whatever the rounding of rotary/dim.
    partial = Math.trunc(dim * (rotary / dim)) === rotary ? rotary / dim : (rotary + 0.5) / dim;
    from.partial_rotary_factor = 'rotary_dim';
    note(`rotary_dim ${rotary} of a ${dim}-channel head: partial_rotary_factor ${partial}.`,
      `헤드 ${dim}채널 중 rotary_dim ${rotary}: partial_rotary_factor ${partial}.`);
  }

  // layout
  let layout = 'half';
  if (options.layout !== undefined) {
    layout = options.layout;
  } else if (INTERLEAVED_MODELS.has(c.model_type) || c.rope_interleave === true || c.rotary_emb_interleaved === true) {
    layout = 'interleaved';
    note('Pairs are interleaved (2i, 2i+1), as in GPT-J\'s rotate_every_two.', 'GPT-J의 rotate_every_two처럼 (2i, 2i+1)을 짝짓습니다.');
  }

  // max_position_embeddings
  const mpeAt = first(c, ['max_position_embeddings', 'n_positions', 'n_ctx', 'seq_length']);
  let maxPos = null;
  if (mpeAt) [from.max_position_embeddings, maxPos] = mpeAt;

  // rope_scaling (v4) or the scaling part of rope_parameters (v5)
  let scaling = null;
  let scalingKey = 'rope_scaling';
  let raw = null;
  if (isObject(c.rope_scaling)) raw = c.rope_scaling;
  else if (rp) { raw = rp; scalingKey = rpKey; }
  else if (has(c, 'rope_scaling')) throw new PEError('rope_scaling', `rope_scaling must be null or an object, got ${describe(c.rope_scaling)}`);
  if (raw) {
    const typeKey = has(raw, 'rope_type') ? 'rope_type' : 'type';
    let type = raw[typeKey] ?? 'default';
    const scalingKeys = Object.keys(raw).filter((k) => !['rope_theta', 'partial_rotary_factor', 'rope_type', 'type'].includes(k) && raw[k] !== null);
    if (raw[typeKey] == null && scalingKeys.length) {
      // transformers looks the type up (rope_type, else type) and fails without one; the rest
      // of the config still applies, and the note says what was left out.
      note(`${scalingKey} gives ${scalingKeys.join(', ')} but no rope_type (or type), so it is not applied: transformers refuses such a config. Add e.g. "rope_type": "linear" to use it.`,
        `${scalingKey}에 ${scalingKeys.join(', ')}은(는) 있지만 rope_type(또는 type)이 없어 적용하지 않았습니다. transformers도 이런 config는 받지 않습니다. 쓰려면 "rope_type": "linear"처럼 종류를 적어 주세요.`);
    }
    if (type === 'mrope') {
      type = 'default';
      note('rope_type "mrope" (Qwen2-VL) uses the default frequencies per axis: shown as plain RoPE; see kind "mrope" for the 3-D position ids.',
        'rope_type "mrope" (Qwen2-VL)는 축마다 기본 주파수를 씁니다. 일반 RoPE로 보여 줍니다 (3차원 위치 id는 kind "mrope").');
    }
    if (typeof type !== 'string' || !ROPE_TYPES.includes(type)) {
      throw new PEError(`${scalingKey}.${typeKey}`,
        `${scalingKey}.${typeKey} ${describe(type)} is not a type PE Lab computes: it knows ${ROPE_TYPES.map((t) => `"${t}"`).join(', ')}`);
    }
    if (type !== 'default') {
      const variant = SCALING.variants[type];
      const keep = [...(variant.required ?? []), ...(variant.optional ?? [])];
      scaling = { rope_type: type };
      for (const k of keep) if (has(raw, k)) scaling[k] = raw[k];
      const ignoredBy = new Set(['rope_type', 'type', 'rope_theta', 'partial_rotary_factor', ...keep]);
      const dropped = Object.keys(raw).filter((k) => !ignoredBy.has(k) && raw[k] !== null);
      if (dropped.length) {
        note(`Not used by rope_type "${type}": ${dropped.join(', ')}.`, `rope_type "${type}"에서 쓰지 않는 키: ${dropped.join(', ')}.`);
      }
      const orig = scaling.original_max_position_embeddings;
      if (type === 'yarn' && typeof orig === 'number' && typeof maxPos === 'number' && typeof scaling.factor === 'number' && maxPos !== orig * scaling.factor) {
        note(`transformers before 4.56 (PR #40320) replaced factor ${scaling.factor} by max_position_embeddings / original_max_position_embeddings = ${maxPos / orig} here; PE Lab uses factor, as transformers does now.`,
          `transformers 4.56 이전(PR #40320 전)은 여기서 factor ${scaling.factor} 대신 max_position_embeddings / original_max_position_embeddings = ${maxPos / orig}를 썼습니다. PE Lab은 지금의 transformers처럼 factor를 씁니다.`);
      }
    }
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
  }

  const spec = {
    kind: 'rope', length, dim, base, layout, partial_rotary_factor: partial, rope_scaling: scaling,
    max_position_embeddings: maxPos,
  };
  try {
    return { spec: normalizeSpec(spec), notes, from };
  } catch (e) {
    if (!(e instanceof PEError)) throw e;
    // Name the config key the bad value came from.
    let key = from[e.param];
    if (e.param.startsWith('rope_scaling.')) key = `${scalingKey}.${e.param.slice('rope_scaling.'.length)}`;
    if (key === undefined) throw e;
    // A value derived from two keys (hidden_size / num_attention_heads) is blamed on the first,
    // and the message says how it was derived: "dim" is not a key of the config.
    if (key.includes(' / ')) throw new PEError(key.split(' / ')[0], `${key} gives the head dimension: ${e.message}`);
    throw new PEError(key, `${key}: ${e.message}`);
  }
}

/** The rope spec of a preset (a key of PRESETS); options as for fromHFConfig. */
export function fromPreset(name, options = {}) {
  if (typeof name !== 'string' || !Object.prototype.hasOwnProperty.call(PRESETS, name)) {
    throw new PEError('preset', `preset must be one of ${Object.keys(PRESETS).map((k) => `"${k}"`).join(', ')}, got ${describe(name)}`);
  }
  return fromHFConfig(PRESETS[name].config, options);
}

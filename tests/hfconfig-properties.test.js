// Property-based tests of the config reader (web/api/hfconfig.js, fast-check): odd config.json
// files — prototype-named strings in every string field and as keys, wrong types, negative, NaN
// and huge numbers, nested nulls, arrays where objects are expected — either give a spec that
// pe.compute accepts (the report naming only keys the config has), or a PEError whose .param is a
// key the config has (or, when the head dimension or head count is missing, the key it should
// have given). Never a TypeError from a lookup through Object.prototype, never a key nobody wrote.
// Runs about PE_FC_RUNS cases per property (default 120 in npm test); PE_FC_SEED fixes the seed.
import { describe, it, expect, beforeAll } from 'vitest';
import fc from 'fast-check';
import { fromHFConfig } from '../web/api/hfconfig.js';
import { GALLERY, PRESETS } from '../web/api/models.js';
import { createPE, PEError } from '../web/pe.js';

const RUNS = Number(process.env.PE_FC_RUNS) || 120;
const SEED = Number(process.env.PE_FC_SEED) || 20261126;

/** Names that find something on Object.prototype when looked up in a plain object. */
const PROTO_NAMES = ['toString', '__proto__', 'valueOf', 'hasOwnProperty', '__defineGetter__', 'constructor', 'isPrototypeOf', 'propertyIsEnumerable'];

/** Real configs to start from: every gallery model and preset (RoPE, M-RoPE, MLA, ALiBi, ChatGLM, v5 …). */
const TEMPLATES = [
  ...GALLERY.map((g) => g.config),
  ...PRESETS.map((p) => p.config),
  { model_type: 'llava', vision_config: { hidden_size: 1024 }, text_config: { ...PRESETS[0].config } },
  { hidden_size: 2048, num_attention_heads: 16, max_position_embeddings: 131072,
    rope_parameters: { rope_type: 'yarn', rope_theta: 1000000, factor: 4, original_max_position_embeddings: 32768, partial_rotary_factor: 0.5 } },
  { head_dim: 256, num_attention_heads: 8, max_position_embeddings: 131072,
    rope_parameters: { sliding_attention: { rope_type: 'default', rope_theta: 10000 }, full_attention: { rope_type: 'linear', factor: 8, rope_theta: 1000000 } } },
];

/** Keys the reader looks at (top level, rope_scaling / rope_parameters, vision_config): where new keys go. */
const TOP_KEYS = ['model_type', 'text_config', 'vision_config', 'hidden_size', 'n_embd', 'd_model', 'num_attention_heads', 'n_head', 'n_heads',
  'num_heads', 'head_dim', 'kv_channels', 'qk_rope_head_dim', 'rope_theta', 'rotary_emb_base', 'rotary_base', 'rope_ratio', 'partial_rotary_factor',
  'rotary_pct', 'rotary_dim', 'rope_scaling', 'rope_parameters', 'max_position_embeddings', 'n_positions', 'n_ctx', 'seq_length',
  'original_max_position_embeddings', 'rope_interleave', 'rotary_emb_interleaved', 'rope_local_base_freq', 'alibi', 'attn_config',
  'sliding_window', 'num_key_value_heads', 'layer_types'];
const SCALING_KEYS = ['rope_type', 'type', 'factor', 'original_max_position_embeddings', 'low_freq_factor', 'high_freq_factor', 'beta_fast',
  'beta_slow', 'short_factor', 'long_factor', 'attention_factor', 'mscale', 'mscale_all_dim', 'mrope_section', 'truncate', 'rope_theta',
  'partial_rotary_factor', 'full_attention', 'sliding_attention'];
const VISION_KEYS = ['spatial_merge_size', 'tokens_per_second'];
const NESTED_KEYS = { rope_scaling: SCALING_KEYS, rope_parameters: SCALING_KEYS, vision_config: VISION_KEYS, text_config: TOP_KEYS, attn_config: ['alibi', 'alibi_bias_max'] };

/** An object whose own key is `key` (a "__proto__" key included, as JSON.parse makes it). */
const withKey = (key, value) => Object.fromEntries([[key, value]]);

/** Values no config field should turn into a TypeError, a NaN or a key nobody wrote. */
const ODD = fc.oneof(
  fc.constantFrom(...PROTO_NAMES),
  fc.constantFrom('', '12', 'NaN', 'yarn', 'mrope', 'llama3', 'bloom', 'chatglm', 'gemma3', true, false, null),
  fc.constantFrom(NaN, Infinity, -Infinity, -1, 0, -0, 0.5, 3.7, 1e-310, 1e-40, 2 ** 31, 2 ** 53, 1e308, -1e308),
  fc.integer({ min: -10, max: 300 }),
  fc.double({ noDefaultInfinity: true }),
  fc.constantFrom([], [1, 2], [16, 24, 24], [null], [[]], {}, { rope_type: 'toString' }, { type: 'linear', factor: 2 }),
  fc.constantFrom(...PROTO_NAMES).map((k) => withKey(k, { rope_theta: 5 })),
  fc.constantFrom(...PROTO_NAMES).map((k) => [k]),
);

/** Every path of a config (own keys and array items), nested ones included. */
function paths(value, prefix = []) {
  const out = [];
  if (Array.isArray(value)) value.forEach((v, i) => out.push([...prefix, i], ...paths(v, [...prefix, i])));
  else if (value && typeof value === 'object') for (const k of Object.keys(value)) out.push([...prefix, k], ...paths(value[k], [...prefix, k]));
  return out;
}

/** A deep copy that keeps own "__proto__" keys and NaN (structuredClone would drop neither, but be explicit). */
function copy(value) {
  if (Array.isArray(value)) return value.map(copy);
  if (value && typeof value === 'object') return Object.fromEntries(Object.keys(value).map((k) => [k, copy(value[k])]));
  return value;
}

/** Sets value at path (creating nothing: a path through a non-object is skipped). */
function setAt(config, path, value) {
  let at = config;
  for (const p of path.slice(0, -1)) {
    if (!at || typeof at !== 'object' || !Object.hasOwn(at, p)) return;
    at = at[p];
  }
  if (at && typeof at === 'object') Object.defineProperty(at, path[path.length - 1], { value, enumerable: true, writable: true, configurable: true });
}

/** A mutation: a path of the template (or a key the reader knows, new at the top or nested) and an odd value. */
function arbMutation(config) {
  const existing = paths(config);
  const fresh = [...TOP_KEYS.map((k) => [k]), ...PROTO_NAMES.map((k) => [k])];
  for (const [parent, keys] of Object.entries(NESTED_KEYS)) {
    if (config[parent] && typeof config[parent] === 'object' && !Array.isArray(config[parent])) {
      for (const k of [...keys, ...PROTO_NAMES]) fresh.push([parent, k]);
    }
  }
  return fc.tuple(fc.constantFrom(...existing, ...fresh), ODD);
}

/** An odd config: a template with one to three mutations. */
const arbConfig = fc.constantFrom(...TEMPLATES).chain((template) =>
  fc.array(arbMutation(template), { minLength: 1, maxLength: 3 }).map((mutations) => {
    const config = copy(template);
    for (const [path, value] of mutations) setAt(config, path, value);
    return config;
  }));

/** Every string in the config replaced by a prototype name (drawn per string). */
const arbProtoStrings = fc.constantFrom(...TEMPLATES).chain((template) => {
  const stringPaths = paths(template).filter((p) => typeof p.reduce((o, k) => o[k], template) === 'string');
  return fc.array(fc.constantFrom(...PROTO_NAMES), { minLength: stringPaths.length, maxLength: stringPaths.length }).map((names) => {
    const config = copy(template);
    stringPaths.forEach((p, i) => setAt(config, p, names[i]));
    return { config, stringPaths };
  });
});

/** Whether a dotted / indexed key (text_config.rope_scaling.short_factor[3]) is an own path of config. */
function existsIn(config, key) {
  let at = config;
  for (const part of key.split(/\.|\[(\d+)\]/).filter((p) => p !== undefined && p !== '')) {
    if (!at || typeof at !== 'object' || !Object.hasOwn(at, part)) return false;
    at = at[part];
  }
  return true;
}

/** Keys a PEError may name though the config lacks them: the head dimension or head count it must give. */
const MISSING_OK = new Set(['head_dim', 'num_attention_heads']);

const show = (config) => JSON.stringify(config, (_, v) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v)).slice(0, 600);

describe('config reader properties (fast-check)', () => {
  let pe;
  beforeAll(async () => {
    pe = await createPE();
  });

  /** The one thing every config must do: a usable spec with an honest report, or a PEError naming its key. */
  function check(config, input = config) {
    let out;
    try {
      out = fromHFConfig(input);
    } catch (e) {
      expect(e, `${e?.name}: ${e?.message}\n${show(config)}`).toBeInstanceOf(PEError);
      // A missing key is named as the key to add: a required one inside an object the config has
      // (rope_scaling.factor of a yarn rope_scaling), or the head dimension / head count.
      const parent = e.param.includes('.') ? e.param.slice(0, e.param.lastIndexOf('.')) : null;
      const missing = MISSING_OK.has(e.param) || (parent !== null && existsIn(config, parent) && e.message.includes('is required'));
      const named = e.param === 'config' || existsIn(config, e.param) || missing;
      expect(named, `PEError names ${e.param}, not a key of the config: ${e.message}\n${show(config)}`).toBe(true);
      expect(e.message.length).toBeGreaterThan(10);
      return 'refused';
    }
    const { spec, report, notes, alternates } = out;
    // Keys a config class supplies (Gemma 3's rope_theta …) are reported too; a note names them.
    const supplied = (key) => notes.some((n) => n.en.includes('defaults') && n.en.includes(`${key.split('.').pop()} `));
    for (const r of report) {
      expect(existsIn(config, r.key) || supplied(r.key), `report names ${r.key}, not a key of the config\n${show(config)}`).toBe(true);
      expect(typeof r.en === 'string' && typeof r.ko === 'string', r.key).toBe(true);
    }
    for (const n of notes) expect(typeof n.en === 'string' && typeof n.ko === 'string').toBe(true);
    // pe.compute accepts the spec and its alternates (at a few positions: the properties are
    // about values, not sizes) and returns finite numbers.
    for (const s of [spec, ...alternates.map((a) => a.spec)]) {
      const small = s.length !== undefined ? { ...s, length: Math.min(s.length, 16) } : s;
      const r = pe.compute(small);
      expect(r.data.every(Number.isFinite) || (small.kind === 'alibi' && r.data.every((v) => v === -Infinity || Number.isFinite(v))),
        `non-finite values for ${JSON.stringify(small)}`).toBe(true);
    }
    return 'read';
  }

  it('a template with odd values at any key gives a usable spec or a PEError naming a key the config has', () => {
    const seen = { read: 0, refused: 0 };
    fc.assert(fc.property(arbConfig, fc.boolean(), (config, asText) => {
      // As JSON text too (NaN and ±∞ become null there), the way the page passes it.
      const input = asText ? JSON.stringify(config) : config;
      seen[check(asText ? JSON.parse(input) : config, input)] += 1;
    }), { numRuns: RUNS * 3, seed: SEED });
    expect(seen.read, 'some odd configs are still read').toBeGreaterThan(0);
    expect(seen.refused, 'some odd configs are refused').toBeGreaterThan(0);
  });

  it('prototype names in every string field are read as plain names, never looked up through Object.prototype', () => {
    fc.assert(fc.property(arbProtoStrings, ({ config }) => {
      check(config);
      check(config, JSON.stringify(config));
    }), { numRuns: RUNS, seed: SEED + 1 });
  });

  it('a config made only of odd values under known keys is read or refused naming one of them', () => {
    const arbWild = fc.dictionary(fc.constantFrom(...TOP_KEYS, ...PROTO_NAMES), ODD, { maxKeys: 8 }).chain((top) =>
      fc.record({
        rope_scaling: fc.dictionary(fc.constantFrom(...SCALING_KEYS, ...PROTO_NAMES), ODD, { maxKeys: 5 }),
        vision_config: fc.dictionary(fc.constantFrom(...VISION_KEYS, ...PROTO_NAMES), ODD, { maxKeys: 2 }),
      }, { requiredKeys: [] }).map((nested) => ({ hidden_size: 256, num_attention_heads: 4, ...top, ...nested })));
    fc.assert(fc.property(arbWild, (config) => {
      check(config);
    }), { numRuns: RUNS * 2, seed: SEED + 2 });
  });

  it('does not change the config object it reads', () => {
    fc.assert(fc.property(arbConfig, (config) => {
      const before = show(config);
      try {
        fromHFConfig(config);
      } catch {
        // refused or read, the input stays as it was
      }
      expect(show(config)).toBe(before);
    }), { numRuns: RUNS, seed: SEED + 3 });
  });
});

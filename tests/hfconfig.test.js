// "Paste your model's config": web/api/hfconfig.js turns config.json into a rope spec.
import { describe, it, expect, beforeAll } from 'vitest';
import { fromHFConfig, fromPreset } from '../web/api/hfconfig.js';
import { PRESETS } from '../web/api/models.js';
import { createPE } from '../web/pe.js';
import { expectPEError } from './helpers/pe.js';

const llama = PRESETS.find((p) => p.id === 'llama-3.1-8b').config;

describe('presets', () => {
  let pe;
  beforeAll(async () => {
    pe = await createPE();
  });

  it('Llama 3.1 8B: llama3 scaling, head 128, theta 500000', () => {
    const { spec } = fromPreset('llama-3.1-8b');
    expect(spec).toEqual({
      kind: 'rope', length: 4096, dim: 128, base: 500000, layout: 'half', partial_rotary_factor: 1,
      rope_scaling: { rope_type: 'llama3', factor: 8, original_max_position_embeddings: 8192, low_freq_factor: 1, high_freq_factor: 4 },
      max_position_embeddings: 131072, grid_height: null, grid_width: null,
    });
    const r = pe.compute(spec);
    expect(r.shape).toEqual([4096, 64]);
    expect(r.inv_freq[0]).toBe(1);   // highest frequency: kept
    expect(r.inv_freq[63]).toBe(Math.fround(500000 ** (-126 / 128) / 8));   // lowest: divided by 8
  });

  it('Qwen2.5 7B with YaRN: factor 4 over 32768, attention factor 0.1·ln 4 + 1, and a note on older transformers', () => {
    const { spec, notes } = fromPreset('qwen2.5-7b-yarn');
    expect(spec.dim).toBe(128);
    expect(spec.base).toBe(1000000);
    expect(spec.rope_scaling).toMatchObject({ rope_type: 'yarn', factor: 4, original_max_position_embeddings: 32768, beta_fast: 32, beta_slow: 1, truncate: true });
    expect(notes.some((n) => n.en.includes('4.56') && n.ko.includes('4.56'))).toBe(true);
    const r = pe.compute(spec);
    expect(r.attention_factor).toBeCloseTo(0.1 * Math.log(4) + 1, 14);
  });

  it('Mistral 7B: plain RoPE, theta 10000', () => {
    const { spec } = fromPreset('mistral-7b-v0.1');
    expect(spec).toMatchObject({ dim: 128, base: 10000, layout: 'half', partial_rotary_factor: 1, rope_scaling: null, max_position_embeddings: 32768 });
  });

  it('GPT-NeoX 20B: partial rotary, rotary_dim 24 of a 96-channel head', () => {
    const { spec } = fromPreset('gpt-neox-20b');
    expect(spec).toMatchObject({ dim: 96, base: 10000, partial_rotary_factor: 0.25, layout: 'half', length: 2048 });
    expect(pe.compute(spec).shape).toEqual([2048, 12]);
  });

  it('GPT-J 6B: interleaved pairs, rotary_dim 64 of a 256-channel head, theta 10000 by default', () => {
    const { spec, notes } = fromPreset('gpt-j-6b');
    expect(spec).toMatchObject({ dim: 256, base: 10000, partial_rotary_factor: 0.25, layout: 'interleaved', max_position_embeddings: 2048 });
    expect(pe.compute(spec).shape).toEqual([2048, 32]);
    expect(notes.map((n) => n.en).join(' ')).toMatch(/rope_theta.*10000/);
  });

  it('every preset computes and applies', () => {
    for (const { id: name } of PRESETS) {
      const { spec } = fromPreset(name, { length: 64 });
      const x = new Float32Array(2 * 64 * spec.dim).fill(1);
      expect(pe.applyRope(x, spec, { heads: 2 }).shape, name).toEqual([2, 64, spec.dim]);
    }
  });

  it('refuses an unknown preset', () => {
    expectPEError(() => fromPreset('llama-9'), 'preset', '"llama-3.1-8b"');
  });
});

describe('fromHFConfig', () => {
  it('reads JSON text, bytes and objects alike', () => {
    const text = JSON.stringify(llama, null, 2);
    const fromObject = fromHFConfig(llama).spec;
    expect(fromHFConfig(text).spec).toEqual(fromObject);
    expect(fromHFConfig(new TextEncoder().encode(text)).spec).toEqual(fromObject);
  });

  it.each([
    ['not JSON', '{ "hidden_size": 4096, ', 'config', 'not valid JSON'],
    ['JSON but an array', '[1, 2]', 'config', 'JSON object'],
    ['JSON null', 'null', 'config', 'JSON object'],
    ['a number', 42, 'config', 'JSON object'],
    ['no head dimension', { rope_theta: 10000 }, 'head_dim', 'neither head_dim nor hidden_size'],
    ['head_dim fractional', { head_dim: 64.5 }, 'head_dim', 'positive integer'],
    ['hidden_size a string', { hidden_size: '4096', num_attention_heads: 32 }, 'hidden_size', 'positive integer'],
    ['more heads than channels', { hidden_size: 8, num_attention_heads: 16 }, 'num_attention_heads', 'would be 0'],
    ['rope_theta negative', { ...llama, rope_theta: -5 }, 'rope_theta', 'base must be a finite number'],
    ['rotary_emb_base 1', { hidden_size: 64, num_attention_heads: 1, rotary_emb_base: 1 }, 'rotary_emb_base', 'base must be'],
    ['rotary_pct giving an odd rotary_dim', { hidden_size: 80, num_attention_heads: 1, rotary_pct: 0.0375 }, 'rotary_pct', 'even integer'],
    ['rotary_dim above the head', { n_embd: 64, n_head: 2, rotary_dim: 64 }, 'rotary_dim', 'larger than the head dimension'],
    ['longrope with a list of the wrong length', { ...llama, rope_scaling: { type: 'longrope', short_factor: [1], long_factor: [2] }, original_max_position_embeddings: 8192 },
      'rope_scaling.short_factor', 'rotary_dim/2 = 64 entries'],
    ['rope_scaling a string', { ...llama, rope_scaling: 'yarn' }, 'rope_scaling', 'null or an object'],
    ['yarn factor negative', { ...llama, rope_scaling: { type: 'yarn', factor: -1, original_max_position_embeddings: 4096 } }, 'rope_scaling.factor', 'finite number in [0.000001, 1000000], got -1'],
    ['llama3 without its band factors', { ...llama, rope_scaling: { rope_type: 'llama3', factor: 8, original_max_position_embeddings: 8192 } }, 'rope_scaling.low_freq_factor', 'required'],
    ['v5 rope_parameters with a bad factor', { hidden_size: 64, num_attention_heads: 1, rope_parameters: { rope_type: 'linear', rope_theta: 10000, factor: 0 } }, 'rope_parameters.factor', 'got 0'],
  ])('refuses %s with a PEError naming the config key', (_, config, param, fragment) => {
    expectPEError(() => fromHFConfig(config), param, fragment);
  });

  it('reads transformers v5 rope_parameters, also one set per layer type', () => {
    const v5 = { hidden_size: 2048, num_attention_heads: 16, max_position_embeddings: 131072,
      rope_parameters: { rope_type: 'yarn', rope_theta: 1000000, factor: 4, original_max_position_embeddings: 32768, partial_rotary_factor: 0.5 } };
    const { spec, from } = fromHFConfig(v5);
    expect(spec).toMatchObject({ dim: 128, base: 1000000, partial_rotary_factor: 0.5, rope_scaling: { rope_type: 'yarn', factor: 4 } });
    expect(from.base).toBe('rope_parameters.rope_theta');
    const perLayer = { head_dim: 256, num_attention_heads: 8, max_position_embeddings: 131072,
      rope_parameters: { sliding_attention: { rope_type: 'default', rope_theta: 10000 }, full_attention: { rope_type: 'linear', factor: 8, rope_theta: 1000000 } } };
    const r = fromHFConfig(perLayer);
    expect(r.spec).toMatchObject({ dim: 256, base: 1000000, rope_scaling: { rope_type: 'linear', factor: 8 } });
    expect(r.notes[0].en).toContain('full_attention');
    expectPEError(() => fromHFConfig({ ...perLayer, rope_parameters: { full_attention: { rope_type: 'linear', factor: -2, rope_theta: 10 } } }),
      'rope_parameters.full_attention.factor');
  });

  it('reads the language model of a multimodal config from text_config', () => {
    const { spec, notes } = fromHFConfig({ model_type: 'llava', vision_config: { hidden_size: 1024 }, text_config: { ...llama } });
    expect(spec.rope_scaling.rope_type).toBe('llama3');
    expect(notes[0].en).toContain('text_config');
  });

  it('reads the legacy key "type", drops keys the type does not use, and notes them', () => {
    const { spec, notes } = fromHFConfig({ ...llama, rope_scaling: { type: 'linear', factor: 2, original_max_position_embeddings: 4096, finetuned: true } });
    expect(spec.rope_scaling).toEqual({ rope_type: 'linear', factor: 2 });
    expect(notes.some((n) => n.en.includes('original_max_position_embeddings, finetuned'))).toBe(true);
  });

  it('treats rope_type "default" as plain RoPE, and opens Qwen2-VL\'s "mrope" as kind mrope', () => {
    expect(fromHFConfig({ ...llama, rope_scaling: { rope_type: 'default' } }).spec.rope_scaling).toBeNull();
    const { spec, notes, alternates } = fromHFConfig({ ...llama, rope_scaling: { type: 'mrope', mrope_section: [16, 24, 24] } });
    expect(spec).toMatchObject({ kind: 'mrope', dim: 128, base: 500000, mrope_section: [16, 24, 24] });
    expect(alternates[0]).toMatchObject({ layers: 'text', spec: { kind: 'rope', dim: 128, base: 500000, rope_scaling: null } });
    expect(notes.some((n) => n.en.includes('M-RoPE'))).toBe(true);
  });

  it('applies the rest of a config whose rope_type it does not know, and says what it left out', () => {
    for (const [key, type] of [['rope_type', 'xpos'], ['type', 'dynamic-yarn']]) {
      const { spec, report, notes } = fromHFConfig({ ...llama, rope_scaling: { [key]: type, factor: 2 } });
      expect(spec).toMatchObject({ kind: 'rope', dim: 128, base: 500000, rope_scaling: null, max_position_embeddings: 131072 });
      expect(report.find((r) => r.key === `rope_scaling.${key}`)).toMatchObject({ used: false });
      expect(report.find((r) => r.key === `rope_scaling.${key}`).en).toContain('not a scaling PE Lab computes');
      expect(report.find((r) => r.key === 'rope_scaling.factor')).toMatchObject({ used: false });
      expect(report.find((r) => r.key === 'rope_theta')).toMatchObject({ used: true });
      expect(notes.some((n) => n.en.includes(type) && n.ko.includes(type))).toBe(true);
    }
  });

  it('reports a rope_scaling without a type key by key, and still applies the rest', () => {
    const { spec, report } = fromHFConfig({ ...llama, rope_scaling: { factor: 4, original_max_position_embeddings: 8192 } });
    expect(spec).toMatchObject({ base: 500000, rope_scaling: null });
    for (const k of ['factor', 'original_max_position_embeddings']) {
      const r = report.find((x) => x.key === `rope_scaling.${k}`);
      expect(r, k).toMatchObject({ used: false });
      expect(r.en).toMatch(/no rope_type/);
      expect(r.ko).toMatch(/rope_type/);
    }
  });

  it('takes length and layout from options; notes when dynamic NTK has nothing to do', () => {
    const dynamic = { hidden_size: 4096, num_attention_heads: 32, max_position_embeddings: 2048, rope_scaling: { type: 'dynamic', factor: 2 } };
    const short = fromHFConfig(dynamic);
    expect(short.spec.length).toBe(2048);
    expect(short.notes.some((n) => n.en.includes('Dynamic NTK'))).toBe(true);
    const long = fromHFConfig(dynamic, { length: 8192, layout: 'interleaved' });
    expect(long.spec).toMatchObject({ length: 8192, layout: 'interleaved' });
    expect(long.notes.some((n) => n.en.includes('Dynamic NTK'))).toBe(false);
    expectPEError(() => fromHFConfig(dynamic, { length: 0 }), 'length');
  });

  it('turns rotary_dim into a partial_rotary_factor that gives it back exactly', () => {
    for (const [head, rotary] of [[256, 64], [80, 24], [96, 30], [100, 34], [2, 2]]) {
      const { spec } = fromHFConfig({ n_embd: head * 3, n_head: 3, rotary_dim: rotary });
      expect(Math.trunc(spec.dim * spec.partial_rotary_factor), `${head} ${rotary}`).toBe(rotary);
    }
  });

  it('uses head_dim when the config gives it (head_dim need not be hidden_size / heads)', () => {
    const { spec, from } = fromHFConfig({ hidden_size: 2560, num_attention_heads: 32, head_dim: 128, rope_theta: 1000000, max_position_embeddings: 40960 });
    expect(spec.dim).toBe(128);
    expect(from.dim).toBe('head_dim');
    expect(fromHFConfig({ hidden_size: 2560, num_attention_heads: 32, head_dim: null }).spec.dim).toBe(80);
  });
});

describe('fromHFConfig on hostile configs', () => {
  const head = { hidden_size: 4096, num_attention_heads: 32 };
  const PROTO = ['toString', '__proto__', 'valueOf', 'hasOwnProperty', '__defineGetter__', 'constructor', 'isPrototypeOf'];

  it.each(PROTO)('reads model_type %j as an unknown model: plain RoPE, no lookup through the prototype', (name) => {
    for (const config of [{ ...head, model_type: name }, JSON.parse(`{"hidden_size":4096,"num_attention_heads":32,"model_type":${JSON.stringify(name)}}`),
      { model_type: name, text_config: { ...head } }]) {
      const { spec, notes } = fromHFConfig(config);
      expect(spec).toMatchObject({ kind: 'rope', dim: 128, base: 10000, layout: 'half', rope_scaling: null });
      expect(notes.some((n) => n.en.includes('defaults'))).toBe(false);
    }
  });

  it.each(PROTO)('treats %j as a name like any other in rope_type, layer types and JSON keys', (name) => {
    const r = fromHFConfig({ ...head, rope_scaling: { rope_type: name, factor: 2 } });
    expect(r.spec.rope_scaling).toBeNull();
    expect(r.report.find((x) => x.key === 'rope_scaling.rope_type')).toMatchObject({ used: false });
    const perLayer = JSON.parse(`{"head_dim":64,"num_attention_heads":8,"rope_parameters":{${JSON.stringify(name)}:{"rope_type":"linear","factor":2,"rope_theta":5000}}}`);
    expect(fromHFConfig(perLayer).spec).toMatchObject({ dim: 64, base: 5000, rope_scaling: { rope_type: 'linear', factor: 2 } });
    const ownKey = JSON.parse(`{"hidden_size":4096,"num_attention_heads":32,${JSON.stringify(name)}:{"rope_theta":5}}`);
    expect(fromHFConfig(ownKey).spec.base).toBe(10000);
  });

  it('does not change the config it is given (a key named __all in rope_parameters included)', () => {
    const config = { ...head, rope_parameters: { rope_type: 'linear', factor: 2, rope_theta: 5000, __all: { x: 1 } } };
    const copy = structuredClone(config);
    fromHFConfig(config);
    expect(config).toEqual(copy);
  });

  const vl = { model_type: 'qwen2_vl', hidden_size: 3584, num_attention_heads: 28, rope_theta: 1000000, rope_scaling: { type: 'mrope', mrope_section: [16, 24, 24] } };
  it.each([
    ['spatial_merge_size -1', { ...vl, vision_config: { spatial_merge_size: -1 } }, 'vision_config.spatial_merge_size', '[1, 64]'],
    ['spatial_merge_size 0.5', { ...vl, vision_config: { spatial_merge_size: 0.5 } }, 'vision_config.spatial_merge_size', '[1, 64]'],
    ['tokens_per_second "x"', { ...vl, vision_config: { tokens_per_second: 'x' } }, 'vision_config.tokens_per_second', '(0, 10000]'],
    ['tokens_per_second -2', { ...vl, vision_config: { tokens_per_second: -2 } }, 'vision_config.tokens_per_second', '(0, 10000]'],
    ['mrope_section of the wrong sum', { ...vl, rope_scaling: { type: 'mrope', mrope_section: [16, 24, 20] } }, 'rope_scaling.mrope_section', 'sum to dim/2 = 64'],
    ['mrope_section a string', { ...vl, rope_scaling: { type: 'mrope', mrope_section: 'tth' } }, 'rope_scaling.mrope_section', undefined],
    ['an item of mrope_section', { ...vl, rope_scaling: { type: 'mrope', mrope_section: [16, 24, -24] } }, 'rope_scaling.mrope_section[2]', '[0, 8192]'],
  ])('M-RoPE: blames %s on its own key', (_, config, param, fragment) => {
    const e = expectPEError(() => fromHFConfig(config), param, fragment);
    expect(e.message.startsWith(`${param}:`)).toBe(true);
  });

  it.each([
    ['max_position_embeddings an object with a toString key', { ...head, n_positions: { toString: { rope_theta: 5 } } }, 'n_positions', 'integer in [1, 2147483647]'],
    ['rope_theta an object', { ...head, rope_theta: { valueOf: 5 } }, 'rope_theta', 'finite number in (1, 1000000000000]'],
    ['partial_rotary_factor a list', { ...head, partial_rotary_factor: [0.5] }, 'partial_rotary_factor', 'finite number in (0, 1]'],
    ['text_config rope_theta a string', { model_type: 'llava', text_config: { ...head, rope_theta: '1e4' } }, 'text_config.rope_theta', 'got "1e4"'],
  ])('refuses %s before quoting or computing with it, naming its key', (_, config, param, fragment) => {
    expectPEError(() => fromHFConfig(config), param, fragment);
  });
});

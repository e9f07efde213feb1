// The config reader on real architectures (web/api/hfconfig.js): LongRoPE (Phi-3.5, Phi-4-mini), MLA
// (DeepSeek-V2/V3), ChatGLM / GLM-4, Cohere, Gemma 3's two bases, Qwen2-VL's M-RoPE, v5
// rope_parameters, and ALiBi models, with the RoPE-relevant keys written from the published
// config.json files. Every config opens; every positional key is reported used or ignored.
import { describe, it, expect, beforeAll } from 'vitest';
import { fromHFConfig } from '../web/api/hfconfig.js';
import { PHI35_MINI_CONFIG, GALLERY } from '../web/api/models.js';
import { createPE } from '../web/pe.js';

let pe;
beforeAll(async () => {
  pe = await createPE();
});

const reported = (out, key) => out.report.find((r) => r.key === key);

describe('fromHFConfig on real architectures', () => {
  it('Phi-3.5-mini: longrope with its 48 factors, the top-level original context, attention factor 1.1902', () => {
    const out = fromHFConfig(PHI35_MINI_CONFIG);
    expect(out.spec).toMatchObject({ kind: 'rope', dim: 96, base: 10000, length: 4096, max_position_embeddings: 131072, layout: 'half' });
    expect(out.spec.rope_scaling).toMatchObject({ rope_type: 'longrope', original_max_position_embeddings: 4096, factor: null, attention_factor: null });
    expect(out.spec.rope_scaling.short_factor).toHaveLength(48);
    expect(reported(out, 'original_max_position_embeddings')).toMatchObject({ used: true });
    const short = pe.compute(out.spec);
    expect(short.attention_factor).toBeCloseTo(Math.sqrt(1 + Math.log(32) / Math.log(4096)), 15);
    expect(short.attention_factor).toBeCloseTo(1.1902380714238083, 15);
    expect(short.inv_freq[47]).toBe(Math.fround(1 / (2.8399994373321533 * 10000 ** (94 / 96))));
    const long = pe.compute(fromHFConfig(PHI35_MINI_CONFIG, { length: 4097 }).spec);
    expect(long.inv_freq[47]).toBe(Math.fround(1 / (64.839996337890625 * 10000 ** (94 / 96))));
    expect(out.notes.some((n) => n.en.includes('long_factor beyond'))).toBe(true);
    // The early name "su" (Phi-3 vision) reads as longrope.
    const su = fromHFConfig({ ...PHI35_MINI_CONFIG, rope_scaling: { ...PHI35_MINI_CONFIG.rope_scaling, type: 'su' } });
    expect(su.spec.rope_scaling.rope_type).toBe('longrope');
  });

  it('Phi-4-mini: LongRoPE on the rotating 96 of 128 channels, every pair from its own factor either side of 4096', () => {
    const config = GALLERY.find((g) => g.id === 'phi-4-mini').config;
    const out = fromHFConfig(config);
    expect(out.spec).toMatchObject({ kind: 'rope', dim: 128, partial_rotary_factor: 0.75, base: 10000, layout: 'half', max_position_embeddings: 131072 });
    expect(out.spec.rope_scaling).toMatchObject({ rope_type: 'longrope', original_max_position_embeddings: 4096 });
    expect(reported(out, 'partial_rotary_factor')).toMatchObject({ used: true });
    for (const [length, key] of [[4096, 'short_factor'], [4097, 'long_factor']]) {
      const r = pe.compute(fromHFConfig(config, { length }).spec);
      const factors = config.rope_scaling[key];
      expect(factors).toHaveLength(48);
      expect(r.inv_freq).toHaveLength(48);
      // θᵢ = 1 / (factorᵢ · 10000^(2i/96)): the rotary width, not the head width, sets the exponent.
      for (let i = 0; i < 48; i++) expect(r.inv_freq[i], `${key}[${i}]`).toBe(Math.fround(1 / (factors[i] * 10000 ** ((2 * i) / 96))));
      expect(r.attention_factor).toBeCloseTo(Math.sqrt(1 + Math.log(131072 / 4096) / Math.log(4096)), 15);
    }
  });

  it('DeepSeek-V3 (MLA): qk_rope_head_dim 64 rotates, interleaved, YaRN ×40 with mscale 1/1', () => {
    const v3 = {
      model_type: 'deepseek_v3', hidden_size: 7168, num_attention_heads: 128, num_key_value_heads: 128,
      qk_rope_head_dim: 64, qk_nope_head_dim: 128, v_head_dim: 128, kv_lora_rank: 512, q_lora_rank: 1536,
      max_position_embeddings: 163840, rope_theta: 10000,
      rope_scaling: { beta_fast: 32, beta_slow: 1, factor: 40, mscale: 1.0, mscale_all_dim: 1.0, original_max_position_embeddings: 4096, type: 'yarn' },
    };
    const out = fromHFConfig(v3);
    expect(out.spec).toMatchObject({ dim: 64, layout: 'interleaved', partial_rotary_factor: 1, base: 10000 });
    expect(out.spec.rope_scaling).toMatchObject({ rope_type: 'yarn', factor: 40, mscale: 1, mscale_all_dim: 1, original_max_position_embeddings: 4096 });
    expect(pe.compute(out.spec).attention_factor).toBe(1);
    expect(reported(out, 'qk_nope_head_dim')).toMatchObject({ used: false });
    expect(reported(out, 'hidden_size')).toMatchObject({ used: false });
    expect(reported(out, 'qk_rope_head_dim')).toMatchObject({ used: true });
    // V2-Lite: 16 heads of 2048 would give 128; MLA says 64.
    const lite = fromHFConfig({ ...v3, hidden_size: 2048, num_attention_heads: 16, rope_scaling: { ...v3.rope_scaling, mscale: 0.707, mscale_all_dim: 0.707 } });
    expect(lite.spec.dim).toBe(64);
  });

  it('ChatGLM3 and GLM-4: half the head rotates, interleaved, base 10000 · rope_ratio', () => {
    const glm = { model_type: 'chatglm', hidden_size: 4096, num_attention_heads: 32, kv_channels: 128, seq_length: 131072, rope_ratio: 500, original_rope: true };
    const out = fromHFConfig(glm);
    expect(out.spec).toMatchObject({ dim: 128, partial_rotary_factor: 0.5, layout: 'interleaved', base: 5000000, max_position_embeddings: 131072 });
    expect(pe.compute(out.spec).shape).toEqual([4096, 32]);
    expect(reported(out, 'rope_ratio')).toMatchObject({ used: true });
    expect(reported(out, 'original_rope')).toMatchObject({ used: false });
    const chatglm3 = fromHFConfig({ ...glm, seq_length: 8192, rope_ratio: undefined });
    expect(chatglm3.spec.base).toBe(10000);
  });

  it('Cohere (Aya-23): interleaved pairs', () => {
    const out = fromHFConfig({ model_type: 'cohere', hidden_size: 4096, num_attention_heads: 32, rope_theta: 10000, max_position_embeddings: 8192 });
    expect(out.spec).toMatchObject({ dim: 128, layout: 'interleaved' });
  });

  it('Gemma 3 27B: global layers with linear ×8 at base 1e6, sliding layers at base 10000 as an alternate', () => {
    const g = {
      model_type: 'gemma3', vision_config: { hidden_size: 1152 },
      text_config: { model_type: 'gemma3_text', head_dim: 128, hidden_size: 5376, num_attention_heads: 32, rope_theta: 1000000, rope_local_base_freq: 10000,
        rope_scaling: { factor: 8.0, rope_type: 'linear' }, sliding_window: 1024, max_position_embeddings: 131072, query_pre_attn_scalar: 168 },
    };
    const out = fromHFConfig(g);
    expect(out.spec).toMatchObject({ dim: 128, base: 1000000, rope_scaling: { rope_type: 'linear', factor: 8 } });
    expect(out.alternates).toHaveLength(1);
    expect(out.alternates[0]).toMatchObject({ layers: 'sliding_attention', spec: { base: 10000, rope_scaling: null, dim: 128 } });
    expect(reported(out, 'text_config.rope_local_base_freq')).toMatchObject({ used: true });
    expect(reported(out, 'text_config.sliding_window')).toMatchObject({ used: false });
    expect(out.notes.some((n) => n.en.includes('Two kinds of layers'))).toBe(true);
  });

  it('Gemma 3 as published (no rope_theta, rope_local_base_freq or max_position_embeddings): Gemma3TextConfig\'s defaults, said in a note', () => {
    const out = fromHFConfig({
      model_type: 'gemma3', vision_config: { hidden_size: 1152 },
      text_config: { model_type: 'gemma3_text', head_dim: 128, hidden_size: 5376, num_attention_heads: 32,
        rope_scaling: { factor: 8.0, rope_type: 'linear' }, sliding_window: 1024 },
    });
    expect(out.spec).toMatchObject({ base: 1000000, max_position_embeddings: 131072, rope_scaling: { rope_type: 'linear', factor: 8 } });
    expect(out.alternates.map((a) => [a.layers, a.spec.base])).toEqual([['sliding_attention', 10000]]);
    const note = out.notes.find((n) => n.en.includes('Gemma3TextConfig'));
    expect(note.en).toContain('rope_theta 1000000, rope_local_base_freq 10000, max_position_embeddings 131072');
    expect(note.ko).toContain('Gemma3TextConfig');
    expect(out.notes.some((n) => n.en.startsWith('No rope_theta'))).toBe(false);
    // A model type without class defaults still says it fell back to 10000.
    const plain = fromHFConfig({ model_type: 'llama', hidden_size: 4096, num_attention_heads: 32 });
    expect(plain.spec.base).toBe(10000);
    expect(plain.notes.some((n) => n.en.startsWith('No rope_theta'))).toBe(true);
  });

  it('v5 rope_parameters per layer type: the full-attention set, the others as alternates', () => {
    const out = fromHFConfig({ head_dim: 256, num_attention_heads: 8, max_position_embeddings: 131072,
      rope_parameters: { sliding_attention: { rope_type: 'default', rope_theta: 10000 }, full_attention: { rope_type: 'linear', factor: 8, rope_theta: 1000000 } } });
    expect(out.spec).toMatchObject({ base: 1000000, rope_scaling: { rope_type: 'linear', factor: 8 } });
    expect(out.alternates.map((a) => [a.layers, a.spec.base, a.spec.rope_scaling])).toEqual([['sliding_attention', 10000, null]]);
  });

  it('Qwen2.5-VL: kind mrope with its section, merge size and tokens per second', () => {
    const out = fromHFConfig({ model_type: 'qwen2_5_vl', hidden_size: 3584, num_attention_heads: 28, rope_theta: 1000000, max_position_embeddings: 128000,
      rope_scaling: { type: 'mrope', mrope_section: [16, 24, 24] }, vision_config: { spatial_merge_size: 2, tokens_per_second: 2 } });
    expect(out.spec).toMatchObject({ kind: 'mrope', dim: 128, base: 1000000, mrope_section: [16, 24, 24], spatial_merge_size: 2, tokens_per_second: 2 });
    expect(pe.compute(out.spec).shape[0]).toBe(3);
  });

  it.each([
    ['BLOOM-176B', { model_type: 'bloom', n_head: 112, hidden_size: 14336, n_layer: 70 }, 112],
    ['MPT-7B', { model_type: 'mpt', d_model: 4096, n_heads: 32, max_seq_len: 2048, attn_config: { alibi: true, alibi_bias_max: 8 } }, 32],
    ['Falcon-RW-1B', { model_type: 'falcon', hidden_size: 2048, num_attention_heads: 32, alibi: true, max_position_embeddings: 2048 }, 32],
  ])('%s opens as kind alibi with its head count', (_, config, heads) => {
    const out = fromHFConfig(config);
    expect(out.spec).toMatchObject({ kind: 'alibi', heads });
    const r = pe.compute(out.spec);
    expect(r.slopes).toHaveLength(heads);
    expect(out.report.some((x) => x.used)).toBe(true);
  });

  it('Falcon-7B (alibi false) stays RoPE', () => {
    const out = fromHFConfig({ model_type: 'falcon', hidden_size: 4544, num_attention_heads: 71, alibi: false, rope_theta: 10000 });
    expect(out.spec).toMatchObject({ kind: 'rope', dim: 64 });
  });

  it('GPT-J rotary_dim, GPT-NeoX rotary_pct and Phi-2 partial_rotary_factor', () => {
    expect(fromHFConfig({ model_type: 'gptj', n_embd: 4096, n_head: 16, rotary_dim: 64, n_positions: 2048 }).spec).toMatchObject({ dim: 256, partial_rotary_factor: 0.25, layout: 'interleaved' });
    expect(fromHFConfig({ model_type: 'gpt_neox', hidden_size: 6144, num_attention_heads: 64, rotary_pct: 0.25, rotary_emb_base: 10000 }).spec).toMatchObject({ dim: 96, partial_rotary_factor: 0.25, layout: 'half' });
    const phi2 = fromHFConfig({ model_type: 'phi', hidden_size: 2560, num_attention_heads: 32, partial_rotary_factor: 0.4, rope_theta: 10000, max_position_embeddings: 2048 });
    expect(phi2.spec).toMatchObject({ dim: 80, partial_rotary_factor: 0.4 });
    expect(pe.compute(phi2.spec).shape).toEqual([2048, 16]);
  });
});

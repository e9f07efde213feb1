// The model gallery (web/api/models.js): every model opens through the config reader, and its
// numbers match the float64 reference for its architecture (tests/fixtures/gen_models.py: the
// same published config keys, read by independent per-architecture rules, formulas in NumPy).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { GALLERY } from '../web/api/models.js';
import { fromHFConfig } from '../web/api/hfconfig.js';
import { rotaryDim } from '../web/api/schema/rope.js';
import { specLink } from '../web/views/rope/link.js';
import { decodePermalink } from '../web/share/permalink.js';
import { createPE } from '../web/pe.js';
import { loadManifest } from './helpers/fixtures.js';

const manifest = loadManifest('models');
const byId = Object.fromEntries(manifest.cases.map((c) => [c.id, c]));

function worstRelative(actual, expected) {
  let worst = 0;
  for (let i = 0; i < expected.length; i++) {
    const err = Math.abs(actual[i] - expected[i]) / Math.abs(expected[i]);
    if (!(err <= worst)) worst = err;
  }
  return worst;
}

describe('model gallery', () => {
  let pe;
  let worst = 0;
  beforeAll(async () => {
    pe = await createPE();
  });
  afterAll(() => {
    console.log(`models: ${GALLERY.length} gallery models, worst inv_freq relative error vs float64 ${worst.toExponential(2)}`);
  });

  it('has at least 30 real models, each naming its Hugging Face repo, all in the reference', () => {
    expect(GALLERY.length).toBeGreaterThanOrEqual(30);
    expect(new Set(GALLERY.map((g) => g.id)).size).toBe(GALLERY.length);
    for (const g of GALLERY) {
      expect(g.repo, g.id).toMatch(/^[\w.-]+\/[\w.-]+$/);
      expect(byId[g.id]?.repo, g.id).toBe(g.repo);
    }
    expect(manifest.cases).toHaveLength(GALLERY.length);
    // The architectures the issue names are all there.
    const kinds = new Set(manifest.cases.map((c) => c.kind));
    expect(kinds).toEqual(new Set(['rope', 'mrope', 'alibi']));
    const types = new Set(GALLERY.map((g) => fromHFConfig(g.config).spec.rope_scaling?.rope_type).filter(Boolean));
    expect(types).toEqual(new Set(['llama3', 'yarn', 'linear', 'longrope', 'dynamic']));
  });

  it.each(GALLERY.map((g) => [g.id, g]))('%s opens and matches its architecture\'s reference', (id, g) => {
    const ref = byId[id];
    const out = fromHFConfig(g.config);
    expect(out.spec.kind).toBe(ref.kind);
    // One click: the permalink of what the reader gives opens the same spec.
    const link = decodePermalink(specLink(out.spec));
    expect(link.status, id).toBe('ok');
    expect(link.spec).toEqual(out.spec);
    if (ref.kind === 'alibi') {
      expect(out.spec.heads).toBe(ref.heads);
      const r = pe.compute(out.spec);
      expect(worstRelative(r.slopes, ref.slopes)).toBeLessThanOrEqual(1e-7);
      return;
    }
    const rope = ref.kind === 'mrope' ? out.alternates.find((a) => a.layers === 'text').spec : out.spec;
    if (ref.kind === 'mrope') expect(out.spec).toMatchObject({ dim: ref.head_dim, base: ref.base });
    expect(rotaryDim(rope), 'rotary_dim').toBe(ref.rotary_dim);
    expect(rope.layout).toBe(ref.layout);
    expect(rope.base).toBe(ref.base);
    expect(rope.max_position_embeddings).toBe(ref.max_position_embeddings);
    for (const check of ref.checks) {
      const r = pe.compute({ ...rope, length: check.length });
      const err = worstRelative(r.inv_freq, check.inv_freq);
      worst = Math.max(worst, err);
      expect(err, `${id} at length ${check.length}`).toBeLessThanOrEqual(check.inv_freq_rtol);
      expect(r.attention_factor, `${id} attention factor`).toBeCloseTo(check.attention_factor, 12);
    }
    if (ref.local) {
      const local = out.alternates.find((a) => a.layers === 'sliding_attention').spec;
      expect(local.base).toBe(ref.local.base);
      expect(worstRelative(pe.compute(local).inv_freq, ref.local.inv_freq)).toBeLessThanOrEqual(1e-6);
    }
  });

  it('keeps the audited values: partial LongRoPE (Phi-4-mini), the first Phi-3-mini-128k release, the corrected contexts', () => {
    const phi4 = byId['phi-4-mini'];
    expect([phi4.head_dim, phi4.rotary_dim]).toEqual([128, 96]);
    expect(phi4.checks.map((c) => c.length)).toEqual([4096, 4097]);
    // Pair 47 at 4097 uses long_factor 47.77: 47.77 times slower than at 4096, where its factor is 1.
    expect(phi4.checks[0].inv_freq[47] / phi4.checks[1].inv_freq[47]).toBeCloseTo(47.77, 10);
    const gal = Object.fromEntries(GALLERY.map((g) => [g.id, g]));
    // Both Phi-3 128K files (vision, mini first release) publish the same long factors, not the same short ones.
    expect(gal['phi-3-mini-128k'].config.rope_scaling.long_factor).toBe(gal['phi-3-vision-128k'].config.rope_scaling.long_factor);
    expect(gal['phi-3-mini-128k'].config.rope_scaling.short_factor).not.toEqual(gal['phi-3-vision-128k'].config.rope_scaling.short_factor);
    // Command R's file says 8192 positions (its 128K is not max_position_embeddings); Qwen3's documented YaRN
    // sets 131072; Llama 2's file has no rope_theta, so the reader's 10000 is used and said so.
    expect(byId['command-r'].max_position_embeddings).toBe(8192);
    expect(byId['qwen3-8b-yarn'].max_position_embeddings).toBe(131072);
    expect(gal['llama-2-7b'].config).not.toHaveProperty('rope_theta');
    expect(fromHFConfig(gal['llama-2-7b'].config).notes.some((n) => n.en.includes('No rope_theta'))).toBe(true);
  });

  it('covers dynamic NTK at twice max_position_embeddings and LongRoPE either side of its switch', () => {
    const internlm = byId['internlm2.5-7b'];
    expect(internlm.checks.map((c) => c.length)).toEqual([4096, 65536]);
    expect(internlm.checks[1].inv_freq[63]).toBeLessThan(internlm.checks[0].inv_freq[63]);
    const phi = byId['phi-3.5-mini'];
    expect(phi.checks.map((c) => c.length)).toEqual([4096, 4097]);
    expect(phi.checks[0].attention_factor).toBeCloseTo(1.1902380714238083, 15);
  });
});

// The model gallery in the precision lab (web/views/precision/models.js, the gallery's
// precisionLink in web/views/rope/gallery.js): every gallery model maps to a valid rope_precision
// spec with its own RoPE and computes; its frequencies ω are the `rope` kind's for the same model
// and sequence; LongRoPE models (Phi-3, Phi-3.5, Phi-4 mini) take their short_factor at or below
// the original context and their long_factor past it; the gallery's lab links decode to those specs.
import { describe, it, expect, beforeAll } from 'vitest';
import { GALLERY } from '../web/api/models.js';
import { fromHFConfig } from '../web/api/hfconfig.js';
import { decodePermalink } from '../web/share/permalink.js';
import { MODELS, NO_ROPE, LAB_ROWS, atContext, contextOf, endOfContext } from '../web/views/precision/models.js';
import { assess } from '../web/views/precision/model.js';
import { precisionLink } from '../web/views/rope/gallery.js';
import { peFor } from './helpers/pe.js';

const LONGROPE = GALLERY.filter((g) => MODELS[g.id]?.rope.rope_scaling?.rope_type === 'longrope');

/** ω_i = 1 / (ext_i · base^(2i/d)) (transformers' LongRoPE; d the rotary dim). */
const longropeOmega = (rope, ext) => {
  const d = Math.trunc(rope.dim * rope.partial_rotary_factor);
  return ext.map((e, i) => 1 / (e * rope.base ** ((2 * i) / d)));
};

/** Largest relative difference of two lists. */
const relDiff = (a, b) => Math.max(...Array.from(a, (v, i) => Math.abs(v - b[i]) / Math.abs(b[i])));

describe('the gallery in the precision lab', () => {
  let pe;
  beforeAll(async () => {
    pe = await peFor(true);
  });

  it('has every gallery model with rotary positions, and names the ALiBi ones', () => {
    const alibi = GALLERY.filter((g) => fromHFConfig(g.config).spec.kind === 'alibi').map((g) => g.id);
    expect(NO_ROPE).toEqual(alibi);
    expect(alibi).toEqual(['bloom', 'mpt-7b']);
    for (const g of GALLERY) if (!alibi.includes(g.id)) expect(MODELS[g.id], g.id).toBeDefined();
    expect(LONGROPE.map((g) => g.id)).toEqual(['phi-3.5-mini', 'phi-3-vision-128k', 'phi-3-mini-128k', 'phi-4-mini']);
  });

  it.each(GALLERY.filter((g) => MODELS[g.id]).map((g) => [g.id, g]))('%s: a valid spec that computes, with the rope kind\'s frequencies', (id) => {
    const m = MODELS[id];
    const spec = endOfContext(m.rope);
    const context = contextOf(m.rope);
    expect(spec.offset + spec.length).toBe(context);
    expect(spec.length).toBe(Math.min(LAB_ROWS, context));
    const r = pe.compute(spec);
    const n = Math.trunc(m.rope.dim * m.rope.partial_rotary_factor) / 2;
    expect(r.shape).toEqual([spec.length, n]);
    for (const e of r.row_error) expect(e >= 0 && e <= Math.PI).toBe(true);
    // The rope kind's ω for the same model over the same sequence (M-RoPE: its text layers).
    // LongRoPE and dynamic NTK depend on the sequence's length; the others do not.
    const type = m.rope.rope_scaling?.rope_type;
    const o = m.rope.rope_scaling?.original_max_position_embeddings ?? m.rope.max_position_embeddings;
    let length = 2;
    if (type === 'longrope') length = context > o ? o + 1 : o;   // the side of the whole sequence
    if (type === 'dynamic') length = context;                    // the whole sequence: offset + length
    const rope = pe.compute({ kind: 'rope', ...m.rope, length });
    expect(Array.from(r.exact_inv_freq, Math.fround)).toEqual(Array.from(rope.inv_freq));
  });

  it.each(LONGROPE.map((g) => [g.id, g]))('%s: short_factor up to the original context, long_factor past it', (id) => {
    const { rope } = MODELS[id];
    const sc = rope.rope_scaling;
    const o = sc.original_max_position_embeddings;
    expect(o).toBe(4096);
    const short = longropeOmega(rope, sc.short_factor);
    const long = longropeOmega(rope, sc.long_factor);
    const at = (offset, length) => pe.compute({ kind: 'rope_precision', ...rope, length, offset, recipe: 'float32' }).exact_inv_freq;
    // Rows 0 … o − 1: a sequence of o positions, the short side; rows 1 … o, one past: the long side.
    expect(relDiff(at(0, o), short)).toBeLessThan(1e-15);
    expect(relDiff(at(1, o), long)).toBeLessThan(1e-15);
    // Windows far out: the last 64 positions of o, and of the 131,072-token context.
    expect(relDiff(at(o - 64, 64), short)).toBeLessThan(1e-15);
    expect(relDiff(at(o - 63, 64), long)).toBeLessThan(1e-15);
    expect(relDiff(at(131072 - 64, 64), long)).toBeLessThan(1e-15);
    // The gallery's lab spec is the end of the context: the long side.
    expect(relDiff(pe.compute(endOfContext(rope)).exact_inv_freq, long)).toBeLessThan(1e-15);
    // The model view runs a whole sequence of the context: every window takes that side's list.
    const seq = atContext(rope, 131072).rope_scaling;
    expect([seq.short_factor, seq.long_factor]).toEqual([sc.long_factor, sc.long_factor]);
    expect(atContext(rope, 4096).rope_scaling.long_factor).toEqual(sc.short_factor);
    // The sweep takes the same lists.
    const spec = { kind: 'rope_precision', ...rope, length: 256, offset: o - 128, recipe: 'bf16_table' };
    expect(Array.from(pe.precisionSweep(spec).row_error)).toEqual(Array.from(pe.compute(spec).row_error));
  });

  it('gives the model view a verdict for a LongRoPE model at its context and within the original one', () => {
    const { rope } = MODELS['phi-3.5-mini'];
    const at128k = assess(pe, rope, 131072, 'bf16_table');
    const at4k = assess(pe, rope, 4096, 'bf16_table');
    expect(relDiff(at128k.omega, longropeOmega(rope, rope.rope_scaling.long_factor))).toBeLessThan(1e-15);
    expect(relDiff(at4k.omega, longropeOmega(rope, rope.rope_scaling.short_factor))).toBeLessThan(1e-15);
    expect(at128k.n).toBe(48);
    console.log(`phi-3.5-mini, bf16_table: ${at128k.lost.length} of 48 pairs lost at 131,072 tokens, ${at4k.lost.length} at 4,096`);
  });

  it.each([['en'], ['ko']])('links every card to its lab spec (%s)', (lang) => {
    for (const g of GALLERY) {
      const link = precisionLink(g.id, lang);
      if (!MODELS[g.id]) {
        expect(link, g.id).toBeNull();
        continue;
      }
      const d = decodePermalink(link);
      expect(d.status, `${g.id}: ${d.detail}`).toBe('ok');
      expect(d.kind).toBe('rope_precision');
      const want = endOfContext(MODELS[g.id].rope);
      for (const f of ['length', 'offset', 'dim', 'base', 'partial_rotary_factor', 'max_position_embeddings', 'recipe']) {
        expect(d.spec[f], `${g.id} ${f}`).toEqual(want[f]);
      }
      expect(d.spec.rope_scaling?.rope_type ?? 'default').toBe(want.rope_scaling?.rope_type ?? 'default');
      if (want.rope_scaling?.rope_type === 'longrope') {
        expect(d.spec.rope_scaling.short_factor).toEqual(want.rope_scaling.short_factor);
        expect(d.spec.rope_scaling.long_factor).toEqual(want.rope_scaling.long_factor);
      }
      expect(d.view.precisionModel).toBe(g.id);
      expect(d.lang ?? 'en').toBe(lang);
    }
  });
});

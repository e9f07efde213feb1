// How the `attention` kind calls its C kernels (c/attention.c). The encoding is prepared first by
// its own family's kernel (the additive table; RoPE's exact cos/sin tables; M-RoPE's angles),
// then one k.run makes the relative bias or the M-RoPE cos/sin if needed and calls pe_attention,
// which builds q and k, applies the encoding and writes the weights.
import { ENCODING_CLASS, splitWords } from '../schema/attention.js';
import { PEError, normalizeSpec } from '../spec.js';
import { SCHEMA } from '../schema/index.js';
import sinusoidal from './sinusoidal.js';
import vision from './vision.js';
import absolute from './absolute.js';
import rope, { LAYOUT } from './rope.js';
import mrope from './mrope.js';
import { MODE, FUNCTION } from './relative.js';

const FAMILIES = { ...sinusoidal, ...vision, ...absolute, ...rope, ...mrope };

// The q and k of content "random" for the last (seed, heads, length, dim), kept per module
// instance: recomputing with another encoding (the explorer's usual change) then skips the
// generation, a third of the time at 512 tokens × 8 heads. Only up to 2^21 floats (8 MiB).
const CACHE_MAX = 2 ** 21;
const randomCache = new WeakMap();   // wasm exports → { key, qk: Float32Array }
// c/attention.h's pe_encoding_class and pe_content (tests/house/constants.test.js compares them).
export const CLASS = { none: 0, additive: 1, rotary: 2, bias: 3 };
export const CONTENT = { random: 0, tokens: 1, none: 2 };
export const CONTENT_PREPARED = 3;   // random content already in the scratch (c/attention.h)
const flag = (b) => (b === true ? 1 : b === false ? 0 : -1);   // -1: C rejects a non-boolean
const code = (table, v) => (Object.hasOwn(table, v) ? table[v] : -1);

// The C arguments of pe_attention, named by the spec field each comes from.
const ARGS = ['out', 'entropy', 'local_mass', 'scratch', 'encoding', 'encoding', 'encoding', 'encoding',
  'tokens', 'tokens', 'length', 'dim', 'heads', 'causal', 'encoding', 'encoding', 'encoding', 'encoding',
  'content', 'seed'];
const ENCODING_ARG = ARGS.indexOf('encoding') + 1;   // a helper's failure is the encoding's

/**
 * The complete encoding spec, with the fields it takes from the attention (length, dim, alibi's
 * heads) and the attention's defaults for it: what its own kernel computes. Normalized again
 * here, so that a spec that skipped validation (pe._computeUnvalidated) is still complete.
 */
function fullEncoding(s) {
  const e = s.encoding;
  if (e === null || e === undefined) return null;
  if (typeof e !== 'object' || !Object.hasOwn(ENCODING_CLASS, e.kind)) {
    throw new PEError('encoding.kind', `encoding.kind must be one of ${Object.keys(ENCODING_CLASS).join(', ')}`);
  }
  const full = { ...SCHEMA.attention.fields.encoding.defaults(e.kind, s), ...e };
  for (const key of ['length', 'dim', 'heads']) if (SCHEMA[e.kind].fields[key]) full[key] = s[key];
  try {
    return normalizeSpec(full);
  } catch (error) {
    if (error instanceof PEError && !['length', 'dim', 'heads'].includes(error.param)) {
      throw new PEError(`encoding.${error.param}`, `encoding.${error.message}`);
    }
    throw error;
  }
}

/** UTF-8 bytes of the words and their (n + 1) offsets. */
function encodeWords(words) {
  const encoder = new TextEncoder();
  const parts = words.map((w) => encoder.encode(w));
  const offsets = new Int32Array(parts.length + 1);
  parts.forEach((b, t) => { offsets[t + 1] = offsets[t] + b.length; });
  const bytes = new Uint8Array(Math.max(1, offsets[parts.length]));
  parts.forEach((b, t) => bytes.set(b, offsets[t]));
  return { bytes, offsets };
}

export default {
  attention: {
    args: ARGS,
    compute(k, s) {
      const w = k.wasm;
      const L = s.length | 0;
      const H = s.heads | 0;
      const D = s.dim | 0;
      const ok = (n) => Number.isInteger(n) && n >= 0 && n <= 2 ** 26;
      const count = (n) => (ok(n) ? n : 1);   // out-of-range specs (C-guard tests): C refuses them
      const enc = fullEncoding(s);
      const cls = enc === null ? 'none' : ENCODING_CLASS[enc.kind] ?? 'none';
      const inputs = {};
      let rotaryDim = 0;
      let layout = 0;
      let attentionFactor = 1;

      if (cls === 'additive') {
        inputs.table = FAMILIES[enc.kind].compute(k.inner, enc).data;   // (length, dim)
      } else if (enc?.kind === 'rope') {
        const t = FAMILIES.rope.tables(k.inner, enc);
        const af = t.attention_factor;
        inputs.cos = af === 1 ? t.cos : t.cos.map((v) => v * af);   // as applyRope: cos·af, sin·af
        inputs.sin = af === 1 ? t.sin : t.sin.map((v) => v * af);
        rotaryDim = 2 * t.shape[1];
        layout = code(LAYOUT, enc.layout);
        attentionFactor = af;
      } else if (enc?.kind === 'mrope') {
        inputs.angles = FAMILIES.mrope.compute(k.inner, enc).angles;   // (length, dim/2)
        rotaryDim = enc.mrope_section.reduce((a, b) => a + b, 0) * 2;
        layout = LAYOUT.half;   // Qwen2-VL rotates with rotate_half
      }

      let words = null;
      if (s.content === 'tokens') {
        words = splitWords(s.tokens);
        if (words.length > 0) Object.assign(inputs, (({ bytes, offsets }) => ({ text: bytes, words: offsets }))(encodeWords(words)));
      }

      // Random content from the cache (or made now and kept), copied into the scratch below.
      let prepared = null;
      const qkFloats = 2 * H * L * D;
      if (s.content === 'random' && qkFloats <= CACHE_MAX && Number.isInteger(s.seed) && s.seed >= 0 && s.seed <= 4294967295
        && w.pe_attention_scratch_floats(L, D, H, CONTENT.random) > 0) {
        const key = `${s.seed}/${H}/${L}/${D}`;
        const hit = randomCache.get(w);
        if (hit?.key === key) {
          prepared = hit.qk;
        } else {
          // through k.inner: the cache's array is the module's own, never lent to the caller
          const r = k.inner.run({ outputs: { qk: qkFloats } }, (p) => w.pe_attention_random(p.qk, p.qk + 4 * (qkFloats / 2), H, L, D, s.seed));
          prepared = r.qk;
          randomCache.set(w, { key, qk: prepared });
        }
      }

      const biasHeads = enc?.kind === 'distance' ? 1 : H;
      const r = k.run({
        inputs,
        outputs: { data: count(H * L * L), entropy: count(H * L), local_mass: count(H * L) },
      }, (p) => {
        const temps = [];
        const alloc = (floats) => {
          const ptr = w.malloc(Math.max(4, 4 * floats));
          if (ptr === 0) throw new PEError('length', `not enough memory for ${(floats / 2 ** 18).toFixed(1)} MiB of attention scratch`);
          temps.push(ptr);
          return ptr;
        };
        try {
          const scratchFloats = w.pe_attention_scratch_floats(L, D, H, code(CONTENT, s.content));
          const scratch = alloc(scratchFloats > 0 ? scratchFloats : 1);
          if (prepared) new Float32Array(w.memory.buffer, scratch, prepared.length).set(prepared);
          let cos = p.cos ?? 0;
          let sin = p.sin ?? 0;
          if (p.angles) {
            const n = L * (rotaryDim / 2);
            cos = alloc(n);
            sin = alloc(n);
            if (w.pe_attention_cos_sin(cos, sin, p.angles, n) !== 0) return 100 + ENCODING_ARG;
          }
          let bias = 0;
          if (cls === 'bias') {
            bias = alloc(count(biasHeads * (2 * L - 1)));
            let status;
            if (enc.kind === 'alibi') status = w.pe_attention_bias_alibi(bias, L, H, code(MODE, enc.mode));
            else if (enc.kind === 't5') status = w.pe_attention_bias_t5(bias, L, H, enc.num_buckets, enc.max_distance, flag(enc.bidirectional), s.seed);
            else if (enc.kind === 'shaw') status = w.pe_attention_bias_shaw(bias, L, H, enc.max_relative_position, s.seed);
            else status = w.pe_attention_bias_distance(bias, L, code(FUNCTION, enc.function), enc.strength, enc.scale, code(MODE, enc.mode));
            if (status !== 0) return status === 1 ? 1 : 100 + ENCODING_ARG;
          }
          return w.pe_attention(p.data, p.entropy, p.local_mass, scratch, p.table ?? 0, cos, sin, bias,
            p.text ?? 0, p.words ?? 0, L, D, H, flag(s.causal), CLASS[cls], rotaryDim, layout, biasHeads,
            prepared ? CONTENT_PREPARED : code(CONTENT, s.content), s.seed);
        } finally {
          for (const ptr of temps) w.free(ptr);
        }
      });
      const result = { data: r.data, entropy: r.entropy, local_mass: r.local_mass };
      if (words !== null) result.tokens = words;
      if (enc?.kind === 'rope') result.attention_factor = attentionFactor;
      return result;
    },
  },
};

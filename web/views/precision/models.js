// The models of the precision lab: every rotary model of the gallery (web/api/models.js, read by
// the config reader, web/api/hfconfig.js, as the gallery opens it), each as the rope fields of a
// rope_precision spec, and the spec a gallery card's "Open in the precision lab" link opens. No
// strings and no DOM: the rope gallery (../rope/gallery.js) imports it without the lab's views.
import { GALLERY } from '../../api/models.js';
import { fromHFConfig } from '../../api/hfconfig.js';
import { PE_MAX_ELEMENTS } from '../../api/schema/limits.js';
import { longropeOriginal } from '../../api/schema/rope.js';

/**
 * The rope fields of the precision kind from a config.json (an object or its text), as the config
 * reader gives them (M-RoPE: its text layers' RoPE): { dim, base, partial_rotary_factor,
 * rope_scaling, max_position_embeddings }, or null for a model without rotary positions (ALiBi).
 * Throws the reader's PEError for a config it cannot read.
 */
export function ropeOfConfig(config) {
  const out = fromHFConfig(config);
  const spec = out.spec.kind === 'mrope' ? out.alternates.find((a) => a.layers === 'text')?.spec : out.spec;
  if (spec?.kind !== 'rope') return null;
  return {
    dim: spec.dim, base: spec.base, partial_rotary_factor: spec.partial_rotary_factor,
    rope_scaling: spec.rope_scaling, max_position_embeddings: spec.max_position_embeddings,
  };
}

/**
 * Configs kept for links made before the lab read the gallery (their ids are not the gallery's):
 * Qwen2.5 7B without its card's YaRN block, and Phi-3 mini 4K (no scaling).
 */
const EARLIER = [
  { id: 'qwen2.5-7b', label: 'Qwen2.5 7B Instruct (no YaRN)', repo: 'Qwen/Qwen2.5-7B-Instruct', family: 'Qwen',
    config: { model_type: 'qwen2', hidden_size: 3584, num_attention_heads: 28, max_position_embeddings: 32768, rope_theta: 1000000.0 } },
  { id: 'phi-3-mini-4k', label: 'Phi-3 mini 4K', repo: 'microsoft/Phi-3-mini-4k-instruct', family: 'Phi',
    config: { model_type: 'phi3', hidden_size: 3072, num_attention_heads: 32, max_position_embeddings: 4096, rope_theta: 10000.0 } },
];

/**
 * The lab's models, gallery order then EARLIER: { id: { label, repo, family, config, rope } }, rope
 * from ropeOfConfig. Models without rotary positions (ALiBi) are left out: NO_ROPE names them.
 */
export const MODELS = {};
/** Gallery ids of the models without rotary positions (ALiBi), which the lab cannot take. */
export const NO_ROPE = [];
for (const g of [...GALLERY, ...EARLIER]) {
  const rope = ropeOfConfig(g.config);
  if (rope) MODELS[g.id] = { label: g.label, repo: g.repo, family: g.family, config: g.config, rope };
  else NO_ROPE.push(g.id);
}

/** Rows a model's lab spec holds at most: the last LAB_ROWS positions of its context. */
export const LAB_ROWS = 4096;

/** The context a model is read at: its max_position_embeddings, else 4096. */
export const contextOf = (rope) => rope.max_position_embeddings ?? 4096;

/**
 * The rope_precision spec of the end of a context: the last `rows` positions (at most LAB_ROWS
 * and the output limit) before `context`, with a model's rope fields and a recipe. For LongRoPE
 * the table then takes the list of that context's side (long_factor past the original context).
 */
export function endOfContext(rope, context = contextOf(rope), recipe = 'float32', rows = LAB_ROWS) {
  const pairs = Math.trunc(rope.dim * rope.partial_rotary_factor) >> 1;
  const length = Math.max(1, Math.min(rows, context, Math.floor(PE_MAX_ELEMENTS / pairs)));
  return { kind: 'rope_precision', length, ...rope, offset: context - length, recipe };
}

/**
 * A model's rope fields as one sequence of `context` tokens uses them. LongRoPE picks its list
 * once for the whole sequence (transformers: long_factor when the sequence is longer than the
 * original context), while the kernel picks it per table from the table's own end: both lists
 * are set to the context's one, so every window of that sequence uses it. Other types: as given.
 */
export function atContext(rope, context) {
  const r = rope.rope_scaling;
  if (r?.rope_type !== 'longrope') return rope;
  const list = context > longropeOriginal(rope) ? r.long_factor : r.short_factor;
  return { ...rope, rope_scaling: { ...r, short_factor: list, long_factor: list } };
}

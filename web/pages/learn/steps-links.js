// Links a step adds under its explorer link (./steps.js): a question and a link to the explorer
// view that answers it, opened at that view (the permalink's ~x.go, web/app/view-host.js).
import { encodePermalink } from '../../share/permalink.js';
import { h } from '../../plot/dom.js';

/** A line under the step's explorer link: `lead` and a link to `spec` opened at the view `go`. */
function viewLink({ lang, derived }, { cls, lead, text, spec, go, view = {} }) {
  const href = encodePermalink({ kind: spec.kind, spec, lang, view: { ...view, go } });
  const row = h('p', { class: `learn-note ${cls}` }, `${lead} `, h('a', { href, 'data-view': go, text }));
  (derived.closest('article')?.querySelector('.learn-explore-row') ?? derived).after(row);
}

/**
 * "How big is P next to the word vectors?": the explorer's magnitudes view
 * (web/views/absolute/embed-scale.js) at Vaswani's d = 512.
 */
export function magnitudesLink({ t, lang, derived }) {
  viewLink({ lang, derived }, {
    cls: 'learn-magnitudes', lead: t('learn.sinusoids.magnitudes'), text: t('learn.sinusoids.magnitudesLink'),
    spec: { kind: 'sinusoidal', length: 512, dim: 512, base: 10000 }, go: 'absolute-embed-scale',
  });
}

/**
 * "What does ViT itself use?": a learned 1-D table over ViT-Base's 14 × 14 patches, resized to
 * 24 × 24 as fine-tuning at a larger image does (web/views/vision/learned-grid.js), and beside it
 * the sum-or-concatenate view.
 */
export function vitLink({ t, lang, derived }) {
  viewLink({ lang, derived }, {
    cls: 'learn-vit', lead: t('learn.patches.vit'), text: t('learn.patches.vitLink'),
    spec: { kind: 'learned2d', height: 14, width: 14, dim: 768, resize_height: 24, resize_width: 24 }, go: 'vision-learned',
  });
}

/**
 * "Does fine-tuning with the scaling help?": the Arena's fine-tuning card (web/pages/arena/
 * finetune-view.js: train at L, fine-tune at 2L with and without position interpolation, against
 * scaling at evaluation only, over seeds), in the page's language.
 */
export function finetuneLink({ t, lang, derived }) {
  const href = `#arena?ft=1${lang && lang !== 'en' ? `&~lang=${lang}` : ''}`;
  const row = h('p', { class: 'learn-note learn-finetune' }, `${t('learn.scaling.finetune')} `, h('a', { href, text: t('learn.scaling.finetuneLink') }));
  (derived.closest('article')?.querySelector('.learn-explore-row') ?? derived).after(row);
}

// Links a step adds under its explorer link (./steps.js).
import { encodePermalink } from '../../share/permalink.js';
import { h } from '../../plot/dom.js';

/**
 * "How big is P next to the word vectors?": a line under the step's explorer link, to the
 * explorer's magnitudes view (web/views/absolute/embed-scale.js) at Vaswani's d = 512. A permalink
 * cannot name a view to scroll to (its fragment is the state), so the link opens the explorer
 * and the view is in its list of views.
 */
export function magnitudesLink({ t, lang, derived }) {
  const spec = { kind: 'sinusoidal', length: 512, dim: 512, base: 10000 };
  const row = h('p', { class: 'learn-note learn-magnitudes' }, `${t('learn.sinusoids.magnitudes')} `,
    h('a', { href: encodePermalink({ kind: spec.kind, spec, lang }), 'data-view': 'absolute-embed-scale', text: t('learn.sinusoids.magnitudesLink') }));
  (derived.closest('article')?.querySelector('.learn-explore-row') ?? derived).after(row);
}

// The Learn path (#learn, #learn/<step-id>): mounted by web/app/pages.js. The index lists every
// step; a step shows one idea, one live figure, its controls, a sentence derived from the numbers,
// a question to try, a link to the same setting in the explorer, and the previous and next steps.
// Steps: ./steps.js; strings: ./strings.js (en + ko). The question can be checked or revealed
// (./exercises-ui.js): every env.explore of the step goes to its exercise too.
import { h } from '../../plot/dom.js';
import { ensureStyles } from '../../views/common.js';
import { STEPS, STEP_IDS } from './steps.js';
import './strings.js';
import { FORMULAS } from './math.js';
import { mountExercise, quizFor } from './exercises-ui.js';

export default {
  id: 'learn',
  mount(container, ctx) {
    ensureStyles(new URL('./learn.css', import.meta.url));
    const { t } = ctx;
    const root = h('div', { class: 'learn', lang: ctx.lang });
    container.append(root);
    let current = null;   // { id, handle }

    function stepLink(id, text, cls = '') {
      return h('a', { href: ctx.hashFor(id), class: cls, 'data-step-link': id, text });
    }

    function showIndex(unknown = null) {
      root.dataset.step = '';
      const list = h('ol', { class: 'learn-index' }, ...STEPS.map((s, i) => h('li', {},
        h('a', { href: ctx.hashFor(s.id), 'data-step-link': s.id },
          h('span', { class: 'learn-num', text: String(i + 1) }),
          h('span', { class: 'learn-index-text' },
            h('strong', { text: t(`learn.${s.id}.title`) }),
            h('span', { text: t(`learn.${s.id}.summary`) }))))));
      root.replaceChildren(
        h('h2', { id: 'page-title', tabindex: -1, text: t('learn.title') }),
        unknown ? h('p', { class: 'learn-notice', role: 'status', text: t('learn.unknown', unknown) }) : '',
        h('p', { class: 'learn-intro', text: t('learn.intro') }),
        list,
        h('p', { class: 'learn-start' }, stepLink(STEPS[0].id, t('learn.start'), 'button learn-next')));
      root.dataset.ready = 'index';
    }

    function showStep(id) {
      const i = STEP_IDS.indexOf(id);
      const step = STEPS[i];
      const figure = h('div', { class: 'learn-figure', 'data-figure': id });
      const controls = h('div', { class: 'learn-controls' });
      const derived = h('p', { class: 'learn-derived', 'aria-live': 'polite' });
      const tryThis = h('aside', { class: 'learn-try' }, h('p', { class: 'learn-try-text' }, h('strong', { text: t('learn.try') }), ' ', t(`learn.${id}.try`)));
      const exercise = mountExercise(tryThis, { id, t, pe: ctx.pe, controls });
      const explore = h('a', { class: 'learn-explore', text: t('learn.explore') });
      const lead = t(`learn.${id}.lead`);
      const paragraphs = Array.isArray(lead) ? lead : [lead];
      const prev = STEPS[i - 1];
      const next = STEPS[i + 1];
      root.dataset.step = id;
      root.replaceChildren(
        // Two navigations, two names (landmarks must be told apart): where you are, and the pager.
        h('nav', { class: 'learn-crumbs', 'aria-label': `${t('learn.nav')}: ${t('learn.count', i + 1, STEPS.length)}` },
          stepLink('', t('learn.all'), 'learn-all'),
          h('span', { class: 'learn-count', text: t('learn.count', i + 1, STEPS.length) })),
        h('article', { class: 'learn-step', 'data-step': id },
          h('h2', { id: 'page-title', tabindex: -1, text: `${i + 1}. ${t(`learn.${id}.title`)}` }),
          ...paragraphs.map((p) => h('p', { class: 'learn-lead', text: p })),
          FORMULAS[id] ? FORMULAS[id]() : '',
          controls,
          figure,
          derived,
          tryThis,
          h('p', { class: 'learn-explore-row' }, explore),
          quizFor(id, { t, pe: ctx.pe }) ?? '',
          t.has(`learn.${id}.note`) ? h('p', { class: 'learn-note', text: t(`learn.${id}.note`) }) : ''),
        h('nav', { class: 'learn-pager', 'aria-label': t('learn.nav') },
          prev ? stepLink(prev.id, `← ${t(`learn.${prev.id}.title`)}`, 'learn-prev') : h('span'),
          next ? stepLink(next.id, `${t(`learn.${next.id}.title`)} →`, 'learn-next') : stepLink('', t('learn.all'), 'learn-next')));
      let handle = null;
      try {
        handle = step.mount({
          pe: ctx.pe, t, lang: ctx.lang, figure, controls, derived,
          // view: the step's view state (head, colour map, picked patch, the second sentence as
          // the compare view's B), so the explorer opens on what the step showed.
          explore: (kind, spec, view) => {
            explore.href = ctx.explorerHash(kind, spec, view);
            exercise?.update(kind, spec, view);
          },
        });
      } catch (err) {
        derived.textContent = t('learn.failed', err?.message ?? String(err));
        console.warn(err);
      }
      current = { id, handle: { destroy: () => { exercise?.destroy(); handle?.destroy?.(); } } };
      root.dataset.ready = id;
    }

    function show(route) {
      current?.handle?.destroy?.();
      current = null;
      const id = route.path;
      if (id && STEP_IDS.includes(id)) showStep(id);
      else showIndex(id || null);
    }

    show(ctx.route);
    return {
      update(route) {
        if (route.path === (current?.id ?? '') && root.dataset.ready) return;
        show(route);
        document.getElementById('page-title')?.focus?.({ preventScroll: true });
        window.scrollTo?.(0, 0);
      },
      destroy() {
        current?.handle?.destroy?.();
        current = null;
      },
    };
  },
};

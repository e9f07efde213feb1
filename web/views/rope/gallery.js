// The model gallery: 38 real models (web/api/models.js, each with its Hugging Face repo), one
// click to open any of them in the explorer (through the config reader and a permalink) or, for
// the rotary ones, in the precision lab (a rope_precision permalink, ../precision/models.js), and
// their frequency bands side by side against their context windows: for every rotary pair, its
// wavelength 2π/θᵢ (log scale) as the model uses it, coloured by whether the pair turns fully
// inside the training context, never does, or is stretched by the model's rope_scaling.
import { h, uid } from '../../plot/dom.js';
import { both } from '../../i18n/index.js';
import { formatInt } from '../../plot/format.js';
import { GALLERY } from '../../api/models.js';
import { fromHFConfig } from '../../api/hfconfig.js';
import { ensureRopeStyles, trainingContext, sameFreqAtLength, formatLength } from './common.js';
import { specLink } from './link.js';
import { openSpec } from './config.js';
import { drawer } from '../common.js';
import { MODELS as LAB_MODELS, endOfContext } from '../precision/models.js';

const SVG = 'http://www.w3.org/2000/svg';
const svg = (tag, attrs = {}) => {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
};

/**
 * The bands of one gallery model: { id, label, repo, kind, pairs, train, target, full, stretched,
 * wavelengths: Float64Array, classes: ('full' | 'never' | 'stretched')[] } (kind 'alibi' has no
 * pairs). Rotary models use the spec the config reader gives (M-RoPE: its text alternate), at the
 * target context for the length-dependent types. Exported for the tests.
 */
export function modelBands(pe, g) {
  const out = fromHFConfig(g.config);
  const base = { id: g.id, label: g.label, repo: g.repo, kind: out.spec.kind, spec: out.spec };
  if (out.spec.kind === 'alibi') return { ...base, pairs: 0 };
  const rope = out.spec.kind === 'mrope' ? out.alternates.find((a) => a.layers === 'text').spec : out.spec;
  const train = trainingContext(rope).value;
  const sc = rope.rope_scaling;
  const target = rope.max_position_embeddings > train ? rope.max_position_embeddings : Math.round(train * (sc?.factor ?? 1));
  let scaled = { ...rope, length: 2 };
  if (sc?.rope_type === 'dynamic') scaled = sameFreqAtLength({ ...rope, length: target }, 2);
  if (sc?.rope_type === 'longrope') scaled = { ...rope, length: Math.min(target, train + 1) };
  const inv = pe.compute(scaled).inv_freq;
  const plain = pe.compute({ ...rope, length: 2, rope_scaling: null }).inv_freq;
  const wavelengths = Float64Array.from(inv, (v) => (2 * Math.PI) / v);
  const classes = Array.from(plain, (p, i) => {
    if (Math.abs(inv[i] - p) > 1e-6 * p) return 'stretched';
    return (2 * Math.PI) / p <= train ? 'full' : 'never';
  });
  const count = (c) => classes.filter((x) => x === c).length;
  const fullPlain = Array.from(plain, (p) => (2 * Math.PI) / p <= train).filter(Boolean).length;
  return { ...base, pairs: inv.length, train, target, full: fullPlain, stretched: count('stretched'), wavelengths, classes, scaling: sc?.rope_type ?? null };
}

/**
 * A gallery model's link into the precision lab: '#' + the permalink of its rope_precision spec
 * (its RoPE at the last positions of its context, endOfContext) with the lab's model view on the
 * same model (~x.precisionModel); null for a model without rotary positions (ALiBi).
 */
export function precisionLink(id, lang = 'en') {
  const m = LAB_MODELS[id];
  return m ? `${specLink(endOfContext(m.rope), lang)}&~x.precisionModel=${id}` : null;
}

const X0 = 320; // label column
const X1 = 975;
const ROW = 24;
const LOG_MAX = 9; // 10^9 positions

export default {
  id: 'rope-gallery',
  kinds: ['rope'],
  title: both('rope.gal.title'),
  explain: both('rope.gal.explain'),

  mount(el, ctx) {
    ensureRopeStyles();
    const { t, pe } = ctx;
    const id = uid('rgal');
    let state = null;
    let bands = null;

    const list = h('div', { class: 'rope-gallery-list', role: 'list', 'aria-label': t('rope.gal.listLabel') });
    for (const g of GALLERY) {
      let spec = null;
      try {
        spec = fromHFConfig(g.config).spec;
      } catch { /* every gallery model opens (tests/models.test.js); nothing to link otherwise */ }
      const lab = precisionLink(g.id, t.lang);
      // Each link's accessible name starts with its visible text (WCAG 2.5.3, label in name).
      list.append(h('div', { class: 'rope-gallery-item', role: 'listitem', 'data-model': g.id },
        h('button', {
          type: 'button', class: 'chip', 'data-open': g.id, text: g.label,
          title: t('rope.gal.openTitle', g.repo),
          on: { click: () => open(g) },
        }),
        h('code', { class: 'rope-gallery-repo', text: g.repo }),
        // The two links wrap together, as one unit.
        h('span', { class: 'rope-gallery-links' },
          spec ? h('a', { href: specLink(spec, t.lang), class: 'rope-gallery-link', text: t('rope.gal.link'), 'aria-label': t('rope.gal.linkLabel', g.label) }) : null,
          spec && lab ? ' · ' : null,
          lab ? h('a', { href: lab, class: 'rope-gallery-link rope-gallery-lab', 'data-lab': g.id, text: t('rope.gal.lab'), 'aria-label': t('rope.gal.labLabel', g.label) }) : null)));
    }
    const status = h('p', { class: 'rope-ok', role: 'status', id: `${id}-status` });
    const legend = h('p', { class: 'help rope-gallery-legend' },
      h('span', { class: 'rope-swatch rope-full' }), ` ${t('rope.gal.full')}  `,
      h('span', { class: 'rope-swatch rope-stretched' }), ` ${t('rope.gal.stretched')}  `,
      h('span', { class: 'rope-swatch rope-never' }), ` ${t('rope.gal.never')}  `,
      h('span', { class: 'rope-swatch rope-train' }), ` ${t('rope.gal.trainLine')}  `,
      h('span', { class: 'rope-swatch rope-target' }), ` ${t('rope.gal.targetLine')}`);
    const figure = h('div', { class: 'rope-gallery-bands' });
    const table = h('details', { class: 'data-table' }, h('summary', { text: t('table.summary') }));
    el.append(h('details', { class: 'rope-gallery-pick', open: true }, h('summary', { text: t('rope.gal.pick', GALLERY.length) }), list), status,
      h('h4', { class: 'rope-subhead', text: t('rope.gal.bandsTitle') }), legend, figure, table);
    const screen = drawer(el, draw);

    function open(g) {
      const out = fromHFConfig(g.config);
      status.textContent = t('rope.gal.opened', g.label, g.repo);
      el.dataset.opened = g.id;
      openSpec(ctx, out.spec);
    }

    function draw() {
      if (!state) return false;
      bands ??= GALLERY.map((g) => modelBands(pe, g));
      const rows = bands;
      const height = 34 + rows.length * ROW;
      const x = (wl) => X0 + ((X1 - X0) * Math.min(Math.max(Math.log10(wl), 0), LOG_MAX)) / LOG_MAX;
      const root = svg('svg', { viewBox: `0 0 1000 ${height}`, class: 'rope-gallery-svg', role: 'img', 'aria-labelledby': `${id}-svg-title` });
      const title = svg('title', { id: `${id}-svg-title` });
      title.textContent = t('rope.gal.aria');
      root.append(title);
      for (let k = 0; k <= LOG_MAX; k++) {
        const gx = X0 + ((X1 - X0) * k) / LOG_MAX;
        root.append(svg('line', { x1: gx, x2: gx, y1: 22, y2: height, class: 'rope-grid' }));
        const lab = svg('text', { x: gx, y: 16, 'text-anchor': 'middle', class: 'rope-axis' });
        lab.textContent = k === 0 ? '1' : `1e${k}`;
        root.append(lab);
      }
      const axis = svg('text', { x: X0 - 8, y: 16, 'text-anchor': 'end', class: 'rope-axis' });
      axis.textContent = t('rope.gal.axis');
      root.append(axis);
      rows.forEach((r, j) => {
        const y = 28 + j * ROW;
        const g = svg('g', { 'data-model': r.id });
        const label = svg('text', { x: X0 - 8, y: y + 16, 'text-anchor': 'end', class: 'rope-row-label' });
        label.textContent = r.label;
        g.append(label);
        if (!r.pairs) {
          const note = svg('text', { x: X0 + 6, y: y + 16, class: 'rope-axis' });
          note.textContent = t('rope.gal.alibiRow');
          g.append(note);
        } else {
          g.append(svg('rect', { x: x(r.train) - 1, y: y + 1, width: 2, height: ROW - 4, class: 'rope-train' }));
          if (r.target > r.train) g.append(svg('rect', { x: x(r.target) - 1, y: y + 1, width: 2, height: ROW - 4, class: 'rope-target' }));
          r.wavelengths.forEach((wl, i) => {
            g.append(svg('rect', { x: x(wl) - 0.75, y: y + 4, width: 1.5, height: ROW - 10, class: `rope-${r.classes[i]}` }));
          });
        }
        root.append(g);
      });
      figure.replaceChildren(root);
      el.dataset.models = String(rows.length);
      const body = h('table', { class: 'mini-table rope-gallery-table' },
        h('caption', { text: t('rope.gal.caption') }),
        h('thead', {}, h('tr', {}, [t('rope.gal.model'), t('rope.gal.repo'), t('rope.gal.pairs'), t('rope.gal.fullCol'), t('rope.gal.stretchedCol'), t('rope.gal.trainCol'), t('rope.gal.targetCol')]
          .map((c) => h('th', { scope: 'col', text: c })))),
        h('tbody', {}, rows.map((r) => h('tr', { 'data-model': r.id },
          h('th', { scope: 'row', text: r.label }), h('td', { text: r.repo }),
          ...(r.pairs ? [formatInt(r.pairs), formatInt(r.full), r.scaling ? `${formatInt(r.stretched)} (${r.scaling})` : '0', formatLength(r.train), formatLength(r.target)]
            : [t('rope.gal.alibiShort'), '—', '—', '—', '—']).map((v) => h('td', { text: v }))))));
      table.replaceChildren(h('summary', { text: t('table.summary') }), h('div', { class: 'table-scroll', tabindex: 0 }, body));
      return true;
    }

    return {
      update(next) {
        state = next;
        if (next.changed.has('result') || next.changed.has('theme')) screen.request();
      },
      destroy() {
        screen.destroy();
      },
    };
  },
};

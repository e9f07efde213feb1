// "Bias against distance": every relative-position scheme of the bias family on one axis, the
// relative position r = key − query from −(L−1) to L−1, for the kinds alibi, t5, shaw and
// distance. The current kind (with its parameters) is drawn thick; the others use their defaults
// at the same length and can be switched on and off.
//
// Two y axes, because the schemes say different things about a distance:
//   left   ALiBi (one line per head) and the distance biases: the number added to the score
//   right  T5's bucket and Shaw's clipped index: which learned parameter the distance uses.
// T5 and Shaw learn their biases (per bucket and head, or per index), so any bias drawn for them
// would be invented; the index shows what the scheme itself fixes: which distances share a
// parameter (the width of each step) and where the distances stop being told apart.
//
// Each curve is its kernel's profile (pe.relativeProfile, c/relative.c): the table's own values
// at each r, O(L) per curve per update, with no formula written again in JS.
import { cssVar, h, uid } from '../../plot/dom.js';
import { both } from '../../i18n/index.js';
import { formatInt, formatValue } from '../../plot/format.js';
import { DataTable, spread } from '../datatable.js';
import { SCHEMA } from '../../api/schema/index.js';
import { drawer, fraction, withAlpha, withLinePlot } from '../common.js';

const KINDS = ['alibi', 't5', 'shaw', 'distance'];
const MAX_HEAD_CURVES = 16;
/** The `distance` kind's functions, in the schema's order. */
const DISTANCE_FUNCTIONS = SCHEMA.distance.fields.function.values;
const BIAS_FAMILIES = ['alibi', ...DISTANCE_FUNCTIONS.map((f) => `dist-${f}`)];
const INDEX_FAMILIES = ['t5-bi', 't5-causal', 'shaw'];
// Palette slots (web/plot/lineplot.js seriesColor): one colour per family, the same on every page.
const COLOR = { alibi: 0, 't5-bi': 1, 't5-causal': 3, shaw: 2, 'dist-linear': 4, 'dist-log': 5, 'dist-gaussian': 6, 'dist-exponential': 7 };

/** The family the current kind's setting belongs to (drawn thick). */
function currentFamily(kind, spec) {
  if (kind === 't5') return spec.bidirectional ? 't5-bi' : 't5-causal';
  if (kind === 'distance') return `dist-${spec.function}`;
  return kind;
}

/** Whether keys after the query are masked (−∞) for ALiBi and the distance biases. */
function isCausal(kind, spec) {
  if (kind === 'alibi' || kind === 'distance') return spec.mode === 'causal';
  if (kind === 't5') return !spec.bidirectional;
  return false; // Shaw et al. used it in an encoder: both directions
}

/**
 * Hatches the masked side (r ≥ 1) of the chart, and labels it over the curves on a plate of the
 * background colour (so the label stays readable): a LinePlot overlay (plot.setOverlay).
 * opts: { label, fill, stroke, text, plate }.
 */
function maskOverlay(opts) {
  return {
    under(g) {
      const { ctx, area: a } = g;
      const x0 = Math.max(a.left, g.x(0.5));
      if (x0 >= a.right) return;
      ctx.save();
      ctx.beginPath();
      ctx.rect(x0, a.top, a.right - x0, a.bottom - a.top);
      ctx.clip();
      ctx.fillStyle = opts.fill;
      ctx.fillRect(x0, a.top, a.right - x0, a.bottom - a.top);
      ctx.strokeStyle = opts.stroke;
      ctx.lineWidth = 1;
      ctx.beginPath();
      for (let x = x0 - (a.bottom - a.top); x < a.right; x += 7) {
        ctx.moveTo(x, a.bottom);
        ctx.lineTo(x + (a.bottom - a.top), a.top);
      }
      ctx.stroke();
      ctx.restore();
    },
    over(g) {
      const { ctx, area: a } = g;
      const x0 = Math.max(a.left, g.x(0.5));
      if (a.right - x0 < 60) return;
      ctx.save();
      ctx.font = `12px ${g.font}`;
      const lines = String(opts.label).split('\n');
      const w = Math.min(a.right - x0 - 8, Math.max(...lines.map((l) => ctx.measureText(l).width)) + 12);
      const hgt = lines.length * 15 + 8;
      const cx = (x0 + a.right) / 2;
      const top = a.top + (a.bottom - a.top) * 0.42;
      ctx.fillStyle = opts.plate;
      ctx.fillRect(cx - w / 2, top, w, hgt);
      ctx.fillStyle = opts.text;
      ctx.textAlign = 'center';
      ctx.textBaseline = 'top';
      lines.forEach((l, i) => ctx.fillText(l, cx, top + 5 + i * 15, w - 6));
      ctx.restore();
    },
  };
}

export default {
  id: 'relative-distance',
  kinds: KINDS,
  title: both('relative.dist.title'),
  explain: both('relative.dist.explain'),

  mount(el, ctx) {
    const { t, pe, kind } = ctx;
    const id = uid('bd');
    let state = null;
    let plot = null;
    let mod = null;
    let destroyed = false;
    // Shown families: the current one, one of each other scheme, and every distance function on
    // the distance page. The user switches the rest.
    const shown = new Set(['alibi', 't5-bi', 't5-causal', 'shaw', 'dist-linear']);
    if (kind === 'distance') DISTANCE_FUNCTIONS.forEach((f) => shown.add(`dist-${f}`));
    let lastCur = null; // the current setting's family is switched on whenever it changes

    // --- switches, which are also the legend
    const checks = {};
    const swatches = {};
    const labels = {};
    const details = {};
    const group = (legendKey, families) => {
      const list = h('div', { class: 'bias-switch-list' });
      details[legendKey] = h('p', { class: 'bias-switch-detail' });
      const box = h('fieldset', { class: 'bias-switches' }, h('legend', { text: t(legendKey) }), list, details[legendKey]);
      for (const f of families) {
        const input = h('input', { type: 'checkbox', id: `${id}-${f}` });
        input.checked = shown.has(f);
        input.addEventListener('change', () => {
          if (input.checked) shown.add(f);
          else shown.delete(f);
          drawing.request();
        });
        swatches[f] = h('span', { class: 'bias-swatch', 'aria-hidden': 'true' });
        labels[f] = h('span');
        checks[f] = input;
        list.append(h('div', { class: 'bias-switch' }, input, h('label', { for: input.id }, swatches[f], labels[f])));
      }
      return box;
    };
    el.append(h('div', { class: 'bias-switch-row' },
      group('relative.dist.leftGroup', BIAS_FAMILIES), group('relative.dist.rightGroup', INDEX_FAMILIES)));

    const box = h('div', { class: 'lp-box' });
    const note = h('p', { class: 'help bias-note', role: 'status' });
    el.append(box, note);
    const table = new DataTable(el, { summary: t('table.summary') });

    const drawing = drawer(el, draw);
    withLinePlot((m) => {
      if (destroyed) return;
      mod = m;
      plot = new m.LinePlot(box, {
        t, xLabel: t('relative.dist.x'), yLabel: t('relative.dist.yLeft'), label: t('relative.dist.aria'),
        legend: false, // the switches above are the legend
      });
      plot.setAxis('y2', { title: t('relative.dist.yRight'), beginAtZero: true, precision: 0, format: (v) => formatInt(v) });
      if (state) drawing.request();
    });

    /** The parameters every scheme is drawn with: the current kind's, the others' defaults. */
    function params() {
      const { spec } = state;
      const d = (k) => (kind === k ? spec : pe.defaults(k));
      return { cur: currentFamily(kind, spec), heads: d('alibi').heads, t5: d('t5'), dist: d('distance'), k: d('shaw').max_relative_position };
    }

    /** Every curve for the current state: [{ family, label, values, axis, dash, width, alpha, color }]. */
    function curves() {
      const { spec } = state;
      const L = spec.length;
      const cur = currentFamily(kind, spec);
      const causal = isCausal(kind, spec);
      const d = (k) => (kind === k ? spec : pe.defaults(k));
      const out = [];
      const colorOf = (f) => mod.seriesColor(COLOR[f]);
      const style = (f) => (f === cur ? { width: 3, alpha: 1 } : { width: 1.6, alpha: 0.8 });

      // Every curve is the kernel's own profile (pe.relativeProfile, c/relative.c): the values
      // the table holds at each r, computed without the length² table.
      const mode = causal ? 'causal' : 'symmetric';
      const profile = (p) => {
        try {
          return pe.relativeProfile({ length: L, ...p });
        } catch {
          return null; // a combination the kernel refuses (e.g. T5 buckets one way at this max_distance)
        }
      };
      const heads = d('alibi').heads;
      const alibi = profile({ kind: 'alibi', heads, mode });
      const slopes = alibi.slopes;
      const W = 2 * L - 1;
      if (shown.has('alibi')) {
        const hs = spread(heads, MAX_HEAD_CURVES);
        for (const hd of hs) {
          const m = slopes[hd];
          const s = style('alibi');
          // Steep heads dark, gentle heads light: one hue for the family.
          const fade = hs.length > 1 ? 1 - (0.65 * hs.indexOf(hd)) / (hs.length - 1) : 1;
          out.push({
            family: 'alibi', axis: 'y', width: s.width, color: withAlpha(colorOf('alibi'), s.alpha * fade),
            label: t('relative.dist.alibiHead', hd, slopeLabel(m)),
            values: alibi.data.subarray(hd * W, (hd + 1) * W),
          });
        }
      }
      const dist = d('distance');
      for (const fn of DISTANCE_FUNCTIONS) {
        const f = `dist-${fn}`;
        if (!shown.has(f)) continue;
        const s = style(f);
        out.push({
          family: f, axis: 'y', width: s.width, color: withAlpha(colorOf(f), s.alpha),
          label: t('relative.dist.distLabel', fn),
          values: profile({ kind: 'distance', function: fn, strength: dist.strength, scale: dist.scale, mode }).data,
        });
      }
      const t5 = d('t5');
      for (const [f, bidi] of [['t5-bi', true], ['t5-causal', false]]) {
        if (!shown.has(f)) continue;
        const p = profile({ kind: 't5', num_buckets: t5.num_buckets, max_distance: t5.max_distance, bidirectional: bidi });
        if (!p) continue;
        const s = style(f);
        out.push({
          family: f, axis: 'y2', width: s.width, color: withAlpha(colorOf(f), s.alpha), dash: !bidi, stepped: true,
          label: t(bidi ? 'relative.dist.t5bi' : 'relative.dist.t5causal'),
          values: p.data,
        });
      }
      if (shown.has('shaw')) {
        const k = d('shaw').max_relative_position;
        const s = style('shaw');
        out.push({
          family: 'shaw', axis: 'y2', width: s.width, color: withAlpha(colorOf('shaw'), s.alpha), stepped: true,
          label: t('relative.dist.shawLabel', k), values: profile({ kind: 'shaw', max_relative_position: k }).data,
        });
      }
      // The current kind's curves first: Chart.js draws the first dataset on top.
      out.sort((a, b) => (b.family === cur) - (a.family === cur));
      return { out, L, cur, causal, heads, slopes, t5, dist, k: d('shaw').max_relative_position };
    }

    const slopeLabel = fraction;

    let switchesKey = '';
    function describeSwitches(p) {
      const key = JSON.stringify([p, [...shown], !!mod]);
      if (key === switchesKey) return; // same text: no DOM work
      switchesKey = key;
      const { cur, heads, t5, dist, k } = p;
      const text = { alibi: t('relative.dist.alibiSwitch', heads), 't5-bi': t('relative.dist.t5bi'), 't5-causal': t('relative.dist.t5causal'), shaw: t('relative.dist.shawSwitch') };
      for (const fn of DISTANCE_FUNCTIONS) text[`dist-${fn}`] = t('relative.dist.distLabel', fn);
      details['relative.dist.leftGroup'].textContent = t('relative.dist.leftDetail', formatValue(dist.strength), formatValue(dist.scale));
      details['relative.dist.rightGroup'].textContent = t('relative.dist.rightDetail', t5.num_buckets, t5.max_distance, k);
      for (const f of Object.keys(checks)) {
        labels[f].replaceChildren(text[f], f === cur ? h('span', { class: 'bias-badge', text: t('view.current') }) : '');
        labels[f].closest('.bias-switch').classList.toggle('is-current', f === cur);
        checks[f].checked = shown.has(f);
        const c = mod ? mod.seriesColor(COLOR[f]) : '';
        const sw = swatches[f].style;
        sw.borderTopColor = c;
        sw.borderTopStyle = f === 't5-causal' ? 'dashed' : 'solid';
      }
    }

    function draw() {
      if (!state || !mod || destroyed) return false;
      const cur = currentFamily(kind, state.spec);
      if (cur !== lastCur) {
        shown.add(cur);
        lastCur = cur;
      }
      const c = curves();
      describeSwitches(params());
      const { out, L, causal } = c;
      const hasLeft = out.some((s) => s.axis === 'y');
      const hasRight = out.some((s) => s.axis === 'y2');
      const maskOn = causal && hasLeft;
      plot.batch(() => { // one Chart.js update (~5 ms with a dozen curves) for data, styles and axes
        plot.setData({
          series: out.map((s) => ({
            label: s.label, values: s.values, dash: s.dash, color: s.color, width: s.width, axis: s.axis, stepped: s.stepped, points: 0,
          })),
          x0: -(L - 1),
        });
        plot.setAxis('y', { display: hasLeft });
        plot.setAxis('y2', { display: hasRight });
        plot.setOverlay(maskOn ? maskOverlay({
          label: t('relative.dist.masked'),
          fill: withAlpha(cssVar('--mask-b', '#f4f5f8'), 0.6),
          stroke: cssVar('--mask-a', '#dfe2e8'),
          text: cssVar('--muted', '#555'), // the axes' text colour
          plate: withAlpha(cssVar('--surface', '#ffffff'), 0.85),
        }) : {});
      });
      el.dataset.highlight = cur;
      el.dataset.series = String(out.length);

      const notes = [];
      if (kind === 'alibi' && c.heads > MAX_HEAD_CURVES) notes.push(t('relative.dist.someHeads', MAX_HEAD_CURVES, c.heads));
      if (maskOn) notes.push(t('relative.dist.maskNote'));
      // A linear distance bias is one ALiBi head of slope strength/scale: say so when they coincide.
      const slope = c.dist.strength / c.dist.scale;
      if (shown.has('alibi') && shown.has('dist-linear')) {
        const hd = spread(c.heads, MAX_HEAD_CURVES).find((x) => Math.abs(c.slopes[x] - slope) <= 1e-6 * slope);
        if (hd !== undefined) notes.push(t('relative.dist.sameLine', hd, slopeLabel(c.slopes[hd])));
      }
      if (shown.has('t5-causal') || shown.has('t5-bi')) notes.push(t('relative.dist.t5Note'));
      note.textContent = notes.join(' ');
      note.hidden = !notes.length;

      table.set(() => {
        const n = 2 * L - 1;
        const idx = [...new Set([...spread(n, 25), L - 1])].sort((a, b) => a - b);
        return {
          caption: t('relative.dist.tableCaption', L),
          columns: [t('relative.dist.x'), ...out.map((s) => s.label)],
          rows: idx.map((i) => [formatInt(i - (L - 1)), ...out.map((s) => formatValue(s.values[i]))]),
          note: idx.length < n ? t('table.sampledRows', idx.length, n) : '',
        };
      });
    }

    return {
      update(next) {
        state = next;
        box.classList.toggle('stale', !!next.stale);
        if (next.changed.has('theme') && plot) plot.applyTheme();
        if (next.changed.has('result') || next.changed.has('theme')) {
          // The switches' labels are text: kept right even while the chart waits to be seen.
          if (next.changed.has('result')) describeSwitches(params());
          drawing.request();
        }
      },
      destroy() {
        destroyed = true;
        drawing.destroy();
        plot?.destroy();
      },
    };
  },
};

// RoPE's relative property, computed rather than asserted: fixed random q and k (seeded) are
// rotated to every position with pe.applyRope, and q_m·k_n is plotted against m − n for several
// m; the curves coincide (the largest difference is printed). Below it, RoFormer's long-term
// decay (§3.4.3): for q = k = all ones the rotated score is Re Σ_k e^{iδθ_k}, and its bound
// (1/(d/2))·Σⱼ|Sⱼ(δ)|, Sⱼ = Σ_{k<j} e^{iδθ_k}, falls with the distance δ. It is drawn on a log
// scale of δ up to well past the training context, from the kernel's θ (scaled, and unscaled
// dashed when rope_scaling is set), since that is where base and scaling make a difference.
import { h, uid } from '../../plot/dom.js';
import { both } from '../../i18n/index.js';
import { formatInt, formatValue, float32String } from '../../plot/format.js';
import { DataTable, spread } from '../datatable.js';
import {
  ensureRopeStyles, ropeType, sameFreqAtLength, unscaled, gaussian, isAxialSpec,
  trainingContext, targetContext, formatLength,
} from './common.js';
import { drawer, makePlot } from '../common.js';

/** Values rotated at most per head: about 2^17 keeps an update near a millisecond. */
const BUDGET = 2 ** 17;
const CURVES = 4;
const MAX_SHIFT = 128;
/** Fewest positions that leave room for four query positions m and shifts around them. */
const MIN_POSITIONS = 9;
/** Samples per doubling of the distance in the decay plot (its x axis is log₂ δ × STEPS). */
const STEPS = 16;

/**
 * q_m·k_n for fixed random q, k (seeded) rotated by pe.applyRope, against δ = m − n for a few m.
 * Exported for the tests: { n, shift, ms, curves: [Float64Array(2·shift + 1)…] (δ = −shift…shift),
 * maxDev (largest difference from the first curve), maxAbs (largest |q·k|) }.
 */
export function relativeFacts(pe, spec, seed) {
  const dim = spec.dim;
  const cap = Math.max(8, Math.floor(BUDGET / dim) & ~1);
  const n = Math.min(spec.length, cap);
  const s = n < spec.length ? sameFreqAtLength(spec, n) : spec;
  // Two heads: every row of the first is q, of the second k.
  const q = gaussian(dim, seed);
  const k = gaussian(dim, seed + 7919);
  const x = new Float32Array(2 * n * dim);
  for (let p = 0; p < n; p++) {
    x.set(q, p * dim);
    x.set(k, (n + p) * dim);
  }
  const r = pe.applyRope(x, s, { heads: 2 }).data;
  const K = n * dim;
  const shift = Math.min(MAX_SHIFT, Math.floor((n - 1) / 4));
  const ms = [];
  for (let j = 0; j < CURVES; j++) ms.push(Math.round(shift + ((n - 1 - 2 * shift) * j) / (CURVES - 1)));
  const uniq = [...new Set(ms)];
  const curves = uniq.map((m) => {
    const c = new Float64Array(2 * shift + 1);
    for (let d = -shift; d <= shift; d++) {
      const a = m * dim;
      const b = K + (m - d) * dim;
      let acc = 0;
      for (let i = 0; i < dim; i++) acc += r[a + i] * r[b + i];
      c[d + shift] = acc;
    }
    return c;
  });
  let maxDev = 0;
  let maxAbs = 0;
  for (const c of curves) {
    for (let i = 0; i < c.length; i++) {
      maxDev = Math.max(maxDev, Math.abs(c[i] - curves[0][i]));
      maxAbs = Math.max(maxAbs, Math.abs(c[i]));
    }
  }
  return { n, shift, ms: uniq, curves, maxDev, maxAbs };
}

/** The distance δ of sample i of the decay plot. */
export const decayDistance = (i) => 2 ** (i / STEPS);

/**
 * RoFormer's bound (1/(d/2))·Σⱼ|Sⱼ(δ)| ÷ its value at δ = 0, (d/2 + 1)/2, for δ = 2^(i/STEPS),
 * i = 0 … STEPS·log₂(maxDistance), in float64 from inv_freq. Exported for the tests.
 */
export function decayBound(invFreq, maxDistance) {
  const pairs = invFreq.length;
  const count = Math.floor(STEPS * Math.log2(maxDistance)) + 1;
  const out = new Float64Array(count);
  const b0 = (pairs + 1) / 2;
  for (let i = 0; i < count; i++) {
    const d = decayDistance(i);
    let re = 0;
    let im = 0;
    let sum = 0;
    for (let j = 0; j < pairs; j++) {
      const a = d * invFreq[j];
      re += Math.cos(a);
      im += Math.sin(a);
      sum += Math.hypot(re, im);
    }
    out[i] = sum / pairs / b0;
  }
  return out;
}

export default {
  id: 'rope-relative',
  kinds: ['rope'],
  title: both('rope.rel.title'),
  explain: both('rope.rel.explain'),

  mount(el, ctx) {
    ensureRopeStyles();
    const { t, pe } = ctx;
    const id = uid('rrel');
    let state = null;
    let seed = 1;
    let plots = null;

    const again = h('button', { type: 'button', class: 'button', id: `${id}-seed`, text: t('rope.rel.reseed') });
    again.addEventListener('click', () => {
      seed += 1;
      screen.request();
    });
    const axialNote = h('p', { class: 'field-note' });
    axialNote.hidden = true;
    const relHead = h('h4', { class: 'rope-subhead', text: t('rope.rel.sameTitle') });
    const relNum = h('p', { class: 'rope-summary', 'aria-live': 'polite' });
    const relBox = h('div', { class: 'lp-box' });
    const relPart = h('div', {}, relHead, relNum, h('div', { class: 'view-toolbar' }, again), relBox);
    const decayNum = h('p', { class: 'rope-summary' });
    const decayBox = h('div', { class: 'lp-box' });
    const decayPart = h('div', {},
      h('h4', { class: 'rope-subhead', text: t('rope.rel.decayTitle') }),
      h('p', { class: 'help', text: t('rope.rel.decayExplain') }), decayNum, decayBox);
    el.append(axialNote, relPart, decayPart);
    const relTable = new DataTable(relPart, { summary: t('table.summary') });
    const decayTable = new DataTable(decayPart, { summary: t('table.summary') });
    const screen = drawer(el, draw);
    const plotReady = Promise.all([
      makePlot(relBox, { t, xLabel: t('rope.rel.x'), yLabel: t('rope.rel.y'), label: t('rope.rel.aria') }),
      makePlot(decayBox, { t, xLabel: t('rope.rel.decayX'), yLabel: t('rope.rel.decayY'), label: t('rope.rel.decayAria') }),
    ]).then(([rel, decay]) => {
      // The decay plot's x is the sample index: ticks on the powers of two, read-outs in δ.
      decay.setAxis('x', { step: STEPS, format: (v) => (v % STEPS === 0 ? formatLength(decayDistance(v)) : '') });
      decay.setTooltip({ title: (x) => `δ = ${formatLength(Math.round(decayDistance(x)))}` });
      plots = { rel, decay };
      if (state) screen.request();
    });

    // The bounds depend on the frequencies and the range only: many changes (length, layout,
    // the relative curves' seed) leave them as they were.
    const bounds = {};
    function cachedBound(slot, invFreq, far) {
      const key = `${far}:${invFreq.join(',')}`;
      if (bounds[slot]?.key !== key) bounds[slot] = { key, value: decayBound(invFreq, far) };
      return bounds[slot].value;
    }

    function draw() {
      if (!state) return false;
      const { spec, result, shared } = state;
      const axial = isAxialSpec(spec);
      const short = !axial && spec.length < MIN_POSITIONS;
      axialNote.hidden = !axial && !short;
      relPart.hidden = axial || short;
      axialNote.textContent = axial ? t('rope.rel.axial') : short ? t('rope.rel.short', MIN_POSITIONS) : '';
      const scaled = ropeType(spec) !== 'default';

      // The relative property (1-D RoPE only).
      let f = null;
      if (!relPart.hidden) {
        f = relativeFacts(pe, spec, seed);
        const rel = f.maxAbs ? f.maxDev / f.maxAbs : 0;
        relNum.replaceChildren(
          h('span', { class: 'num-line', text: t('rope.rel.dev', formatValue(f.maxDev), formatValue(rel), f.ms.map(formatInt).join(', ')) }),
          h('span', { class: 'num-line help', text: t('rope.rel.positions', { n: formatInt(f.n), length: formatInt(spec.length), partial: f.n < spec.length }) }));
      }

      // The decay, out to a few times the training context (or the target context).
      const train = trainingContext(spec, shared).value;
      const target = targetContext(spec, train);
      const far = 2 ** Math.ceil(Math.log2(Math.max(spec.length, 4 * train, target ?? 0, 16)));
      const bound = cachedBound('scaled', result.inv_freq, far);
      const plain = scaled ? cachedBound('plain', pe.compute({ ...unscaled(spec), length: 1 }).inv_freq, far) : null;
      const at = (b, d) => b[Math.min(b.length - 1, Math.round(STEPS * Math.log2(d)))];
      decayNum.textContent = t('rope.rel.decayAt', {
        train: formatLength(train), atTrain: formatValue(at(bound, train)),
        target: target ? formatLength(target) : null, atTarget: target ? formatValue(at(bound, target)) : null,
        plain: plain ? formatValue(at(plain, target ?? train)) : null,
      });

      if (plots) {
        if (f) {
          plots.rel.setData({
            x0: -f.shift,
            series: f.curves.map((c, j) => ({ label: t('rope.rel.series', formatInt(f.ms[j])), values: Float32Array.from(c), dash: j > 0 })),
          });
        }
        const series = [{ label: t('rope.rel.boundSeries'), values: Float32Array.from(bound) }];
        if (plain) series.push({ label: t('rope.rel.boundPlain'), values: Float32Array.from(plain), dash: true });
        plots.decay.setData({ series, x0: 0 });
      }
      if (f) {
        relTable.set(() => {
          const idx = spread(f.curves[0].length, 25);
          return {
            caption: t('rope.rel.caption'),
            columns: [t('rope.rel.x'), ...f.ms.map((m) => t('rope.rel.series', formatInt(m)))],
            rows: idx.map((i) => [formatInt(i - f.shift), ...f.curves.map((c) => float32String(c[i]))]),
            note: idx.length < f.curves[0].length ? t('table.sampledRows', idx.length, f.curves[0].length) : '',
          };
        });
      }
      decayTable.set(() => {
        const idx = Array.from({ length: Math.floor((bound.length - 1) / (STEPS / 2)) + 1 }, (_, j) => j * (STEPS / 2));
        return {
          caption: t('rope.rel.decayCaption'),
          columns: [t('rope.rel.decayX'), t('rope.rel.boundSeries'), ...(plain ? [t('rope.rel.boundPlain')] : [])],
          rows: idx.map((i) => [formatLength(Math.round(decayDistance(i))), formatValue(bound[i]), ...(plain ? [formatValue(plain[i])] : [])]),
        };
      });
      return !!plots;
    }

    return {
      update(next) {
        state = next;
        el.classList.toggle('stale', !!next.stale);
        if (next.changed.has('theme') && plots) for (const p of Object.values(plots)) p.applyTheme();
        if (next.changed.has('result') || next.changed.has('shared:ropeContext')) screen.request();
      },
      destroy() {
        screen.destroy();
        plotReady.then(() => {
          if (plots) for (const p of Object.values(plots)) p.destroy();
        });
      },
    };
  },
};

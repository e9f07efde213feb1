// The steps of the Learn path, in order. Each step is one idea with one live figure (the
// explorer's heatmap or line plot, or the word-order demo), one or two controls, and a sentence
// derived from the numbers on screen. A step's mount(env) builds into env.figure and
// env.controls, writes env.derived, and calls env.explore(kind, spec) with what "open this in
// the explorer" should show. env: { pe, t, lang, figure, controls, derived, explore }.
// Strings: ./strings.js (learn.<step>.*); claim checks: ./claims.js. The numbers of a derived
// sentence that mark a place in the figure are buttons (./linked.js; which place: ./steps-marks.js),
// and a heatmap step passes its view to the explorer through fig.explore (it adds the colour scale).
import { formatInt } from '../../plot/format.js';
import { mountWordOrder } from '../../views/attention/word-order.js';
import { demoHeads } from '../../views/attention/order.js';
import { fraction } from '../../views/common.js';
import { heatFigure, lineFigure, slider, choice, markDrawn } from './figures.js';
import { mountRotor } from './rotor.js';
import { writeLinked } from './linked.js';
import { MARKS } from './steps-marks.js';
import { finetuneLink, magnitudesLink, vitLink } from './steps-links.js';
import { withClaims } from './claims.js';
import './claims-strings.js';
import { dot, fx, row, sci } from './step-math.js';
import { learned } from './steps-learned.js';


// -------------------------------------------------------------------------------------------
// 1. Why order is lost: the word-order demo

const order = {
  id: 'order',
  mount({ pe, t, figure, derived, explore }) {
    derived.hidden = true;   // the demo says its own verdict, derived from its numbers
    const demo = mountWordOrder(figure, {
      pe, t, a: 'I love AI', b: 'AI love I', encoding: null, causal: false,
      onChange: (s) => {
        // The explorer gets the heads the demo computed (ALiBi: its standard 8, the demo shows the steepest).
        // The first sentence as the spec, the second as the compare view's B; the head shown.
        const shown = demoHeads(s.encoding);
        explore('attention', { length: s.a.length, content: 'tokens', tokens: s.a.join(' '), encoding: s.encoding, causal: s.causal, dim: 64, heads: shown.heads },
          { compare: { tokens: s.b.join(' ') }, ...(shown.head ? { head: shown.head } : {}) });
        markDrawn(figure);
      },
    });
    return { destroy: () => demo.destroy() };
  },
};

// -------------------------------------------------------------------------------------------
// 2. Sinusoids and wavelengths

const sinusoids = {
  id: 'sinusoids',
  mount({ pe, t, lang, figure, controls, derived, explore }) {
    const fig = heatFigure(figure, { pe, t, explore }, { x: t('learn.axis.dimension'), y: t('learn.axis.position'), value: t('learn.axis.value') }, t('learn.sinusoids.title'));
    const base = slider(t('learn.control.base'), { min: 100, max: 100000, value: 10000, log: true, format: (v) => formatInt(v), onInput: draw });
    const dim = slider(t('learn.control.dim'), { min: 8, max: 128, step: 8, value: 64, format: formatInt, onInput: draw });
    base.input.dataset.learnControl = '';
    controls.append(base.el, dim.el);
    const L = 128;
    function draw() {
      const spec = { kind: 'sinusoidal', length: L, dim: dim.get(), base: base.get() };
      const r = pe.compute(spec);
      fig.set({ data: r.data, rows: L, cols: spec.dim, colormap: 'diverging', kind: spec.kind });
      const d = spec.dim;
      const last = d / 2 - 1;
      const wl = (i) => 2 * Math.PI * spec.base ** ((2 * i) / d);
      // Pairs whose wavelength is longer than the table: they hardly change over it.
      let slow = 0;
      for (let i = 0; i < d / 2; i++) if (wl(i) > 4 * L) slow++;
      writeLinked(derived, t, 'learn.sinusoids.derived', {
        first: fx(wl(0)), lastIndex: last, lastCols: `${2 * last}, ${2 * last + 1}`, last: fx(wl(last)), L, slow, pairs: d / 2,
      }, MARKS.sinusoids(fig, { d, L, slow, firstWavelength: wl(0) }));
      fig.explore('sinusoidal', spec);
    }
    draw();
    magnitudesLink({ t, lang, derived });
    return { destroy: () => fig.destroy() };
  },
};

// -------------------------------------------------------------------------------------------
// 3. Uniqueness and PE(p + k) = M_k · PE(p)

/** M_k·v for an interleaved sinusoidal row v: each (sin, cos) pair rotated by k·ω_i. */
function shiftRow(v, k, dim, base) {
  const out = new Float64Array(v.length);
  for (let i = 0; 2 * i + 1 < dim; i++) {
    const w = base ** ((-2 * i) / dim);
    const c = Math.cos(k * w);
    const s = Math.sin(k * w);
    out[2 * i] = v[2 * i] * c + v[2 * i + 1] * s;        // sin(a + b) = sin a cos b + cos a sin b
    out[2 * i + 1] = v[2 * i + 1] * c - v[2 * i] * s;    // cos(a + b) = cos a cos b − sin a sin b
  }
  return out;
}

const shift = {
  id: 'shift',
  mount({ pe, t, figure, controls, derived, explore }) {
    const dim = 32;
    const base = 10000;
    const L = 256;
    const fig = lineFigure(figure, { t }, { x: t('learn.axis.dimension'), y: t('learn.axis.value') }, t('learn.shift.title'));
    const k = slider(t('learn.control.k'), { min: 0, max: 64, value: 5, format: formatInt, onInput: draw });
    const p = slider(t('learn.control.p'), { min: 0, max: 128, value: 20, format: formatInt, onInput: draw });
    k.input.dataset.learnControl = '';
    controls.append(k.el, p.el);
    const spec = { kind: 'sinusoidal', length: L, dim, base };
    const r = pe.compute(spec);
    function draw() {
      const pp = p.get();
      const kk = k.get();
      const a = row(r, pp);
      const target = row(r, pp + kk);
      const moved = shiftRow(a, kk, dim, base);
      let err = 0;
      let errAt = 0;   // the dimension of the largest gap
      for (let c = 0; c < dim; c++) if (Math.abs(moved[c] - target[c]) > err) [err, errAt] = [Math.abs(moved[c] - target[c]), c];
      // Uniqueness: the closest other row of the table to PE(p).
      let best = { q: -1, d: Infinity };
      for (let q = 0; q < L; q++) {
        if (q === pp) continue;
        const b = row(r, q);
        let d2 = 0;
        for (let c = 0; c < dim; c++) d2 += (a[c] - b[c]) ** 2;
        if (d2 < best.d) best = { q, d: d2 };
      }
      // The dashed M_k·PE(p) first: Chart.js draws the first series on top.
      fig.set([
        { label: t('learn.shift.series.moved', kk, pp), values: moved, dash: true },
        { label: t('learn.shift.series.target', pp + kk), values: target },
        { label: t('learn.shift.series.p', pp), values: a },
      ]);
      writeLinked(derived, t, 'learn.shift.derived', { p: pp, k: kk, err: sci(err), q: best.q, dist: fx(Math.sqrt(best.d), 3), L }, MARKS.shift(fig, { errAt, value: target[errAt] }));
      explore('sinusoidal', spec);
    }
    draw();
    return { destroy: () => fig.destroy() };
  },
};

// -------------------------------------------------------------------------------------------
// 4. Dot product against distance

const dotStep = {
  id: 'dot',
  mount({ pe, t, figure, controls, derived, explore }) {
    const K = 100;
    const refs = [0, 40, 90];
    const fig = lineFigure(figure, { t }, { x: t('learn.axis.distance'), y: t('learn.axis.dot') }, t('learn.dot.title'));
    const dim = slider(t('learn.control.dim'), { min: 8, max: 128, step: 8, value: 64, format: formatInt, onInput: draw });
    const base = slider(t('learn.control.base'), { min: 100, max: 100000, value: 10000, log: true, format: (v) => formatInt(v), onInput: draw });
    dim.input.dataset.learnControl = '';
    controls.append(dim.el, base.el);
    function draw() {
      const spec = { kind: 'sinusoidal', length: refs[refs.length - 1] + K + 1, dim: dim.get(), base: base.get() };
      const r = pe.compute(spec);
      const curves = refs.map((p0) => {
        const a = row(r, p0);
        return Float64Array.from({ length: K + 1 }, (_, k) => dot(a, row(r, p0 + k)));
      });
      let spread = 0;
      for (const c of curves) for (let k = 0; k <= K; k++) spread = Math.max(spread, Math.abs(c[k] - curves[0][k]));
      const c0 = curves[0];
      // Where it first falls below half its start, and the highest it climbs again after that.
      let kdrop = 1;
      while (kdrop < K && c0[kdrop] >= c0[0] / 2) kdrop++;
      let kback = Math.min(kdrop + 1, K);
      for (let k = kdrop + 1; k <= K; k++) if (c0[k] > c0[kback]) kback = k;
      fig.set(refs.map((p0, i) => ({ label: t('learn.dot.series', p0), values: curves[i], dash: i > 0 })));
      const args = {
        spread: sci(spread), top: fx(c0[0]), kdrop, drop: fx(c0[kdrop]), kback, back: fx(c0[kback]),
        dist: fx(Math.sqrt(Math.max(0, 2 * c0[0] - 2 * c0[kdrop]))), K,
      };
      const key = kdrop >= K ? 'learn.dot.derivedSlow' : c0[kback] > c0[kdrop] + 0.05 * c0[0] ? 'learn.dot.derived' : 'learn.dot.derivedSteady';
      writeLinked(derived, t, key, args, MARKS.dot(fig, { kdrop, drop: c0[kdrop], kback, back: c0[kback], top: c0[0] }));
      explore('sinusoidal', spec);
    }
    draw();
    return { destroy: () => fig.destroy() };
  },
};

// 5. Learned tables: ./steps-learned.js

// -------------------------------------------------------------------------------------------
// 6. Integer and binary positions, and why they fail

const naive = {
  id: 'naive',
  mount({ pe, t, figure, controls, derived, explore }) {
    const D = 16;
    // Sizes, not colours: how long each position's vector is, against a word vector (entries
    // around ±1, so length √d), and how far each position is from the one before it.
    const fig = lineFigure(figure, { t }, { x: t('learn.axis.position'), y: t('learn.axis.length') }, t('learn.naive.title'));
    const scheme = choice(t('learn.control.scheme'), [
      { value: 'integer', label: t('learn.naive.integer') },
      { value: 'normalized', label: t('learn.naive.normalized') },
      { value: 'binary', label: t('learn.naive.binary') },
    ], 'integer', draw);
    const length = slider(t('learn.control.length'), { min: 8, max: 512, value: 64, format: formatInt, onInput: draw });
    scheme.input.dataset.learnControl = '';
    controls.append(scheme.el, length.el);
    function draw() {
      const L = length.get();
      const kind = scheme.get() === 'binary' ? 'binary' : 'integer';
      const spec = kind === 'binary' ? { kind, length: L, dim: D } : { kind, length: L, dim: D, normalize: scheme.get() === 'normalized' };
      const r = pe.compute(spec);
      const size = new Float64Array(L);
      const step = new Float64Array(L);
      for (let p = 0; p < L; p++) {
        let a = 0;
        let b = 0;
        for (let c = 0; c < D; c++) {
          const v = r.data[p * D + c];
          a += v * v;
          if (p > 0) b += (v - r.data[(p - 1) * D + c]) ** 2;
        }
        size[p] = Math.sqrt(a);
        step[p] = p > 0 ? Math.sqrt(b) : NaN;
      }
      fig.set([
        { label: t('learn.naive.series.size'), values: size },
        { label: t('learn.naive.series.step'), values: step },   // NaN at p = 0: a gap
        { label: t('learn.naive.series.word', D), values: new Float64Array(L).fill(Math.sqrt(D)), dash: true },
      ]);
      if (kind === 'binary') {
        let worst = { p: 0, flips: 0 };
        for (let p = 0; p + 1 < L; p++) {
          let flips = 0;
          for (let c = 0; c < D; c++) flips += r.data[p * D + c] !== r.data[(p + 1) * D + c] ? 1 : 0;
          if (flips > worst.flips) worst = { p, flips };
        }
        writeLinked(derived, t, 'learn.naive.derived.binary', { p: worst.p, q: worst.p + 1, flips: worst.flips, L }, MARKS.naive(fig, 'binary', { p: worst.p, step }));
      } else if (spec.normalize) {
        writeLinked(derived, t, 'learn.naive.derived.normalized', { step: sci(1 / (L - 1)), L, p10: fx(10 / (L - 1), 4) }, MARKS.naive(fig, 'normalized', { L }));
      } else {
        writeLinked(derived, t, 'learn.naive.derived.integer', { max: L - 1, norm: fx(Math.sqrt(D) * (L - 1), 0), D, word: fx(Math.sqrt(D)) }, MARKS.naive(fig, 'integer', { L, size, D }));
      }
      explore(kind, spec);
    }
    draw();
    return { destroy: () => fig.destroy() };
  },
};

// -------------------------------------------------------------------------------------------
// 7. Relative biases: Shaw, T5, ALiBi

const relative = {
  id: 'relative',
  mount({ pe, t, figure, controls, derived, explore }) {
    const L = 48;
    const fig = heatFigure(figure, { pe, t, explore }, { x: t('learn.axis.key'), y: t('learn.axis.query'), value: t('learn.axis.bias') }, t('learn.relative.title'));
    const scheme = choice(t('learn.control.scheme'), [
      { value: 'shaw', label: 'Shaw (2018)' },
      { value: 't5', label: 'T5 (2019)' },
      { value: 'alibi', label: 'ALiBi (2021)' },
    ], 'alibi', () => {
      param.set(PARAM[scheme.get()].value);
      param.input.min = PARAM[scheme.get()].min;
      param.input.max = PARAM[scheme.get()].max;
      param.set(PARAM[scheme.get()].value);
      label.textContent = t(`learn.relative.param.${scheme.get()}`);
      draw();
    });
    const PARAM = { shaw: { min: 1, max: 24, value: 4 }, t5: { min: 4, max: 32, value: 16 }, alibi: { min: 0, max: 7, value: 0 } };
    const param = slider(t('learn.relative.param.alibi'), { min: 0, max: 7, value: 0, format: formatInt, onInput: draw });
    const label = param.el.querySelector('label');
    scheme.input.dataset.learnControl = '';
    controls.append(scheme.el, param.el);
    function draw() {
      const s = scheme.get();
      const v = param.get();
      let spec;
      if (s === 'shaw') spec = { kind: 'shaw', length: L, max_relative_position: v };
      else if (s === 't5') spec = { kind: 't5', length: L, num_buckets: v, max_distance: 32, bidirectional: true };
      else spec = { kind: 'alibi', length: L, heads: 8, mode: 'causal' };
      const r = pe.compute(spec);
      const plane = s === 'alibi' ? r.data.subarray(v * L * L, (v + 1) * L * L) : r.data;
      const axes = { x: t('learn.axis.key'), y: t('learn.axis.query'), value: t(s === 'alibi' ? 'learn.axis.bias' : s === 't5' ? 'learn.axis.bucket' : 'learn.axis.index') };
      // ALiBi: one colour scale for every head (the steepest head's range), so flatter heads look flatter.
      const range = s === 'alibi' ? [-(L - 1) * r.slopes[0], 0] : null;
      fig.set({ data: plane, rows: L, cols: L, axes, range, colormap: s === 'alibi' ? 'viridis' : 'cividis', kind: spec.kind });
      if (s === 'alibi') {
        const m = r.slopes[v];
        // Which heads are steepest and flattest, read from the slopes (not assumed from their order).
        const sl = Array.from(r.slopes);
        const hi = sl.indexOf(Math.max(...sl));
        const lo = sl.indexOf(Math.min(...sl));
        writeLinked(derived, t, 'learn.relative.derived.alibi', { head: v, m: fraction(m), at10: fx(10 * m, 3), steep: fraction(sl[hi]), flat: fraction(sl[lo]), hi, lo }, MARKS.relative(fig, s, { L }));
      } else {
        // Distinct values in the last query row (every key distance 0 … L − 1 behind it).
        const last = r.data.subarray((L - 1) * L, L * L);
        const distinct = new Set(last).size;
        // The farthest distance that still has a value of its own.
        let own = 0;
        for (let d = 1; d < L; d++) if (last[L - 1 - d] !== last[L - d]) own = d;
        writeLinked(derived, t, `learn.relative.derived.${s}`, { k: v, distinct, own, L }, MARKS.relative(fig, s, { L, own, k: v }));
      }
      fig.explore(spec.kind, spec, s === 'alibi' ? { head: v } : { colormap: 'cividis' });
    }
    draw();
    return { destroy: () => fig.destroy() };
  },
};

// -------------------------------------------------------------------------------------------
// 8. RoPE: a rotation, and scores that depend only on m − n

const rope = {
  id: 'rope',
  mount({ pe, t, figure, controls, derived, explore }) {
    const L = 48;
    const D = 32;
    const fig = heatFigure(figure, { pe, t, explore }, { x: t('learn.axis.keyPos'), y: t('learn.axis.queryPos'), value: t('learn.axis.score') }, t('learn.rope.title'));
    const base = slider(t('learn.control.base'), { min: 10, max: 100000, value: 10000, log: true, format: (v) => formatInt(v), onInput: draw });
    base.input.dataset.learnControl = '';
    controls.append(base.el);
    // One fixed query vector and one key vector (seeded Gaussians), the same at every position.
    const q = pe.compute({ kind: 'learned', length: 1, dim: D, std: 1, seed: 11 }).data;
    // The query's pairs turning as the position moves: the fastest, one in the middle, the slowest.
    const rotor = mountRotor(figure, { t, pairs: [0, D / 4, D / 2 - 1] });
    const k = pe.compute({ kind: 'learned', length: 1, dim: D, std: 1, seed: 12 }).data;
    const tile = (v) => {
      const out = new Float32Array(L * D);
      for (let p = 0; p < L; p++) out.set(v, p * D);
      return out;
    };
    function draw() {
      const spec = { kind: 'rope', length: L, dim: D, base: base.get() };
      const rq = pe.applyRope(tile(q), spec).data;
      const rk = pe.applyRope(tile(k), spec).data;
      const scores = new Float32Array(L * L);
      for (let m = 0; m < L; m++) {
        for (let n = 0; n < L; n++) {
          let s = 0;
          for (let c = 0; c < D; c++) s += rq[m * D + c] * rk[n * D + c];
          scores[m * L + n] = s;
        }
      }
      // Along every diagonal (one m − n), the largest departure from its first entry.
      // (Where: the diagonal m − n of the largest departure, and the cell of the largest score.)
      let [dev, worst, scale, top] = [0, 0, 0, [0, 0]];
      for (let m = 0; m < L; m++) {
        for (let n = 0; n < L; n++) {
          const m0 = m - Math.min(m, n);
          const n0 = n - Math.min(m, n);
          const gap = Math.abs(scores[m * L + n] - scores[m0 * L + n0]);
          if (gap > dev) [dev, worst] = [gap, m - n];
          if (Math.abs(scores[m * L + n]) > scale) [scale, top] = [Math.abs(scores[m * L + n]), [m, n]];
        }
      }
      const m = Math.max(...scores.map(Math.abs));
      fig.set({ data: scores, rows: L, cols: L, colormap: 'diverging', range: [-m, m], kind: spec.kind });
      rotor.set(rq, L, D);
      const theta0 = 1;
      const thetaLast = spec.base ** (-(D - 2) / D);
      writeLinked(derived, t, 'learn.rope.derived', { dev: sci(dev), scale: fx(scale), first: fx(theta0, 3), last: sci(thetaLast), turn: fx((2 * Math.PI) / thetaLast, 0), pairs: D / 2 },
        MARKS.rope(fig, rotor, t, { worst, top, D }));
      fig.explore('rope', spec);
    }
    draw();
    return {
      destroy: () => {
        rotor.destroy();
        fig.destroy();
      },
    };
  },
};

// -------------------------------------------------------------------------------------------
// 9. Long-range decay

const decay = {
  id: 'decay',
  mount({ pe, t, figure, controls, derived, explore }) {
    const N = 2048;
    const fig = lineFigure(figure, { t }, { x: t('learn.axis.delta'), y: t('learn.axis.meanCos') }, t('learn.decay.title'));
    const base = slider(t('learn.control.base'), { min: 10, max: 1000000, value: 10000, log: true, format: (v) => formatInt(v), onInput: draw });
    const dim = slider(t('learn.control.dim'), { min: 16, max: 256, step: 16, value: 128, format: formatInt, onInput: draw });
    base.input.dataset.learnControl = '';
    controls.append(base.el, dim.el);
    const curve = (invFreq) => {
      const out = new Float64Array(N + 1);
      for (let d = 0; d <= N; d++) {
        let s = 0;
        for (const w of invFreq) s += Math.cos(d * w);
        out[d] = s / invFreq.length;
      }
      return out;
    };
    function draw() {
      const spec = { kind: 'rope', length: 16, dim: dim.get(), base: base.get() };
      const now = curve(pe.compute(spec).inv_freq);
      const ref = curve(pe.compute({ ...spec, base: 10000 }).inv_freq);
      // Where the score of q = k first falls below half, and how high it comes back beyond that.
      let half = 1;
      while (half < N && now[half] >= 0.5) half++;
      let back = -Infinity;
      let kback = half;
      for (let d = half + 1; d <= N; d++) if (now[d] > back) [back, kback] = [now[d], d];
      const series = [{ label: t('learn.decay.series', formatInt(spec.base)), values: now }];
      if (spec.base !== 10000) series.push({ label: t('learn.decay.series', formatInt(10000)), values: ref, dash: true });
      fig.set(series);
      writeLinked(derived, t, half < N ? (back >= 0.5 ? 'learn.decay.derivedBack' : 'learn.decay.derived') : 'learn.decay.derivedNever',
        { half, back: fx(back, 2), kback, N, base: formatInt(spec.base) }, half < N ? MARKS.decay(fig, { half, kback, back }) : {});
      explore('rope', { ...spec, length: 256 });
    }
    draw();
    return { destroy: () => fig.destroy() };
  },
};

// -------------------------------------------------------------------------------------------
// 10. Scaling for long context: PI, NTK, YaRN, Llama 3 (LongRoPE described)

const scaling = {
  id: 'scaling',
  mount({ pe, t, lang, figure, controls, derived, explore }) {
    const D = 128;
    const ORIGINAL = 4096;
    const fig = lineFigure(figure, { t }, { x: t('learn.axis.pair'), y: t('learn.axis.stretch') }, t('learn.scaling.title'));
    const factor = slider(t('learn.control.factor'), { min: 1, max: 32, value: 8, format: (v) => `${formatInt(v)}×`, onInput: draw });
    const method = choice(t('learn.control.method'), [
      { value: 'linear', label: t('learn.scaling.linear') },
      { value: 'ntk', label: t('learn.scaling.ntk') },
      { value: 'yarn', label: 'YaRN' },
      { value: 'llama3', label: 'Llama 3' },
    ], 'yarn', draw);
    factor.input.dataset.learnControl = '';
    controls.append(factor.el, method.el);
    const plain = pe.compute({ kind: 'rope', length: 16, dim: D, base: 10000 }).inv_freq;
    const scalingOf = (type, f) => {
      if (type === 'linear' || type === 'ntk') return { rope_type: type, factor: f };
      if (type === 'yarn') return { rope_type: 'yarn', factor: f, original_max_position_embeddings: ORIGINAL };
      return { rope_type: 'llama3', factor: f, original_max_position_embeddings: ORIGINAL, low_freq_factor: 1, high_freq_factor: 4 };
    };
    function draw() {
      const f = factor.get();
      const types = ['linear', 'ntk', 'yarn', 'llama3'];
      const names = { linear: t('learn.scaling.linear'), ntk: t('learn.scaling.ntk'), yarn: 'YaRN', llama3: 'Llama 3' };
      const stretch = {};
      for (const type of types) {
        const s = pe.compute({ kind: 'rope', length: 16, dim: D, base: 10000, rope_scaling: f > 1 ? scalingOf(type, f) : null }).inv_freq;
        stretch[type] = Float64Array.from(plain, (w, i) => w / s[i]);
      }
      const chosen = method.get();
      // The chosen method first (solid, highlighted), the others dashed.
      const order = [chosen, ...types.filter((x) => x !== chosen)];
      fig.set(order.map((type, i) => ({ label: names[type], values: stretch[type], dash: i > 0 })));
      const s = stretch[chosen];
      let kept = 0;
      let full = 0;
      for (const v of s) {
        if (v < 1.01) kept++;
        if (v > f * 0.99) full++;
      }
      writeLinked(derived, t, f > 1 ? 'learn.scaling.derived' : 'learn.scaling.derivedOne',
        { name: names[chosen], kept, full, pairs: D / 2, f, first: fx(s[0], 2), last: fx(s[s.length - 1], 2), context: formatInt(ORIGINAL * f) }, f > 1 ? MARKS.scaling(fig, { stretch: s, f }) : {});
      explore('rope', { kind: 'rope', length: 256, dim: D, base: 10000, rope_scaling: f > 1 ? scalingOf(chosen, f) : null });
    }
    draw();
    finetuneLink({ t, lang, derived });
    return { destroy: () => fig.destroy() };
  },
};

// -------------------------------------------------------------------------------------------
// 11. 2-D patches

const patches = {
  id: 'patches',
  mount({ pe, t, lang, figure, controls, derived, explore }) {
    const H = 14;
    const W = 14;
    const D = 64;
    const fig = heatFigure(figure, { pe, t, explore }, { x: t('learn.axis.col'), y: t('learn.axis.row'), value: t('learn.axis.cos') }, t('learn.patches.title'));
    const rowS = slider(t('learn.control.patchRow'), { min: 0, max: H - 1, value: 4, format: formatInt, onInput: draw });
    const colS = slider(t('learn.control.patchCol'), { min: 0, max: W - 1, value: 9, format: formatInt, onInput: draw });
    colS.input.dataset.learnControl = '';
    controls.append(rowS.el, colS.el);
    const spec = { kind: 'sinusoidal2d', height: H, width: W, dim: D, base: 10000, layout: 'mae' };
    const r = pe.compute(spec);
    const unit = Array.from({ length: H * W }, (_, k) => {
      const v = row(r, k);
      const n = Math.sqrt(dot(v, v));
      return v.map((x) => x / n);
    });
    function draw() {
      const k0 = rowS.get() * W + colS.get();
      const sims = new Float32Array(H * W);
      let best = { k: -1, s: -Infinity };
      let sameRow = -Infinity;
      let diag = -Infinity;
      for (let k = 0; k < H * W; k++) {
        sims[k] = dot(unit[k0], unit[k]);
        if (k !== k0 && sims[k] > best.s) best = { k, s: sims[k] };
      }
      const rr = rowS.get();
      const cc = colS.get();
      // A step along the row against a diagonal step: the two axes add up.
      if (cc + 1 < W) sameRow = sims[rr * W + cc + 1];
      else sameRow = sims[rr * W + cc - 1];
      const dr = rr + 1 < H ? 1 : -1;
      const dc = cc + 1 < W ? 1 : -1;
      diag = sims[(rr + dr) * W + cc + dc];
      fig.set({ data: sims, rows: H, cols: W, colormap: 'viridis', kind: spec.kind });   // the most similar patches brightest
      const [br, bc] = [Math.floor(best.k / W), best.k % W];
      writeLinked(derived, t, 'learn.patches.derived', { r: rr, c: cc, br, bc, best: fx(best.s, 3), side: fx(sameRow, 3), diag: fx(diag, 3) },
        MARKS.patches(fig, { r: rr, c: cc, br, bc, side: [rr, cc + 1 < W ? cc + 1 : cc - 1], diag: [rr + dr, cc + dc] }));
      fig.explore('sinusoidal2d', spec, { visionPatch: [rr, cc] });
    }
    draw();
    vitLink({ t, lang, derived });
    return { destroy: () => fig.destroy() };
  },
};

// -------------------------------------------------------------------------------------------
// 12. M-RoPE: text, an image, text

const mrope = {
  id: 'mrope',
  mount({ pe, t, figure, controls, derived, explore }) {
    const fig = lineFigure(figure, { t }, { x: t('learn.axis.token'), y: t('learn.axis.posId') }, t('learn.mrope.title'));
    const hS = slider(t('learn.control.imgH'), { min: 2, max: 16, step: 2, value: 6, format: formatInt, onInput: draw });
    const wS = slider(t('learn.control.imgW'), { min: 2, max: 16, step: 2, value: 8, format: formatInt, onInput: draw });
    wS.input.dataset.learnControl = '';
    controls.append(hS.el, wS.el);
    const before = 5;
    const after = 4;
    function draw() {
      const spec = { kind: 'mrope', segments: [{ type: 'text', length: before }, { type: 'image', t: 1, h: hS.get(), w: wS.get() }, { type: 'text', length: after }] };
      const r = pe.compute(spec);
      const N = r.shape[1];
      const axis = (a) => Float64Array.from(r.data.subarray(a * N, (a + 1) * N));
      fig.set([
        { label: t('learn.mrope.t'), values: axis(0) },
        { label: t('learn.mrope.h'), values: axis(1), dash: true },
        { label: t('learn.mrope.w'), values: axis(2) },
      ]);
      const image = N - before - after;
      const resume = r.data[N - after];
      writeLinked(derived, t, 'learn.mrope.derived', {
        image, gh: hS.get() / 2, gw: wS.get() / 2, start: r.data[before], resume, plain: before + image, before,
      }, MARKS.mrope(fig, { before, image, N, after, resume }));
      explore('mrope', spec);
    }
    draw();
    return { destroy: () => fig.destroy() };
  },
};

// Each step also shows its claim checks (./claims.js), under its derived sentence.
export const STEPS = [order, sinusoids, shift, dotStep, learned, naive, relative, rope, decay, scaling, patches, mrope].map(withClaims);
export const STEP_IDS = STEPS.map((s) => s.id);

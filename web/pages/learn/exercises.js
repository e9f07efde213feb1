// The Learn path's exercises (issue 29): each step's "Try this" asks for a state of its controls;
// the page sees when the learner gets there and says what to notice, with numbers computed from the
// API for that state (the numbers on screen), or shows the answer on request. DOM-free: the page
// part is ./exercises-ui.js, the words ./exercise-strings.js (learn.ex.<id>.done, one sentence
// function of the facts below), tests/learn-exercises.test.js runs these in Node.
//
// A state is what the step passed to env.explore(kind, spec, view), plus the values of the
// controls an exercise `reads` (by their label's string key: the shift step's p and k are not in
// its spec). `history` is every state of this visit, oldest first (the last is on screen).
// An exercise: { reads?, goal(history) → boolean, facts(pe, history) → values for the sentence,
// target(history) → a history that reaches the goal (the answer is the sentence of its facts) }.
// A difference under float32 rounding is never called a difference: such values are said as
// rounding (NOISE).
import { formatInt } from '../../plot/format.js';
import { fraction } from '../../views/common.js';
import { compareOrders, demoHeads, matchOrder, percentOf } from '../../views/attention/order.js';

/** Below this, two float32 results are the same number (rounding), in every sentence. */
export const NOISE = 1e-5;
const TAU = 2 * Math.PI;

/** A number as the steps write it: thousands with commas, else `digits` decimals, trailing zeros off. */
const num = (v, digits = 2) => (Math.abs(v) >= 1e4 ? formatInt(Math.round(v)) : Number(v.toFixed(digits)).toString());
/** A small number: three significant digits, tiny ones as 2.4e-7. */
const small = (v) => (v === 0 ? '0' : Math.abs(v) < 1e-3 ? v.toExponential(1) : Number(v.toPrecision(3)).toString());
const near = (v, want) => Math.abs(v - want) <= 0.01 * want;
const last = (history) => history[history.length - 1];
/** The state `s` with its spec changed by `patch` (and its view by `view`). */
const moved = (s, patch, view = null) => ({ ...s, spec: { ...s.spec, ...patch }, view: view ? { ...s.view, ...view } : s.view });
/** Row p of a [rows, cols] result as a Float64Array. */
const rowOf = (r, p) => Float64Array.from(r.data.subarray(p * r.shape[1], (p + 1) * r.shape[1]));
const dot = (a, b) => a.reduce((s, x, i) => s + x * b[i], 0);
/** Items joined for a sentence: '0, 4, 9'. */
const list = (xs) => xs.join(', ');

// -------------------------------------------------------------------------------------------
// 1. Word order: ALiBi without a mask sees distances only; a reversal keeps them all.

const orderOf = (s) => ({ a: s.spec.tokens.split(' '), b: (s.view?.compare?.tokens ?? '').split(' ').filter(Boolean) });
const alibiOpen = (s) => s.spec.encoding?.kind === 'alibi' && !s.spec.causal;
/** The kind of reordering B is of A: 'reversal' (every distance kept), 'moved' (some distance changes), or null. */
function reorderKind(a, b) {
  const m = matchOrder(a, b);
  if (!m || m.every((x, i) => x === i)) return null;
  return m.every((x, i) => x === a.length - 1 - i) ? 'reversal' : 'moved';
}
/** The last state of `history` with ALiBi, no mask, the current first sentence and a B of `kind`. */
const lastOfKind = (history, kind) => {
  const a = last(history).spec.tokens;
  return [...history].reverse().find((s) => alibiOpen(s) && s.spec.tokens === a && reorderKind(...Object.values(orderOf(s))) === kind);
};

const order = {
  goal: (history) => alibiOpen(last(history)) && !!lastOfKind(history, 'reversal') && !!lastOfKind(history, 'moved'),
  target(history) {
    const s = last(history);
    const a = s.spec.tokens.split(' ');
    const enc = { ...s.spec, encoding: { kind: 'alibi' }, causal: false, heads: demoHeads({ kind: 'alibi' }).heads };
    const with_ = (b) => ({ ...s, spec: enc, view: { ...s.view, compare: { tokens: b.join(' ') } } });
    return [...history, with_([...a].reverse()), with_([a[1], a[0], ...a.slice(2)])];
  },
  facts(pe, history) {
    const measure = (s) => {
      const { a, b } = orderOf(s);
      const c = compareOrders(pe, a, b, { encoding: s.spec.encoding, causal: false, ...demoHeads(s.spec.encoding) });
      return { a, b, c };
    };
    const rev = measure(lastOfKind(history, 'reversal'));
    const mov = measure(lastOfKind(history, 'moved'));
    // Two words of A whose distance B changes (A's word i sits at B's place pos[i]).
    const pos = [];
    matchOrder(mov.a, mov.b).forEach((i, place) => { pos[i] = place; });
    let pair = null;
    for (let i = 0; i < mov.a.length && !pair; i++) {
      for (let j = i + 1; j < mov.a.length && !pair; j++) if (Math.abs(pos[i] - pos[j]) !== j - i) pair = [i, j];
    }
    const [i, j] = pair;
    return {
      reversed: rev.b.join(' '), revPct: rev.c.outDiff < NOISE ? null : percentOf(rev.c.outDiff), revMax: small(rev.c.outDiff),
      other: mov.b.join(' '), movPct: percentOf(mov.c.outDiff),
      x: mov.a[i], y: mov.a[j], was: j - i, now: Math.abs(pos[i] - pos[j]),
    };
  },
};

// -------------------------------------------------------------------------------------------
// 2. Sinusoids: base 20000 leaves pair 0 alone (ω₀ = base⁰ = 1) and changes every other pair.

const wavelength = (base, i, d) => TAU * base ** ((2 * i) / d);

const sinusoids = {
  goal: (history) => near(last(history).spec.base, 20000),
  target: (history) => [...history, moved(last(history), { base: 20000 })],
  facts(pe, history) {
    const { length, dim, base } = last(history).spec;
    const was = pe.compute({ kind: 'sinusoidal', length, dim, base: 10000 }).data;
    const now = pe.compute({ kind: 'sinusoidal', length, dim, base }).data;
    const change = new Float64Array(dim);
    for (let k = 0; k < now.length; k++) change[k % dim] = Math.max(change[k % dim], Math.abs(now[k] - was[k]));
    const same = [];
    let most = 0;
    for (let c = 0; c < dim; c++) {
      if (change[c] < NOISE) same.push(c);
      if (change[c] > change[most]) most = c;
    }
    const i = dim / 2 - 1;
    return {
      base: formatInt(base), d: dim, L: length, same: list(same), nSame: same.length, changed: dim - same.length,
      col: most, by: num(change[most]), pair: i, before: num(wavelength(10000, i, dim)), after: num(wavelength(base, i, dim)), first: num(TAU),
    };
  },
};

// -------------------------------------------------------------------------------------------
// 3. Shift: M_k is built from PE(k) alone and takes every PE(p) to PE(p + k).

const shift = {
  reads: { p: 'learn.control.p', k: 'learn.control.k' },
  goal: (history) => last(history).controls.p >= 100 && last(history).controls.k >= 1,
  target: (history) => [...history, { ...last(history), controls: { ...last(history).controls, p: 100, k: last(history).controls.k || 5 } }],
  facts(pe, history) {
    const { spec, controls: { p, k } } = last(history);
    const r = pe.compute(spec);
    const L = r.shape[0];
    const rot = rowOf(r, k);   // pair i of PE(k): (sin kωᵢ, cos kωᵢ), the rotation M_k
    const gap = (q) => {
      const a = rowOf(r, q);
      const b = rowOf(r, q + k);
      let e = 0;
      for (let c = 0; c + 1 < a.length; c += 2) {
        // sin((q + k)ω) = sin qω·cos kω + cos qω·sin kω; cos((q + k)ω) = cos qω·cos kω − sin qω·sin kω
        e = Math.max(e, Math.abs(a[c] * rot[c + 1] + a[c + 1] * rot[c] - b[c]), Math.abs(a[c + 1] * rot[c + 1] - a[c] * rot[c] - b[c + 1]));
      }
      return e;
    };
    let worst = 0;
    for (let q = 0; q + k < L; q++) worst = Math.max(worst, gap(q));
    return { p, k, q: p + k, here: small(gap(p)), rows: L - k, worst: small(worst), top: L - k - 1, rounding: worst < NOISE };
  },
};

// -------------------------------------------------------------------------------------------
// 4. Dot product: fewer frequencies, a bumpier curve.

/** PE(0)·PE(k) for k = 0 … K at `dim` and `base`, and what the step's sentence reads off it. */
function dotCurve(pe, dim, base, K = 100) {
  const r = pe.compute({ kind: 'sinusoidal', length: K + 1, dim, base });
  const p0 = rowOf(r, 0);
  const c = Float64Array.from({ length: K + 1 }, (_, k) => dot(p0, rowOf(r, k)));
  let drop = 1;
  while (drop < K && c[drop] >= c[0] / 2) drop++;
  let back = Math.min(drop + 1, K);
  for (let k = drop + 1; k <= K; k++) if (c[k] > c[back]) back = k;
  let travel = 0;
  for (let k = 1; k <= K; k++) travel += Math.abs(c[k] - c[k - 1]);
  return { drop, back, backPct: Math.round((100 * c[back]) / c[0]), travel: num(travel / c[0], 1), slow: drop >= K };
}

const dotStep = {
  goal: (history) => last(history).spec.dim === 16,
  target: (history) => [...history, moved(last(history), { dim: 16 })],
  facts(pe, history) {
    const { dim, base } = last(history).spec;
    const now = dotCurve(pe, dim, base);
    const ref = dotCurve(pe, 64, base);
    return { d: dim, base: formatInt(base), drop: now.drop, back: now.back, backPct: now.backPct, travel: now.travel,
      refDrop: ref.drop, refBackPct: ref.backPct, refTravel: ref.travel, slow: now.slow || ref.slow };
  },
};

// -------------------------------------------------------------------------------------------
// 5. Learned: no seed makes neighbours alike; the gap between seeds is chance.

/** Average |cosine| of rows 1 apart and of rows 32 apart, as the step measures them. */
function likeness(pe, spec) {
  const r = pe.compute(spec);
  const L = r.shape[0];
  const rows = Array.from({ length: L }, (_, p) => rowOf(r, p));
  const len = rows.map((v) => Math.sqrt(dot(v, v)));
  const mean = (gap) => {
    let s = 0;
    for (let p = 0; p + gap < L; p++) s += Math.abs(dot(rows[p], rows[p + gap]) / (len[p] * len[p + gap]));
    return s / (L - gap);
  };
  return { near: mean(1), far: mean(32) };
}

const seedsOf = (history) => [...new Set(history.map((s) => s.spec.seed))];
const SEEDS = 51;   // the step's slider: seeds 0 … 50

const learned = {
  goal: (history) => seedsOf(history).length >= 4,
  target(history) {
    const have = seedsOf(history);
    const more = [0, 7, 19, 42].filter((x) => !have.includes(x));
    return [...history, ...more.map((seed) => moved(last(history), { seed }))];
  },
  facts(pe, history) {
    const spec = last(history).spec;
    const tried = seedsOf(history).slice(-5);
    const own = tried.map((seed) => likeness(pe, { ...spec, seed }));
    let more = 0;
    let lo = Infinity;
    let hi = -Infinity;
    for (let seed = 0; seed < SEEDS; seed++) {
      const { near: a, far: b } = likeness(pe, { ...spec, seed });
      if (a > b) more++;
      lo = Math.min(lo, a - b);
      hi = Math.max(hi, a - b);
    }
    return {
      seeds: list(tried), near: list(own.map((x) => num(x.near, 3))), far: list(own.map((x) => num(x.far, 3))),
      all: SEEDS, more, less: SEEDS - more, lo: num(lo, 3), hi: num(hi, 3),
    };
  },
};

// -------------------------------------------------------------------------------------------
// 6. Integer positions at length 512: the last row against a word vector.

const naive = {
  goal: (history) => {
    const { spec } = last(history);
    return spec.kind === 'integer' && !spec.normalize && spec.length === 512;
  },
  target: (history) => [...history, { ...last(history), kind: 'integer', spec: { kind: 'integer', length: 512, dim: 16, normalize: false } }],
  facts(pe, history) {
    const r = pe.compute(last(history).spec);
    const [L, D] = r.shape;
    const end = rowOf(r, L - 1);
    const size = Math.sqrt(dot(end, end));
    const word = Math.sqrt(D);
    return { L, D, value: num(end[0]), size: num(size, 0), word: num(word), times: num(size / word, 0) };
  },
};

// -------------------------------------------------------------------------------------------
// 7. ALiBi's heads: what a key 40 back keeps of its weight.

const alibiHeads = (history) => new Set(history.filter((s) => s.spec.kind === 'alibi').map((s) => s.view?.head ?? 0));
const DIST = 40;

const relative = {
  goal(history) {
    const s = last(history);
    if (s.spec.kind !== 'alibi') return false;
    const seen = alibiHeads(history);
    const H = s.spec.heads;
    // ALiBi's slopes fall from head 0 to head H − 1 (steepest, flattest); both must have been shown.
    return seen.has(0) && seen.has(H - 1);
  },
  target(history) {
    const s = last(history);
    const spec = { kind: 'alibi', length: 48, heads: 8, mode: 'causal' };
    return [...history, { ...s, kind: 'alibi', spec, view: { head: 0 } }, { ...s, kind: 'alibi', spec, view: { head: 7 } }];
  },
  facts(pe, history) {
    const spec = [...history].reverse().find((s) => s.spec.kind === 'alibi').spec;
    const slopes = Array.from(pe.compute(spec).slopes);
    const hi = slopes.indexOf(Math.max(...slopes));
    const lo = slopes.indexOf(Math.min(...slopes));
    const keep = (m) => Math.exp(-DIST * m);
    const kept = slopes.map((m, h) => (keep(m) > 0.5 ? h : null)).filter((h) => h !== null);
    return {
      dist: DIST, hi, mHi: fraction(slopes[hi]), biasHi: num(DIST * slopes[hi], 3), keepHi: small(keep(slopes[hi])),
      lo, mLo: fraction(slopes[lo]), biasLo: num(DIST * slopes[lo], 3), keepLo: Math.round(100 * keep(slopes[lo])), kept: list(kept),
    };
  },
};

// -------------------------------------------------------------------------------------------
// 8. RoPE at base 100: every pair turns fast.

function turns(pe, spec) {
  const w = Array.from(pe.compute(spec).inv_freq);
  const span = spec.length - 1;
  return { half: w.filter((x) => x * span > Math.PI).length, slowest: TAU / Math.min(...w), pairs: w.length, span };
}

const rope = {
  goal: (history) => near(last(history).spec.base, 100),
  target: (history) => [...history, moved(last(history), { base: 100 })],
  facts(pe, history) {
    const spec = last(history).spec;
    const now = turns(pe, spec);
    const ref = turns(pe, { ...spec, base: 10000 });
    return { base: formatInt(spec.base), pairs: now.pairs, L: spec.length, half: now.half, refHalf: ref.half, turn: num(now.slowest, 0), refTurn: num(ref.slowest, 0) };
  },
};

// -------------------------------------------------------------------------------------------
// 9. Decay at base 500 and 500,000: where the score of q = k crosses one half.

const DECAY_N = 2048;
function halfway(pe, dim, base) {
  const w = Array.from(pe.compute({ kind: 'rope', length: 16, dim, base }).inv_freq);
  const score = (d) => w.reduce((s, x) => s + Math.cos(d * x), 0) / w.length;
  let half = 1;
  while (half < DECAY_N && score(half) >= 0.5) half++;
  return { half, slow: w.filter((x) => TAU / x > DECAY_N).length, pairs: w.length };
}
const seenBase = (history, b) => history.some((s) => near(s.spec.base, b));

const decay = {
  goal: (history) => seenBase(history, 500) && seenBase(history, 500000),
  target: (history) => [...history, moved(last(history), { base: 500 }), moved(last(history), { base: 500000 })],
  facts(pe, history) {
    const { dim } = last(history).spec;
    const a = halfway(pe, dim, 500);
    const b = halfway(pe, dim, 500000);
    return { d: dim, N: formatInt(DECAY_N), halfA: formatInt(a.half), halfB: formatInt(b.half), times: num(b.half / a.half, 0), slowA: a.slow, slowB: b.slow, pairs: a.pairs };
  },
};

// -------------------------------------------------------------------------------------------
// 10. Scaling at factor 8: PI stretches every pair, YaRN keeps the fast ones.

const scaled = (s, type) => s.spec.rope_scaling?.rope_type === type && s.spec.rope_scaling.factor === 8;

const scaling = {
  goal: (history) => history.some((s) => scaled(s, 'linear')) && history.some((s) => scaled(s, 'yarn')),
  target(history) {
    const s = last(history);
    const base = { kind: 'rope', length: 256, dim: 128, base: 10000 };
    return [...history,
      { ...s, spec: { ...base, rope_scaling: { rope_type: 'linear', factor: 8 } } },
      { ...s, spec: { ...base, rope_scaling: { rope_type: 'yarn', factor: 8, original_max_position_embeddings: 4096 } } }];
  },
  facts(pe, history) {
    const yarnSpec = [...history].reverse().find((s) => scaled(s, 'yarn')).spec;
    const piSpec = [...history].reverse().find((s) => scaled(s, 'linear')).spec;
    const plain = pe.compute({ ...yarnSpec, rope_scaling: null }).inv_freq;
    const stretch = (spec) => Array.from(pe.compute(spec).inv_freq, (w, i) => plain[i] / w);
    const yarn = stretch(yarnSpec);
    const pi = stretch(piSpec);
    const kept = yarn.filter((v) => v < 1.01).length;   // YaRN keeps a run of fast pairs, 0 … kept − 1
    return {
      pairs: plain.length, piKept: pi.filter((v) => v < 1.01).length, pi0: num(pi[0], 2), wl0: num(TAU / plain[0], 2), wl0pi: num(TAU / (plain[0] / pi[0]), 1),
      kept, lastKept: kept - 1, wlKept: num(TAU / plain[Math.max(0, kept - 1)], 0), full: yarn.filter((v) => v > 8 * 0.99).length,
    };
  },
};

// -------------------------------------------------------------------------------------------
// 11. Patches: the same similarities at the same offsets, at a corner and at the centre.

const patchOf = (s) => s.view?.visionPatch ?? [0, 0];
const corner = (s) => {
  const [r, c] = patchOf(s);
  return (r === 0 || r === s.spec.height - 1) && (c === 0 || c === s.spec.width - 1);
};
const centre = (s) => {
  const [r, c] = patchOf(s);
  const mid = (n) => [Math.floor((n - 1) / 2), Math.ceil((n - 1) / 2)];
  return mid(s.spec.height).includes(r) && mid(s.spec.width).includes(c);
};

const patches = {
  goal: (history) => history.some(corner) && history.some(centre),
  target: (history) => [...history, moved(last(history), {}, { visionPatch: [0, 0] }), moved(last(history), {}, { visionPatch: [7, 7] })],
  facts(pe, history) {
    const a = [...history].reverse().find(corner);
    const b = [...history].reverse().find(centre);
    const { height: H, width: W } = a.spec;
    const r = pe.compute(a.spec);
    const unit = Array.from({ length: H * W }, (_, k) => {
      const v = rowOf(r, k);
      const n = Math.sqrt(dot(v, v));
      return v.map((x) => x / n);
    });
    const sim = ([r0, c0], dr, dc) => {
      const rr = r0 + dr;
      const cc = c0 + dc;
      return rr < 0 || rr >= H || cc < 0 || cc >= W ? null : dot(unit[r0 * W + c0], unit[rr * W + cc]);
    };
    const pa = patchOf(a);
    const pb = patchOf(b);
    let worst = 0;
    let both = 0;
    let brightA = 0;
    let brightB = 0;
    for (let dr = -(H - 1); dr < H; dr++) {
      for (let dc = -(W - 1); dc < W; dc++) {
        const x = sim(pa, dr, dc);
        const y = sim(pb, dr, dc);
        if (x !== null && x >= 0.9) brightA++;
        if (y !== null && y >= 0.9) brightB++;
        if (x === null || y === null) continue;
        both++;
        worst = Math.max(worst, Math.abs(x - y));
      }
    }
    const step = sim(pa, 0, 1) !== null ? 1 : -1;   // one step along the row that the corner has too
    return {
      a: list(pa), b: list(pb), stepA: num(sim(pa, 0, step), 3), stepB: num(sim(pb, 0, step), 3), both, worst: small(worst),
      brightA, brightB, rounding: worst < NOISE,
    };
  },
};

// -------------------------------------------------------------------------------------------
// 12. M-RoPE: a wider image spends more places than ids.

const imageOf = (s) => s.spec.segments.find((g) => g.type === 'image');

const mrope = {
  goal: (history) => imageOf(last(history)).w > imageOf(history[0]).w,
  target: (history) => {
    const s = last(history);
    return [...history, moved(s, { segments: s.spec.segments.map((g) => (g.type === 'image' ? { ...g, w: 16 } : g)) })];
  },
  facts(pe, history) {
    const s = last(history);
    const r = pe.compute(s.spec);
    const N = r.shape[1];
    const before = s.spec.segments[0].length;
    const after = s.spec.segments[s.spec.segments.length - 1].length;
    const img = imageOf(s);
    const tokens = N - before - after;
    let top = 0;
    for (let a = 0; a < 3; a++) for (let k = before; k < before + tokens; k++) top = Math.max(top, r.data[a * N + k]);
    const resume = r.data[N - after];
    const place = before + tokens;
    return {
      h: img.h, w: img.w, gh: img.h / 2, gw: img.w / 2, tokens, start: r.data[before], top, ids: top - r.data[before] + 1,
      resume, place, gap: place - resume,
    };
  },
};

/** The exercise of each step, by step id. */
export const EXERCISES = { order, sinusoids, shift, dot: dotStep, learned, naive, relative, rope, decay, scaling, patches, mrope };

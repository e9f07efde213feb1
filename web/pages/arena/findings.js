// What the results say, in words derived from the numbers (no sentence is written in advance of
// its figures), over every seed of every encoding (stats.js):
//   - which encodings fit the task at the training length, "in k of n seeds";
//   - those that did not, with the cause where it is known: the position-free encoder cannot
//     learn an order-dependent task (by symmetry), symmetric ALiBi in the encoder has no direction
//     (k-back); otherwise "at this step budget";
//   - a fit at 1× that fails at a shorter length (the layout of the training length was learned);
//   - the encodings at 2× the training length (chosen before any run, never the best of many
//     lengths) ranked by mean, with ">" only where every seed is above every seed of the next and
//     a contrast only where the ranges do not overlap; the other measure's ranking beside it;
//   - RoPE with evaluation-time scaling against plain RoPE at 2×, a gain only beyond the spread;
//   - for a paper's preset, its ranking beside the measured one and whether they agree.
// Returns sentences in the page's language (strings.js). Pure: no DOM, no WebAssembly.
import { COMPARE_FACTOR } from './experiment.js';
import { above, groupRuns, spread, valuesAt } from './stats.js';

/** Tokens right at the training length that count as "fits the task". */
export const FIT = 0.9;
const HALF = 0.5;
const ORDER_TASKS = ['reverse', 'kback', 'sort'];

const fmt = (v) => v.toFixed(2);
/** mean [min–max] of a spread (one value when all seeds agree to two decimals). */
export const fmtSpread = (s) => (fmt(s.min) === fmt(s.max) ? fmt(s.mean) : `${fmt(s.mean)} [${fmt(s.min)}–${fmt(s.max)}]`);

/** Why an encoding cannot fit the task, where the cause is known (a key of strings.js), or null. */
export function knownCause(enc, settings) {
  if (!settings.causal && enc === 'none' && ORDER_TASKS.includes(settings.task)) return 'perm';
  if (!settings.causal && enc === 'alibi' && settings.task === 'kback') return 'alibi';
  return null;
}

/** Groups whose every seed has been evaluated at `length`. */
const complete = (groups, length, seeds) => groups.filter((g) => valuesAt(g, length, 'token_accuracy').length === seeds);

/** "a > b ≈ c": ranked by mean, '>' only where every seed of the left one is above every seed of the right. */
function ranking(groups, length, metric, name) {
  const items = groups.map((g) => ({ g, s: spread(valuesAt(g, length, metric)) })).sort((a, b) => b.s.mean - a.s.mean);
  let text = '';
  items.forEach((it, i) => {
    if (i > 0) text += above(items[i - 1].s, it.s) ? ' > ' : ' ≈ ';
    text += `${name(it.g.enc)} ${fmtSpread(it.s)}`;
  });
  return { items, text };
}

/**
 * @param {{ enc: string, seed: number, evals: object[], scaledEvals: object[] }[]} jobs  every run
 * @param {{ task, causal, len, min, steps, seeds, scaling }} settings
 * @param {Function} t  translator
 * @param {'accuracy' | 'token_accuracy'} metric  the measure compared (the chart's)
 */
export function findings(jobs, settings, t, metric = 'token_accuracy') {
  const name = (enc) => t(`arena.encName.${enc}`);
  const names = (list) => t('arena.list', list.map((g) => name(g.enc)));
  const other = metric === 'accuracy' ? 'token_accuracy' : 'accuracy';
  const unit = (m) => t(m === 'accuracy' ? 'arena.unit.seq' : 'arena.unit.tok');
  const n = settings.seeds;
  const L = settings.len;
  const out = [];
  const groups = complete(groupRuns(jobs), L, n);
  if (!groups.length) return out;

  // Fit at 1×: tokens right ≥ FIT, per seed.
  const fitCount = (g) => valuesAt(g, L, 'token_accuracy').filter((v) => v >= FIT).length;
  const fit = groups.filter((g) => fitCount(g) === n);
  const unfit = groups.filter((g) => fitCount(g) < n);
  if (fit.length) {
    const exact = fit.map((g) => `${name(g.enc)} ${fmtSpread(spread(valuesAt(g, L, 'accuracy')))}`);
    out.push(t('arena.find.fit', { L, min: settings.min, names: names(fit), count: fit.length, n, exact }));
  }
  for (const g of unfit) {
    const k = n - fitCount(g);
    const cause = knownCause(g.enc, settings);
    const s = spread(valuesAt(g, L, 'token_accuracy'));
    const args = { enc: name(g.enc), task: t(`arena.taskName.${settings.task}`), k, n, steps: settings.steps, at1: fmtSpread(s) };
    out.push(t(cause ? `arena.find.cause.${cause}` : 'arena.find.unfit', args));
  }

  // Shorter than the training length: a fit at 1× that does not hold at a shorter length.
  const shorter = [...new Set(jobs.flatMap((j) => j.evals.map((e) => e.length)))].filter((x) => x < L).sort((a, b) => a - b);
  for (const g of fit) {
    let worst = null;
    for (const x of shorter) {
      const v = valuesAt(g, x, 'token_accuracy');
      if (v.length < n) continue;
      const k = v.filter((y) => y < FIT).length;
      if (k && (!worst || k > worst.k)) worst = { x, k, s: spread(v) };
    }
    if (worst) out.push(t('arena.find.short', { enc: name(g.enc), length: worst.x, k: worst.k, n, at: fmtSpread(worst.s), min: settings.min, L }));
  }

  // At 2×: a ranking by mean, a contrast only beyond the seeds' spread.
  const L2 = Math.round(COMPARE_FACTOR * L);
  const at2 = complete(fit, L2, n);
  if (at2.length >= 2) {
    const r = ranking(at2, L2, metric, name);
    out.push(t('arena.find.rank', { L2, unit: unit(metric), n, ranking: r.text }));
    const hi = r.items[0];
    const lo = r.items[r.items.length - 1];
    if (hi.s.max < HALF) {
      out.push(t('arena.find.allFall', { L2, unit: unit(metric), n, enc: name(hi.g.enc), max: fmt(hi.s.max) }));
    } else if (lo.s.min >= FIT) {
      out.push(t('arena.find.allKeep', { L2, unit: unit(metric), n, min: fmt(lo.s.min) }));
    } else if (above(hi.s, lo.s)) {
      const ties = r.items.slice(1).filter((it) => !above(hi.s, it.s));
      out.push(t('arena.find.contrast', {
        L2, n, hi: name(hi.g.enc), a: fmt(hi.s.min), lo: name(lo.g.enc), b: fmt(lo.s.max), unit: unit(metric),
        ties: ties.map((it) => name(it.g.enc)),
      }));
    } else {
      out.push(t('arena.find.overlap', { L2, n, hi: name(hi.g.enc), lo: name(lo.g.enc), a: fmtSpread(hi.s), b: fmtSpread(lo.s) }));
    }
    out.push(t('arena.find.rankOther', { L2, n, unit: unit(other), other, ranking: ranking(at2, L2, other, name).text }));
  } else if (at2.length === 1) {
    out.push(t('arena.find.one', { L2, n, enc: name(at2[0].enc), at: fmtSpread(spread(valuesAt(at2[0], L2, metric))), unit: unit(metric) }));
  }

  // RoPE with evaluation-time scaling against RoPE without, at 2× only.
  const rope = fit.find((g) => g.enc === 'rope');
  if (rope && settings.scaling !== 'none') {
    const plainV = valuesAt(rope, L2, metric);
    const scaledV = valuesAt(rope, L2, metric, true);
    if (plainV.length === n && scaledV.length === n) {
      const p = spread(plainV);
      const s = spread(scaledV);
      const k = rope.runs.filter((run) => {
        const a = run.scaledEvals.find((e) => e.length === L2)?.[metric];
        const b = run.evals.find((e) => e.length === L2)?.[metric];
        return a > b;
      }).length;
      const key = above(s, p) ? 'gain' : above(p, s) ? 'loss' : 'same';
      out.push(t(`arena.find.scaled.${key}`, { type: t(`arena.scaling.${settings.scaling}`), L2, n, k, s: fmtSpread(s), p: fmtSpread(p), unit: unit(metric) }));
    }
  }
  return out;
}

/**
 * A paper's ranking ({ order: [['none', 't5'], ['alibi'], ['rope', 'sinusoidal']] : tiers, best
 * first, equal within a tier }) against the measured one at 2×: every pair the paper orders is
 * "agrees" (every seed of the paper's higher one above every seed of the lower), "reversed" (the
 * other way round, beyond the spread), or "unresolved" (the ranges overlap). Returns sentences.
 */
export function paperCheck(jobs, settings, paper, t, metric = 'token_accuracy') {
  const name = (enc) => t(`arena.encName.${enc}`);
  const n = settings.seeds;
  const L2 = Math.round(COMPARE_FACTOR * settings.len);
  const groups = groupRuns(jobs);
  const at = (enc) => {
    const g = groups.find((x) => x.enc === enc);
    const v = g ? valuesAt(g, L2, metric) : [];
    return v.length === n ? spread(v) : null;
  };
  const tiers = paper.order.map((tier) => tier.filter((e) => settings.enc.includes(e))).filter((tier) => tier.length);
  const paperText = tiers.map((tier) => tier.map(name).join(' ≈ ')).join(' > ');
  const pairs = { agrees: [], reversed: [], unresolved: [] };
  for (let i = 0; i < tiers.length; i++) {
    for (let j = i + 1; j < tiers.length; j++) {
      for (const a of tiers[i]) {
        for (const b of tiers[j]) {
          const sa = at(a);
          const sb = at(b);
          if (!sa || !sb) return [];
          const pair = `${name(a)} > ${name(b)}`;
          if (above(sa, sb)) pairs.agrees.push(pair);
          else if (above(sb, sa)) pairs.reversed.push(`${name(b)} > ${name(a)}`);
          else pairs.unresolved.push(pair);
        }
      }
    }
  }
  const total = pairs.agrees.length + pairs.reversed.length + pairs.unresolved.length;
  if (!total) return [];
  const verdict = pairs.reversed.length ? 'disagrees' : pairs.unresolved.length ? (pairs.agrees.length ? 'partly' : 'unresolved') : 'agrees';
  const measured = ranking(tiers.flat().map((enc) => groups.find((g) => g.enc === enc)), L2, metric, name).text;
  return [
    t('arena.paper.rankings', { paper: paperText, measured, L2, n, unit: t(metric === 'accuracy' ? 'arena.unit.seq' : 'arena.unit.tok') }),
    t(`arena.paper.verdict.${verdict}`, { total, n, ...pairs }),
  ];
}


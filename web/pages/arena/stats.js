// The Arena's results over seeds: runs grouped by encoding, and at each evaluation length the
// values of every seed with their mean, minimum and maximum. What the charts, tables and findings
// all read, so they say the same. No DOM.
//
//   const groups = groupRuns(jobs)   // jobs: [{ enc, seed, evals, scaledEvals }] (the Runner's, or the script's)
//   spread(valuesAt(group, 32, 'token_accuracy')) → { mean, min, max, n } | null

/** Runs grouped by encoding, in the order the encodings first appear. */
export function groupRuns(jobs) {
  const groups = [];
  for (const j of jobs) {
    let g = groups.find((x) => x.enc === j.enc);
    if (!g) {
      g = { enc: j.enc, runs: [] };
      groups.push(g);
    }
    g.runs.push(j);
  }
  return groups;
}

/** The values of every seed of a group that has been evaluated at `length` (scaled: rope's scaled evaluation). */
export function valuesAt(group, length, metric, scaled = false) {
  const out = [];
  for (const r of group.runs) {
    const e = (scaled ? r.scaledEvals : r.evals).find((x) => x.length === length);
    if (e) out.push(e[metric]);
  }
  return out;
}

/** Mean, minimum and maximum of a list of values, or null for none. */
export function spread(values) {
  if (!values.length) return null;
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  for (const v of values) {
    sum += v;
    min = Math.min(min, v);
    max = Math.max(max, v);
  }
  return { mean: sum / values.length, min, max, n: values.length };
}

/**
 * A above B beyond the seeds' spread: every seed of A above every seed of B, as the page shows
 * them (to two decimals), so a claim never rests on a difference the text cannot show.
 */
const shown = (v) => Math.round(v * 100);
export const above = (a, b) => shown(a.min) > shown(b.max);

/** Whether two spreads overlap (neither is above the other beyond the seeds' spread). */
export const overlap = (a, b) => !above(a, b) && !above(b, a);

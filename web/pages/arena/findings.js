// What the results say, in words derived from the numbers (no sentence is written in advance of
// its figures): which encodings learned the task at the training length, how they fare at twice
// that length, how far each keeps at least half of the sequences, and what RoPE scaling at
// evaluation changed. Returns a list of sentences in the page's language (strings.js).
const LEARNED = 0.9; // accuracy at the training length that counts as "learned the task"
const KEEPS = 0.5;

const fmt = (v) => v.toFixed(2);

/**
 * @param {{ enc: string, steps: number, evals: { length, accuracy }[], scaledEvals: object[] }[]} jobs
 * @param {{ len: number, steps: number, scaling: string }} settings
 * @param {Function} t  translator
 * @param {'accuracy' | 'token_accuracy'} metric  whole sequences right, or tokens right (as the chart shows)
 */
export function findings(jobs, settings, t, metric = 'accuracy') {
  const accAt = (evals, n) => evals.find((e) => e.length === n)?.[metric];
  const unit = t(metric === 'accuracy' ? 'arena.unit.seq' : 'arena.unit.tok');
  const L = settings.len;
  const out = [];
  const evaluated = jobs.filter((j) => accAt(j.evals, L) !== undefined);
  if (!evaluated.length) return out;
  const learned = evaluated.filter((j) => accAt(j.evals, L) >= LEARNED);
  const failed = evaluated.filter((j) => accAt(j.evals, L) < LEARNED);
  const names = (list) => t('arena.list', list.map((j) => j.enc));
  if (learned.length) out.push(t('arena.find.learned', L, names(learned), learned.length, unit));
  if (failed.length) {
    const best = failed.reduce((a, b) => (accAt(b.evals, L) > accAt(a.evals, L) ? b : a));
    out.push(t('arena.find.failed', names(failed), failed.length, settings.steps, fmt(accAt(best.evals, L))));
  }
  // At twice the training length, among the encodings that learned.
  const L2 = 2 * L;
  const at2 = learned.filter((j) => accAt(j.evals, L2) !== undefined);
  if (at2.length >= 2) {
    const sorted = at2.slice().sort((a, b) => accAt(b.evals, L2) - accAt(a.evals, L2));
    const hi = sorted[0];
    const lo = sorted[sorted.length - 1];
    const a = accAt(hi.evals, L2);
    const b = accAt(lo.evals, L2);
    if (b >= KEEPS) out.push(t('arena.find.allKeep', L2, fmt(b), unit));
    else if (a === 0 && metric === 'accuracy') out.push(t('arena.find.allZero', L2));
    else if (a < KEEPS) out.push(t('arena.find.allFall', L2, hi.enc, fmt(a)));
    else out.push(t('arena.find.contrast', L2, hi.enc, fmt(a), lo.enc, fmt(b)));
  } else if (at2.length === 1) {
    out.push(t('arena.find.one', L2, at2[0].enc, fmt(accAt(at2[0].evals, L2))));
  }
  // The longest evaluated length at which each learned encoding keeps at least half.
  const reach = learned.map((j) => {
    let far = 0;
    for (const e of j.evals) if (e[metric] >= KEEPS) far = Math.max(far, e.length);
    const last = j.evals[j.evals.length - 1]?.length ?? L;
    return { enc: j.enc, far, all: far >= last && far > L };
  }).filter((r) => r.far > 0).sort((a, b) => b.far - a.far);
  if (reach.length && reach.some((r) => r.far > L)) {
    out.push(t('arena.find.reach', unit, reach.map((r) => t('arena.find.reachItem', r.enc, r.far, Number((r.far / L).toFixed(2))))));
  }
  // RoPE with evaluation-time scaling against RoPE without.
  const rope = jobs.find((j) => j.enc === 'rope');
  if (rope && settings.scaling !== 'none' && rope.scaledEvals.length && accAt(rope.evals, L) >= LEARNED) {
    let best = null;
    for (const s of rope.scaledEvals) {
      const plain = accAt(rope.evals, s.length);
      if (plain === undefined || s.length <= L) continue;
      const gain = s[metric] - plain;
      if (!best || gain > best.gain) best = { length: s.length, gain, scaled: s[metric], plain };
    }
    if (best) {
      out.push(best.gain > 0.005
        ? t('arena.find.scaledGain', settings.scaling, best.length, fmt(best.scaled), fmt(best.plain))
        : t('arena.find.scaledNone', settings.scaling));
    }
  }
  return out;
}

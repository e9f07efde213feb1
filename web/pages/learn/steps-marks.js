// Which number of each step's derived sentence marks which place in its figure (issue 29): for a
// step, a function of its figure(s) and the numbers it computed, returning { param: mark } for
// ./linked.js (a mark: figure.mark(shape), shapes as in web/plot/highlight.js). Only what the
// numbers are about is marked: a wavelength its pair's columns, a distance its line, an edge its
// diagonal. Used by ./steps.js.

/** The indices where test(v) holds, as [first, last], or null when none does. */
function spanWhere(values, test) {
  let a = -1;
  let b = -1;
  values.forEach((v, i) => {
    if (!test(v)) return;
    if (a < 0) a = i;
    b = i;
  });
  return a < 0 ? null : [a, b];
}

/** The rotor's mark of pair i. */
const pairMark = (t, rotor, i) => ({ on: rotor, shape: { pair: i }, where: t('learn.mark.pair', i) });

export const MARKS = {
  /** Sinusoids: a pair's wavelength marks its two columns (pair 0: one period of its rows); the slow pairs, theirs. */
  sinusoids(fig, { d, L, slow, firstWavelength }) {
    const last = d / 2 - 1;
    const lastPair = fig.mark({ cols: [2 * last, 2 * last + 1] });
    return {
      first: fig.mark({ cols: [0, 1], rows: [0, Math.min(L - 1, Math.round(firstWavelength))] }),
      lastIndex: lastPair,
      lastCols: lastPair,
      last: lastPair,
      ...(slow > 0 && { slow: fig.mark({ cols: [d - 2 * slow, d - 1] }) }),
    };
  },

  /** PE(p + k) = M_k · PE(p): the dimension where the two differ most (float32 rounding). */
  shift(fig, { errAt, value }) {
    return { err: fig.mark({ point: [errAt, value] }) };
  },

  /** Dot product against distance: where it falls below half, and where it climbs back. */
  dot(fig, { kdrop, drop, kback, back, top }) {
    const fall = fig.mark({ point: [kdrop, drop] });
    const climb = fig.mark({ point: [kback, back] });
    return { top: fig.mark({ point: [0, top] }), kdrop: fall, drop: fall, kback: climb, back: climb };
  },

  /** Integer and binary positions: the last row's length against a word's; the step that flips most bits. */
  naive(fig, scheme, { p, step, L, size, D }) {
    if (scheme === 'binary') {
      const flip = fig.mark({ point: [p + 1, step[p + 1]] });
      return { p: flip, q: flip, flips: flip };
    }
    if (scheme === 'normalized') return L > 10 ? { p10: fig.mark({ x: 10 }) } : {};
    const far = fig.mark({ point: [L - 1, size[L - 1]] });
    return { max: far, norm: far, word: fig.mark({ y: Math.sqrt(D) }) };
  },

  /** Relative biases: the edge a distance starts at (a diagonal, and what lies beyond it in the last row). */
  relative(fig, scheme, { L, own, k }) {
    const lastRow = [L - 1, L - 1];
    if (scheme === 'alibi') {
      const back10 = fig.mark({ diagonal: 10 });
      // The steepest head sets the shared colour range: its bias at the last query's first key.
      return { m: back10, at10: back10, steep: fig.mark({ cell: [L - 1, 0] }), hi: fig.mark({ cell: [L - 1, 0] }) };
    }
    const beyond = scheme === 't5' ? L - 1 - own : L - 2 - own;
    const edge = fig.mark(beyond >= 0 ? [{ diagonal: own }, { rows: lastRow, cols: [0, beyond] }] : { diagonal: own });
    return {
      own: edge,
      distinct: fig.mark({ rows: lastRow }),
      ...(scheme === 'shaw' && { k: fig.mark({ diagonal: Math.min(k, L - 1) }) }),
    };
  },

  /** RoPE: the diagonal that departs most, the largest score; the fastest and slowest pairs on the rotor. */
  rope(fig, rotor, t, { worst, top, D }) {
    const slowest = pairMark(t, rotor, D / 2 - 1);
    return { dev: fig.mark({ diagonal: worst }), scale: fig.mark({ cell: top }), first: pairMark(t, rotor, 0), last: slowest, turn: slowest };
  },

  /** Decay: the distance where the score falls below half, and where it climbs back highest. */
  decay(fig, { half, kback, back }) {
    const peak = Number.isFinite(back) ? fig.mark({ point: [kback, back] }) : null;
    return { half: fig.mark({ x: half }), ...(peak && { kback: peak, back: peak }) };
  },

  /** Scaling: the pairs kept and the pairs stretched the full factor; pair 0 and the last pair. */
  scaling(fig, { stretch, f }) {
    const kept = spanWhere(stretch, (v) => v < 1.01);
    const full = spanWhere(stretch, (v) => v > f * 0.99);
    const n = stretch.length;
    return {
      ...(kept && { kept: fig.mark({ range: kept }) }),
      ...(full && { full: fig.mark({ range: full }) }),
      first: fig.mark({ point: [0, stretch[0]] }),
      last: fig.mark({ point: [n - 1, stretch[n - 1]] }),
    };
  },

  /** Patches: the patch picked, its most similar neighbour, a step along the row and a diagonal step. */
  patches(fig, { r, c, br, bc, side, diag }) {
    const here = fig.mark({ cell: [r, c] });
    const best = fig.mark({ cell: [br, bc] });
    return { r: here, c: here, br: best, bc: best, best, side: fig.mark({ cell: side }), diag: fig.mark({ cell: diag }) };
  },

  /** M-RoPE: the image's tokens, where the text resumes. */
  mrope(fig, { before, image, N, after, resume }) {
    const img = fig.mark({ range: [before, before + image - 1] });
    const again = fig.mark({ point: [N - after, resume] });
    return { image: img, start: img, before: fig.mark({ range: [0, before - 1] }), resume: again, plain: again };
  },
};

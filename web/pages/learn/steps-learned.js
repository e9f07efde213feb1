// Step 5 of the Learn path (./steps.js): learned position tables. Before training, a table drawn
// from N(0, 0.02²) with a seed (the `learned` kind); after training, the tables the Arena's trainer
// produced (./trained-table.js, written by scripts/train-learned-table.js: the k-back task,
// encoder, 64 positions, d_model 64, three seeds). The sentence says how alike neighbouring rows
// are, and for the trained tables how sine-like they are (web/model/sine-fit.js through the
// explorer's view, web/views/absolute/sine-likeness.js) against an untrained and a sinusoidal
// table of the same size, in how many of the three seeds, so the tutorials' "learned tables become
// sine waves" is checked on a table that was really trained.
import { formatInt } from '../../plot/format.js';
import { sineLikeness } from '../../views/absolute/sine-likeness.js';
import { heatFigure, slider, choice } from './figures.js';
import { dot, fx, row } from './step-math.js';

const L = 64;
const D = 64;
const UNTRAINED = 'untrained';

/** Mean |cosine| of rows p and p + k of r [rows, cols], over every p. */
function meanAbsCos(r, k) {
  const rows = r.shape[0];
  const cos = (a, b) => dot(a, b) / Math.sqrt(dot(a, a) * dot(b, b));
  let s = 0;
  for (let p = 0; p + k < rows; p++) s += Math.abs(cos(row(r, p), row(r, p + k)));
  return s / (rows - k);
}

/** The trained tables' measures (computed once per page): { module, runs: [{ seed, r, m }] }. */
let trained = null;
async function trainedTables(pe) {
  if (trained) return trained;
  const mod = await import('./trained-table.js');
  const [rows, cols] = mod.TRAINED.shape;
  const runs = mod.TRAINED.seeds.map((s, i) => {
    const data = mod.trainedTable(i);
    return { seed: s.seed, accuracy: s.accuracy, r: { data, shape: [rows, cols] }, m: sineLikeness(pe, data, rows, cols) };
  });
  trained = { info: mod.TRAINED, runs };
  return trained;
}

const pct = (v) => `${(100 * v).toFixed(0)} %`;

export const learned = {
  id: 'learned',
  mount({ pe, t, figure, controls, derived, explore }) {
    const fig = heatFigure(figure, { pe, t, explore }, { x: t('learn.axis.dimension'), y: t('learn.axis.position'), value: t('learn.axis.value') }, t('learn.learned.title'));
    const which = choice(t('learn.control.table'), [
      { value: UNTRAINED, label: t('learn.learned.untrained') },
      ...[0, 1, 2].map((k) => ({ value: String(k), label: t('learn.learned.trainedSeed', k) })),
    ], UNTRAINED, draw);
    const seed = slider(t('learn.control.seed'), { min: 0, max: 50, value: 0, format: formatInt, onInput: draw });
    seed.input.dataset.learnControl = '';
    controls.append(which.el, seed.el);
    let token = 0;
    function draw() {
      const spec = { kind: 'learned', length: L, dim: D, std: 0.02, seed: seed.get() };
      const mine = ++token;
      seed.el.hidden = which.get() !== UNTRAINED;
      if (which.get() === UNTRAINED) {
        const r = pe.compute(spec);
        fig.set({ data: r.data, rows: L, cols: D, colormap: 'diverging', kind: spec.kind });
        const near = meanAbsCos(r, 1);
        const far = meanAbsCos(r, 32);
        let rms = 0;
        for (const v of r.data) rms += v * v;
        rms = Math.sqrt(rms / r.data.length);
        derived.textContent = t(near > 1.5 * far ? 'learn.learned.derivedChance' : 'learn.learned.derived', { near: fx(near, 3), far: fx(far, 3), rms: fx(rms, 4), L });
        fig.explore('learned', spec);
        return;
      }
      trainedTables(pe).then(({ info, runs }) => {
        if (mine !== token) return;
        const k = Number(which.get());
        const run = runs[k];
        const [rows, cols] = run.r.shape;
        fig.set({ data: run.r.data, rows, cols, colormap: 'diverging', kind: 'learned' });
        const wave = runs.filter((x) => x.m.verdict === 'wave').length;
        const aboveNoise = runs.filter((x) => x.m.verdict !== 'noise').length;
        derived.textContent = t('learn.learned.derivedTrained', {
          seed: run.seed, steps: formatInt(info.steps), n: info.spec.train_length, d: info.spec.d_model, rows,
          acc: pct(run.accuracy), near: fx(meanAbsCos(run.r, 1), 3), far: fx(meanAbsCos(run.r, 32), 3),
          m: pct(run.m.self.fit.median), all: runs.map((x) => pct(x.m.self.fit.median)).join(', '),
          noise: pct(run.m.noise.fit.median), sin: pct(run.m.sin.fit.median), wave, aboveNoise, seeds: runs.length,
        });
        // The explorer has no spec for a trained table: it opens an untrained one of this size at
        // the sine-likeness view, where a saved table can be loaded and measured the same way.
        fig.explore('learned', { ...spec, length: rows }, { go: 'absolute-sine-likeness' });
      });
    }
    draw();
    return { destroy: () => fig.destroy() };
  },
};

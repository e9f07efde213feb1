// The Arena's status line and two tables: the runs' progress, one row per encoding (its seeds' states, steps,
// mean last loss and ms per step), and the results, one row per encoding (and rope with scaling)
// and measure, one column per evaluation length, each cell mean [min–max] over seeds.
import { h } from '../../plot/dom.js';
import { formatInt, formatValue } from '../../plot/format.js';
import { COLOR, evalLengths } from './experiment.js';
import { fmtSpread } from './findings.js';
import { groupRuns, spread, valuesAt } from './stats.js';

const STATES = ['done', 'training', 'evaluating', 'queued', 'stopped', 'error'];

/** The status line of a runner in a page state (running, stopped, done). */
export function statusText(runner, state, t) {
  const count = (st) => runner.jobs.filter((j) => j.state === st).length;
  const steps = runner.jobs.reduce((n, j) => n + j.steps, 0);
  const total = runner.jobs.reduce((n, j) => n + j.target, 0);
  const sec = Math.round(runner.elapsed() / 1000);
  const time = sec < 60 ? t('arena.sec', sec) : t('arena.min', Math.floor(sec / 60), sec % 60);
  const parts = Object.fromEntries(STATES.map((s) => [s, count(s)]));
  return t(`arena.status.${state}`, { ...parts, steps, total, time, workers: runner.pool.length, n: runner.jobs.length });
}

const swatch = (key) => h('span', { class: `arena-swatch arena-c${COLOR[key]}` });

/** What an encoding costs in parameters: the learned position parameters, of the model's total. */
function paramsCell(params, t) {
  if (!params) return h('td', { class: 'num', text: '—' });
  return h('td', { class: 'num', 'data-position-params': String(params.position), text: t('arena.params', formatInt(params.position), formatInt(params.total)) });
}

/** The progress of every encoding's runs. */
export function progressTable(jobs, t) {
  const head = h('tr', {}, ['enc', 'state', 'steps', 'loss', 'ms', 'params'].map((k) => h('th', { scope: 'col', text: t(`arena.col.${k}`) })));
  const rows = groupRuns(jobs).map((g) => {
    const counts = STATES.map((s) => [s, g.runs.filter((j) => j.state === s).length]).filter(([, k]) => k > 0);
    const errors = g.runs.filter((j) => j.error).map((j) => j.error);
    const stateText = counts.length === 1 && counts[0][0] !== 'error'
      ? t(`arena.state.${counts[0][0]}`)
      : counts.map(([s, k]) => t('arena.state.count', s === 'error' ? t('arena.state.error', errors[0]) : t(`arena.state.${s}`), k)).join(', ');
    const steps = g.runs.reduce((n, j) => n + j.steps, 0);
    const target = g.runs.reduce((n, j) => n + j.target, 0);
    const last = spread(g.runs.filter((j) => j.steps).map((j) => j.losses[j.steps - 1]));
    const ms = spread(g.runs.filter((j) => j.msPerStep !== null).map((j) => j.msPerStep));
    return h('tr', { 'data-enc': g.enc, 'data-state': counts.map(([s]) => s).join(' '), 'data-steps': String(steps) },
      h('th', { scope: 'row' }, swatch(g.enc), t(`arena.encName.${g.enc}`)),
      h('td', { text: stateText }),
      h('td', { class: 'num', text: `${formatInt(steps)} / ${formatInt(target)}` }),
      h('td', { class: 'num', text: last ? formatValue(last.mean) : '—' }),
      h('td', { class: 'num', text: ms ? ms.mean.toFixed(1) : '—' }),
      paramsCell(g.runs.find((j) => j.params)?.params, t));
  });
  return h('table', { class: 'mini-table arena-jobs' },
    h('caption', { class: 'sr-only', text: t('arena.col.caption') }), h('thead', {}, head), h('tbody', {}, rows));
}

/** The results: mean [min–max] over seeds per encoding, measure and evaluation length. */
export function resultsTable(jobs, settings, t) {
  const lengths = evalLengths(settings.len, settings.task);
  const head = h('tr', {}, h('th', { scope: 'col', text: t('arena.res.enc') }), h('th', { scope: 'col', text: t('arena.res.measure') }),
    lengths.map((n) => h('th', { scope: 'col', class: n === settings.len ? 'arena-at-train' : '', text: t('arena.res.len', n, Number((n / settings.len).toFixed(2))) })));
  const rows = [];
  for (const g of groupRuns(jobs)) {
    const variants = [[g.enc, t(`arena.encName.${g.enc}`), false]];
    if (g.enc === 'rope' && settings.scaling !== 'none') {
      variants.push(['rope+scaled', t('arena.ropeScaled', t(`arena.scaling.${settings.scaling}`)), true]);
    }
    for (const [key, label, scaled] of variants) {
      ['token_accuracy', 'accuracy'].forEach((metric, i) => {
        rows.push(h('tr', { 'data-enc': key, 'data-metric': metric },
          i === 0 ? h('th', { scope: 'rowgroup', rowspan: 2 }, swatch(key), label) : null,
          h('td', { text: t(metric === 'accuracy' ? 'arena.metric.short.seq' : 'arena.metric.short.tok') }),
          lengths.map((n) => {
            const s = spread(valuesAt(g, n, metric, scaled));
            return h('td', { class: `num${n === settings.len ? ' arena-at-train' : ''}`, text: s ? fmtSpread(s) : '—' });
          })));
      });
    }
  }
  return h('table', { class: 'mini-table arena-results' },
    h('caption', { text: t('arena.res.caption') }), h('thead', {}, head), h('tbody', {}, rows));
}

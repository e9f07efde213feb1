// The Arena's fine-tuning card (finetune.js, finetune-run.js): the experiment of Chen et al. 2023
// at the Arena's scale, its own Run button, progress, the results (mean [min–max] over seeds per
// condition) and findings derived from them. #arena?ft=1 opens the page at this card (ftn, fts,
// ftseeds set pretraining steps, fine-tuning steps and seeds; the defaults otherwise).
//
// Leaving the Arena pauses a run (its workers hold after the message in hand, as the main
// experiment's do) and coming back resumes it; a language switch is a leave and a return.
//
// For tests and tools the card (.arena-ft) announces data-state (idle | running | paused | done |
// cancelled | error) and data-wall-ms, and offers el.finetuneResults() → { settings, runs, wallMs }.
import { h, uid } from '../../plot/dom.js';
import { formatInt } from '../../plot/format.js';
import { CONDITIONS, FT_SAMPLES, baseSpec, finetuneFindings, readFinetune, resultRows } from './finetune.js';
import { fmtSpread } from './findings.js';
import { FinetuneRunner } from './finetune-run.js';
import './finetune-strings.js';

const DRAW_MS = 300;
let kept = null; // { runner, wasRunning }: the runner outlives a remount (a language switch, a visit elsewhere)

/** The results table: one row per condition; tokens right and exact match at 2L, tokens right at L after. */
function table(runs, s, t) {
  const L2 = 2 * s.len;
  const tok = resultRows(runs, 'token_accuracy');
  const seq = resultRows(runs, 'accuracy');
  const cell = (sp) => h('td', { class: 'num', text: sp ? fmtSpread(sp) : '—' });
  const n = runs.filter((r) => r.done).length;
  return h('table', { class: 'mini-table arena-results arena-ft-table' },
    h('caption', { text: t('arena.ft.caption', { L: s.len, L2, n, samples: FT_SAMPLES }) }),
    h('thead', {}, h('tr', {},
      h('th', { scope: 'col', text: t('arena.ft.col.cond') }),
      h('th', { scope: 'col', text: `${t('arena.metric.short.tok')} · ${t('arena.ft.col.at2', L2)}` }),
      h('th', { scope: 'col', text: `${t('arena.metric.short.seq')} · ${t('arena.ft.col.at2', L2)}` }),
      h('th', { scope: 'col', text: `${t('arena.metric.short.tok')} · ${t('arena.ft.col.at1', s.len)}` }))),
    h('tbody', {}, CONDITIONS.map((c, i) => h('tr', { 'data-condition': c },
      h('th', { scope: 'row', text: t(`arena.ft.cond.${c}`, s.ftSteps) }), cell(tok[i].at2), cell(seq[i].at2), cell(tok[i].after1)))));
}

/** Mounts the card at the end of `root`; returns { destroy }. */
export function mountFinetune(root, ctx) {
  const { t, pe } = ctx;
  let { settings: fromLink } = readFinetune(ctx.route.params);
  const { open } = readFinetune(ctx.route.params);
  // A run under way (or paused) shows its own settings; otherwise the controls say what Run will do.
  const settings = ['running', 'paused'].includes(kept?.runner.state) ? kept.runner.settings : fromLink;
  const L2 = 2 * settings.len;
  // Fine-tuning steps: the link's, or one of these (Chen et al. fine-tune 1000).
  const stepsSel = h('select', { id: uid('arena-ft-steps') });
  const fillSteps = (s) => {
    stepsSel.replaceChildren(...[...new Set([100, 300, 1000, s.ftSteps])].sort((a, b) => a - b)
      .map((n) => h('option', { value: String(n), text: formatInt(n) })));
    stepsSel.value = String(s.ftSteps);
  };
  fillSteps(settings);
  const chosen = () => ({ ...fromLink, ftSteps: Number(stepsSel.value) });
  const explain = h('p', { class: 'arena-help' });
  const explainText = (s) => t('arena.ft.explain', {
    task: t(`arena.taskName.${s.task}`), L: s.len, L2, steps: formatInt(s.steps), ftSteps: formatInt(s.ftSteps), seeds: s.seeds,
  });
  explain.textContent = explainText(settings);
  stepsSel.addEventListener('input', () => {
    explain.textContent = explainText(chosen());
  });
  const card = h('section', { class: 'card arena-card arena-ft', id: 'arena-finetune', 'aria-label': t('arena.ft.title'), 'data-state': 'idle' });
  const runBtn = h('button', { type: 'button', class: 'button arena-primary', text: t('arena.ft.run') });
  const cancelBtn = h('button', { type: 'button', class: 'button', text: t('arena.ft.cancel'), disabled: true });
  const status = h('p', { class: 'arena-status', role: 'status' });
  const tableWrap = h('div', { class: 'table-scroll arena-table-wrap', tabindex: 0 });
  const findingsBox = h('div', { class: 'arena-findings', 'aria-live': 'polite' });
  card.append(h('h3', { text: t('arena.ft.title') }), explain,
    h('div', { class: 'arena-row' }, h('div', { class: 'arena-field' }, h('label', { for: stepsSel.id, text: t('arena.ft.steps') }), stepsSel)),
    h('div', { class: 'arena-actions' }, runBtn, cancelBtn), status, tableWrap, findingsBox);
  root.append(card);

  const tr = pe.trainer(baseSpec(settings, 0));
  const params = tr.paramCount;
  tr.free();

  let runner = kept?.runner ?? null;
  let timer = 0;
  let destroyed = false;
  card.finetuneResults = () => ({
    settings: runner?.settings ?? settings,
    wallMs: runner ? runner.elapsed() : 0,
    runs: (runner?.runs ?? []).map((r) => structuredClone(r)),
  });

  function draw() {
    timer = 0;
    if (destroyed) return;
    const state = runner?.state ?? 'idle';
    card.dataset.state = state;
    card.dataset.wallMs = state === 'done' ? String(Math.round(runner.wallMs)) : '';
    runBtn.textContent = t(state === 'idle' ? 'arena.ft.run' : 'arena.ft.runAgain');
    const busy = state === 'running' || state === 'paused';
    runBtn.disabled = busy;
    stepsSel.disabled = busy;
    cancelBtn.disabled = !busy;
    const runs = runner?.runs ?? [];
    const sec = Math.round((runner?.elapsed() ?? 0) / 1000);
    const steps = runs.reduce((a, r) => a + r.steps, 0);
    const total = runs.reduce((a, r) => a + r.total, 0);
    const done = runs.filter((r) => r.done).length;
    status.textContent = state === 'error' ? t('arena.ft.status.error', runner.error)
      : t(`arena.ft.status.${state}`, { done, n: runs.length, steps: formatInt(steps), total: formatInt(total), sec });
    tableWrap.replaceChildren(...(runs.some((r) => r.at1) ? [table(runs, runner.settings, t)] : []));
    findingsBox.replaceChildren(...finetuneFindings(runs, runner?.settings ?? settings, t, 'token_accuracy', formatInt(params))
      .map((x) => h('p', { text: x })));
  }
  const schedule = (what) => {
    if (what === 'done' || what === 'error' || what === 'state') {
      clearTimeout(timer);
      draw();
    } else if (!timer) timer = setTimeout(draw, DRAW_MS);
  };

  runBtn.addEventListener('click', () => {
    runner ??= new FinetuneRunner({
      concurrency: Math.min(navigator.hardwareConcurrency || 2, 16),
      makeWorker: () => new Worker(new URL('./worker.js', import.meta.url), { type: 'module' }),
      onUpdate: () => {},
    });
    runner.onUpdate = schedule;
    kept = { runner, wasRunning: false };
    runner.start(chosen());
  });
  cancelBtn.addEventListener('click', () => runner?.cancel());
  if (runner) {
    runner.onUpdate = schedule;
    if (kept.wasRunning) runner.resume();
    kept.wasRunning = false;
  }
  draw();
  const reveal = () => requestAnimationFrame(() => card.scrollIntoView({ block: 'start' }));
  if (open) reveal();

  return {
    /** A new route on the same page (a link to #arena?ft=1 followed from the Arena): the card comes to the top. */
    update(params) {
      const next = readFinetune(params);
      // Another link on the same page (ftn, fts, ftseeds): the next Run follows it. A run under
      // way keeps its settings, and the controls show them until it ends.
      if (JSON.stringify(next.settings) !== JSON.stringify(fromLink)) {
        fromLink = next.settings;
        if (!['running', 'paused'].includes(runner?.state)) {
          fillSteps(fromLink);
          explain.textContent = explainText(chosen());
        }
      }
      if (next.open) reveal();
    },
    destroy() {
      destroyed = true;
      clearTimeout(timer);
      if (runner) {
        kept.wasRunning = runner.state === 'running';
        runner.pause();
        runner.onUpdate = () => {};
      }
      card.remove();
    },
  };
}


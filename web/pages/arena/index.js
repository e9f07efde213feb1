// The Arena page (#arena?task=…&enc=…): train the same tiny transformer with several positional
// encodings side by side, each with several seeds (one run per encoding and seed, in Web Workers:
// runner.js), watch the losses, then compare the accuracy from 0.5× to 4× the training length, as
// the mean over seeds with its min–max band (charts.js, tables.js) and in findings derived from
// the numbers (findings.js); presets check a paper or a lesson (presets.js); the learned table
// and its position similarity as it trains; attention maps of one example. Mounted by
// web/app/pages.js.
//
// The settings live in the URL (ctx.replaceLink), so the address bar is always a permalink of the
// experiment; a link opens with its settings filled in and trains when Run is pressed (the page
// says so). A language switch mounts the page again: the runs carry over (kept below).
//
// For tests and tools the page root (.arena) announces data-state (idle | running | stopped |
// done), data-loss-drawn / data-acc-drawn (how many times each chart was drawn with data) and
// offers el.arenaResults() → { settings, jobs: [{ id, enc, seed, state, steps, losses: number[], evals }] }.
import { h, uid } from '../../plot/dom.js';
import { formatInt } from '../../plot/format.js';
import { Heatmap } from '../../plot/heatmap.js';
import { cosineSimilarity } from '../../model/similarity.js';
import { heatmapKernels } from '../../model/pixels.js';
import { ensureStyles } from '../../views/common.js';
import {
  COLOR, ENCODINGS, EVAL_SAMPLES, FACTORS, LIMITS, METRICS, SCALINGS, TASKS, interval95, readSettings, sameSettings,
  settingsParams, taskSteps,
} from './experiment.js';
import { findings, paperCheck } from './findings.js';
import { PRESETS, paperFor, presetById, presetOf } from './presets.js';
import { ArenaCharts, SMOOTH } from './charts.js';
import { progressTable, resultsTable, statusText } from './tables.js';
import { AttentionMaps } from './attention.js';
import { Runner } from './runner.js';
import { mountFinetune } from './finetune-view.js';
import './strings.js';

const KEYS = ['task', 'enc', 'causal', 'len', 'min', 'steps', 'seed', 'seeds', 'lr', 'scaling', 'factor', 'metric'];
const LR_CHOICES = [3e-4, 1e-3, 3e-3, 1e-2];
const DRAW_MS = 120;
// While the workers train, the main thread is a third thread on machines with two cores: redraws
// (two charts, the tables, the findings) come at most every RUN_DRAW_MS, and further apart when a
// redraw is slow, so drawing takes at most 1/DRAW_SHARE of the time (measured: at one redraw per
// 120 ms the page spent as much CPU drawing as the six runs spent training). The first losses
// are drawn after DRAW_MS, so the curves start as soon as training does.
const RUN_DRAW_MS = 500;
const DRAW_SHARE = 20;
/** Parameters of the model in Kazemnejad et al. 2023 (the presets' explanation compares). */
const PAPER_PARAMS = 107e6;

// The runs outlive a mount (a language switch remounts the page); a different experiment, or
// leaving the page, ends them.
let kept = null; // { runner, settings, wasRunning }

function field(label, control, cls = '') {
  const id = control.id || uid('arena');
  control.id = id;
  return h('div', { class: `arena-field ${cls}` }, h('label', { for: id, text: label }), control);
}

export default {
  id: 'arena',
  mount(container, ctx) {
    ensureStyles(new URL('./arena.css', import.meta.url));
    const { t, pe } = ctx;
    const colorize = (v, o) => pe.colorize(v, o);
    const first = readSettings(ctx.route.params);
    let settings = first.settings;
    let destroyed = false;

    // --- the form -------------------------------------------------------------------------------
    const root = h('div', { class: 'arena', 'data-state': 'idle' });
    container.append(root);
    root.append(
      h('h2', { id: 'page-title', tabindex: -1, text: t('arena.title') }),
      h('p', { class: 'arena-lede', text: t('arena.lede') }),
    );

    const presetSel = h('select', {}, h('option', { value: '', text: t('arena.preset.pick') }),
      PRESETS.map((p) => h('option', { value: p.id, text: t(`arena.preset.${p.id}`) })));
    const presetNote = h('p', { class: 'arena-help arena-preset-note' });
    const taskSel = h('select', {}, TASKS.map((k) => h('option', { value: k, text: t(`arena.task.${k}`) })));
    const encBox = h('fieldset', { class: 'arena-encs' }, h('legend', { text: t('arena.encodings') }));
    const encInputs = {};
    for (const e of ENCODINGS) {
      const input = h('input', { type: 'checkbox', id: uid('arena-enc'), value: e });
      encInputs[e] = input;
      encBox.append(h('label', { class: 'arena-enc', for: input.id, title: t(`arena.enc.${e}.help`) },
        input, h('span', { class: `arena-swatch arena-c${COLOR[e]}` }), h('span', { text: t(`arena.encName.${e}`) })));
    }
    const causalSel = h('select', {}, h('option', { value: '1', text: t('arena.causal.1') }), h('option', { value: '0', text: t('arena.causal.0') }));
    const lenIn = h('input', { type: 'number', min: LIMITS.len.min, max: LIMITS.len.max, step: 1, inputmode: 'numeric' });
    const minIn = h('input', { type: 'number', min: LIMITS.min.min, max: LIMITS.min.max, step: 1, inputmode: 'numeric' });
    const seedsIn = h('input', { type: 'number', min: LIMITS.seeds.min, max: LIMITS.seeds.max, step: 1, inputmode: 'numeric' });
    const stepsNote = h('p', { class: 'arena-help' });
    const seedsNote = h('p', { class: 'arena-help' });
    const stepsIn = h('input', { type: 'number', min: LIMITS.steps.min, max: LIMITS.steps.max, step: 50, inputmode: 'numeric' });
    const seedIn = h('input', { type: 'number', min: 0, max: LIMITS.seed.max, step: 1, inputmode: 'numeric' });
    const lrSel = h('select', {}, LR_CHOICES.map((v) => h('option', { value: String(v), text: String(v) })));
    const scalingSel = h('select', {}, SCALINGS.map((k) => h('option', { value: k, text: t(`arena.scaling.${k}`) })));
    const factorSel = h('select', {}, FACTORS.map((k) => h('option', { value: k, text: k === 'auto' ? t('arena.factor.auto') : `×${k}` })));
    const scalingRow = h('div', { class: 'arena-row' },
      field(t('arena.scaling'), scalingSel), field(t('arena.factor'), factorSel));

    const runBtn = h('button', { type: 'button', class: 'button arena-primary', text: t('arena.run') });
    const stopBtn = h('button', { type: 'button', class: 'button', text: t('arena.stop') });
    const resetBtn = h('button', { type: 'button', class: 'button', text: t('arena.reset') });
    const permalink = h('a', { class: 'arena-permalink', text: t('arena.permalink') });
    const status = h('p', { class: 'arena-status', role: 'status' });
    const notice = h('p', { class: 'arena-notice', hidden: true });
    const formError = h('p', { class: 'arena-error', role: 'alert', hidden: true });

    root.append(h('section', { class: 'card arena-form', 'aria-label': t('arena.setup') },
      h('h3', { text: t('arena.setup') }),
      h('div', { class: 'arena-row' }, field(t('arena.preset'), presetSel, 'arena-preset')),
      presetNote,
      h('div', { class: 'arena-row' },
        field(t('arena.task'), taskSel), field(t('arena.model'), causalSel), field(t('arena.minLen'), minIn), field(t('arena.len'), lenIn),
        field(t('arena.steps'), stepsIn), field(t('arena.lr'), lrSel), field(t('arena.seed'), seedIn), field(t('arena.seeds'), seedsIn)),
      encBox,
      scalingRow,
      h('p', { class: 'arena-help', text: t('arena.modelNote') }),
      stepsNote, seedsNote,
      h('p', { class: 'arena-help', text: t('arena.tryFirst') }),
      h('div', { class: 'arena-actions' }, runBtn, stopBtn, resetBtn, permalink),
      notice, formError, status));

    // --- results ---------------------------------------------------------------------------------
    const lossBox = h('div', { class: 'lp-box' });
    const tableWrap = h('div', { class: 'table-scroll arena-table-wrap', tabindex: 0 });
    const lossCard = h('section', { class: 'card arena-card', 'aria-label': t('arena.loss.title'), hidden: true },
      h('h3', { text: t('arena.loss.title') }), h('p', { class: 'arena-help', text: t('arena.loss.explain', SMOOTH) }),
      lossBox, tableWrap);

    const accBox = h('div', { class: 'lp-box' });
    const metricSel = h('select', {}, h('option', { value: 'tok', text: t('arena.metric.token') }),
      h('option', { value: 'seq', text: t('arena.metric.accuracy') }));
    const findingsBox = h('div', { class: 'arena-findings', 'aria-live': 'polite' });
    const resultsWrap = h('div', { class: 'table-scroll arena-table-wrap arena-results-wrap', tabindex: 0 });
    const accCard = h('section', { class: 'card arena-card', 'aria-label': t('arena.acc.title'), hidden: true },
      h('h3', { text: t('arena.acc.title') }),
      h('p', { class: 'arena-help', text: t('arena.acc.explain', EVAL_SAMPLES, interval95(EVAL_SAMPLES).toFixed(2)) }),
      h('div', { class: 'arena-row' }, field(t('arena.metric'), metricSel)),
      accBox, resultsWrap, findingsBox);
    root.append(lossCard, accCard);

    const tableCard = h('section', { class: 'card arena-card', 'aria-label': t('arena.table.title'), hidden: true });
    const tableStatus = h('p', { class: 'arena-help' });
    const tablePanes = h('div', { class: 'arena-pair' });
    const pane = (title) => {
      const p = h('div', { class: 'arena-pane' }, h('h4', { text: title }));
      tablePanes.append(p);
      return p;
    };
    const tablePane = pane(t('arena.table.values'));
    const simPane = pane(t('arena.table.sim'));
    tableCard.append(h('h3', { text: t('arena.table.title') }), h('p', { class: 'arena-help', text: t('arena.table.explain') }),
      h('p', { class: 'arena-note', text: t('arena.table.lastRow') }), tablePanes, tableStatus);
    root.append(tableCard);
    // The C resampler and colours (heatmapKernels), as every other heatmap of the page.
    const kernels = heatmapKernels(pe);
    const hmTable = new Heatmap(tablePane, {
      ...kernels, t, compact: true, colormap: 'diverging', label: t('arena.table.values'),
      axes: { x: t('arena.axis.dim'), y: t('arena.axis.position'), value: t('arena.axis.value') },
    });
    const hmSim = new Heatmap(simPane, {
      ...kernels, t, compact: true, colormap: 'diverging', label: t('arena.table.sim'),
      axes: { x: t('arena.axis.position'), y: t('arena.axis.position'), value: t('arena.axis.cosine') },
    });

    const attEnc = h('select', {});
    const attLen = h('select', {});
    const attSeed = h('input', { type: 'number', min: 0, max: 99999, step: 1, value: 1, inputmode: 'numeric' });
    const attStatus = h('p', { class: 'arena-help', role: 'status' });
    const attBox = h('div');
    const attCard = h('section', { class: 'card arena-card', 'aria-label': t('arena.att.title'), hidden: true },
      h('h3', { text: t('arena.att.title') }), h('p', { class: 'arena-help', text: t('arena.att.explain') }),
      h('div', { class: 'arena-row' }, field(t('arena.att.encoding'), attEnc), field(t('arena.att.length'), attLen),
        field(t('arena.att.example'), attSeed)),
      attStatus, attBox);
    root.append(attCard);
    const attMaps = new AttentionMaps(attBox, { t, colorize });
    const finetune = mountFinetune(root, ctx); // Chen et al. 2023's fine-tuning experiment, its own card

    // --- state ---------------------------------------------------------------------------------
    let runner = null;
    let drawTimer = 0;
    let tableJob = null; // a learned table that arrived since the last draw
    let clock = 0;
    let attReq = 0;
    let attPicked = false;
    const drawn = { loss: 0, acc: 0 };
    const drawCost = { ms: 0, count: 0, last: 0 }; // main-thread time of draw() (the Arena benchmark reports it)
    root.arenaResults = () => ({
      settings: runner?.settings ?? null,
      wallMs: runner ? runner.elapsed() : 0,
      draw: { ...drawCost },
      jobs: (runner?.jobs ?? []).map((j) => ({
        id: j.id, enc: j.enc, seed: j.seed, state: j.state, busy: j.busy, steps: j.steps, losses: Array.from(j.losses.subarray(0, j.steps)),
        evals: j.evals.map((e) => ({ ...e })), scaledEvals: j.scaledEvals.map((e) => ({ ...e })), msPerStep: j.msPerStep,
        trainMs: j.trainMs, evalMs: j.evalMs, worker: j.worker,
      })),
    });

    function fillForm(s) {
      taskSel.value = s.task;
      for (const e of ENCODINGS) encInputs[e].checked = s.enc.includes(e);
      causalSel.value = s.causal ? '1' : '0';
      lenIn.value = String(s.len);
      minIn.value = String(s.min);
      stepsIn.value = String(s.steps);
      seedIn.value = String(s.seed);
      seedsIn.value = String(s.seeds);
      if (!LR_CHOICES.includes(s.lr)) lrSel.append(h('option', { value: String(s.lr), text: String(s.lr) }));
      lrSel.value = String(s.lr);
      scalingSel.value = s.scaling;
      factorSel.value = s.factor;
      metricSel.value = s.metric;
      syncScaling();
      syncNotes(s);
    }

    /** The preset these settings are (if any), its explanation, and the notes on steps and seeds. */
    function syncNotes(s) {
      const p = presetOf(s);
      presetSel.value = p?.id ?? '';
      presetNote.hidden = !p;
      if (p) {
        const params = paramCount(s);
        presetNote.textContent = t(`arena.preset.${p.id}.explain`, {
          params: formatInt(params), ratio: formatInt(Math.round(PAPER_PARAMS / params / 100) * 100), steps: formatInt(s.steps),
        });
      }
      stepsNote.textContent = t('arena.stepsNote', {
        steps: formatInt(s.steps), budget: formatInt(taskSteps(s.task, s.causal)), task: t(`arena.taskName.${s.task}`),
        model: t(`arena.modelName.${s.causal ? 1 : 0}`),
      });
      seedsNote.textContent = t('arena.seedsNote', s.seeds, s.seed);
    }

    /** Parameters of the Arena's model for these settings (asked of the engine, once per spec). */
    const paramCache = new Map();
    function paramCount(s) {
      const key = `${s.task}:${s.causal}:${s.len}`;
      if (!paramCache.has(key)) {
        const tr = pe.trainer({ kind: 'arena', task: s.task, encoding: { kind: 'rope' }, causal: s.causal, train_length: s.len });
        paramCache.set(key, tr.paramCount);
        tr.free();
      }
      return paramCache.get(key);
    }

    function syncScaling() {
      const rope = encInputs.rope.checked;
      scalingSel.disabled = !rope;
      factorSel.disabled = !rope || scalingSel.value === 'none';
    }

    /** The settings in the form, or { error } naming the first bad field. */
    function readForm() {
      const int = (input, { min, max }, name) => {
        const v = Number(input.value);
        if (input.value.trim() === '' || !Number.isInteger(v) || v < min || v > max) return { error: t('arena.bad', t(name), min, max) };
        return { v };
      };
      const len = int(lenIn, LIMITS.len, 'arena.len');
      const min = int(minIn, LIMITS.min, 'arena.minLen');
      const steps = int(stepsIn, LIMITS.steps, 'arena.steps');
      const seed = int(seedIn, LIMITS.seed, 'arena.seed');
      const seeds = int(seedsIn, LIMITS.seeds, 'arena.seeds');
      const bad = [len, min, steps, seed, seeds].find((r) => r.error);
      if (bad) return bad;
      if (min.v > len.v) return { error: t('arena.badMin', len.v) };
      const enc = ENCODINGS.filter((e) => encInputs[e].checked);
      if (!enc.length) return { error: t('arena.noEnc') };
      return {
        settings: {
          task: taskSel.value, enc, causal: causalSel.value === '1', len: len.v, min: min.v, steps: steps.v, seed: seed.v, seeds: seeds.v,
          lr: Number(lrSel.value), scaling: scalingSel.value, factor: factorSel.value, metric: metricSel.value,
        },
      };
    }

    function onFormChange() {
      syncScaling();
      const r = readForm();
      formError.hidden = !r.error;
      formError.textContent = r.error ?? '';
      runBtn.disabled = !!r.error;
      if (r.error) return;
      settings = r.settings;
      syncNotes(settings);
      ctx.replaceLink('', settingsParams(settings));
      permalink.href = ctx.hashFor('', settingsParams(settings));
      showNotice();
    }

    /** A new task or model fills in its measured step budget. */
    function onTaskChange() {
      stepsIn.value = String(taskSteps(taskSel.value, causalSel.value === '1'));
      onFormChange();
    }

    /** Picking a preset fills the form (the measure shown stays). */
    function onPreset() {
      const p = presetById(presetSel.value);
      if (!p) return;
      fillForm({ ...p.settings, enc: p.settings.enc.slice(), metric: metricSel.value });
      onFormChange();
    }

    function showNotice(text = null) {
      let msg = text;
      if (!msg && runner?.jobs.length && !sameSettings(runner.settings, settings)) msg = t('arena.changed');
      notice.hidden = !msg;
      notice.textContent = msg ?? '';
    }

    for (const el of [lenIn, minIn, stepsIn, seedIn, seedsIn, lrSel, scalingSel, factorSel, ...Object.values(encInputs)]) {
      el.addEventListener('input', onFormChange);
    }
    taskSel.addEventListener('input', onTaskChange);
    causalSel.addEventListener('input', onTaskChange);
    presetSel.addEventListener('input', onPreset);

    // --- the runs ------------------------------------------------------------------------------
    function attach(r) {
      runner = r;
      runner.onUpdate = (job, what) => {
        if (destroyed) return;
        if (what === 'table' && job) tableJob = job; // drawn with the rest (draw), so all show the same moment
        if (what === 'finished' || what === 'state') syncButtons();
        if (!runner.running && drawTimer) {
          // A stop or the end is drawn at once, not after a long while-running wait.
          clearTimeout(drawTimer);
          drawTimer = 0;
        }
        scheduleDraw();
      };
    }

    function newRunner() {
      const r = new Runner({
        concurrency: Math.min(navigator.hardwareConcurrency || 2, 16),
        onUpdate: () => {},
        makeWorker: () => new Worker(new URL('./worker.js', import.meta.url), { type: 'module' }),
      });
      attach(r);
      return r;
    }

    function run() {
      const r = readForm();
      if (r.error) return;
      settings = r.settings;
      if (kept?.runner && kept.runner !== runner) kept.runner.reset();
      runner ??= newRunner();
      kept = { runner, settings, wasRunning: false };
      attReq += 1;
      attPicked = false;
      attCard.hidden = true;
      tableCard.hidden = true; // until the learned table's first rows arrive (drawTable)
      tableJob = null;
      runner.start(settings);
      showNotice();
      setupAttention();
      scheduleDraw();
    }

    function syncButtons() {
      const s = !runner || !runner.jobs.length ? 'idle' : runner.running ? 'running' : runner.finished ? 'done' : 'stopped';
      root.dataset.state = s;
      if (s === 'done') root.dataset.wallMs = String(Math.round(runner.elapsed())); // with data-state, for tools
      stopBtn.textContent = s === 'stopped' ? t('arena.resume') : t('arena.stop');
      stopBtn.disabled = s === 'idle' || s === 'done';
      resetBtn.disabled = s === 'idle';
      runBtn.textContent = s === 'idle' ? t('arena.run') : t('arena.runAgain');
      clearInterval(clock);
      if (s === 'running') clock = setInterval(() => drawStatus(), 500);
      if (s !== 'idle') attCard.hidden = !runner.jobs.some((j) => j.steps > 0);
      // The charts appear with the first run (empty axes before it would say nothing).
      lossCard.hidden = s === 'idle';
      accCard.hidden = s === 'idle';
      updateAttentionChoices();
    }

    runBtn.addEventListener('click', run);
    stopBtn.addEventListener('click', () => {
      if (!runner) return;
      if (runner.running) runner.stop();
      else runner.resume();
      syncButtons();
      scheduleDraw();
    });
    resetBtn.addEventListener('click', () => {
      runner?.reset();
      runner = null;
      kept = null;
      attReq += 1;
      tableJob = null;
      root.dataset.state = 'idle';
      tableCard.hidden = true;
      attCard.hidden = true;
      drawn.loss = 0;
      drawn.acc = 0;
      root.dataset.lossDrawn = '0';
      root.dataset.accDrawn = '0';
      syncButtons();
      draw();
      showNotice();
    });

    // --- drawing -------------------------------------------------------------------------------
    function scheduleDraw() {
      if (drawTimer) return;
      drawTimer = setTimeout(() => {
        drawTimer = 0;
        if (!destroyed) draw();
      }, runner?.running && drawn.loss > 0 ? Math.max(RUN_DRAW_MS, DRAW_SHARE * drawCost.last) : DRAW_MS);
    }

    function draw() {
      const t0 = performance.now();
      if (tableJob) drawTable(tableJob);
      tableJob = null;
      drawStatus();
      drawTables();
      drawLoss();
      drawAcc();
      drawFindings();
      drawCost.last = performance.now() - t0;
      drawCost.ms += drawCost.last;
      drawCost.count += 1;
    }

    function drawStatus() {
      const state = root.dataset.state;
      status.textContent = runner?.jobs.length ? statusText(runner, state, t) : t('arena.ready');
      if (state !== 'done') root.dataset.wallMs = '';
    }

    function drawTables() {
      const jobs = runner?.jobs ?? [];
      tableWrap.replaceChildren(...(jobs.length ? [progressTable(jobs, t)] : []));
      resultsWrap.replaceChildren(...(jobs.some((j) => j.evals.length) ? [resultsTable(jobs, runner.settings, t)] : []));
    }

    function drawLoss() {
      if (charts.drawLoss(runner?.jobs ?? [], runner?.settings ?? settings)) {
        drawn.loss += 1;
        root.dataset.lossDrawn = String(drawn.loss);
      }
    }

    function drawAcc() {
      if (charts.drawAcc(runner?.jobs ?? [], runner?.settings ?? settings, METRICS[metricSel.value])) {
        drawn.acc += 1;
        root.dataset.accDrawn = String(drawn.acc);
        root.dataset.accBands = String(charts.bands); // bands of two or more lengths (tests read it)
      }
    }

    function drawFindings() {
      if (!runner?.jobs.length) {
        findingsBox.replaceChildren();
        return;
      }
      const metric = METRICS[metricSel.value];
      const list = findings(runner.jobs, runner.settings, t, metric);
      const paper = paperFor(runner.settings);
      if (paper) list.push(...paperCheck(runner.jobs, runner.settings, paper, t, metric));
      findingsBox.replaceChildren(...list.map((x) => h('p', { text: x })));
    }

    function drawTable(job) {
      const tab = job.table;
      if (!tab) return;
      const [rows, cols] = tab.shape;
      tableCard.hidden = false;
      hmTable.setData({ data: tab.data, rows, cols });
      hmSim.setData({ data: cosineSimilarity(tab.data, rows, cols), rows, cols: rows, range: [-1, 1] });
      tableStatus.textContent = t('arena.table.status', job.steps, rows, cols);
      root.dataset.tableSteps = String(job.steps);
    }

    const charts = new ArenaCharts(lossBox, accBox, { t, onReady: () => draw() });
    metricSel.addEventListener('input', () => {
      onFormChange();
      drawTables();
      drawAcc();
      drawFindings();
    });

    // --- attention -------------------------------------------------------------------------------
    function setupAttention() {
      const L = settings.len;
      attLen.replaceChildren(...[1, 2, 4].map((f) => Math.min(256, f * L)).filter((n, i, a) => a.indexOf(n) === i)
        .map((n) => h('option', { value: String(n), text: t('arena.att.len', n, n / L) })));
      updateAttentionChoices();
    }

    function updateAttentionChoices() {
      if (!runner) return;
      // The runs with the first seed: one model per encoding to look into.
      const ready = runner.jobs.filter((j) => j.seed === runner.settings.seed && j.steps > 0 && (j.state === 'done' || j.state === 'stopped'));
      const have = [...attEnc.options].map((o) => o.value).join();
      if (have !== ready.map((j) => j.enc).join()) {
        const keep = attEnc.value;
        attEnc.replaceChildren(...ready.map((j) => h('option', { value: j.enc, text: t(`arena.encName.${j.enc}`) })));
        // rope first (it is the one to compare against), unless the learner picked another.
        if (attPicked && ready.some((j) => j.enc === keep)) attEnc.value = keep;
        else if (ready.length) attEnc.value = ready.some((j) => j.enc === 'rope') ? 'rope' : ready[0].enc;
        if (ready.length) requestAttention();
      }
      if (!ready.length) attStatus.textContent = t('arena.att.wait');
    }

    async function requestAttention() {
      if (!runner || !attEnc.value) return;
      const seed = Number(attSeed.value);
      if (!Number.isInteger(seed) || seed < 0) return;
      attReq += 1;
      const req = attReq;
      const enc = attEnc.value;
      const length = Number(attLen.value);
      attStatus.textContent = t('arena.att.computing');
      try {
        const r = await runner.attention(enc, length, seed);
        if (req !== attReq || destroyed) return;
        const job = runner.jobs.find((j) => j.enc === enc && j.seed === runner.settings.seed);
        const L = runner.settings.len;
        const trainT = runner.settings.causal ? 2 * L + 1 : L + 1;
        attMaps.setData(r, trainT);
        attStatus.textContent = t('arena.att.status', t(`arena.encName.${enc}`), job?.seed ?? 0, job?.steps ?? 0, length, r.shape[2]);
        root.dataset.attention = `${enc}:${length}`;
      } catch (err) {
        if (req !== attReq || destroyed) return;
        attStatus.textContent = t('arena.att.failed', String(err?.message ?? err));
      }
    }
    for (const el of [attEnc, attLen, attSeed]) el.addEventListener('input', requestAttention);
    attEnc.addEventListener('input', () => {
      attPicked = true;
    });

    // --- start -----------------------------------------------------------------------------------
    fillForm(settings);
    permalink.href = ctx.hashFor('', settingsParams(settings));
    const hasLink = KEYS.some((k) => ctx.route.params.has(k));
    if (kept && sameSettings(kept.settings, settings)) {
      // The same experiment as before the remount: its runs continue here.
      attach(kept.runner);
      setupAttention();
      for (const j of runner.jobs) if (j.table) drawTable(j);
      if (kept.wasRunning) runner.resume();
    } else {
      kept?.runner.reset();
      kept = null;
      if (first.bad.length) showNotice(t('arena.badLink', first.bad.join(', ')));
      else if (hasLink) showNotice(t('arena.linkReady', { n: settings.enc.length, seeds: settings.seeds, steps: formatInt(settings.steps) }));
    }
    if (hasLink) ctx.replaceLink('', settingsParams(settings));
    syncButtons();
    draw();

    return {
      update(route) {
        const next = readSettings(route.params);
        settings = next.settings;
        fillForm(settings);
        permalink.href = ctx.hashFor('', settingsParams(settings));
        formError.hidden = true;
        runBtn.disabled = false;
        if (next.bad.length) showNotice(t('arena.badLink', next.bad.join(', ')));
        else if (runner?.jobs.length && !sameSettings(runner.settings, settings)) showNotice(t('arena.changed'));
        else if (!runner?.jobs.length) showNotice(t('arena.linkReady', { n: settings.enc.length, seeds: settings.seeds, steps: formatInt(settings.steps) }));
        else showNotice();
        finetune.update(route.params);
      },
      destroy() {
        destroyed = true;
        clearTimeout(drawTimer);
        clearInterval(clock);
        if (runner) {
          kept = { runner, settings: runner.settings, wasRunning: runner.running };
          runner.stop();
          runner.onUpdate = () => {};
        }
        charts.destroy();
        hmTable.destroy();
        hmSim.destroy();
        attMaps.destroy();
        finetune.destroy();
      },
    };
  },
};


// The Arena page (#arena?task=…&enc=…): train the same tiny transformer with several positional
// encodings side by side (one Web Worker each, runner.js), watch the losses, then compare the
// accuracy at 1× to 8× the training length; the learned table and its position similarity as it
// trains; attention maps of one example. Mounted by web/app/pages.js.
//
// The settings live in the URL (ctx.replaceLink), so the address bar is always a permalink of the
// experiment; a link opens with its settings filled in and trains when Run is pressed (the page
// says so). A language switch mounts the page again: the runs carry over (kept below).
//
// For tests and tools the page root (.arena) announces data-state (idle | running | stopped |
// done), data-loss-drawn / data-acc-drawn (how many times each chart was drawn with data) and
// offers el.arenaResults() → { settings, jobs: [{ enc, state, steps, losses: number[], evals }] }.
import { h, uid } from '../../plot/dom.js';
import { float32String, formatInt, formatValue, niceRealTicks } from '../../plot/format.js';
import { Heatmap } from '../../plot/heatmap.js';
import { cosineSimilarity } from '../../model/similarity.js';
import { ensureStyles, withLinePlot } from '../../views/common.js';
import {
  COLOR, ENCODINGS, FACTORS, LIMITS, METRICS, SCALINGS, TASKS, evalLengths, readSettings, sameSettings,
  settingsParams, smooth,
} from './experiment.js';
import { findings } from './findings.js';
import { AttentionMaps } from './attention.js';
import { Runner } from './runner.js';
import './strings.js';

const KEYS = ['task', 'enc', 'causal', 'len', 'steps', 'seed', 'lr', 'scaling', 'factor', 'metric'];
const LR_CHOICES = [3e-4, 1e-3, 3e-3, 1e-2];
const SMOOTH = 10;
const DRAW_MS = 120;
// While the workers train, the main thread is a third thread on machines with two cores: redraws
// (two charts, the table, the findings) come at most every RUN_DRAW_MS, and further apart when a
// redraw is slow, so drawing takes at most 1/DRAW_SHARE of the time (measured: at one redraw per
// 120 ms the page spent as much CPU drawing as the six runs spent training). The first losses
// are drawn after DRAW_MS, so the curves start as soon as training does.
const RUN_DRAW_MS = 500;
const DRAW_SHARE = 20;

// The runs outlive a mount (a language switch remounts the page); a different experiment, or
// leaving the page, ends them.
let kept = null; // { runner, settings, wasRunning }

/** Marks the training length on the accuracy chart (active only where options ask for it). */
const markerPlugin = {
  id: 'peArenaMarker',
  afterDatasetsDraw(chart, _args, opts) {
    if (!opts?.at) return;
    const { ctx, chartArea: a, scales } = chart;
    const x = scales.x.getPixelForValue(opts.at);
    if (!(x >= a.left && x <= a.right)) return;
    ctx.save();
    ctx.strokeStyle = opts.color;
    ctx.fillStyle = opts.color;
    ctx.setLineDash([5, 4]);
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    ctx.moveTo(x, a.top);
    ctx.lineTo(x, a.bottom);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.font = `12px ${getComputedStyle(document.body).fontFamily}`;
    ctx.textBaseline = 'top';
    ctx.textAlign = 'left';
    ctx.fillText(opts.label, x + 4, a.top + 4);
    ctx.restore();
  },
};
let markerRegistered = false;

const SUPERSCRIPT = { '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };
/** An integer as superscript digits (10⁻⁴ on the loss axis). */
const superscript = (k) => String(k).split('').map((c) => SUPERSCRIPT[c] ?? c).join('');

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

    const taskSel = h('select', {}, TASKS.map((k) => h('option', { value: k, text: t(`arena.task.${k}`) })));
    const encBox = h('fieldset', { class: 'arena-encs' }, h('legend', { text: t('arena.encodings') }));
    const encInputs = {};
    for (const e of ENCODINGS) {
      const input = h('input', { type: 'checkbox', id: uid('arena-enc'), value: e });
      encInputs[e] = input;
      encBox.append(h('label', { class: 'arena-enc', for: input.id, title: t(`arena.enc.${e}.help`) },
        input, h('span', { class: `arena-swatch arena-c${COLOR[e]}` }), h('span', { text: e })));
    }
    const causalSel = h('select', {}, h('option', { value: '1', text: t('arena.causal.1') }), h('option', { value: '0', text: t('arena.causal.0') }));
    const lenIn = h('input', { type: 'number', min: LIMITS.len.min, max: LIMITS.len.max, step: 1, inputmode: 'numeric' });
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
      h('div', { class: 'arena-row' },
        field(t('arena.task'), taskSel), field(t('arena.model'), causalSel), field(t('arena.len'), lenIn),
        field(t('arena.steps'), stepsIn), field(t('arena.lr'), lrSel), field(t('arena.seed'), seedIn)),
      encBox,
      scalingRow,
      h('p', { class: 'arena-help', text: t('arena.modelNote') }),
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
    const accCard = h('section', { class: 'card arena-card', 'aria-label': t('arena.acc.title'), hidden: true },
      h('h3', { text: t('arena.acc.title') }), h('p', { class: 'arena-help', text: t('arena.acc.explain') }),
      h('div', { class: 'arena-row' }, field(t('arena.metric'), metricSel)),
      accBox, findingsBox);
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
    const hmTable = new Heatmap(tablePane, {
      colorize, t, compact: true, colormap: 'diverging', label: t('arena.table.values'),
      axes: { x: t('arena.axis.dim'), y: t('arena.axis.position'), value: t('arena.axis.value') },
    });
    const hmSim = new Heatmap(simPane, {
      colorize, t, compact: true, colormap: 'diverging', label: t('arena.table.sim'),
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

    // --- state ---------------------------------------------------------------------------------
    let runner = null;
    let lossPlot = null;
    let accPlot = null;
    let mod = null;
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
        enc: j.enc, state: j.state, busy: j.busy, steps: j.steps, losses: Array.from(j.losses.subarray(0, j.steps)),
        evals: j.evals.map((e) => ({ ...e })), scaledEvals: j.scaledEvals.map((e) => ({ ...e })), msPerStep: j.msPerStep,
        trainMs: j.trainMs, evalMs: j.evalMs, worker: j.worker,
      })),
    });

    function fillForm(s) {
      taskSel.value = s.task;
      for (const e of ENCODINGS) encInputs[e].checked = s.enc.includes(e);
      causalSel.value = s.causal ? '1' : '0';
      lenIn.value = String(s.len);
      stepsIn.value = String(s.steps);
      seedIn.value = String(s.seed);
      if (!LR_CHOICES.includes(s.lr)) lrSel.append(h('option', { value: String(s.lr), text: String(s.lr) }));
      lrSel.value = String(s.lr);
      scalingSel.value = s.scaling;
      factorSel.value = s.factor;
      metricSel.value = s.metric;
      syncScaling();
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
      const steps = int(stepsIn, LIMITS.steps, 'arena.steps');
      const seed = int(seedIn, LIMITS.seed, 'arena.seed');
      const bad = [len, steps, seed].find((r) => r.error);
      if (bad) return bad;
      const enc = ENCODINGS.filter((e) => encInputs[e].checked);
      if (!enc.length) return { error: t('arena.noEnc') };
      return {
        settings: {
          task: taskSel.value, enc, causal: causalSel.value === '1', len: len.v, steps: steps.v, seed: seed.v,
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
      ctx.replaceLink('', settingsParams(settings));
      permalink.href = ctx.hashFor('', settingsParams(settings));
      showNotice();
    }

    function showNotice(text = null) {
      let msg = text;
      if (!msg && runner?.jobs.length && !sameSettings(runner.settings, settings)) msg = t('arena.changed');
      notice.hidden = !msg;
      notice.textContent = msg ?? '';
    }

    for (const el of [taskSel, causalSel, lenIn, stepsIn, seedIn, lrSel, scalingSel, factorSel, ...Object.values(encInputs)]) {
      el.addEventListener('input', onFormChange);
    }

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
      drawJobsTable();
      drawLoss();
      drawAcc();
      drawFindings();
      drawCost.last = performance.now() - t0;
      drawCost.ms += drawCost.last;
      drawCost.count += 1;
    }

    const fmtTime = (ms) => {
      const s = Math.round(ms / 1000);
      return s < 60 ? t('arena.sec', s) : t('arena.min', Math.floor(s / 60), s % 60);
    };

    function drawStatus() {
      if (!runner || !runner.jobs.length) {
        status.textContent = t('arena.ready');
        root.dataset.wallMs = '';
        return;
      }
      const count = (st) => runner.jobs.filter((j) => j.state === st).length;
      const steps = runner.jobs.reduce((n, j) => n + j.steps, 0);
      const total = runner.jobs.reduce((n, j) => n + j.target, 0);
      const el = runner.elapsed();
      const parts = {
        done: count('done'), training: count('training'), evaluating: count('evaluating'), queued: count('queued'),
        stopped: count('stopped'), error: count('error'),
      };
      const state = root.dataset.state;
      const pool = runner.pool.length;
      status.textContent = t(`arena.status.${state}`, { ...parts, steps, total, time: fmtTime(el), workers: pool, n: runner.jobs.length });
      if (state === 'done') root.dataset.wallMs = String(Math.round(el));
    }

    function drawJobsTable() {
      if (!runner || !runner.jobs.length) {
        tableWrap.replaceChildren();
        return;
      }
      const L = runner.settings.len;
      const cols = [1, 2, 4, 8].map((f) => Math.min(256, f * L));
      const head = h('tr', {}, h('th', { scope: 'col', text: t('arena.col.enc') }), h('th', { scope: 'col', text: t('arena.col.state') }),
        h('th', { scope: 'col', text: t('arena.col.steps') }), h('th', { scope: 'col', text: t('arena.col.loss') }),
        h('th', { scope: 'col', text: t('arena.col.ms') }),
        cols.map((n, i) => h('th', { scope: 'col', text: t(metricSel.value === 'tok' ? 'arena.col.tok' : 'arena.col.acc', [1, 2, 4, 8][i], n) })));
      const rows = runner.jobs.map((j) => {
        const last = j.steps ? j.losses[j.steps - 1] : NaN;
        const acc = (n) => j.evals.find((e) => e.length === n)?.[METRICS[metricSel.value]];
        return h('tr', { 'data-enc': j.enc, 'data-state': j.state, 'data-steps': String(j.steps) },
          h('th', { scope: 'row' }, h('span', { class: `arena-swatch arena-c${COLOR[j.enc]}` }), j.enc),
          h('td', { text: j.state === 'error' ? t('arena.state.error', j.error) : t(`arena.state.${j.state}`) }),
          h('td', { class: 'num', text: `${formatInt(j.steps)} / ${formatInt(j.target)}` }),
          h('td', { class: 'num', text: j.steps ? formatValue(last) : '—' }),
          h('td', { class: 'num', text: j.msPerStep === null ? '—' : j.msPerStep.toFixed(1) }),
          cols.map((n) => {
            const a = acc(n);
            return h('td', { class: 'num', text: a === undefined ? '—' : a.toFixed(2) });
          }));
      });
      tableWrap.replaceChildren(h('table', { class: 'mini-table arena-jobs' },
        h('caption', { class: 'sr-only', text: t('arena.col.caption') }), h('thead', {}, head), h('tbody', {}, rows)));
    }

    function colorSets(chart, keys) {
      chart.data.datasets.forEach((d, i) => {
        d.borderColor = mod.seriesColor(COLOR[keys[i]]);
        d.backgroundColor = d.borderColor;
      });
    }

    function drawLoss() {
      if (!lossPlot) return;
      const jobs = runner?.jobs ?? [];
      const n = runner?.settings.steps ?? settings.steps;
      const series = jobs.map((j) => {
        const values = new Float32Array(n).fill(NaN);
        const s = smooth(j.losses, j.steps, SMOOTH);
        for (let i = 0; i < j.steps; i++) values[i] = Math.log10(Math.max(s[i], 1e-8));
        return { label: j.enc, values };
      });
      lossPlot.setData({ series, x0: 1 });
      colorSets(lossPlot.chart, jobs.map((j) => j.enc));
      lossPlot.chart.update('none');
      if (jobs.some((j) => j.steps > 0)) {
        drawn.loss += 1;
        root.dataset.lossDrawn = String(drawn.loss);
      }
    }

    function drawAcc() {
      if (!accPlot) return;
      const jobs = runner?.jobs ?? [];
      const s = runner?.settings ?? settings;
      const lengths = evalLengths(s.len);
      const x0 = lengths[0];
      const n = lengths[lengths.length - 1] - x0 + 1;
      const metric = METRICS[metricSel.value];
      const series = [];
      const keys = [];
      const add = (label, key, evals, dash) => {
        const values = new Float32Array(n).fill(NaN);
        for (const e of evals) values[e.length - x0] = e[metric];
        series.push({ label, values, dash });
        keys.push(key);
      };
      for (const j of jobs) {
        add(j.enc, j.enc, j.evals, false);
        if (j.enc === 'rope' && s.scaling !== 'none') add(t('arena.ropeScaled', s.scaling), 'rope+scaled', j.scaledEvals, true);
      }
      accPlot.setData({ series, x0 });
      const chart = accPlot.chart;
      colorSets(chart, keys);
      chart.data.datasets.forEach((d) => {
        d.spanGaps = true;
        d.pointRadius = 3;
      });
      chart.options.plugins.peArenaMarker = { at: s.len, label: t('arena.acc.mark', s.len), color: mod.seriesColor(7) };
      chart.update('none');
      if (jobs.some((j) => j.evals.length > 0)) {
        drawn.acc += 1;
        root.dataset.accDrawn = String(drawn.acc);
      }
    }

    function drawFindings() {
      const list = runner?.jobs.length ? findings(runner.jobs, runner.settings, t, METRICS[metricSel.value]) : [];
      findingsBox.replaceChildren(...list.map((s) => h('p', { text: s })));
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

    withLinePlot((m) => {
      if (destroyed) return;
      mod = m;
      lossPlot = new m.LinePlot(lossBox, { t, xLabel: t('arena.loss.x'), yLabel: t('arena.loss.y'), label: t('arena.loss.title') });
      const ly = lossPlot.chart.options.scales.y;
      // The axis holds log10(loss): ticks at round losses (1, 2, 5 × 10^k, or finer within a decade).
      ly.afterBuildTicks = (axis) => {
        const span = axis.max - axis.min;
        let ticks = [];
        if (span < 0.6) {
          ticks = niceRealTicks(10 ** axis.min, 10 ** axis.max, 5).filter((v) => v > 0).map((v) => ({ value: Math.log10(v) }));
        } else {
          for (let k = Math.floor(axis.min); k <= Math.ceil(axis.max); k++) {
            for (const m2 of span <= 2.5 ? [1, 2, 5] : [1]) {
              const v = k + Math.log10(m2);
              if (v >= axis.min - 1e-9 && v <= axis.max + 1e-9) ticks.push({ value: v });
            }
          }
        }
        if (ticks.length >= 2) axis.ticks = ticks;
      };
      ly.ticks.callback = (v) => {
        const k = Math.round(v);
        if (Math.abs(v - k) < 1e-9 && Math.abs(k) >= 3) return `10${superscript(k)}`;
        return formatValue(Number((10 ** v).toPrecision(3)));
      };
      lossPlot.chart.options.plugins.tooltip.callbacks.label = (item) =>
        `${item.dataset.label}: ${item.parsed.y === null ? '—' : float32String(10 ** item.parsed.y)}`;

      accPlot = new m.LinePlot(accBox, { t, xLabel: t('arena.acc.x'), yLabel: t('arena.acc.y'), label: t('arena.acc.title') });
      const Chart = accPlot.chart.constructor;
      if (!markerRegistered) {
        Chart.register(markerPlugin);
        markerRegistered = true;
      }
      const ay = accPlot.chart.options.scales.y;
      ay.min = 0;
      ay.max = 1;
      draw();
    });
    metricSel.addEventListener('input', () => {
      onFormChange();
      drawJobsTable();
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
      const ready = runner.jobs.filter((j) => j.steps > 0 && (j.state === 'done' || j.state === 'stopped'));
      const have = [...attEnc.options].map((o) => o.value).join();
      if (have !== ready.map((j) => j.enc).join()) {
        const keep = attEnc.value;
        attEnc.replaceChildren(...ready.map((j) => h('option', { value: j.enc, text: j.enc })));
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
        const job = runner.jobs.find((j) => j.enc === enc);
        const L = runner.settings.len;
        const trainT = runner.settings.causal ? 2 * L + 1 : L + 1;
        attMaps.setData(r, trainT);
        attStatus.textContent = t('arena.att.status', enc, job?.steps ?? 0, length, r.shape[2]);
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
      else if (hasLink) showNotice(t('arena.linkReady', settings.enc.length, formatInt(settings.steps)));
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
        else if (!runner?.jobs.length) showNotice(t('arena.linkReady', settings.enc.length, formatInt(settings.steps)));
        else showNotice();
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
        lossPlot?.destroy();
        accPlot?.destroy();
        hmTable.destroy();
        hmSim.destroy();
        attMaps.destroy();
      },
    };
  },
};


// The line-plot view: a few columns (or rows) of the output as curves, e.g. the sine and cosine
// of three frequencies across positions. Every kind gets it; pairwise kinds plot rows (one
// query against every key) by default. Clicking the heatmap adds or removes a curve.
import { h, uid } from '../../plot/dom.js';
import { both, textFor } from '../../i18n/index.js';
import { float32String, formatInt } from '../../plot/format.js';
import { DataTable, spread } from '../datatable.js';
import { whenNearViewport } from '../lazy.js';
import { displayData, rowOffset, sliceOffset, valueName } from '../../model/output.js';
import { defaultSeries, parseList } from '../../model/series.js';

const MAX_SERIES = 8; // the palette's size (web/plot/lineplot.js)

export default {
  id: 'lines',
  kinds: () => true,
  title: both('view.lines.title'),
  explain: (info) => textFor('view.lines.explain', info.kind, info.class),

  mount(el, ctx) {
    const { t, info } = ctx;
    const tr = t.tr;
    const id = uid('lines');
    const rowName = tr(info.axes.row);
    const colName = tr(info.axes.col);
    let state = null;
    let mode = null;

    // Curves are columns (one per dimension, across positions) or rows (one per position).
    const modeBox = h('fieldset', { class: 'tool-field segmented' }, h('legend', { class: 'sr-only', text: t('view.lines.mode') }));
    const modeInputs = {};
    for (const m of ['cols', 'rows']) {
      const input = h('input', { type: 'radio', name: `${id}-mode`, id: `${id}-mode-${m}`, value: m });
      input.addEventListener('input', () => {
        const now = state?.info ?? info;
        const preferred = defaultSeries(now);
        const list = m === preferred.mode ? preferred.list : defaultSeries({ ...now, class: m === 'rows' ? 'pairwise' : 'generic' }).list;
        ctx.setShared({ series: { mode: m, list } });
      });
      modeInputs[m] = input;
      modeBox.append(input, h('label', {
        for: input.id, text: m === 'cols' ? t('view.lines.byCol', colName, rowName) : t('view.lines.byRow', rowName, colName),
      }));
    }
    const listInput = h('input', {
      id: `${id}-list`, type: 'text', autocomplete: 'off', spellcheck: 'false', inputmode: 'text',
      'aria-describedby': `${id}-list-help ${id}-list-note`,
    });
    const listLabel = h('label', { for: listInput.id });
    const listHelp = h('p', { class: 'help', id: `${id}-list-help`, text: t('view.lines.listHelp') });
    const listNote = h('p', { class: 'field-note', id: `${id}-list-note`, role: 'status' });
    listNote.hidden = true;
    listInput.addEventListener('input', () => {
      const { list, bad } = parseList(listInput.value);
      if (bad) {
        showNote(t('view.lines.invalid', bad), true);
        return;
      }
      ctx.setShared({ series: { mode, list } });
    });
    el.append(h('div', { class: 'view-toolbar' }, modeBox,
      h('div', { class: 'tool-field tool-grow' }, listLabel, listInput)), listHelp, listNote);

    const box = h('div', { class: 'lp-box' });
    el.append(box);
    // Chart.js arrives in its own chunk, asked for once this view is on screen and the next frame
    // has been painted (the first heatmap, drawn in the same update, is on screen by then): it
    // stays out of the first screen's load and main-thread work. Draw once it is here.
    let LinePlot = null;
    let timedInput = null;
    const stopWaiting = whenNearViewport(el, () => requestAnimationFrame(() => setTimeout(() => {
      import('../../plot/lineplot.js').then((m) => {
        LinePlot = m.LinePlot;
        if (state) draw();
      });
    }, 0)), '0px');
    const plots = {};
    const plotFor = (m) => {
      // The axes differ by mode: one plot each, made when first needed.
      plots[m] ??= new LinePlot(box, {
        t,
        xLabel: m === 'cols' ? rowName : colName,
        yLabel: tr(valueName(state.info, state.shared)),
        label: t('view.lines.aria', m === 'cols' ? colName : rowName, m === 'cols' ? rowName : colName),
      });
      for (const [k, p] of Object.entries(plots)) p.el.hidden = k !== m;
      return plots[m];
    };
    const table = new DataTable(el, { summary: t('table.summary') });

    function showNote(text, isError = false) {
      listNote.textContent = text;
      listNote.hidden = !text;
      listNote.classList.toggle('is-error', isError);
      if (isError) listInput.setAttribute('aria-invalid', 'true');
      else listInput.removeAttribute('aria-invalid');
    }

    function draw() {
      const { spec, shared, info } = state;
      const series = shared.series ?? defaultSeries(info);
      mode = series.mode;
      modeInputs[mode].checked = true;
      listLabel.textContent = mode === 'cols' ? t('view.lines.listCols', colName) : t('view.lines.listRows', rowName);
      if (document.activeElement !== listInput) listInput.value = series.list.join(', ');
      const n = mode === 'cols' ? info.rows : info.cols;
      const limit = mode === 'cols' ? info.cols : info.rows;
      const ok = series.list.filter((d) => d < limit);
      const skipped = series.list.filter((d) => d >= limit);
      const notes = [];
      if (skipped.length) notes.push(t('view.lines.skipped', skipped.slice(0, 4).join(', ') + (skipped.length > 4 ? ', …' : ''), limit - 1));
      if (ok.length > MAX_SERIES) notes.push(t('view.lines.tooMany', MAX_SERIES));
      if (!ok.length) notes.push(t('view.lines.none'));
      showNote(notes.join(' '));
      const shown = ok.slice(0, MAX_SERIES);
      const { offset } = sliceOffset(info, shared.head ?? 0);
      const data = displayData(state, ctx.pe);
      const cols = info.cols;
      const r0 = rowOffset(info, spec);
      const lines = shown.map((d) => {
        let values;
        if (mode === 'cols') {
          values = new Float32Array(n);
          for (let r = 0; r < n; r++) values[r] = data[offset + r * cols + d];
        } else {
          values = data.subarray(offset + d * cols, offset + (d + 1) * cols);
        }
        const name = mode === 'cols' ? colName : rowName;
        return { label: t('view.lines.series', name, formatInt(mode === 'rows' ? d + r0 : d)), values };
      });
      const x0 = mode === 'cols' ? r0 : 0;
      if (LinePlot) {
        const plot = plotFor(mode);
        plot.setLabels({ y: tr(valueName(info, shared)) });
        plot.setData({ series: lines, x0 });
        if (!el.dataset.drawn) performance.mark('pe:lines-drawn');
        el.dataset.drawn = String(Number(el.dataset.drawn || 0) + 1);
        // Input → the first animation frame after this redraw (read by bench/page.js).
        const inputAt = state.timing?.inputAt;
        if (Number.isFinite(inputAt) && inputAt !== timedInput) {
          timedInput = inputAt; // once per computed result
          requestAnimationFrame(() => {
            performance.clearMeasures('pe:paint:lines');
            performance.measure('pe:paint:lines', { start: inputAt, end: performance.now() });
          });
        }
      }
      table.set(() => {
        const idx = spread(n, 24);
        return {
          caption: t('table.captionLines', lines.map((l) => l.label).join(', ')),
          columns: [mode === 'cols' ? rowName : colName, ...lines.map((l) => l.label)],
          rows: idx.map((i) => [formatInt(x0 + i), ...lines.map((l) => float32String(l.values[i]))]),
          note: idx.length < n ? t('table.sampledRows', idx.length, n) : '',
        };
      });
    }

    return {
      update(next) {
        state = next;
        box.classList.toggle('stale', !!next.stale);
        if (next.changed.has('theme')) for (const p of Object.values(plots)) p.applyTheme();
        if (['result', 'shared:series', 'shared:head', 'shared:transform'].some((c) => next.changed.has(c))) draw();
      },
      destroy() {
        stopWaiting();
        for (const p of Object.values(plots)) p.destroy();
      },
    };
  },
};

// The heatmap view: the whole output as a colour picture, one cell per value. Every kind gets it.
// 3-D outputs ([heads, query, key]) show one slice at a time, picked with the head control.
import { Heatmap } from '../../plot/heatmap.js';
import { h, uid } from '../../plot/dom.js';
import { both, textFor } from '../../i18n/index.js';
import { COLORMAP_NAMES } from '../../api/colormaps.js';
import { float32String, formatInt, formatMs } from '../../plot/format.js';
import { DataTable, spread } from '../datatable.js';
import { axisNames, displayData, rowOffset, sliceOffset, transformOf, transformsFor, valueName } from '../../model/output.js';
import { defaultSeries, toggleSeries } from '../../model/series.js';
import { heatmapKernels, heatmapScale } from '../../model/pixels.js';
import { scaleSelect } from './scale-select.js';

export default {
  id: 'heatmap',
  kinds: () => true,
  title: both('view.heatmap.title'),
  explain: (info) => textFor('view.heatmap.explain', info.kind, info.class),

  mount(el, ctx) {
    const { t, info } = ctx;
    const tr = t.tr;
    const id = uid('hm');
    let state = null;

    // Toolbar: colour map, colour scale, and the head (slice) of a 3-D output.
    const mapSelect = h('select', { id: `${id}-map` });
    for (const name of COLORMAP_NAMES) mapSelect.append(h('option', { value: name, text: t(`colormap.${name}`) }));
    mapSelect.addEventListener('input', () => ctx.setShared({ colormap: mapSelect.value }));
    const scaleChoice = scaleSelect(t, { id: `${id}-scale` });
    const scaleInput = scaleChoice.select;
    scaleInput.addEventListener('input', () => ctx.setShared({ scale: scaleInput.value }));
    const toolbar = h('div', { class: 'view-toolbar' },
      h('div', { class: 'tool-field' }, h('label', { for: mapSelect.id, text: t('view.heatmap.colormap') }), mapSelect),
      h('div', { class: 'tool-field' }, scaleChoice.label, scaleInput));
    let tfSelect = null;
    const transforms = transformsFor(info);
    if (transforms) {
      tfSelect = h('select', { id: `${id}-tf` });
      for (const tf of transforms) tfSelect.append(h('option', { value: tf, text: t(`transform.${tf}`) }));
      tfSelect.addEventListener('input', () => ctx.setShared({ transform: tfSelect.value }));
      toolbar.prepend(h('div', { class: 'tool-field' }, h('label', { for: tfSelect.id, text: t('view.heatmap.transform') }), tfSelect));
    }
    let headInput = null;
    if (info.slices > 1) {
      headInput = h('input', { id: `${id}-head`, type: 'number', min: 0, max: info.slices - 1, step: 1, value: 0, inputmode: 'numeric' });
      const headSlider = h('input', { type: 'range', min: 0, max: info.slices - 1, step: 1, value: 0,
        'aria-label': t('controls.slider', tr(info.axes.head)) });
      const setHead = (v) => {
        if (Number.isInteger(v) && v >= 0 && v < info.slices) ctx.setShared({ head: v });
      };
      headInput.addEventListener('input', () => setHead(headInput.valueAsNumber));
      headSlider.addEventListener('input', () => setHead(Number(headSlider.value)));
      headInput.slider = headSlider;
      toolbar.append(h('div', { class: 'tool-field' },
        h('label', { for: headInput.id, text: tr(info.axes.head) }), headInput, headSlider));
    }
    const stats = h('p', { class: 'view-stats' });
    toolbar.append(stats);
    el.append(toolbar);

    const box = h('div', { class: 'hm-box' });
    el.append(box);
    const hm = new Heatmap(box, {
      // Pixels and value range in C (pe.heatmap, pe.heatmapRange): no copy in for a result just
      // computed (it is still in WebAssembly memory), one per other new table; one copy out per frame.
      ...heatmapKernels(ctx.pe),
      t,
      axes: { x: tr(info.axes.col), y: tr(info.axes.row), value: tr(info.axes.value) },
      label: tr(ctx.schema.label),
      onActivate: ({ row, col }) => {
        const series = state?.shared.series ?? defaultSeries(state?.info ?? info);
        ctx.setShared({ series: toggleSeries(series, series.mode === 'rows' ? row : col) });
      },
    });
    const table = new DataTable(el, { summary: t('table.summary') });

    // keyed by the result and the array: a new result may reuse the last one's array (app.js reusable)
    const rangeOf = { result: null, data: null, scan: null };
    const paint = { frame: 0, inputAt: null, text: '…' }; // the last input → screen time
    function draw() {
      const { result, spec, shared, info } = state;
      const { slice, offset } = sliceOffset(info, shared.head ?? 0);
      hm.colormap = shared.colormap ?? 'viridis';
      // 'auto' for attention weights only (web/model/pixels.js); other kinds start linear.
      hm.scale = heatmapScale(info, shared);
      hm.axes.value = tr(valueName(info, shared));
      const data = displayData(state, ctx.pe);
      // Every head on one colour scale, so heads can be compared by eye.
      let valueRange = null;
      if (info.slices > 1) {
        if (rangeOf.data !== data || rangeOf.result !== result) Object.assign(rangeOf, { result, data, scan: ctx.pe.heatmapRange(data) });
        valueRange = [rangeOf.scan.lo, rangeOf.scan.hi];
      }
      hm.setData({ data, rows: info.rows, cols: info.cols, offset, rowOffset: rowOffset(info, spec), valueRange, ...axisNames(info, result) });
      // The auto option names the scale it chose.
      scaleChoice.showChosen(hm.scale, hm.scaleUsed);
      const sliceText = info.slices > 1 ? ` · ${tr(info.axes.head)} ${slice}` : '';
      const shape = result.shape.map(formatInt).join(' × ');
      const showStats = () => {
        stats.textContent = t('view.heatmap.stats', { shape, paint: paint.text }) + sliceText;
      };
      showStats();
      // What the user waited for: from the input to the first animation frame after this redraw
      // (the frame showing it has been painted), not the parts (compute, draw) one by one. Timed
      // once per computed result; a redraw of the same result (head, colours) keeps the figure.
      const inputAt = state.timing?.inputAt;
      if (Number.isFinite(inputAt) && inputAt !== paint.inputAt) {
        paint.inputAt = inputAt;
        cancelAnimationFrame(paint.frame);
        paint.frame = requestAnimationFrame(() => {
          paint.frame = 0;
          const end = performance.now();
          performance.clearMeasures('pe:paint:heatmap');
          performance.measure('pe:paint:heatmap', { start: inputAt, end });
          paint.text = formatMs(end - inputAt);
          el.dataset.paintMs = String(end - inputAt);
          showStats();
        });
      }
      const r0 = rowOffset(info, spec);
      table.set(() => {
        const rows = spread(info.rows, 16);
        const cols = spread(info.cols, 8);
        return {
          caption: t('table.caption', { what: t('view.heatmap.title'), rows: info.rows, cols: info.cols }),
          columns: [`${tr(info.axes.row)} \\ ${tr(info.axes.col)}`, ...cols.map((c) => formatInt(c))],
          rows: rows.map((r) => [formatInt(r + r0), ...cols.map((c) => float32String(data[offset + r * info.cols + c]))]),
          note: rows.length < info.rows || cols.length < info.cols ? t('table.sampled', rows.length, info.rows, cols.length, info.cols) : '',
        };
      });
    }

    return {
      update(next) {
        state = next;
        const { shared } = next;
        mapSelect.value = shared.colormap ?? 'viridis';
        scaleInput.value = shared.scale ?? 'auto';
        if (tfSelect) tfSelect.value = transformOf(next.info, shared);
        if (headInput && document.activeElement !== headInput) headInput.value = String(shared.head ?? 0);
        if (headInput) headInput.slider.value = String(shared.head ?? 0);
        hm.setStale(next.stale);
        if (['result', 'shared:colormap', 'shared:scale', 'shared:head', 'shared:transform'].some((c) => next.changed.has(c))) draw();
      },
      destroy() {
        cancelAnimationFrame(paint.frame);
        hm.destroy();
      },
      heatmap: hm,
    };
  },
};

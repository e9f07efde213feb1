// What a view state shows, as plain data for pictures (web/plot/svg.js), exports and <pe-plot>:
//
//   figureOf(state, t, pe) → { title, heatmap: { data, rows, cols, offset, rowOffset, colormap,
//                          valueRange, axes, title, shape }, lines: { mode, series, x0, xLabel,
//                          yLabel, title } }
// The same choices as the heatmap and lines views: the head (slice) and RoPE transform on
// screen, the colour map, the chosen curves (at most MAX_CURVES).
import { SCHEMA } from '../api/schema/index.js';
import { formatInt } from '../plot/format.js';
import { scanValues } from '../plot/resample.js';
import { COLORMAPS } from '../api/colormaps.js';
import { displayData, rowOffset, sliceOffset, valueName } from './output.js';
import { defaultSeries } from './series.js';
import { heatmapScale } from './pixels.js';

/** Most curves one line plot draws: the explorer's chosen curves, the attention row's heads. */
export const MAX_CURVES = 8;

/**
 * The figure of a view state ({ result, info, spec, shared }, as the views get it): the heatmap
 * (the slice and transform on screen, with its colour map) and the curves of the line plot.
 * `t` is a translator (web/i18n/index.js); `pe` the API, whose kernels give rotary angles'
 * cos, sin and wrapped values (displayData).
 */
export function figureOf(state, t, pe) {
  const { info, spec, shared = {}, result } = state;
  const tr = t.tr;
  const data = displayData({ result, info, shared }, pe);
  const { slice, offset } = sliceOffset(info, shared.head ?? 0);
  const colormap = COLORMAPS[shared.colormap] ? shared.colormap : 'viridis';
  const r0 = rowOffset(info, spec);
  const axes = { x: tr(info.axes.col), y: tr(info.axes.row), value: tr(valueName(info, shared)), head: tr(info.axes.head) };
  const valueRange = info.slices > 1 ? (() => {
    const s = scanValues(data);
    return [s.lo, s.hi];
  })() : null;
  const title = `${tr(SCHEMA[spec.kind]?.label) || spec.kind}${info.slices > 1 ? ` · ${axes.head} ${slice}` : ''}`;
  const heatmap = { data, rows: info.rows, cols: info.cols, offset, rowOffset: r0, colormap, valueRange, axes, title, shape: result.shape, scale: heatmapScale(info, shared) };

  const series = shared.series ?? defaultSeries(info);
  const mode = series.mode === 'rows' ? 'rows' : 'cols';
  const limit = mode === 'cols' ? info.cols : info.rows;
  const n = mode === 'cols' ? info.rows : info.cols;
  const shown = series.list.filter((d) => Number.isInteger(d) && d >= 0 && d < limit).slice(0, MAX_CURVES);
  const curves = shown.map((d) => {
    let values;
    if (mode === 'cols') {
      values = new Float32Array(n);
      for (let r = 0; r < n; r++) values[r] = data[offset + r * info.cols + d];
    } else {
      values = data.subarray(offset + d * info.cols, offset + (d + 1) * info.cols);
    }
    const name = mode === 'cols' ? axes.x : axes.y;
    return { label: t('view.lines.series', name, formatInt(mode === 'rows' ? d + r0 : d)), values, index: d };
  });
  const lines = {
    mode, series: curves, x0: mode === 'cols' ? r0 : 0,
    xLabel: mode === 'cols' ? axes.y : axes.x, yLabel: axes.value, title,
  };
  return { title, heatmap, lines };
}


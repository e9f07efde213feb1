// The drawing functions a renderer (web/plot/) is given, from the API's kernels: every heatmap and
// every exported heatmap picture resamples and colours its table in C (pe.heatmap, c/heatmap.c:
// the cell under each pixel when magnified, a tent-weighted mean when minified), reads its range
// there (pe.heatmapRange) and colours its colour bar there (pe.colorize). One resampler for every
// picture, so the same table at the same size gives the same pixels in every view and export.
//
//   new Heatmap(box, { ...heatmapKernels(pe), t, axes, … });   heatmapCanvas(heatmapKernels(pe), figure.heatmap)

/** { colorize, render, scan } for a Heatmap or heatmapCanvas, from `pe` (createPE). */
export function heatmapKernels(pe) {
  return {
    colorize: (values, options) => pe.colorize(values, options),
    render: (table, options) => pe.heatmap(table, options),
    scan: (table, options) => pe.heatmapRange(table, options),
  };
}

/**
 * The colour scale a heatmap of this output is asked for (web/plot/color-scale.js): the view
 * state's `scale` (left out: 'auto'), with 'auto' kept only for attention weights, whose long
 * tables span decades (≈ 1/i): every other kind starts linear.
 */
export function heatmapScale(info, shared) {
  const scale = shared?.scale ?? 'auto';
  return scale === 'auto' && info?.kind !== 'attention' ? 'linear' : scale;
}

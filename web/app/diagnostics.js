// Diagnostics for tests, benches and the curious, as window.__peLab: render count, the time of
// each render (compute and every view's update, in ms), of each view's updates, from the input to
// the next animation frame after the redraw (paintMs; paintedRender: the render it timed), the
// time of the first plot, and how many computes reused the shown result's array. An observer of
// web/app/events.js: the explorer works the same without it. <main data-renders> counts renders.
import { on } from './events.js';

const KEEP = 500; // the samples kept per list

export function startDiagnostics() {
  const diag = { renders: 0, renderMs: [], computeMs: [], paintMs: [], paintedRender: 0, viewMs: {}, firstPlotMs: null, lastRenderEnd: 0, reused: 0 };
  window.__peLab = diag;
  on('reuse', () => {
    diag.reused += 1;
  });
  on('view-update', ({ id, ms }) => {
    const list = (diag.viewMs[id] ??= []);
    list.push(ms);
    if (list.length > KEEP) list.shift();
  });
  on('render', ({ t0, computeMs, inputAt }) => {
    const ms = performance.now() - t0;
    diag.renders += 1;
    diag.renderMs.push(ms);
    diag.computeMs.push(computeMs);
    diag.lastRenderEnd = performance.now();
    // Input → the next animation frame after the redraw: the frame that shows it has been painted.
    const renderNo = diag.renders;
    requestAnimationFrame(() => {
      const paintMs = performance.now() - inputAt;
      diag.paintMs.push(paintMs);
      if (diag.paintMs.length > KEEP) diag.paintMs.shift();
      diag.paintedRender = renderNo;
    });
    if (diag.renderMs.length > KEEP) {
      diag.renderMs.shift();
      diag.computeMs.shift();
    }
    document.getElementById('main').dataset.renders = String(diag.renders);
    if (diag.firstPlotMs === null) {
      diag.firstPlotMs = performance.now();
      performance.mark('pe:first-plot');
    }
  });
  return diag;
}

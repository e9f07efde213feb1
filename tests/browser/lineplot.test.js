// LinePlot's drawing API (web/plot/lineplot.js), the only way views style a line plot: markers,
// axes (bounds, ticks, labels, a second axis), the tooltip's texts, per-series styles, an overlay,
// and batch() (one Chart.js update for all of them). The bundled web/dist/lineplot.js on a bare
// page in the system Chromium; pixels are read back from the canvas.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { suiteAvailability, watchPage, logProblems } from '../helpers/browser.js';
import { useBrowser } from '../helpers/browser-suite.js';

const avail = suiteAvailability('lineplot.test');

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>LinePlot</title>
<style>body { margin: 0; font-family: sans-serif; } #box { width: 640px; } .chart-box { height: 320px; position: relative; }</style>
<script type="module">
import { LinePlot, seriesColor } from './dist/lineplot.js';
window.LinePlot = LinePlot;
window.seriesColor = seriesColor;
document.documentElement.dataset.ready = '1';
</script></head><body><div id="box"></div></body></html>`;

describe.skipIf(avail.skip)('LinePlot (Chromium)', () => {
  const session = useBrowser({ avail });
  let context;
  let page;
  let log;

  beforeAll(async () => {
    context = await session.browser.newContext({ viewport: { width: 800, height: 600 }, deviceScaleFactor: 1 });
    page = await context.newPage();
    log = await watchPage(page, new URL(session.server.url).origin);
    await page.route(`${session.server.url}lineplot.html`, (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: PAGE }));
    await page.goto(`${session.server.url}lineplot.html`);
    await page.waitForFunction(() => document.documentElement.dataset.ready === '1');
  });

  afterAll(async () => {
    await context?.close();
  });

  // In the page: a fresh LinePlot (window.plot) over 101 samples at x = 0 … 100, with helpers that
  // read the canvas. Every test starts from one.
  const fresh = (opts = {}) => page.evaluate((o) => {
    window.plot?.destroy();
    const box = document.getElementById('box');
    const t = (k) => k;
    window.plot = new window.LinePlot(box, { t, xLabel: 'x', yLabel: 'y', label: 'test', ...o });
    window.updates = 0;
    const update = window.plot.chart.update.bind(window.plot.chart);
    window.plot.chart.update = (...a) => {
      window.updates += 1;
      return update(...a);
    };
    /** How many pixels of the columns px ± 1 (inside the plotting area) match a colour test. */
    window.columnCount = (px, test) => {
      const c = window.plot.canvas;
      const a = window.plot.chart.chartArea;
      const ctx = c.getContext('2d');
      const x0 = Math.round(px) - 1;
      const top = Math.ceil(a.top) + 20; // below the markers' labels
      const data = ctx.getImageData(x0, top, 3, Math.floor(a.bottom) - top).data;
      let n = 0;
      for (let i = 0; i < data.length; i += 4) if (test(data[i], data[i + 1], data[i + 2], data[i + 3])) n++;
      return n;
    };
    window.areaCount = (test) => {
      const c = window.plot.canvas;
      const a = window.plot.chart.chartArea;
      const data = c.getContext('2d').getImageData(Math.ceil(a.left), Math.ceil(a.top), Math.floor(a.right - a.left) - 1, Math.floor(a.bottom - a.top) - 1).data;
      let n = 0;
      for (let i = 0; i < data.length; i += 4) if (test(data[i], data[i + 1], data[i + 2], data[i + 3])) n++;
      return n;
    };
    window.red = (r, g, b, alpha) => alpha > 200 && r > 180 && g < 90 && b < 90;
    window.green = (r, g, b, alpha) => alpha > 200 && g > 180 && r < 90 && b < 90;
    window.magenta = (r, g, b, alpha) => alpha > 200 && r > 200 && b > 200 && g < 60;
    window.ramp = Float32Array.from({ length: 101 }, (_, i) => i / 100);
  }, opts);

  it('draws a marker at its x, and removes it', async () => {
    await fresh();
    const r = await page.evaluate(() => {
      const { plot } = window;
      plot.setData({ series: [{ label: 'flat', values: new Float32Array(101) }], x0: 0 });
      plot.setMarkers([{ x: 30, label: 'here', color: '#ff0000' }]);
      const at = plot.chart.scales.x.getPixelForValue(30);
      const away = plot.chart.scales.x.getPixelForValue(70);
      const out = { at: window.columnCount(at, window.red), away: window.columnCount(away, window.red), updates: window.updates };
      plot.setMarkers([]);
      out.after = window.columnCount(at, window.red);
      return out;
    });
    expect(r.at).toBeGreaterThan(40); // a dashed line down the plotting area
    expect(r.away).toBe(0);
    expect(r.after).toBe(0);
    expect(r.updates).toBe(2); // setData, setMarkers: each redraws outside a batch
  });

  it('applies axis bounds, steps, tick labels and tick positions', async () => {
    await fresh();
    const r = await page.evaluate(() => {
      const { plot } = window;
      plot.setData({ series: [{ label: 'ramp', values: window.ramp }], x0: 0 });
      plot.setAxis('y', { min: -4, max: 6, step: 2, format: (v) => `<${v}>` });
      const y = plot.chart.scales.y;
      const out = { min: y.min, max: y.max, labels: y.ticks.map((t) => t.label) };
      plot.setAxis('y', { ticksAt: ({ min, max }) => [min + 1, 0, max - 1] });
      out.at = plot.chart.scales.y.ticks.map((t) => t.value);
      plot.setAxis('y', { ticksAt: null, title: 'new title' });
      out.back = plot.chart.scales.y.ticks.map((t) => t.value);
      out.title = plot.chart.scales.y.options.title.text;
      try {
        plot.setAxis('x', { min: 3 });
        out.xRefused = false;
      } catch {
        out.xRefused = true;
      }
      return out;
    });
    expect(r.min).toBe(-4);
    expect(r.max).toBe(6);
    expect(r.labels).toEqual(['<-4>', '<-2>', '<0>', '<2>', '<4>', '<6>']);
    expect(r.at).toEqual([-3, 0, 5]);
    expect(r.back).toEqual([-4, -2, 0, 2, 4, 6]);
    expect(r.title).toBe('new title');
    expect(r.xRefused).toBe(true);
  });

  it('draws a series against a second axis on the right', async () => {
    await fresh();
    const r = await page.evaluate(() => {
      const { plot } = window;
      plot.batch(() => {
        plot.setAxis('y2', { title: 'right', beginAtZero: true, precision: 0 });
        plot.setData({ series: [{ label: 'a', values: window.ramp }, { label: 'b', values: window.ramp.map((v) => v * 50), axis: 'y2' }], x0: 0 });
      });
      const y2 = plot.chart.scales.y2;
      return { position: y2.position, max: y2.max, axis: plot.chart.getDatasetMeta(1).yScale.id, first: plot.chart.getDatasetMeta(0).yScale.id, updates: window.updates };
    });
    expect(r.position).toBe('right');
    expect(r.max).toBeGreaterThanOrEqual(50);
    expect(r.axis).toBe('y2');
    expect(r.first).toBe('y');
    expect(r.updates).toBe(1);
  });

  it('applies series styles (colour, width, dash, steps, dots) in one update', async () => {
    await fresh();
    const r = await page.evaluate(() => {
      const { plot } = window;
      plot.batch(() => {
        plot.setData({
          series: [
            { label: 'green', values: window.ramp, color: '#00ff00', width: 4 },
            { label: 'palette', values: window.ramp.map((v) => v / 2), color: 3, dash: true, stepped: true, points: 0, spanGaps: true },
            { label: 'plain', values: window.ramp.map((v) => v / 3) },
          ],
          x0: 0,
        });
        plot.setAxis('y', { min: 0, max: 1 });
        plot.setMarkers([{ x: 50, label: 'm', color: '#ff0000' }]);
      });
      const ds = plot.chart.data.datasets;
      return {
        updates: window.updates,
        colors: ds.map((d) => d.borderColor),
        palette: [window.seriesColor(3), window.seriesColor(2)],
        widths: ds.map((d) => d.borderWidth ?? null),
        stepped: ds.map((d) => d.stepped),
        dash: ds.map((d) => d.borderDash ?? null),
        spanGaps: ds.map((d) => d.spanGaps ?? null),
        green: window.areaCount(window.green),
        red: window.columnCount(plot.chart.scales.x.getPixelForValue(50), window.red),
      };
    });
    expect(r.updates).toBe(1);
    expect(r.colors).toEqual(['#00ff00', r.palette[0], r.palette[1]]);
    expect(r.widths).toEqual([4, null, null]);
    expect(r.stepped).toEqual([false, 'middle', false]);
    expect(r.dash).toEqual([null, [5, 3], null]);
    expect(r.spanGaps).toEqual([null, true, null]);
    expect(r.green).toBeGreaterThan(500); // a 4 px line across the plot
    expect(r.red).toBeGreaterThan(40); // the marker, drawn by the batch's one update
  });

  it('keeps a palette colour through a theme change, and a CSS colour as given', async () => {
    await fresh();
    const r = await page.evaluate(() => {
      const { plot } = window;
      plot.setData({ series: [{ label: 'a', values: window.ramp, color: '#00ff00' }, { label: 'b', values: window.ramp, color: 5 }], x0: 0 });
      plot.applyTheme();
      return { colors: plot.chart.data.datasets.map((d) => d.borderColor), five: window.seriesColor(5) };
    });
    expect(r.colors).toEqual(['#00ff00', r.five]);
  });

  it('formats the tooltip with setTooltip, and restores the defaults with null', async () => {
    await fresh();
    const r = await page.evaluate(() => {
      const { plot } = window;
      plot.setData({ series: [{ label: 'ramp', values: window.ramp }], x0: 0 });
      const cb = plot.chart.options.plugins.tooltip.callbacks;
      const item = { dataset: { label: 'ramp' }, parsed: { x: 12, y: 2 } };
      const gap = { dataset: { label: 'ramp' }, parsed: { x: 12, y: null } };
      const before = [cb.title([item]), cb.label(item)];
      plot.setTooltip({ title: (x) => `at ${x}`, value: (y) => `${y * 10} units` });
      const custom = [cb.title([item]), cb.label(item), cb.label(gap), cb.title([])];
      plot.setTooltip({ title: null, value: null });
      return { before, custom, after: [cb.title([item]), cb.label(item)] };
    });
    expect(r.before).toEqual(['x 12', 'ramp: 2']);
    expect(r.custom).toEqual(['at 12', 'ramp: 20 units', 'ramp: —', '']);
    expect(r.after).toEqual(r.before);
  });

  it('draws an overlay under the curves and over them, with the value-to-pixel maps', async () => {
    await fresh({ legend: false });
    const r = await page.evaluate(() => {
      const { plot } = window;
      const calls = [];
      plot.setData({ series: [{ label: 'green', values: new Float32Array(101).fill(0.5), color: '#00ff00', width: 4 }], x0: 0 });
      const fill = (g) => {
        g.ctx.fillStyle = '#ff00ff';
        g.ctx.fillRect(g.area.left, g.area.top, g.area.right - g.area.left, g.area.bottom - g.area.top);
      };
      plot.setOverlay({
        under: (g) => {
          calls.push(['under', g.x(30) === plot.chart.scales.x.getPixelForValue(30), g.y(0.5) === plot.chart.scales.y.getPixelForValue(0.5), typeof g.font]);
          fill(g);
        },
      });
      const under = { magenta: window.areaCount(window.magenta), green: window.areaCount(window.green) };
      plot.setOverlay({ over: (g) => { calls.push(['over']); fill(g); } });
      const over = { magenta: window.areaCount(window.magenta), green: window.areaCount(window.green) };
      plot.setOverlay({});
      const none = window.areaCount(window.magenta);
      return { calls, under, over, none, legend: plot.chart.legend.options.display };
    });
    expect(r.calls).toEqual([['under', true, true, 'string'], ['over']]);
    expect(r.under.magenta).toBeGreaterThan(10000);
    expect(r.under.green).toBeGreaterThan(500); // the curve over the fill
    expect(r.over.green).toBe(0); // the fill over the curve
    expect(r.none).toBe(0);
    expect(r.legend).toBe(false);
  });

  it('left the page without errors', () => {
    expect(logProblems(log)).toEqual({});
  });
});

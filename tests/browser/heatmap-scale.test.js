// Colour scales of the whole-table heatmap (issue 29): a long causal attention table (length 512,
// weights ≈ 1/i) drawn on the linear scale is almost uniformly dark; the default ('auto') draws it
// on the log scale, spread over the map, with colour-bar ticks at powers of ten and the floor
// stated; the choice is a select beside "Colours", kept in the permalink (~scale=…) and restored
// from it; a Heatmap and the exported picture (web/plot/svg.js heatmapPixels) draw the same pixels
// on each scale (one resampler, one colouring). Screenshots: tests/artifacts/heatmap-scale-{linear,auto}.png.
//   npx vitest run tests/browser/heatmap-scale.test.js
import { describe, it, expect } from 'vitest';
import { suiteAvailability, gotoApp, logProblems, screenshot, inSight } from '../helpers/browser.js';
import { usePage } from '../helpers/browser-suite.js';

const avail = suiteAvailability('heatmap-scale.test');
const HM = '#view-heatmap';
const PLOT = `${HM} .hm-plot`;

describe.skipIf(avail.skip)('heatmap colour scales (Chromium)', () => {
  const s = usePage({ avail });

  /** Waits for the heatmap drawn on `scale`; returns it and its picture's brightness. */
  async function drawn(scale) {
    await inSight(s.page, HM, () => s.page.waitForFunction(([sel, want]) => {
      const p = document.querySelector(sel);
      return p?.dataset.resampler && (want === null || p.dataset.scale === want);
    }, [PLOT, scale]));
    await s.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    return s.page.evaluate((sel) => {
      const c = document.querySelector(`${sel} canvas.hm-canvas`);
      const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      // Pixels strictly below the diagonal (the weights; above it causal attention is 0), and those
      // brighter than viridis at a tenth of the map (72, 37, 118: luminance ≈ 50).
      let below = 0;
      let bright = 0;
      for (let y = 0; y < c.height; y++) {
        for (let x = 0; x < (y * c.width) / c.height - 1; x++) {
          const i = 4 * (y * c.width + x);
          below++;
          if (0.2126 * px[i] + 0.7152 * px[i + 1] + 0.0722 * px[i + 2] > 60) bright++;
        }
      }
      return {
        scale: document.querySelector(sel).dataset.scale,
        bright: bright / below,
        ticks: [...document.querySelectorAll('#view-heatmap .hm-cbar-ticks .hm-tick')].map((e) => e.textContent),
      };
    }, PLOT);
  }

  it('length 512, causal: the default draws on the log scale, not dark; linear is dark', async () => {
    await gotoApp(s.page, `${s.server.url}?lang=en#v1/attention?length=512`);
    const auto = await drawn(null);
    await screenshot(s.page, 'heatmap-scale-auto', HM);
    const select = s.page.locator(`${HM} select[id$="-scale"]`);
    expect(await select.inputValue()).toBe('auto');
    expect(await select.locator('option').first().textContent()).toBe(`auto (${auto.scale})`);
    await select.selectOption('linear');
    const linear = await drawn('linear');
    await screenshot(s.page, 'heatmap-scale-linear', HM);
    console.log(`attention 512: below-diagonal pixels brighter than a tenth of viridis: auto (${auto.scale}) ${(100 * auto.bright).toFixed(1)} %, linear ${(100 * linear.bright).toFixed(1)} %`);
    expect(auto.scale).toBe('log');
    expect(linear.bright).toBeLessThan(0.05);
    expect(auto.bright).toBeGreaterThan(0.25);
    // log ticks: powers of ten, and the floor at the bottom ("≤ …").
    const powers = auto.ticks.filter((x) => !x.startsWith('≤'));
    expect(powers.length).toBeGreaterThanOrEqual(2);
    for (const x of powers) {
      const v = Number(x.replace('−', '-'));
      expect(Math.abs(Math.log10(v) - Math.round(Math.log10(v))), x).toBeLessThan(1e-9);
    }
    expect(auto.ticks[0]).toMatch(/^≤ /);
    expect(logProblems(s.log)).toEqual({});
  }, 120_000);

  it('the scale is kept in the permalink and restored from it', async () => {
    await gotoApp(s.page, `${s.server.url}?lang=en#v1/attention?length=128`);
    await drawn(null);
    await s.page.locator(`${HM} select[id$="-scale"]`).selectOption('sqrt');
    await drawn('sqrt');
    await s.page.waitForFunction(() => location.hash.includes('~scale=sqrt'));
    const hash = await s.page.evaluate(() => location.hash);
    await gotoApp(s.page, `${s.server.url}?lang=en${hash}`);
    const again = await drawn('sqrt');
    expect(again.scale).toBe('sqrt');
    expect(await s.page.locator(`${HM} select[id$="-scale"]`).inputValue()).toBe('sqrt');
    // sqrt ticks: nice values, placed at their √ positions (the bar's middle is a quarter of the top).
    const mid = await s.page.evaluate(() => [...document.querySelectorAll('#view-heatmap .hm-cbar-ticks .hm-tick')].map((e) => [e.textContent, parseFloat(e.style.top)]));
    const top = Math.max(...mid.map(([x]) => Number(x.replace('−', '-'))));
    for (const [x, pct] of mid) {
      const v = Number(x.replace('−', '-'));
      expect(Math.abs((1 - pct / 100) - Math.sqrt(v / top)), x).toBeLessThan(0.15);
    }
  }, 120_000);

  it('a Heatmap and the exported picture give the same pixels on every scale', async () => {
    await gotoApp(s.page, `${s.server.url}?lang=en#v1/rope?length=16`);
    // A string, so Vitest does not rewrite the imports meant for the browser.
    const result = await s.page.evaluate(`(async () => {
      const { createPE } = await import('/api/pe.js');
      const { Heatmap } = await import('/plot/heatmap.js');
      const { heatmapPixels } = await import('/plot/svg.js');
      const { heatmapKernels } = await import('/model/pixels.js');
      const pe = await createPE();
      const L = 512;
      const data = new Float32Array(L * L);
      for (let i = 0; i < L; i++) for (let j = 0; j <= i; j++) data[i * L + j] = 1 / (i + 1);
      const kernels = heatmapKernels(pe);
      const box = document.createElement('div');
      box.style.cssText = 'position:fixed;left:0;top:0;width:520px;height:420px;z-index:99;background:#fff';
      document.body.append(box);
      const out = {};
      for (const scale of ['linear', 'sqrt', 'log', 'auto']) {
        box.textContent = '';
        const hm = new Heatmap(box, { ...kernels, t: (k) => k, axes: { x: 'key', y: 'query', value: 'weight' }, scale });
        const plot = box.querySelector('.hm-plot');
        plot.style.cssText = 'width:300px;height:300px;flex:none;max-width:none;max-height:none';
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        hm.setData({ data, rows: L, cols: L });
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        const c = box.querySelector('canvas.hm-canvas');
        const mine = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        const px = heatmapPixels(kernels, { data, rows: L, cols: L, offset: 0, colormap: 'viridis', scale }, c.width, c.height);
        let differ = 0;
        for (let i = 0; i < mine.length; i++) if (mine[i] !== px.rgba[i]) differ++;
        out[scale] = { size: [c.width, c.height], same: px.rgba.length === mine.length, differ, used: hm.scaleUsed, exported: px.scale };
        hm.destroy();
      }
      // Panes that share one colour range (compare mode) share the log floor too: range and low given.
      box.textContent = '';
      const pane = new Heatmap(box, { ...kernels, t: (k) => k, axes: { x: 'key', y: 'query', value: 'weight' }, scale: 'log' });
      box.querySelector('.hm-plot').style.cssText = 'width:300px;height:300px;flex:none;max-width:none;max-height:none';
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      pane.setData({ data, rows: L, cols: L, range: [0, 2], low: 1e-3 });
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      const pc = box.querySelector('canvas.hm-canvas');
      const got = pc.getContext('2d').getImageData(0, 0, pc.width, pc.height).data;
      const want = pe.heatmap(data, { rows: L, cols: L, width: pc.width, height: pc.height, scale: 'log', vmin: 1e-3, vmax: 2 });
      let paneDiffer = 0;
      for (let i = 0; i < got.length; i++) if (got[i] !== want[i]) paneDiffer++;
      out.pane = { differ: paneDiffer, used: pane.scaleUsed, range: pane.colorRange() };
      pane.destroy();
      box.remove();
      return out;
    })()`);
    console.log('Heatmap vs exported pixels:', JSON.stringify(result));
    for (const scale of ['linear', 'sqrt', 'log', 'auto']) {
      expect(result[scale].same, scale).toBe(true);
      expect(result[scale].differ, scale).toBe(0);
      expect(result[scale].used, scale).toBe(result[scale].exported);
    }
    expect(result.auto.used).toBe('log');
    expect(result.pane).toEqual({ differ: 0, used: 'log', range: [1e-3, 2] });
  }, 120_000);
});

// The page's boot path (issue 32, first paint): the kernels start compiling from index.html
// (web/app/wasm-start.js) while the bundle arrives, the header, catalogue and parameters are built
// while they compile, and the module is fetched once. Timings are bench/page.js's job; these are
// the orderings and counts that make them possible.
//   npx vitest run tests/browser/first-screen.test.js

import { describe, it, expect, afterAll } from 'vitest';
import { suiteAvailability, openPage, screenshot, logProblems } from '../helpers/browser.js';

const avail = suiteAvailability('first-screen');

describe.skipIf(avail.skip)('first screen: boot order', () => {
  let session;
  afterAll(async () => {
    await session?.close();
  });

  it('builds the parameters before the kernels are in, fetches the module once, and plots', async () => {
    session = await openPage({ avail });
    const { page, server, log } = session;
    const wasmRequests = [];
    page.on('request', (r) => {
      if (r.url().endsWith('.wasm')) wasmRequests.push(r.url());
    });
    await page.goto(server.url, { waitUntil: 'load' });
    await page.waitForFunction(() => document.documentElement.dataset.state === 'ready');
    const t = await page.evaluate(() => {
      const at = (m) => performance.getEntriesByName(m)[0]?.startTime;
      return {
        early: typeof globalThis.__peLabWasm?.then === 'function',
        script: at('pe:script'), controls: at('pe:controls'), wasmReady: at('pe:wasm-ready'),
        computed: at('pe:computed'), firstPlot: at('pe:first-plot'),
        simd: document.getElementById('engine').dataset.simd,
        fields: document.querySelectorAll('#main .controls input').length,
      };
    });
    // index.html started the compile; app.js built the parameters while it ran, then computed.
    expect(t.early).toBe(true);
    expect(t.controls).toBeLessThan(t.wasmReady);
    expect(t.wasmReady).toBeLessThanOrEqual(t.computed);
    expect(t.computed).toBeLessThanOrEqual(t.firstPlot);
    expect(t.fields).toBeGreaterThan(0);
    expect(t.simd).toBe('true');
    // The preload, the early compile and app.js share one response: the module is fetched once.
    expect(wasmRequests.filter((u) => u.endsWith('/wasm/pe_simd.wasm'))).toHaveLength(1);
    expect(wasmRequests.filter((u) => u.endsWith('/wasm/pe_scalar.wasm'))).toHaveLength(0);
    await screenshot(page, 'first-screen', null, { fullPage: false });
    expect(logProblems(log)).toEqual({});
  });

  it('falls back to createPE\'s own load when the early compile is refused', async () => {
    const { page, server } = session;
    // An engine that refuses the SIMD build's early compile (as one without SIMD would).
    await page.addInitScript(() => {
      WebAssembly.compileStreaming = () => Promise.reject(new TypeError('refused for the test'));
    });
    await page.goto(`${server.url}#sinusoidal?length=32&dim=16`, { waitUntil: 'load' });
    await page.waitForFunction(() => document.documentElement.dataset.state === 'ready');
    expect(await page.evaluate(() => Number(document.getElementById('main').dataset.renders))).toBeGreaterThan(0);
  });
});

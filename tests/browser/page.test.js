// Browser test of the PE Lab page: the real page, the real WebAssembly build, the system Chromium.
//   npx vitest run tests/browser
// Needs `bash build.sh` (web/wasm/*.wasm) first; bundles web/app.js itself. Saves screenshots to
// tests/artifacts/. Skipped when /usr/bin/chromium is missing, unless CI is set (then it fails).

import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { existsSync, mkdirSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../scripts/serve.js';
import { bundle } from '../../scripts/bundle.js';
import { browserAvailability, launchChromium, watchPage, canvasStats } from './helpers.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const WEB = path.join(ROOT, 'web');
const ARTIFACTS = path.join(ROOT, 'tests', 'artifacts');

const HEATMAP = '#heatmap-sinusoidal canvas.hm-canvas';
const LINEPLOT = '#lineplot-sinusoidal';
const PANEL = '#panel-sinusoidal';

/** A raw GET (no URL normalisation, unlike fetch) -> { status, headers }. */
function rawGet(url, rawPath) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request({ hostname, port, path: rawPath, method: 'GET' }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('static server (scripts/serve.js)', () => {
  let server;
  beforeAll(async () => {
    server = await startServer({ port: 0, root: WEB });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('serves the page with a same-origin Content-Security-Policy', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const r = await rawGet(server.url, '/');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/html/);
    const csp = r.headers['content-security-policy'];
    expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toMatch(/https?:|\*/);
  });

  it('uses the right MIME types', async () => {
    expect((await rawGet(server.url, '/schema.js')).headers['content-type']).toMatch(/^text\/javascript/);
    expect((await rawGet(server.url, '/style.css')).headers['content-type']).toMatch(/^text\/css/);
    if (existsSync(path.join(WEB, 'wasm', 'pe_simd.wasm'))) {
      expect((await rawGet(server.url, '/wasm/pe_simd.wasm')).headers['content-type']).toBe('application/wasm');
    }
  });

  it('never serves files outside web/', async () => {
    for (const p of ['/../package.json', '/%2e%2e/package.json', '/..%2fpackage.json', '/..%5cpackage.json',
      '/wasm/../../package.json', '/%00']) {
      const r = await rawGet(server.url, p);
      expect([400, 403, 404], p).toContain(r.status);
    }
    expect((await rawGet(server.url, '/missing.js')).status).toBe(404);
  });

  it('falls back to a free port when the asked-for one is taken', async () => {
    const other = await startServer({ port: server.port, root: WEB });
    try {
      expect(other.port).not.toBe(server.port);
    } finally {
      await other.close();
    }
  });
});

const avail = browserAvailability();
if (!avail.run && !avail.mustFail) console.warn(`[page.test] ${avail.reason}`);

describe.skipIf(!avail.run && !avail.mustFail)('PE Lab page in Chromium', () => {
  let server;
  let browser;
  let page;
  let log;

  /** Wait until the panel has rendered more than `n` times; returns the new count. */
  async function rendersAfter(n) {
    await page.waitForFunction(
      ([sel, k]) => Number(document.querySelector(sel)?.dataset.renders || 0) > k,
      [PANEL, n],
      { timeout: 5000 },
    );
    return renders();
  }
  const renders = () => page.evaluate((sel) => Number(document.querySelector(sel)?.dataset.renders || 0), PANEL);

  beforeAll(async () => {
    if (!avail.run) throw new Error(avail.reason);
    for (const f of ['pe.js', 'wasm/pe_simd.wasm', 'wasm/pe_scalar.wasm']) {
      if (!existsSync(path.join(WEB, f))) throw new Error(`web/${f} is missing: run \`bash build.sh\` first`);
    }
    await bundle({ webDir: WEB });
    server = await startServer({ port: 0, root: WEB });
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
    page = await context.newPage();
    log = await watchPage(page, new URL(server.url).origin);
    await page.goto(server.url, { waitUntil: 'load' });
    await page.waitForFunction(() => document.documentElement.dataset.state, null, { timeout: 10_000 });
  }, 45_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('starts the WebAssembly module and reports the build in the footer', async () => {
    expect(await page.evaluate(() => document.documentElement.dataset.state)).toBe('ready');
    const footer = await page.textContent('#engine');
    expect(footer).toMatch(/(SIMD|scalar) build/);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS, 'page.png'), fullPage: true });
  });

  it('builds the controls from the schema', async () => {
    for (const name of ['length', 'dim', 'base', 'layout', 'offset']) {
      expect(await page.locator(`${PANEL} [data-field="${name}"]`).count()).toBe(1);
    }
    expect(await page.inputValue('#f-sinusoidal-dim')).toBe('64');
    expect(await page.inputValue('#f-sinusoidal-layout')).toBe('interleaved');
    expect(await page.locator(`${PANEL} [data-field="base"] input[type=range]`).count()).toBe(1);
  });

  it('draws a non-blank heatmap', async () => {
    const s = await canvasStats(page, HEATMAP);
    expect(s.width).toBe(64);
    expect(s.height).toBe(128);
    expect(s.distinct).toBeGreaterThan(50);
  });

  it('draws the line chart', async () => {
    const s = await canvasStats(page, LINEPLOT);
    expect(s.width).toBeGreaterThan(100);
    expect(s.painted).toBeGreaterThan(1000);
    expect(s.distinct).toBeGreaterThan(6);
  });

  it('redraws when a control changes', async () => {
    const before = await canvasStats(page, HEATMAP);
    let n = await renders();
    await page.fill('#f-sinusoidal-dim', '32');
    n = await rendersAfter(n);
    const afterDim = await canvasStats(page, HEATMAP);
    expect(afterDim.width).toBe(32);
    expect(afterDim.hash).not.toBe(before.hash);

    await page.selectOption('#f-sinusoidal-layout', 'concat');
    n = await rendersAfter(n);
    const afterLayout = await canvasStats(page, HEATMAP);
    expect(afterLayout.hash).not.toBe(afterDim.hash);

    await page.fill('#f-sinusoidal-base', '100');
    await rendersAfter(n);
    const afterBase = await canvasStats(page, HEATMAP);
    expect(afterBase.hash).not.toBe(afterLayout.hash);
  });

  it('shows the error next to the field for invalid input and keeps the last picture', async () => {
    const before = await canvasStats(page, HEATMAP);
    const n = await renders();
    await page.fill('#f-sinusoidal-dim', '0');
    const err = page.locator('#f-sinusoidal-dim-error');
    await err.waitFor({ state: 'visible', timeout: 5000 });
    expect(await err.textContent()).toMatch(/dim/);
    expect(await page.getAttribute('#f-sinusoidal-dim', 'aria-invalid')).toBe('true');
    expect(await renders()).toBe(n);
    expect((await canvasStats(page, HEATMAP)).hash).toBe(before.hash);

    await page.screenshot({ path: path.join(ARTIFACTS, 'page-error.png'), fullPage: true });

    // A valid value clears the error and draws again.
    await page.fill('#f-sinusoidal-dim', '64');
    await rendersAfter(n);
    expect(await err.isVisible()).toBe(false);
  });

  it('reads values under the pointer and plots a clicked column', async () => {
    const box = await page.locator(`${PANEL} .hm-plot`).boundingBox();
    await page.mouse.move(box.x + 2, box.y + 2);
    expect(await page.textContent(`${PANEL} .hm-readout`)).toMatch(/position 0, dimension 0: /);
    // dim is 64 again: the last column is 63
    await page.mouse.click(box.x + box.width - 2, box.y + box.height / 2);
    expect(await page.inputValue('#f-sinusoidal-plotdims')).toMatch(/(^|, )63$/);
  });

  it('switches the colour map without recomputing', async () => {
    const before = await canvasStats(page, HEATMAP);
    const n = await renders();
    await page.selectOption('#f-sinusoidal-colormap', 'diverging'); // redraws synchronously
    const after = await canvasStats(page, HEATMAP);
    expect(after.hash).not.toBe(before.hash);
    expect(await renders()).toBe(n);
    await page.selectOption('#f-sinusoidal-colormap', 'viridis');
  });

  it('fits a phone-width screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(100);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: path.join(ARTIFACTS, 'page-phone.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('logs no errors and loads nothing from outside 127.0.0.1', () => {
    expect(log.external).toEqual([]);
    expect(log.httpErrors).toEqual([]);
    expect(log.failedRequests).toEqual([]);
    expect(log.pageErrors).toEqual([]);
    expect(log.consoleErrors).toEqual([]);
  });
});

// Browser tests of the PE Lab page: the real page, the real WebAssembly build, the system Chromium.
//   npx vitest run tests/browser
// Needs `bash build.sh` (web/wasm/*.wasm) first; bundles web/app/app.js itself. Saves a screenshot of
// every kind and view to tests/artifacts/. Skipped when /usr/bin/chromium is missing, unless CI is
// set (then it fails).

import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { existsSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { startServer } from '../../scripts/serve.js';
import { SCHEMA } from '../../web/api/schema/index.js';
import { WEB, suiteAvailability, openPage, gotoApp, screenshot, watchPage, canvasStats, nextFrames, CLEAN_LOG, logProblems, waitDrawn } from '../helpers/browser.js';

const KINDS = Object.keys(SCHEMA);

const HEATMAP = '#view-heatmap canvas.hm-canvas';
const LINES = '#view-lines .chart-box canvas';

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
    expect((await rawGet(server.url, '/api/schema/index.js')).headers['content-type']).toMatch(/^text\/javascript/);
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

const avail = suiteAvailability('page.test');

describe.skipIf(avail.skip)('PE Lab page in Chromium', () => {
  let server;
  let browser;
  let page;
  let log;
  let close;

  const renders = () => page.evaluate(() => Number(document.getElementById('main')?.dataset.renders || 0));
  /** Wait until the page has rendered more than `n` times; returns the new count. */
  async function rendersAfter(n) {
    await page.waitForFunction((k) => Number(document.getElementById('main')?.dataset.renders || 0) > k, n);
    return renders();
  }
  /** Wait until the line plot has drawn (Chart.js arrives in its own chunk). */
  async function linesDrawn() {
    await waitDrawn(page, '#view-lines');
  }
  async function showKind(kind) {
    if (await page.evaluate((k) => document.getElementById('main')?.dataset.kind === k, kind)) return;
    const n = await renders();
    await page.click(`#catalogue a[data-kind="${kind}"]`);
    await page.waitForFunction((k) => document.getElementById('main')?.dataset.kind === k, kind);
    await rendersAfter(n);
  }
  const shot = (name, opts = {}) => screenshot(page, name, null, opts);

  beforeAll(async () => {
    // Any state: the first test checks that it is 'ready'.
    ({ server, browser, page, log, close } = await openPage({ avail, url: '', state: null }));
  });

  afterAll(async () => {
    await close?.();
  });

  it('starts the WebAssembly module and reports the build in the footer', async () => {
    expect(await page.evaluate(() => document.documentElement.dataset.state)).toBe('ready');
    expect(await page.textContent('#engine')).toMatch(/(SIMD|scalar) build/);
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    await linesDrawn();
    await page.waitForFunction(() => document.querySelector('#view-properties .view-body')?.dataset.done);
    await shot('page');
  });

  it('lists every kind of the schema in the catalogue, under its group', async () => {
    const listed = await page.$$eval('#catalogue a[data-kind]', (as) => as.map((a) => a.dataset.kind));
    expect(listed.sort()).toEqual([...KINDS].sort());
    const groups = await page.$$eval('#catalogue .cat-group-title', (hs) => hs.map((x) => x.textContent));
    expect(groups.length).toBeGreaterThanOrEqual(1);
    expect(groups[0]).toBe('Absolute');
    expect(await page.getAttribute('#catalogue a[data-kind="sinusoidal"]', 'aria-current')).toBe('page');
  });

  it('builds the controls from the schema', async () => {
    for (const name of Object.keys(SCHEMA.sinusoidal.fields)) {
      expect(await page.locator(`#main [data-field="${name}"]`).count(), name).toBe(1);
    }
    expect(await page.inputValue('#f-sinusoidal-dim')).toBe('64');
    expect(await page.inputValue('#f-sinusoidal-layout')).toBe('interleaved');
    expect(await page.locator('#main [data-field="base"] input[type=range]').count()).toBe(1);
  });

  it('draws a non-blank heatmap, colour bar and line plot', async () => {
    // One canvas pixel per cell (the table is smaller than the plot), scaled up crisply by CSS.
    const s = await canvasStats(page, HEATMAP);
    expect([s.width, s.height]).toEqual([64, 128]);
    expect(s.distinct).toBeGreaterThan(50);
    const cbar = await canvasStats(page, '#view-heatmap .hm-cbar-canvas');
    expect(cbar.distinct).toBeGreaterThan(100);
    await linesDrawn();
    const l = await canvasStats(page, LINES);
    expect(l.painted).toBeGreaterThan(1000);
    expect(l.distinct).toBeGreaterThan(6);
    expect(await page.getAttribute('#view-heatmap .hm-plot', 'aria-label')).toMatch(/heatmap of 128 position rows by 64 dimension columns/);
  });

  it('renders every catalogue entry: a non-blank heatmap and curves, with a screenshot', async () => {
    for (const kind of KINDS) {
      await showKind(kind);
      const s = await canvasStats(page, HEATMAP);
      expect(s, kind).not.toBeNull();
      expect(s.painted, kind).toBeGreaterThan(0);
      expect(s.distinct, `${kind}: colours in the heatmap`).toBeGreaterThanOrEqual(2);
      await linesDrawn();
      const l = await canvasStats(page, LINES);
      expect(l.painted, `${kind}: line plot`).toBeGreaterThan(500);
      expect(await page.isVisible('#general-error'), `${kind}: no error at its defaults`).toBe(false);
      await shot(`kind-${kind}`);
    }
    await showKind('sinusoidal');
  });

  it('redraws when a control changes', async () => {
    const before = await canvasStats(page, HEATMAP);
    let n = await renders();
    await page.fill('#f-sinusoidal-dim', '32');
    n = await rendersAfter(n);
    const afterDim = await canvasStats(page, HEATMAP);
    expect(afterDim.hash).not.toBe(before.hash);

    await page.selectOption('#f-sinusoidal-layout', 'concat');
    n = await rendersAfter(n);
    const afterLayout = await canvasStats(page, HEATMAP);
    expect(afterLayout.hash).not.toBe(afterDim.hash);

    await page.fill('#f-sinusoidal-base', '100');
    n = await rendersAfter(n);
    expect((await canvasStats(page, HEATMAP)).hash).not.toBe(afterLayout.hash);
    // The state is in the URL, so it can be shared.
    await page.waitForFunction(() => location.hash.includes('base=100'));
    expect(await page.evaluate(() => location.hash)).toBe('#v1/sinusoidal?dim=32&base=100&layout=concat'); // web/share/permalink.js

    await page.click('#main .controls-actions .button'); // reset to defaults
    await rendersAfter(n);
    expect(await page.inputValue('#f-sinusoidal-dim')).toBe('64');
  });

  it('shows the error at the field it names and keeps the last picture', async () => {
    const before = await canvasStats(page, HEATMAP);
    const n = await renders();
    await page.fill('#f-sinusoidal-dim', '0');
    const err = page.locator('#f-sinusoidal-dim-error');
    await err.waitFor({ state: 'visible' });
    expect(await err.textContent()).toMatch(/dim must be an integer in \[1, 16384\], got 0/);
    expect(await page.getAttribute('#f-sinusoidal-dim', 'aria-invalid')).toBe('true');
    expect(await renders()).toBe(n);
    expect((await canvasStats(page, HEATMAP)).hash).toBe(before.hash);
    expect(await page.getAttribute('#view-heatmap .hm-plot', 'class')).toMatch(/stale/);
    await shot('page-error', { fullPage: false });

    await page.fill('#f-sinusoidal-dim', '64');
    await rendersAfter(n);
    expect(await err.isVisible()).toBe(false);
    expect(await page.getAttribute('#view-heatmap .hm-plot', 'class')).not.toMatch(/stale/);
  });

  it('reads values under the pointer and plots a clicked column', async () => {
    const box = await page.locator('#view-heatmap .hm-plot').boundingBox();
    await page.mouse.move(box.x + 2, box.y + 2);
    expect(await page.textContent('#view-heatmap .hm-readout')).toBe('position 0 · dimension 0 → 0');
    await page.mouse.move(box.x + box.width * (1.5 / 64), box.y + 2);
    expect(await page.textContent('#view-heatmap .hm-readout')).toBe('position 0 · dimension 1 → 1');
    const list = page.locator('#view-lines input[type=text]');
    expect(await list.inputValue()).toBe('0, 1, 8, 9, 24, 25');
    await page.mouse.click(box.x + box.width - 2, box.y + box.height / 2); // the last column, 63
    await page.waitForFunction(() => document.querySelector('#view-lines input[type=text]').value.endsWith('63'));
    expect(await list.inputValue()).toBe('0, 1, 8, 9, 24, 25, 63');
    await list.fill('0, 1');
  });

  it('zooms and pans the heatmap, with the buttons and the keyboard', async () => {
    const full = await canvasStats(page, HEATMAP);
    await page.click('#view-heatmap .hm-tool[aria-label="Zoom in"]');
    await nextFrames(page);
    const zoomed = await canvasStats(page, HEATMAP);
    expect(zoomed.hash).not.toBe(full.hash);
    expect(await page.getAttribute('#view-heatmap .hm-plot', 'class')).toMatch(/is-zoomed/);
    await page.focus('#view-heatmap .hm-plot');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowDown');
    expect(await page.textContent('#view-heatmap .hm-readout')).toMatch(/^position \d+ · dimension \d+ → /);
    await page.keyboard.press('0');
    await nextFrames(page);
    expect((await canvasStats(page, HEATMAP)).hash).toBe(full.hash);
    await page.keyboard.press('+');
    await nextFrames(page);
    expect((await canvasStats(page, HEATMAP)).hash).not.toBe(full.hash);
    await page.click('#view-heatmap .hm-tool[aria-label="Show everything"]');
  });

  it('switches the colour map without recomputing', async () => {
    const before = await canvasStats(page, HEATMAP);
    const n = await renders();
    for (const map of ['cividis', 'diverging']) {
      await page.selectOption('#view-heatmap .view-toolbar select', map);
      await nextFrames(page);
      const after = await canvasStats(page, HEATMAP);
      expect(after.hash, map).not.toBe(before.hash);
    }
    expect(await renders()).toBe(n);
    await page.selectOption('#view-heatmap .view-toolbar select', 'viridis');
  });

  it('computes the properties of the table', async () => {
    await page.waitForFunction(() => document.querySelector('#view-properties .view-body')?.dataset.done);
    const text = await page.textContent('#view-properties');
    expect(text).toContain('Every position has its own vector.');
    expect(text).toContain('Yes: one matrix per shift');
    expect(text).toContain('Same length');
    expect(text).toMatch(/‖PE\(5\) − PE\(3\)‖ = 2\.\d+, ‖PE\(105\) − PE\(103\)‖ = 2\.\d+/);
    await screenshot(page, 'view-properties', '#view-properties');
    // A learned (random) table has no linear shift.
    await showKind('learned');
    await page.waitForFunction(() => document.querySelector('#view-properties .view-body')?.dataset.done);
    expect(await page.textContent('#view-properties')).toMatch(/No: no single matrix|Inconclusive/);
    await showKind('sinusoidal');
  });

  it('compares two settings and shows the difference', async () => {
    // In sight first, as a reader sees it: a view out of sight catches up with the kind shown when
    // it comes into view and rebuilds its chips then, and a click landing in that moment (one run
    // under load) hit a chip being replaced.
    await page.locator('#view-compare').scrollIntoViewIfNeeded();
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
    await page.click('#view-compare .chip:has-text("Layout: concat")');
    await page.waitForSelector('#view-compare .compare-active:not([hidden])');
    const maps = await page.$$('#view-compare canvas.hm-canvas');
    expect(maps.length).toBe(3);
    for (let i = 0; i < 3; i++) {
      const s = await canvasStats(page, `#view-compare .compare-pane:nth-child(${i + 1}) canvas.hm-canvas`);
      expect(s.distinct, `pane ${i}`).toBeGreaterThan(20);
    }
    expect(await page.textContent('#view-compare .compare-numbers')).toMatch(/Largest difference: −?\d/);
    expect(await page.textContent("#view-compare .compare-diff-list")).toMatch(/layout: concat/i);
    await screenshot(page, 'view-compare', '#view-compare');
    // B follows A for the fields it did not change.
    const n = await renders();
    await page.fill('#f-sinusoidal-dim', '32');
    await rendersAfter(n);
    const bDim = await page.$eval('#view-compare .compare-controls [data-field="dim"] input[type=number]', (e) => e.value);
    expect(bDim).toBe('32');
    // A bad value in B shows at B's field; A is untouched.
    const bDimInput = page.locator('#view-compare .compare-controls [data-field="dim"] input[type=number]');
    await bDimInput.fill('0');
    await page.waitForSelector('#view-compare [data-field="dim"] .field-error:not([hidden])');
    expect(await page.isVisible('#f-sinusoidal-dim-error')).toBe(false);
    await bDimInput.fill('32');
    await page.click('#view-compare button:has-text("Stop comparing")');
    const m = await renders();
    await page.fill('#f-sinusoidal-dim', '64');
    await rendersAfter(m);
  });

  it('handles a nested object field (rope_scaling) from the schema', async () => {
    await showKind('rope');
    const sel = '#f-rope-rope_scaling-rope_type';
    expect(await page.inputValue(sel)).toBe('');
    expect(await page.isVisible('[data-field="rope_scaling.factor"]')).toBe(false);
    const before = await canvasStats(page, HEATMAP);
    const n = await renders();
    await page.selectOption(sel, 'yarn');
    await rendersAfter(n);
    expect(await page.isVisible('[data-field="rope_scaling.factor"]')).toBe(true);
    expect(await page.isVisible('[data-field="rope_scaling.beta_fast"]')).toBe(true);
    expect(await page.isVisible('[data-field="rope_scaling.low_freq_factor"]')).toBe(false);
    expect((await canvasStats(page, HEATMAP)).hash).not.toBe(before.hash);
    await page.selectOption(sel, 'llama3');
    await rendersAfter(n + 1);
    expect(await page.isVisible('[data-field="rope_scaling.low_freq_factor"]')).toBe(true);
    expect(await page.isVisible('[data-field="rope_scaling.beta_fast"]')).toBe(false);
    await shot('view-rope-scaling');
    // A bad sub-field value shows at that sub-field.
    await page.fill('#f-rope-rope_scaling-factor', '-1');
    await page.waitForSelector('[data-field="rope_scaling.factor"] .field-error:not([hidden])');
    await page.fill('#f-rope-rope_scaling-factor', '8');
    await page.selectOption(sel, '');
    await showKind('sinusoidal');
  });

  it('loads a trained table from a .safetensors file and explores it (learned)', async () => {
    await showKind('learned');
    try {
      // A small GPT-2-like checkpoint: token embeddings and a 40 × 12 position table.
      const [rows, cols] = [40, 12];
      const wpe = Float32Array.from({ length: rows * cols }, (_, i) => Math.sin(i * 0.37) * 0.1);
      const wte = new Float32Array(8 * cols).fill(0.5);
      const header = JSON.stringify({
        'wte.weight': { dtype: 'F32', shape: [8, cols], data_offsets: [0, wte.byteLength] },
        'wpe.weight': { dtype: 'F32', shape: [rows, cols], data_offsets: [wte.byteLength, wte.byteLength + wpe.byteLength] },
      });
      const head = Buffer.from(header.padEnd(Math.ceil(header.length / 8) * 8, ' '));
      const size = Buffer.alloc(8);
      size.writeBigUInt64LE(BigInt(head.length));
      const buffer = Buffer.concat([size, head, Buffer.from(wte.buffer), Buffer.from(wpe.buffer)]);
      const n = await renders();
      await page.setInputFiles('#view-load input[type=file]', { name: 'tiny-gpt2.safetensors', mimeType: 'application/octet-stream', buffer });
      await rendersAfter(n);
      expect(await page.textContent('#main .loaded-note')).toMatch(/tiny-gpt2\.safetensors · wpe\.weight \[40 × 12, float32\]/);
      expect(await page.inputValue('#view-load select')).toBe('wpe.weight'); // picked by its name
      const s = await canvasStats(page, HEATMAP);
      expect([s.width, s.height]).toEqual([cols, rows]);
      expect(await page.evaluate(() => document.querySelector('#main .controls .field-list').parentElement.inert)).toBe(true);
      await page.waitForFunction(() => document.querySelector('#view-properties .view-body')?.dataset.done);
      await shot('view-load');
      // A file that is not a table says why, where the file was chosen.
      await page.setInputFiles('#view-load input[type=file]', { name: 'bad.npy', mimeType: 'application/octet-stream', buffer: Buffer.from('not a numpy file') });
      await page.waitForSelector('#view-load .field-error:not([hidden])');
      const m = await renders();
      await page.click('#main .loaded-note button');
      await rendersAfter(m);
      expect(await page.isVisible('#main .loaded-note')).toBe(false);
    } finally {
      await showKind('sinusoidal');
    }
  });

  it('shows one head at a time for [heads, length, length] outputs', async () => {
    const kind = KINDS.find((k) => SCHEMA[k].fields.heads);
    if (!kind) return;
    await showKind(kind);
    try {
      const head = page.locator('#view-heatmap .view-toolbar input[type=number]');
      const h0 = await canvasStats(page, HEATMAP);
      await head.fill('3');
      await nextFrames(page);
      // One colour scale over all heads: a head with a smaller slope looks paler.
      expect((await canvasStats(page, HEATMAP)).hash).not.toBe(h0.hash);
      expect(await page.textContent('#view-heatmap .view-stats')).toMatch(/head 3$/);
    } finally {
      await showKind('sinusoidal');
    }
  });

  it('reaches every control with the keyboard, with a visible focus', async () => {
    // Views below the fold load their code when they come near the screen: bring them all in
    // first, so the list of controls is complete before tabbing.
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.waitForFunction(() => !document.querySelector('.view-loading'));
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.click('h1');
    const wanted = await page.evaluate(() => {
      const sel = 'a[href], button, input, select, textarea, summary, [tabindex="0"]';
      const visible = (e) => e.checkVisibility({ checkVisibilityCSS: true }) && e.getClientRects().length > 0;
      const list = [...document.querySelectorAll(sel)].filter((e) => visible(e) && !e.disabled && e.tabIndex >= 0
        && !(e.type === 'radio' && !e.checked));
      list.forEach((e, i) => e.setAttribute('data-kb', String(i)));
      return list.length;
    });
    const seen = new Set();
    const noOutline = [];
    for (let i = 0; i < wanted + 40 && seen.size < wanted; i++) {
      await page.keyboard.press('Tab');
      const r = await page.evaluate(() => {
        const e = document.activeElement;
        const cs = getComputedStyle(e);
        const label = e.closest('.segmented') ? getComputedStyle(e.nextElementSibling) : cs;
        return { kb: e.getAttribute('data-kb'), outline: label.outlineStyle !== 'none' && parseFloat(label.outlineWidth) > 0, tag: e.tagName, id: e.id };
      });
      if (r.kb !== null) seen.add(r.kb);
      if (r.kb !== null && !r.outline) noOutline.push(`${r.tag}#${r.id}`);
    }
    const missed = await page.evaluate((s) => [...document.querySelectorAll('[data-kb]')]
      .filter((e) => !s.includes(e.getAttribute('data-kb'))).map((e) => `${e.tagName}#${e.id}.${e.className}`), [...seen]);
    expect(missed).toEqual([]);
    expect(noOutline).toEqual([]);
  });

  it('operates the controls with the keyboard alone', async () => {
    const n = await renders();
    await page.focus('#f-sinusoidal-layout');
    await page.keyboard.press('ArrowDown'); // next option
    await rendersAfter(n);
    expect(await page.inputValue('#f-sinusoidal-layout')).toBe('concat');
    const slider = page.locator('#main [data-field="dim"] input[type=range]');
    await slider.focus();
    const m = await renders();
    await page.keyboard.press('ArrowRight');
    await rendersAfter(m);
    expect(await page.inputValue('#f-sinusoidal-dim')).not.toBe('64');
    const k = await renders();
    await page.click('#main .controls-actions .button');
    await rendersAfter(k);
  });

  it('switches to Korean and back', async () => {
    await page.click('#lang button[lang="ko"]');
    await page.waitForFunction(() => document.documentElement.lang === 'ko');
    await rendersAfter(0);
    expect(await page.textContent('#view-heatmap h3')).toBe('전체 표');
    expect(await page.textContent('#catalogue')).toContain('사인파');
    expect(await page.textContent('#engine')).toContain('브라우저 안에서');
    await linesDrawn();
    await page.waitForFunction(() => document.querySelector('#view-properties .view-body')?.dataset.done);
    await shot('page-ko');
    await page.fill('#f-sinusoidal-dim', '0');
    await page.locator('#f-sinusoidal-dim-error').waitFor({ state: 'visible' });
    expect(await page.textContent('#f-sinusoidal-dim-error')).toMatch(/^‘차원’ 값을 확인하세요: dim must be/);
    await page.fill('#f-sinusoidal-dim', '64');
    await page.click('#lang button[lang="en"]');
    await page.waitForFunction(() => document.documentElement.lang === 'en');
    expect(await page.textContent('#view-heatmap h3')).toBe('The whole table');
  });

  it('picks Korean from the browser languages, and follows a dark system theme', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'ko-KR', colorScheme: 'dark' });
    try {
      const p = await ctx.newPage();
      const l = await watchPage(p, new URL(server.url).origin);
      await gotoApp(p, `${server.url}#alibi`);
      expect(await p.getAttribute('html', 'lang')).toBe('ko');
      expect(await p.textContent('h1')).toBe('PE Lab');
      expect(await p.textContent('#tagline')).toMatch(/트랜스포머/);
      const bg = await p.evaluate(() => getComputedStyle(document.body).backgroundColor);
      expect(bg).toBe('rgb(13, 16, 22)');
      await waitDrawn(p, '#view-lines');
      await screenshot(p, 'page-ko-dark');
      expect(l.consoleErrors).toEqual([]);
      expect(l.pageErrors).toEqual([]);
    } finally {
      await ctx.close();
    }
  });

  it('takes the README picture (tests/artifacts/readme.png, copied to docs/screenshot.png by hand)', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1360, height: 860 }, locale: 'en-US', colorScheme: 'light' });
    try {
      const p = await ctx.newPage();
      await p.goto(server.url, { waitUntil: 'load' });
      await waitDrawn(p, '#view-lines');
      await nextFrames(p);
      const bottom = await p.$eval('#view-lines .chart-wrap', (e) => e.getBoundingClientRect().bottom + window.scrollY);
      await screenshot(p, 'readme', null, { clip: { x: 0, y: 0, width: 1360, height: Math.ceil(bottom) + 24 } });
    } finally {
      await ctx.close();
    }
  });

  it('fits a phone-width screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await nextFrames(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect((await canvasStats(page, HEATMAP)).distinct).toBeGreaterThan(50);
    await shot('page-phone');
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('logs no errors and loads nothing from outside 127.0.0.1', () => {
    expect(logProblems(log, [...CLEAN_LOG, 'failedRequests'])).toEqual({});
  });
});

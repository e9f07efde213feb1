// Browser tests of the bias views (web/views/absolute/ and web/views/relative/): bias against distance (alibi, t5, shaw,
// distance), every ALiBi head at once, integer/binary/sinusoidal side by side, and position
// similarity (learned, sinusoidal, a loaded .npy); in English and Korean. The real page, the real
// WebAssembly build, the system Chromium. Saves tests/artifacts/bias-*.png.
//   npx vitest run tests/browser/bias-views.test.js
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../scripts/serve.js';
import { browserAvailability, launchChromium, watchPage, canvasStats } from './helpers.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const WEB = path.join(ROOT, 'web');
const ARTIFACTS = path.join(ROOT, 'tests', 'artifacts');

const DIST = '#view-relative-distance';
const HEADS = '#view-alibi-heads';
const SIMPLE = '#view-absolute-simple';
const SIM = '#view-absolute-similarity';

/** A .npy v1.0 file of a float32 [rows, cols] table (C order). */
function npy(values, rows, cols) {
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': (${rows}, ${cols}), }`;
  const total = 10 + header.length + 1;
  header = header.padEnd(header.length + ((64 - (total % 64)) % 64), ' ') + '\n';
  const head = Buffer.alloc(10);
  Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]).copy(head);
  head.writeUInt16LE(header.length, 8);
  return Buffer.concat([head, Buffer.from(header, 'latin1'), Buffer.from(Float32Array.from(values).buffer)]);
}

const avail = browserAvailability();
if (!avail.run && !avail.mustFail) console.warn(`[bias-views.test] ${avail.reason}`);

describe.skipIf(!avail.run && !avail.mustFail)('bias views in Chromium', () => {
  let server;
  let browser;
  let page;
  let log;
  const notes = [];

  const dataOf = (sel, key) => page.evaluate(([s, k]) => document.querySelector(`${s} .view-body`)?.dataset[k], [sel, key]);
  /** Scroll a view into sight (views draw only on screen) and wait until it has drawn more than n times. */
  async function drawnAfter(sel, n = 0) {
    await page.locator(sel).scrollIntoViewIfNeeded();
    await page.waitForFunction(([s, k]) => Number(document.querySelector(`${s} .view-body`)?.dataset.drawn || 0) > k, [sel, n]);
  }
  const drawn = async (sel) => Number((await dataOf(sel, 'drawn')) || 0);
  async function showKind(kind) {
    if (await page.evaluate((k) => document.getElementById('main')?.dataset.kind === k, kind)) return;
    await page.click(`#catalogue a[data-kind="${kind}"]`);
    await page.waitForFunction((k) => document.getElementById('main')?.dataset.kind === k, kind);
  }
  const renders = () => page.evaluate(() => Number(document.getElementById('main')?.dataset.renders || 0));
  const samples = new Map(); // 'scenario · view' → update times (ms) of the changes made there
  /**
   * Set a parameter field and wait for the page to recompute and the view to draw (a new shape
   * remounts it). With a scenario name, records how long each bias view's update(state) took.
   */
  async function setField(id, value, sel, scenario = null) {
    // The view's body and draw count now: a new shape remounts the view (a new body, counting from 0).
    await page.evaluate((s) => {
      const el = document.querySelector(`${s} .view-body`);
      window.__biasWatch = { el, n: Number(el?.dataset.drawn || 0) };
    }, sel);
    const n = await renders();
    await page.fill(`#${id}`, String(value));
    await page.waitForFunction((k) => Number(document.getElementById('main')?.dataset.renders || 0) > k, n);
    await page.locator(sel).scrollIntoViewIfNeeded();
    await page.waitForFunction((s) => {
      const el = document.querySelector(`${s} .view-body`);
      const w = window.__biasWatch;
      return el && Number(el.dataset.drawn || 0) > (el === w.el ? w.n : 0);
    }, sel);
    if (!scenario) return;
    const r = await page.evaluate((s) => ({
      draw: Number(document.querySelector(`${s} .view-body`).dataset.ms),
      updates: Object.entries(window.__peLab.viewMs)
        .filter(([v]) => v.startsWith('bias-') && document.getElementById(`view-${v}`))
        .map(([v, xs]) => [v, xs[xs.length - 1]]),
    }), sel);
    const add = (key, ms) => {
      if (!samples.has(key)) samples.set(key, []);
      samples.get(key).push(ms);
    };
    add(`${scenario.padEnd(34)} ${sel.slice(6)} draw`, r.draw);
    for (const [v, ms] of r.updates) add(`${scenario.padEnd(34)} ${v} update()`, ms);
  }
  async function similarityDone() {
    await page.locator(SIM).scrollIntoViewIfNeeded();
    await page.waitForFunction((s) => document.querySelector(`${s} .view-body`)?.dataset.done, SIM);
  }
  const shot = (name, selector) => page.locator(selector).screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });

  beforeAll(async () => {
    if (!avail.run) throw new Error(avail.reason);
    for (const f of ['pe.js', 'wasm/pe_simd.wasm', 'wasm/pe_scalar.wasm']) {
      if (!existsSync(path.join(WEB, f))) throw new Error(`web/${f} is missing: run \`bash build.sh\` first`);
    }
    mkdirSync(ARTIFACTS, { recursive: true });
    server = await startServer({ port: 0, root: WEB });
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1, locale: 'en-US', colorScheme: 'light' });
    page = await context.newPage();
    log = await watchPage(page, new URL(server.url).origin);
    await page.goto(`${server.url}?lang=en`, { waitUntil: 'load' });
    await page.waitForFunction(() => document.documentElement.dataset.state === 'ready');
  });

  afterAll(async () => {
    const lines = [...samples].map(([key, xs]) => {
      const sorted = [...xs].sort((x, y) => x - y);
      return `  ${key.padEnd(62)} median ${sorted[Math.floor(sorted.length / 2)].toFixed(1).padStart(5)} ms, min ${sorted[0].toFixed(1).padStart(5)} ms (${xs.length} changes)`;
    });
    if (lines.length || notes.length) console.log(`\nBias views, per control change in headless Chromium: update(state), and the drawing it asks for (next frame, on screen only); the minimum is the closest to the uncontended cost\n${[...lines, ...notes].join('\n')}\n`);
    await browser?.close();
    await server?.close();
  });

  it('computes every curve as the C kernels do (t5, shaw, distance, ALiBi slopes)', async () => {
    // A string, so Vitest does not rewrite the imports meant for the browser.
    const bad = await page.evaluate(`(async () => {
      const m = { ...(await import('/views/relative/math.js')), ...(await import('/model/similarity.js')) };
      const { createPE } = await import('/pe.js');
      const pe = await createPE();
      const bad = [];
      const L = 300;
      const row = (kind, spec) => { const r = pe.compute({ kind, length: L, ...spec }); return { first: r.data.subarray(0, L), last: r.data.subarray((L - 1) * L, L * L) }; };
      const check = (name, spec, f) => {
        const { first, last } = row(spec.kind, spec);
        for (let j = 0; j < L; j++) {
          if (Math.fround(f(j)) !== first[j]) bad.push(name + ' r=' + j);
          if (Math.fround(f(j - (L - 1))) !== last[j]) bad.push(name + ' r=' + (j - (L - 1)));
        }
      };
      for (const [nb, md] of [[32, 128], [18, 128], [64, 256], [8, 20], [4096, 100000]]) {
        for (const bidi of [true, false]) {
          check('t5 ' + nb + '/' + md + '/' + bidi, { kind: 't5', num_buckets: nb, max_distance: md, bidirectional: bidi }, (r) => m.t5Bucket(r, nb, md, bidi));
        }
      }
      for (const k of [0, 1, 16, 500]) check('shaw ' + k, { kind: 'shaw', max_relative_position: k }, (r) => m.shawIndex(r, k));
      for (const fn of m.DISTANCE_FUNCTIONS) {
        check('distance ' + fn, { kind: 'distance', function: fn, strength: 1.7, scale: 3.3, mode: 'symmetric' }, (r) => m.distanceBias(Math.abs(r), fn, 1.7, 3.3));
      }
      for (let heads = 1; heads <= 70; heads++) {
        const s = pe.compute({ kind: 'alibi', heads, length: 2 }).slopes;
        const js = m.alibiSlopes(heads);
        for (let h = 0; h < heads; h++) if (Math.fround(js[h]) !== s[h]) bad.push('alibi ' + heads + ' h' + h);
      }
      const u = m.cosineSimilarity(Float32Array.from([3, 4, 0, 0, 2, 0, -6, -8]), 4, 2);
      // rows (3, 4), (0, 0), (2, 0), (−6, −8): a zero row has no direction (NaN)
      if (u[0] !== 1 || Math.abs(u[2] - 0.6) > 1e-6 || Math.abs(u[3] + 1) > 1e-6 || !Number.isNaN(u[1]) || !Number.isNaN(u[5])) bad.push('cosine ' + Array.from(u).join(','));
      return bad;
    })()`);
    expect(bad).toEqual([]);
  });

  it('draws every scheme against distance, the current kind highlighted (alibi, t5, shaw, distance)', async () => {
    const expected = { alibi: 'alibi', t5: 't5-bi', shaw: 'shaw', distance: 'dist-linear' };
    for (const [kind, family] of Object.entries(expected)) {
      await showKind(kind);
      await drawnAfter(DIST);
      await page.waitForFunction(([s, f]) => document.querySelector(`${s} .view-body`)?.dataset.highlight === f, [DIST, family]);
      const s = await canvasStats(page, `${DIST} .chart-box canvas`);
      expect(s.painted, kind).toBeGreaterThan(2000);
      expect(s.distinct, kind).toBeGreaterThan(8);
      expect(await page.textContent(`${DIST} .bias-switch.is-current`), kind).toContain('this page');
      if (kind === 'alibi' || kind === 't5') await shot(`bias-distance-${kind}`, DIST);
    }
    // Switching a scheme off and on redraws without it.
    const n0 = Number(await dataOf(DIST, 'series'));
    await page.uncheck(`${DIST} .bias-switches input[type=checkbox] >> nth=0`); // ALiBi: 8 curves
    expect(Number(await dataOf(DIST, 'series'))).toBe(n0 - 8);
    await page.check(`${DIST} .bias-switches input[type=checkbox] >> nth=0`);
    expect(Number(await dataOf(DIST, 'series'))).toBe(n0);
  });

  it('follows the t5 bidirectional toggle', async () => {
    await showKind('t5');
    await drawnAfter(DIST);
    const before = await canvasStats(page, `${DIST} .chart-box canvas`);
    const n = await drawn(DIST);
    await page.uncheck('#f-t5-bidirectional');
    await drawnAfter(DIST, n);
    expect(await dataOf(DIST, 'highlight')).toBe('t5-causal');
    const after = await canvasStats(page, `${DIST} .chart-box canvas`);
    expect(after.hash).not.toBe(before.hash);
    // Causal T5 hatches the masked side for the biases; the data table has the numbers.
    await page.click(`${DIST} .data-table summary`);
    const table = await page.textContent(`${DIST} .data-table table`);
    expect(table).toContain('T5 bucket, causal');
    expect(table).toContain('−∞');
    await page.click(`${DIST} .data-table summary`);
    await page.check('#f-t5-bidirectional');
    for (const L of [65, 128, 256, 512, 64]) await setField('f-t5-length', L, DIST, 't5, length 64 … 512');
  });

  it('shows every ALiBi head with its slope, and follows the head count', async () => {
    await showKind('alibi');
    await drawnAfter(HEADS);
    expect(await page.locator(`${HEADS} .bias-thumb`).count()).toBe(8);
    for (let i = 0; i < 8; i++) {
      const s = await canvasStats(page, `${HEADS} .bias-thumb:nth-child(${i + 1}) canvas`);
      expect(s.painted, `head ${i}`).toBeGreaterThan(1000); // the lower triangle
      expect(s.painted, `head ${i}`).toBeLessThan(s.width * s.height); // the masked upper one is transparent
    }
    const list8 = await page.textContent(`${HEADS} .bias-slopes`);
    expect(list8).toContain('1/2 = 2−1 = 0.5');
    expect(list8).toContain('1/256 = 2−8 = 0.00390625');
    expect(await page.locator(`${HEADS} .bias-slopes li`).count()).toBe(8);
    await shot('bias-heads-8', HEADS);

    await setField('f-alibi-heads', 12, HEADS, 'alibi, 8 → 12 heads, length 64');
    expect(await page.locator(`${HEADS} .bias-thumb`).count()).toBe(12);
    expect(await page.locator(`${HEADS} .bias-slopes li`).count()).toBe(12);
    const list12 = await page.textContent(`${HEADS} .bias-slopes`);
    expect(list12).not.toBe(list8);
    // Heads 8–11 are every second slope of 16 heads: 2^−0.5, 2^−1.5, 2^−2.5, 2^−3.5.
    expect(await page.textContent(`${HEADS} .bias-slopes li >> nth=8`)).toMatch(/m₈ = 2−0\.5 ≈ 0\.70710677/);
    expect(await page.textContent(`${HEADS} .bias-slopes li >> nth=11`)).toMatch(/m₁₁ = 2−3\.5 ≈ 0\.088388346/);
    expect(await page.textContent(`${HEADS} .bias-formula`)).toMatch(/12 is not a power of two/);

    // A thumbnail is a button that picks the head of the big heatmap.
    await page.focus(`${HEADS} .bias-thumb >> nth=3`);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => /head 3$/.test(document.querySelector('#view-heatmap .view-stats')?.textContent ?? ''));
    expect(await page.getAttribute(`${HEADS} .bias-thumb >> nth=3`, 'aria-pressed')).toBe('true');
    // Per-head colour scales change the pictures, not the numbers.
    const shared = await canvasStats(page, `${HEADS} .bias-thumb:nth-child(8) canvas`);
    const n = await drawn(HEADS);
    await page.click(`${HEADS} .segmented label >> nth=1`);
    await drawnAfter(HEADS, n);
    expect((await canvasStats(page, `${HEADS} .bias-thumb:nth-child(8) canvas`)).hash).not.toBe(shared.hash);
    await shot('bias-heads-12', HEADS);
    await setField('f-alibi-heads', 8, HEADS, 'alibi, 8 → 12 heads, length 64');
    // Long tables, then many heads: still one cheap update each.
    for (const L of [256, 512, 1024]) await setField('f-alibi-length', L, HEADS, 'alibi, 8 heads, length 256 … 1024');
    await setField('f-alibi-heads', 16, HEADS, 'alibi, 16 heads, length 1024');
    expect(await page.locator(`${HEADS} .bias-thumb`).count()).toBe(16);
    await page.click('#main .controls-actions .button'); // back to the defaults
    await page.waitForFunction(() => document.querySelectorAll('#view-alibi-heads .bias-thumb').length === 8);
  });

  it('puts integer, binary and sinusoidal side by side, with why the simple ones fail', async () => {
    const tabs = { integer: 'range', binary: 'steps', sinusoidal: 'bit' };
    for (const [kind, tab] of Object.entries(tabs)) {
      await showKind(kind);
      await drawnAfter(SIMPLE);
      expect(await dataOf(SIMPLE, 'tab'), kind).toBe(tab);
      const maps = await page.locator(`${SIMPLE} canvas.hm-canvas`).count();
      expect(maps).toBe(3);
      for (let i = 0; i < 3; i++) {
        const s = await canvasStats(page, `${SIMPLE} .bias-pane:nth-child(${i + 1}) canvas.hm-canvas`);
        expect(s.distinct, `${kind}: pane ${i}`).toBeGreaterThanOrEqual(2);
      }
      const chart = await canvasStats(page, `${SIMPLE} .chart-wrap:not([hidden]) canvas`);
      expect(chart.painted, kind).toBeGreaterThan(1000);
      await shot(`bias-simple-${kind}`, SIMPLE);
    }
    // On the binary page: the jump at 63 → 64 (7 bits), and it follows the length.
    await showKind('binary');
    await drawnAfter(SIMPLE);
    expect(await page.textContent(`${SIMPLE} .bias-pane >> nth=1`)).toMatch(/63 → 64 differ in 7 of 16 bits/);
    await setField('f-binary-length', 300, SIMPLE);
    expect(await page.textContent(`${SIMPLE} .bias-pane >> nth=1`)).toMatch(/255 → 256 differ in 9 of 16 bits/);
    // The bit tab: bit k against its sine; changing k redraws.
    let n = await drawn(SIMPLE);
    await page.click(`${SIMPLE} .segmented label >> nth=2`);
    await drawnAfter(SIMPLE, n);
    const before = await canvasStats(page, `${SIMPLE} .chart-wrap:not([hidden]) canvas`);
    n = await drawn(SIMPLE);
    await page.fill(`${SIMPLE} input[type=number]`, '2');
    await drawnAfter(SIMPLE, n);
    expect((await canvasStats(page, `${SIMPLE} .chart-wrap:not([hidden]) canvas`)).hash).not.toBe(before.hash);
    expect(await page.textContent(`${SIMPLE} .bias-why`)).toMatch(/Bit 2 of a binary counter flips every 4 positions/);
    await page.click('#main .controls-actions .button');
    await showKind('sinusoidal');
    for (const base of [100, 1000, 10000]) await setField('f-sinusoidal-base', base, SIMPLE, 'sinusoidal 128 × 64, base');
    await setField('f-sinusoidal-dim', 512, SIMPLE);
    await setField('f-sinusoidal-length', 512, SIMPLE);
    for (const base of [100, 1000, 10000]) await setField('f-sinusoidal-base', base, SIMPLE, 'sinusoidal 512 × 512, base');
    await page.click('#main .controls-actions .button');
  });

  it('shows the position similarity of the learned table, of sinusoids and of a loaded .npy', async () => {
    await showKind('learned');
    await similarityDone();
    const rand = await canvasStats(page, `${SIM} .bias-pane:nth-child(1) canvas.hm-canvas`);
    const sin = await canvasStats(page, `${SIM} .bias-pane:nth-child(2) canvas.hm-canvas`);
    expect(rand.distinct).toBeGreaterThan(20);
    expect(sin.distinct).toBeGreaterThan(20);
    expect(await dataOf(SIM, 'rows')).toBe('128');
    // Random rows are nearly orthogonal; sinusoidal neighbours are alike.
    const cells = async (col) => page.$$eval(`${SIM} .bias-sim-summary tbody tr`, (trs, c) => trs.map((tr) => Number(tr.children[c].textContent.replaceAll('−', '-'))), col);
    const randK = await cells(1);
    const sinK = await cells(2);
    expect(Math.abs(randK[0])).toBeLessThan(0.1);
    expect(sinK[0]).toBeGreaterThan(0.9);
    await shot('bias-similarity-learned', SIM);

    // A user's table: 48 positions on a circle, 10 dims → cos similarity of p and p + k is cos(k·θ).
    const [rows, cols, theta] = [48, 10, 0.05];
    const values = [];
    for (let p = 0; p < rows; p++) {
      for (let c = 0; c < cols; c++) values.push(c === 0 ? Math.cos(p * theta) : c === 1 ? Math.sin(p * theta) : 0);
    }
    await page.setInputFiles('#view-load input[type=file]', { name: 'circle.npy', mimeType: 'application/octet-stream', buffer: npy(values, rows, cols) });
    await page.locator(SIM).scrollIntoViewIfNeeded();
    await page.waitForFunction((s) => document.querySelector(`${s} .view-body`)?.dataset.rows === '48', SIM);
    await similarityDone();
    expect(await page.textContent(`${SIM} .bias-pane-title >> nth=0`)).toMatch(/Loaded table: \.npy \[48 × 10\]/);
    const loaded = await cells(1);
    expect(loaded[0]).toBeCloseTo(Math.cos(theta), 3); // k = 1
    expect(loaded[3]).toBeCloseTo(Math.cos(8 * theta), 3); // k = 8
    await shot('bias-similarity-npy', SIM);
    await page.click('#main .loaded-note button');
    await page.locator(SIM).scrollIntoViewIfNeeded();
    await page.waitForFunction((s) => document.querySelector(`${s} .view-body`)?.dataset.rows === '128', SIM);

    // The sinusoidal page: beside it the random initialisation.
    await showKind('sinusoidal');
    await similarityDone();
    expect(await page.inputValue(`${SIM} select`)).toBe('learned');
    expect((await canvasStats(page, `${SIM} .bias-pane:nth-child(1) canvas.hm-canvas`)).distinct).toBeGreaterThan(20);
    await shot('bias-similarity-sinusoidal', SIM);
  });

  it('computes a GPT-2-sized similarity (1024 × 768) in the worker, with the page responsive', async () => {
    await showKind('learned');
    await page.fill('#f-learned-dim', '768');
    await page.fill('#f-learned-length', '1024');
    await page.locator(SIM).scrollIntoViewIfNeeded();
    await page.waitForFunction((s) => document.querySelector(`${s} .view-body`)?.dataset.rows === '1024', SIM);
    // While the worker computes, the main thread keeps drawing frames.
    const gaps = await page.evaluate(async () => {
      const out = [];
      let last = performance.now();
      const t0 = last;
      while (performance.now() - t0 < 400) {
        await new Promise((r) => requestAnimationFrame(r));
        const now = performance.now();
        out.push(now - last);
        last = now;
      }
      return out;
    });
    await similarityDone();
    const status = await page.textContent(`${SIM} .view-stats`);
    notes.push(`  similarity 1024 × 768: ${status}; on the main thread ${await dataOf(SIM, 'sendMs')} ms (a copy); longest frame while computing ${Math.max(...gaps).toFixed(0)} ms`);
    expect(status).toMatch(/1024 × 1024 similarities/);
    expect(gaps.length, 'animation frames kept coming while the worker computed').toBeGreaterThan(1);
    await page.click('#main .controls-actions .button');
  });

  it('speaks Korean', async () => {
    await page.click('#lang button[lang="ko"]');
    await page.waitForFunction(() => document.documentElement.lang === 'ko');
    await showKind('alibi');
    await drawnAfter(DIST);
    expect(await page.textContent(`${DIST} h3`)).toBe('거리에 따른 편향: 모든 방식 한눈에');
    expect(await page.textContent(`${HEADS} h3`)).toBe('모든 헤드를 한 번에');
    expect(await page.textContent(`${HEADS} .bias-formula`)).toMatch(/헤드 8개 \(2의 거듭제곱\): 기울기는 등비수열/);
    await page.locator('#view-relative-distance').scrollIntoViewIfNeeded();
    await shot('bias-ko-distance', DIST);
    await shot('bias-ko-heads', HEADS);
    await showKind('binary');
    await drawnAfter(SIMPLE);
    expect(await page.textContent(`${SIMPLE} h3`)).toBe('정수, 이진, 사인파 나란히 보기');
    expect(await page.textContent(`${SIMPLE} .bias-pane >> nth=1`)).toMatch(/비트 16개 중 7개가 다르고/);
    await shot('bias-ko-simple', SIMPLE);
    await showKind('learned');
    await similarityDone();
    expect(await page.textContent(`${SIM} h3`)).toBe('어떤 위치끼리 닮았을까: 코사인 유사도');
    await shot('bias-ko-similarity', SIM);
    await page.click('#lang button[lang="en"]');
    await page.waitForFunction(() => document.documentElement.lang === 'en');
  });

  it('logs no errors and loads nothing from outside 127.0.0.1', () => {
    expect(log.external).toEqual([]);
    expect(log.pageErrors).toEqual([]);
    expect(log.consoleErrors).toEqual([]);
    expect(log.httpErrors).toEqual([]);
  });
});

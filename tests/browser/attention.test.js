// Browser tests of the attention views (web/views/attention/): every head and their average with
// a token read-out, one query's curves, word order (the permutation lesson, measured in
// the page), and the extrapolation chart; in English and Korean. Then the redraw time of a
// 512-token, 8-head attention spec after a parameter change (target: one animation frame, 16 ms
// median), printed. The real page, the real WebAssembly build, the system Chromium. Saves
// tests/artifacts/attention-*.png.
//   npx vitest run tests/browser/attention.test.js
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { cpus, loadavg } from 'node:os';
import { suiteAvailability, openPage, gotoApp, screenshot, canvasStats, nextFrames, logProblems, waitDrawn, waitViewSet } from '../helpers/browser.js';

const HEADS = '#view-attention-heads';
const ROW = '#view-attention-row';
const SENT = '#view-attention-sentence';
const EXTRA = '#view-attention-extrapolation';

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const avail = suiteAvailability('attention.test');

describe.skipIf(avail.skip)('attention views in Chromium', () => {
  let server;
  let page;
  let log;
  let close;
  const report = [];

  const drawn = (sel) => page.evaluate((s) => Number(document.querySelector(`${s} .view-body`)?.dataset.drawn || 0), sel);
  // Views off screen wait to be seen before they update: waitDrawn keeps the view in sight.
  const drawnAfter = (sel, n) => waitDrawn(page, sel, n);
  const shot = (name, selector) => screenshot(page, name, selector);

  async function open(hash) {
    await gotoApp(page, `${server.url}?lang=en${hash}`);
    await page.waitForFunction(() => document.getElementById('main')?.dataset.kind === 'attention');
  }

  beforeAll(async () => {
    ({ server, page, log, close } = await openPage({ avail }));
    await open('#attention?length=16&heads=4');
  });

  afterAll(async () => {
    if (report.length) {
      console.log(`\nAttention views in headless Chromium (--disable-gpu; ${cpus().length} cores, load average ${loadavg().map((x) => x.toFixed(1)).join(', ')}):\n${report.join('\n')}\n`);
    }
    await close?.();
  });

  it('shows the four attention views for the attention kind', async () => {
    for (const sel of [HEADS, ROW, SENT, EXTRA]) expect(await page.isVisible(sel), sel).toBe(true);
    await drawnAfter(HEADS, 0);
    // The mean and one picture per head, each a 16 × 16 canvas with many colours.
    expect(await page.locator(`${HEADS} canvas`).count()).toBe(5);
    const s = await canvasStats(page, `${HEADS} .attn-item:nth-child(2) .attn-tile canvas`);
    expect([s.width, s.height]).toEqual([16, 16]);
    expect(s.distinct).toBeGreaterThan(20);
    await drawnAfter(ROW, 0);
    expect(await page.locator(`${ROW} .chart-box canvas`).count()).toBe(1);
  });

  it('the heads view draws on √, log or linear weights; log states its floor', async () => {
    const sel = `${HEADS} select[id$="-scale"]`;
    const stats = () => page.textContent(`${HEADS} .view-stats`);
    const pixels = () => page.evaluate((x) => {
      const c = document.querySelector(`${x} .attn-item:nth-child(1) canvas`);
      return Array.from(c.getContext('2d').getImageData(0, 0, c.width, c.height).data).join(',');
    }, HEADS);
    // A view draws only in sight: keep the heads view there while waiting for it.
    const statsHave = (re) => page.waitForFunction(([x, src]) => {
      const el = document.querySelector(x);
      const r = el.getBoundingClientRect();
      if (r.bottom < 0 || r.top > window.innerHeight) el.scrollIntoView({ block: 'start' });
      return new RegExp(src).test(el.querySelector('.view-stats')?.textContent ?? '');
    }, [HEADS, re.source]);
    await page.locator(HEADS).scrollIntoViewIfNeeded();
    const sqrt = await pixels();
    expect(await stats()).toMatch(/colours 0 … /);
    await page.selectOption(sel, 'log');
    await statsHave(/\(log floor\)/);
    expect(await pixels()).not.toBe(sqrt);
    // The floor is above 0 and at most a tenth of the top colour; the link keeps the choice.
    const [lo, top] = (await stats()).match(/colours ([\d.e+-]+) \(log floor\) … ([\d.e+-]+)/).slice(1).map(Number);
    expect(lo).toBeGreaterThan(0);
    expect(lo).toBeLessThanOrEqual(top / 10 * (1 + 1e-3));
    await page.waitForFunction(() => location.hash.includes('attnScale'));
    await page.selectOption(sel, 'linear');
    await statsHave(/colours 0 … /);
    const linear = await pixels();
    expect(linear).not.toBe(sqrt);
    await page.selectOption(sel, 'sqrt');
    await page.waitForFunction(([x, want]) => {
      document.querySelector(x).scrollIntoView({ block: 'start' });
      const c = document.querySelector(`${x} .attn-item:nth-child(1) canvas`);
      return Array.from(c.getContext('2d').getImageData(0, 0, c.width, c.height).data).join(',') === want;
    }, [HEADS, sqrt]);
  });

  it('switches the encoding from the heads view', async () => {
    const n = await drawn(HEADS);
    const before = await canvasStats(page, `${HEADS} .attn-item:nth-child(1) .attn-tile canvas`);
    await page.selectOption(`${HEADS} select[id$=-enc]`, 'alibi');
    await drawnAfter(HEADS, n);
    expect(JSON.parse(await page.inputValue('#f-attention-encoding'))).toMatchObject({ kind: 'alibi' });
    expect((await canvasStats(page, `${HEADS} .attn-item:nth-child(1) .attn-tile canvas`)).hash).not.toBe(before.hash);
    const m = await drawn(HEADS);
    await page.selectOption(`${HEADS} select[id$=-enc]`, 'rope');
    await drawnAfter(HEADS, m);
    expect(await page.inputValue(`${HEADS} select[id$=-enc]`)).toBe('rope');
  });

  it('reads the tokens and the weight under the pointer, and follows a clicked query', async () => {
    // The sentence view puts its second order into the parameters; the heads view labels it. It
    // loads when it comes near the screen.
    await page.locator(SENT).scrollIntoViewIfNeeded();
    await drawnAfter(SENT, 0);
    await page.fill(`${SENT} input.wo-text >> nth=0`, 'the cat sat on the mat 고양이가 매트 위에 앉았다 and the dog barked');
    await page.fill(`${SENT} input.wo-text >> nth=1`, 'the cat sat on the mat 고양이가 매트 위에 앉았다 and the dog barked');
    const n = await drawn(HEADS);
    await page.click(`${SENT} button:has-text("Show the second order in the other views")`);
    await drawnAfter(HEADS, n);
    expect(await page.inputValue('#f-attention-length')).toBe('14');
    const tile = page.locator(`${HEADS} canvas`).nth(2);   // head 1
    const box = await tile.boundingBox();
    // Row 6 ("고양이가"), column 1 ("cat") of 14.
    await tile.hover({ position: { x: (1.5 / 14) * box.width, y: (6.5 / 14) * box.height } });
    const text = await page.textContent(`${HEADS} .attn-readout`);
    expect(text).toMatch(/^Head 1: query 6 “고양이가” → key 1 “cat”: 0\.\d+/);
    const before = await drawn(ROW);
    await tile.click({ position: { x: (1.5 / 14) * box.width, y: (6.5 / 14) * box.height } });
    await drawnAfter(ROW, before);
    expect(await page.inputValue(`${ROW} input[type=number]`)).toBe('6');
    expect(await page.textContent(`${ROW} .attn-note`)).toMatch(/^Query 6 “고양이가”/);
    await shot('attention-heads', HEADS);
    await shot('attention-row', ROW);
  });

  it('measures the word-order lesson in the page: labelled tokens, identical without positions, not with them', async () => {
    const body = `${SENT} .view-body`;
    const measure = () => page.evaluate((s) => ({ ...document.querySelector(s).dataset }), body);
    const change = async (fn) => {
      const n = await drawn(SENT);
      await fn();
      await drawnAfter(SENT, n);
      return measure();
    };
    // "I love AI" against "AI love I", with the explorer's RoPE and causal mask.
    await page.locator(SENT).scrollIntoViewIfNeeded();
    await change(() => page.fill(`${SENT} input.wo-text >> nth=0`, 'I love AI'));
    const labels = await page.$$eval(`${SENT} .wo-fig`, (figs) => figs.map((f) => [...f.querySelectorAll('.wo-rows span')].map((x) => x.textContent)));
    expect(labels).toEqual([['I', 'love', 'AI'], ['AI', 'love', 'I'], ['I', 'love', 'AI']]);
    let m = await measure();
    expect(m.verdict).toBe('differs-both');
    const withPositions = Number(m.outDiff);
    expect(withPositions).toBeGreaterThan(1e-3);
    expect(await page.textContent(`${SENT} .wo-verdict`)).toMatch(/^Different .*RoPE.*causal mask/);
    // The read-out names the tokens.
    const canvas = page.locator(`${SENT} .wo-fig >> nth=1`).locator('canvas').first();
    const box = await canvas.boundingBox();
    await canvas.hover({ position: { x: box.width / 6, y: (5 * box.height) / 6 } });
    expect(await page.textContent(`${SENT} .wo-readout`)).toMatch(/^query “I” \(2\) → key “AI” \(0\): 0\.\d+/);
    await shot('attention-sentence-rope', SENT);
    // No encoding, no mask: identical to float32 rounding, and the two outputs agree pixel for pixel.
    await change(() => page.selectOption(`${SENT} select.wo-enc`, 'none'));
    m = await change(() => page.uncheck(`${SENT} input.wo-causal`));
    expect(m.verdict).toBe('bag');
    const without = Number(m.weightDiff);
    expect(without).toBeLessThan(1e-6);
    expect(await page.textContent(`${SENT} .wo-verdict`)).toMatch(/^Identical/);
    const bars = await page.$$eval(`${SENT} .wo-mix-row`, (rows) => rows.map((r) => [...r.querySelectorAll('.wo-bar')].map((b) => b.getAttribute('title'))));
    for (const [a, b] of bars) expect(a.replace(/^[^:]*:/, '')).toBe(b.replace(/^[^:]*:/, ''));
    await shot('attention-sentence-none', SENT);
    // The explorer's encoding changes: the view follows it.
    const n = await drawn(SENT);
    await page.selectOption(`${HEADS} select[id$=-enc]`, 'alibi');
    await drawnAfter(SENT, n);
    expect(await page.inputValue(`${SENT} select.wo-enc`)).toBe('alibi');
    await page.selectOption(`${HEADS} select[id$=-enc]`, 'rope');
    report.push(`  word order in the page: max |difference| in a word's output ${withPositions.toFixed(3)} with RoPE + causal mask, ${without.toExponential(2)} without either`);
  });

  it('draws the extrapolation chart: every encoding, entropy and local mass, reacting to T', async () => {
    await page.waitForFunction((s) => document.querySelector(`${s} .view-body`)?.dataset.done, EXTRA);
    await drawnAfter(EXTRA, 0);
    expect(await page.getAttribute(`${EXTRA} .chart-box`, 'aria-label')).toMatch(/entropy .* training length 128/);
    const c0 = await canvasStats(page, `${EXTRA} .chart-box canvas`);
    expect(c0.painted).toBeGreaterThan(1000);
    // The training length is marked on the chart where the note says extrapolation starts.
    expect(await page.evaluate((s) => document.querySelector(`${s} .view-body`).dataset.markT, EXTRA)).toBe('128');
    expect(await page.textContent(`${EXTRA} .attn-note`)).toMatch(/right of the dashed line at 128 is extrapolation/);
    await shot('attention-extrapolation-entropy', EXTRA);
    let n = await drawn(EXTRA);
    await page.selectOption(`${EXTRA} select[id$=metric]`, 'mass');
    await drawnAfter(EXTRA, n);
    expect(await page.getAttribute(`${EXTRA} .chart-box`, 'aria-label')).toMatch(/mass on the 16 nearest keys/);
    expect((await canvasStats(page, `${EXTRA} .chart-box canvas`)).hash).not.toBe(c0.hash);
    await shot('attention-extrapolation-mass', EXTRA);
    n = await drawn(EXTRA);
    await page.fill(`${EXTRA} input[id$=-t]`, '64');
    await drawnAfter(EXTRA, n);
    expect(await page.textContent(`${EXTRA} .attn-note`)).toMatch(/T = 64; positions 0 … 255/);
    expect(await page.evaluate((s) => document.querySelector(`${s} .view-body`).dataset.markT, EXTRA)).toBe('64');
  });

  it('computes the extrapolation curves as the kernel reports them, with the expected shapes', async () => {
    // A string, so Vitest does not rewrite the imports meant for the browser.
    const facts = await page.evaluate(`(async () => {
      const { extrapolation } = await import('/views/attention/extrapolation.js');
      const { createPE } = await import('/pe.js');
      const pe = await createPE();
      const f = extrapolation(pe, { t: 64, dim: 64, seed: 0, content: 'none' });
      const n = f.length;
      const pick = (m, i) => Object.fromEntries(f.series.map((s) => [s.key, s[m][i]]));
      return { n, heads: f.heads, entropyT: pick('entropy', 63), entropy4T: pick('entropy', n - 1), mass4T: pick('mass', n - 1) };
    })()`);
    expect(facts.n).toBe(256);
    expect(facts.heads).toBe(8);
    // Without positions the weights are uniform over the i + 1 visible keys.
    expect(facts.entropy4T.none).toBeCloseTo(Math.log(256), 4);
    expect(facts.mass4T.none).toBeCloseTo(16 / 256, 5);
    // ALiBi's entropy grows far less from T to 4T than RoPE's or the sinusoidal one's (it levels
    // off), and at 4T the four encodings are clearly apart.
    const growth = (k) => facts.entropy4T[k] - facts.entropyT[k];
    expect(growth('alibi')).toBeLessThan(0.6 * growth('rope'));
    expect(growth('alibi')).toBeLessThan(0.6 * growth('sinusoidal'));
    const keys = ['sinusoidal', 'rope', 'ropeYarn', 'alibi'];
    for (const a of keys) for (const b of keys) if (a < b) expect(Math.abs(facts.entropy4T[a] - facts.entropy4T[b]), `${a} vs ${b}`).toBeGreaterThan(0.1);
  });

  it('works in Korean', async () => {
    await gotoApp(page, `${server.url}?lang=ko#attention?length=16&heads=2`);
    await drawnAfter(HEADS, 0);
    expect(await page.textContent(`${HEADS} h3, ${HEADS} h2`)).toBe('헤드별 패턴과 평균');
    expect(await page.textContent(`${HEADS} figcaption >> nth=0`)).toBe('헤드 평균');
    expect(await page.textContent(`${SENT} button:has-text("뒤집기")`)).toBe('뒤집기');
    await page.waitForFunction((s) => document.querySelector(`${s} .view-body`)?.dataset.done, EXTRA);
    await shot('attention-ko', '#main');
  });

  it('redraws every attention view of a 512-token, 8-head spec after each change', async () => {
    await open('#attention?length=512&heads=8');
    await drawnAfter(HEADS, 0);
    // Views out of sight do no work (their line plots load when seen): bring this one in.
    await waitViewSet(page, EXTRA, 'done');
    // The heads view at the top of the screen: it and the query view below are in sight (views out
    // of sight wait until they are seen).
    await page.evaluate((s) => document.querySelector(s).scrollIntoView({ block: 'start' }), HEADS);
    await nextFrames(page);
    const updates = () => page.evaluate(() => ['attention-heads', 'attention-row'].map((v) => (window.__peLab.viewMs[v] ?? []).length));
    // One change first, until both views have updated: then the page has seen them in sight (on a
    // busy machine its visibility watch can report a frame or two after the scroll, and a view out
    // of sight skips changes and catches up once, which the count below would read as a miss).
    const warm = await updates();
    await page.evaluate(() => {
      const input = document.getElementById('f-attention-encoding');
      input.value = JSON.stringify({ kind: 'rope', base: 9999 });
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await page.waitForFunction((w) => ['attention-heads', 'attention-row'].every((v, i) => (window.__peLab.viewMs[v] ?? []).length > w[i]), warm);
    const before = await updates();
    // Change RoPE's base through the encoding field (the extrapolation view does not depend on it,
    // so every view but that one redraws): compute + the heads and query views in sight.
    const samples = await page.evaluate(async (n) => {
      const input = document.getElementById('f-attention-encoding');
      const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
      const out = [];
      for (let i = 0; i < n; i++) {
        const before = window.__peLab.renders;
        const t0 = performance.now();
        input.value = JSON.stringify({ kind: 'rope', base: 10000 + (i % 2 ? 1 : 2) * (i + 1) });
        input.dispatchEvent(new Event('input', { bubbles: true }));
        while (window.__peLab.renders === before) await frame();
        const d = window.__peLab;
        const last = (xs) => (xs && xs.length ? xs[xs.length - 1] : NaN);
        out.push({
          work: last(d.renderMs), compute: last(d.computeMs), heads: last(d.viewMs['attention-heads']),
          row: last(d.viewMs['attention-row']),
          latency: d.lastRenderEnd - t0,
        });
        await frame();
      }
      return out;
    }, 30);
    const stat = (k) => samples.map((s) => s[k]).filter(Number.isFinite);
    const line = (label, k) => `    ${label.padEnd(44)} median ${median(stat(k)).toFixed(1)} ms, min ${Math.min(...stat(k)).toFixed(1)} ms`;
    const attentionView = samples.map((s) => s.compute + s.heads);
    report.push('  512 tokens × 8 heads (dim 64, RoPE, random content), 30 changes of the RoPE base:',
      `    compute + the heads view (the attention view)  median ${median(attentionView).toFixed(1)} ms, min ${Math.min(...attentionView).toFixed(1)} ms (target ≤ 16 ms)`,
      line('  compute (pe.compute in WebAssembly)', 'compute'),
      line('  heads view (9 pictures of 512 × 512)', 'heads'),
      line('  query view (Chart.js)', 'row'),
      line('whole page redraw (compute + the views in sight)', 'work'));
    // Behaviour only: every change recomputed and redrew the attention views. The speed goal
    // (≤ 16 ms input to paint) is measured by npm run bench (bench/page.js).
    expect(await updates()).toEqual(before.map((k) => k + samples.length));
    expect(samples.every((s) => Number.isFinite(s.heads) && Number.isFinite(s.row))).toBe(true);
    expect(samples.every((s) => Number.isFinite(s.compute))).toBe(true);
    await shot('attention-512x8', HEADS);
  });

  it('logs no errors and loads nothing from outside 127.0.0.1', () => {
    expect(logProblems(log)).toEqual({});
  });
});

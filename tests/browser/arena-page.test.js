// Browser tests of the Arena page (web/pages/arena/): a small experiment (short lengths, few steps,
// two seeds per encoding: one run per encoding and seed) trained in the page's workers; the loss
// and accuracy charts paint, with a min–max band per encoding; the results table shows mean
// [min–max]; Stop holds every run and Resume continues it; the same settings give the same
// losses, bit for bit, also across a stop; the permalink round-trips; a preset fills the form and
// the URL; a paper's preset words its verdict; Korean shows no untranslated text; no console errors. The real
// page, the real WebAssembly build, the system Chromium. Saves tests/artifacts/arena-*.png.
//   npx vitest run tests/browser/arena-page.test.js
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { suiteAvailability, openPage, watchPage, screenshot, canvasStats, logProblems, WAIT_MS } from '../helpers/browser.js';
import strings from '../../web/pages/arena/strings.js';

const avail = suiteAvailability('arena-page.test');
const SMALL = 'task=copy&enc=none,learned,rope&causal=1&len=4&min=2&steps=120&seed=3&seeds=2&lr=0.003';
const IDS = ['none#3', 'learned#3', 'rope#3', 'none#4', 'learned#4', 'rope#4'];

/** The page's results (el.arenaResults(), see web/pages/arena/index.js). */
/** Loads a page route (#arena…) and waits until the page is mounted (html data-page-state). */
async function gotoArena(page, url) {
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForFunction(() => document.documentElement.dataset.pageState === 'ready' && !!document.querySelector('.arena'));
}
const results = (page) => page.evaluate(() => document.querySelector('.arena').arenaResults());
const state = (page) => page.getAttribute('.arena', 'data-state');
const waitState = (page, s) => page.waitForFunction((want) => document.querySelector('.arena')?.dataset.state === want, s, { timeout: WAIT_MS * 4 });
const waitCount = (page, attr, n = 0) => page.waitForFunction(([a, k]) => Number(document.querySelector('.arena')?.dataset[a] || 0) > k, [attr, n], { timeout: WAIT_MS * 4 });

describe('arena strings', () => {
  it('has the same keys in English and Korean', () => {
    expect(Object.keys(strings.ko).sort()).toEqual(Object.keys(strings.en).sort());
  });
});

describe.skipIf(avail.skip)('arena page in Chromium', () => {
  let page;
  let log;
  let close;
  let server;
  let browser;
  let firstRun;

  beforeAll(async () => {
    ({ page, log, close, server, browser } = await openPage({ avail }));
    await gotoArena(page, `${server.url}?lang=en#arena?${SMALL}`);
  });

  afterAll(async () => {
    await close?.();
  });

  it('opens a link with its settings filled in, and trains only on Run', async () => {
    expect(await state(page)).toBe('idle');
    expect(await page.locator('.arena-preset select').inputValue()).toBe(''); // no preset: own settings
    expect(await page.locator('.arena-form select >> nth=1').inputValue()).toBe('copy');
    const checked = await page.$$eval('.arena-encs input:checked', (els) => els.map((e) => e.value));
    expect(checked).toEqual(['none', 'learned', 'rope']);
    expect(await page.textContent('.arena-notice')).toMatch(/Nothing trains until you press Run/);
    await screenshot(page, 'arena-before');
  });

  it('trains in workers, paints the loss curves, stops and resumes', async () => {
    await page.click('.arena-primary');
    await waitCount(page, 'lossDrawn');
    const loss = await canvasStats(page, '.arena-card .chart-box canvas');
    expect(loss.distinct).toBeGreaterThan(5);
    // Stop, unless the runs finished first (a fast machine): then the button is disabled and the
    // test goes on with a finished run.
    await page.evaluate(() => {
      const stop = document.querySelector('.arena-actions .button:nth-child(2)');
      if (!stop.disabled) stop.click();
    });
    await page.waitForFunction(() => {
      const s = document.querySelector('.arena').dataset.state;
      return s === 'stopped' || s === 'done';
    }, null, { timeout: WAIT_MS });
    const stoppedEarly = (await state(page)) === 'stopped';
    if (stoppedEarly) {
      // Stopped at once: no run is training any more; the one message each worker had in hand
      // comes back (its steps count), and then nothing is sent.
      const now = await results(page);
      expect(now.jobs.every((j) => j.state !== 'training' && j.state !== 'evaluating')).toBe(true);
      await page.waitForFunction(() => document.querySelector('.arena').arenaResults().jobs.every((j) => !j.busy));
      const a = await results(page);
      // Nothing trains while stopped: no job is training, and the counts stay put until Resume.
      expect(a.jobs.every((j) => j.state !== 'training' && j.state !== 'evaluating')).toBe(true);
      expect(a.jobs.some((j) => j.steps < 120)).toBe(true);
      expect(await page.textContent('.arena-actions .button:nth-child(2)')).toBe('Resume');
      await screenshot(page, 'arena-stopped');
      const b = await results(page);
      expect(b.jobs.map((j) => j.steps)).toEqual(a.jobs.map((j) => j.steps));
      expect(b.jobs.every((j) => !j.busy)).toBe(true);
      await page.click('.arena-actions .button:nth-child(2)'); // Resume
    }
    await waitState(page, 'done');
    firstRun = await results(page);
    for (const j of firstRun.jobs) {
      expect(j.steps).toBe(120);
      expect(j.losses).toHaveLength(120);
      expect(j.losses.every(Number.isFinite)).toBe(true);
      expect(j.evals.map((e) => e.length)).toEqual([2, 3, 4, 6, 8, 16]); // 0.5× … 4× the training length
    }
    // One run per encoding and seed, keyed by its id; the seeds are the first seed and the next.
    expect(firstRun.jobs.map((j) => j.id)).toEqual(IDS);
    expect(firstRun.jobs.map((j) => j.seed)).toEqual([3, 3, 3, 4, 4, 4]);
    // Two seeds of one encoding train differently.
    expect(firstRun.jobs[0].losses).not.toEqual(firstRun.jobs[3].losses);
  });

  it('paints accuracy against evaluation length, the learned table and attention maps, and words the results', async () => {
    await waitCount(page, 'accDrawn');
    const boxes = page.locator('.arena-card .chart-box canvas');
    const acc = await boxes.nth(1).evaluate((c) => {
      const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      const colours = new Set();
      for (let i = 0; i < px.length; i += 4) colours.add((px[i] << 16) | (px[i + 1] << 8) | px[i + 2]);
      return colours.size;
    });
    expect(acc).toBeGreaterThan(5);
    // A min–max band for every encoding (two seeds, six lengths each).
    expect(Number(await page.getAttribute('.arena', 'data-acc-bands'))).toBe(3);
    // What each encoding learns for positions, counted from the model's tensors: the learned
    // table (max length × d_model = 32), nothing for none and RoPE.
    const params = await page.$$eval('.arena-jobs tr[data-enc]', (rows) => Object.fromEntries(rows.map((r) =>
      [r.dataset.enc, r.querySelector('[data-position-params]')?.dataset.positionParams ?? null])));
    expect(params.none).toBe('0');
    expect(params.rope).toBe('0');
    expect(Number(params.learned)).toBeGreaterThan(0);
    expect(Number(params.learned) % 32).toBe(0);
    // The results: two rows (tokens right, exact match) per encoding, a cell per length, mean or mean [min–max]
    // (drawn with the next redraw after the last evaluation).
    await page.waitForFunction(() => {
      const cells = [...document.querySelectorAll('.arena-results td.num')];
      return cells.length === 36 && cells.every((c) => c.textContent !== '—');
    }, null, { timeout: WAIT_MS });
    const cells = await page.$$eval('.arena-results tbody tr', (rows) => rows.map((r) => [...r.querySelectorAll('td.num')].map((c) => c.textContent)));
    expect(cells).toHaveLength(6);
    for (const row of cells) {
      expect(row).toHaveLength(6);
      for (const c of row) expect(c).toMatch(/^\d\.\d\d( \[\d\.\d\d–\d\.\d\d\])?$/);
    }
    await page.waitForFunction(() => Number(document.querySelector('.arena').dataset.tableSteps) === 120);
    // The learned table and its similarity are drawn by the C resampler, as every heatmap of the page.
    expect(await page.$$eval('.arena-pane .hm-plot, .arena-pane [data-resampler]', (els) => els.map((e) => e.dataset.resampler).filter(Boolean)))
      .toEqual(['render', 'render']);
    await page.waitForFunction(() => !!document.querySelector('.arena').dataset.attention);
    const att = await canvasStats(page, '.arena-att-canvas');
    expect(att.distinct).toBeGreaterThan(5);
    // Every finding says in how many of the seeds it holds (drawn once every run is evaluated).
    await page.waitForFunction(() => document.querySelectorAll('.arena-findings p').length > 0, null, { timeout: WAIT_MS });
    const words = await page.$$eval('.arena-findings p', (ps) => ps.map((p) => p.textContent));
    expect(words.length).toBeGreaterThan(0);
    for (const w of words) expect(w).toMatch(/of 2 seeds|over 2 seeds|all 2 seeds/);
    // The note on the learned table: longer evaluations reuse the last row, past the training length only.
    expect(await page.textContent('.arena')).toMatch(/reuses the last row/);
    await screenshot(page, 'arena-done');
  });

  it('gives the same losses, bit for bit, for the same settings (the first run was stopped midway)', async () => {
    await page.click('.arena-actions .button:nth-child(3)'); // Reset
    await waitState(page, 'idle');
    expect((await results(page)).jobs).toEqual([]);
    await page.click('.arena-primary');
    await waitState(page, 'done');
    const again = await results(page);
    expect(again.jobs.map((j) => j.enc)).toEqual(firstRun.jobs.map((j) => j.enc));
    for (let i = 0; i < again.jobs.length; i++) {
      expect(again.jobs[i].losses).toEqual(firstRun.jobs[i].losses);
      expect(again.jobs[i].evals).toEqual(firstRun.jobs[i].evals);
    }
  });

  it('keeps the finished runs across a language switch (the page mounts again)', async () => {
    const before = await results(page);
    await page.click('#lang button[lang="ko"]');
    await page.waitForFunction(() => document.documentElement.lang === 'ko' && document.querySelector('.arena h2')?.textContent.startsWith('아레나'));
    await waitState(page, 'done');
    const after = await results(page);
    expect(after.jobs.map((j) => j.losses)).toEqual(before.jobs.map((j) => j.losses));
    await waitCount(page, 'accDrawn');
    await page.click('#lang button[lang="en"]');
    await page.waitForFunction(() => document.documentElement.lang === 'en' && document.querySelector('.arena h2')?.textContent.startsWith('Arena'));
    await waitState(page, 'done');
  });

  it('keeps the experiment in the URL, and a permalink opens the same settings', async () => {
    await page.fill('.arena-field input[type=number] >> nth=2', '150'); // steps (after min and len)
    await page.waitForFunction(() => location.hash.includes('steps=150'));
    const hash = await page.evaluate(() => location.hash);
    const href = await page.getAttribute('.arena-permalink', 'href');
    expect(href).toBe(hash);
    expect(hash).toMatch(/^#arena\?task=copy&enc=none,learned,rope&causal=1&len=4&min=2&steps=150&seed=3&seeds=2&lr=0\.003&metric=tok$/);
    expect(await page.textContent('.arena-notice')).toMatch(/settings have changed/);
    const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-US' });
    try {
      const p = await ctx.newPage();
      const l = await watchPage(p, new URL(server.url).origin);
      await gotoArena(p, `${server.url}?lang=en${hash}`);
      expect(await p.evaluate(() => location.hash)).toBe(hash);
      expect(await p.inputValue('.arena-field input[type=number] >> nth=2')).toBe('150');
      expect(await p.inputValue('.arena-field input[type=number] >> nth=1')).toBe('4');
      expect(await p.inputValue('.arena-field input[type=number] >> nth=0')).toBe('2');
      expect(await p.inputValue('.arena-field input[type=number] >> nth=4')).toBe('2');
      expect(await p.$$eval('.arena-encs input:checked', (els) => els.map((e) => e.value))).toEqual(['none', 'learned', 'rope']);
      expect(await p.getAttribute('.arena', 'data-state')).toBe('idle');
      await screenshot(p, 'arena-phone-link');
      expect(logProblems(l)).toEqual({});
    } finally {
      await ctx.close();
    }
  });

  it('fills the form and the URL from a preset, and words a paper\'s verdict from the numbers', async () => {
    await page.selectOption('.arena-preset select', 'kazemnejad-sort');
    await page.waitForFunction(() => location.hash.includes('task=sort'));
    const hash = await page.evaluate(() => location.hash);
    expect(hash).toMatch(/task=sort&enc=none,sinusoidal,alibi,t5,rope&causal=1&len=16&min=1&/);
    expect(await page.textContent('.arena-preset-note')).toMatch(/Kazemnejad|107M parameters/);
    expect(await page.textContent('.arena-preset-note')).toMatch(/\d parameters \(about [\d,]+× fewer\)/);
    // Any sort in a decoder is checked against the paper: a small one here (the preset's own takes minutes).
    await gotoArena(page, `${server.url}?lang=en#arena?task=sort&enc=none,t5,rope&causal=1&len=4&min=1&steps=40&seed=0&seeds=2&lr=0.003`);
    expect(await page.$eval('.arena-preset select', (s) => s.value)).toBe('');
    await page.click('.arena-primary');
    await waitState(page, 'done');
    await page.waitForFunction(() => /The paper's ranking/.test(document.querySelector('.arena-findings').textContent), null, { timeout: WAIT_MS });
    const words = await page.textContent('.arena-findings');
    expect(words).toMatch(/The paper's ranking beyond the training length: none ≈ t5 > rope\./);
    expect(words).toMatch(/agrees with the paper|disagrees with the paper|neither agrees nor disagrees/);
    await screenshot(page, 'arena-paper');
  });

  it('shows no untranslated text in Korean', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'ko-KR' });
    try {
      const p = await ctx.newPage();
      const l = await watchPage(p, new URL(server.url).origin);
      await gotoArena(p, `${server.url}#arena?task=copy&enc=learned,rope&len=4&min=2&steps=30&seed=1&seeds=2&scaling=yarn&factor=auto&~lang=ko`);
      await p.click('.arena-primary');
      await p.waitForFunction(() => document.querySelector('.arena')?.dataset.state === 'done', null, { timeout: WAIT_MS * 4 });
      await p.waitForFunction(() => !!document.querySelector('.arena').dataset.attention, null, { timeout: WAIT_MS });
      const text = await p.evaluate(() => {
        const root = document.querySelector('.arena');
        const parts = [root.innerText];
        for (const el of root.querySelectorAll('[aria-label], [title]')) parts.push(el.getAttribute('aria-label') ?? '', el.getAttribute('title') ?? '');
        for (const o of root.querySelectorAll('option')) parts.push(o.textContent);
        return parts.join('\n');
      });
      expect(text).toMatch(/학습 길이/);
      // Latin words allowed in Korean text: names of encodings, tasks and methods, and notation.
      const allowed = new Set(['RoPE', 'ALiBi', 'NoPE', 'APE', 'Rotary', 'Kazemnejad', 'Chen', 'LLaMA', 'U',
        'd_model', 'AdamW', 'PI', 'NTK-aware', 'NTK', 'aware', 'YaRN', 'yarn', 'ms', 'BOS', 'SEP', 'Ctrl', 'Enter', 'x', 'y', 'y_j', 'x_', 'j', 'k', 'back']);
      const latin = [...new Set(text.match(/[A-Za-z][A-Za-z_-]*/g) ?? [])].filter((w) => !allowed.has(w) && w.length > 1);
      expect(latin).toEqual([]);
      await screenshot(p, 'arena-ko');
      expect(logProblems(l)).toEqual({});
    } finally {
      await ctx.close();
    }
  });

  it('logged no errors', () => {
    expect(logProblems(log)).toEqual({});
  });
});

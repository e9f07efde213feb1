// Browser tests of the Arena's fine-tuning experiment (web/pages/arena/finetune*.js; Chen et al.
// 2023's position interpolation) and of the attention maps' colour scale:
//   1. #arena?ft=1&… runs the experiment at a small size in the page's workers; every number the
//      page hands out is the one the API computes here in Node (the same steps, evaluations and
//      fine-tunes, SIMD build: bit for bit), and every cell of the rendered table is its mean
//      [min–max] over the seeds; the findings say "in k of n" and name Chen et al.;
//   2. the same in Korean: no English left in the card;
//   3. the attention maps' scale control (linear / √ / log / auto, as the explorer's) changes the
//      colours and names the scale drawn.
// Saves tests/artifacts/arena-finetune-*.png.   npx vitest run tests/browser/arena-finetune.test.js
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { suiteAvailability, openPage, gotoApp, screenshot, canvasStats, logProblems, WAIT_MS } from '../helpers/browser.js';
import { peFor } from '../helpers/pe.js';
import {
  CONDITIONS, EVAL_SCALINGS, FT_SAMPLES, baseSpec, evalScaling, finetuneOptions, readFinetune, resultRows,
} from '../../web/pages/arena/finetune.js';
import { fmtSpread } from '../../web/pages/arena/findings.js';

const avail = suiteAvailability('arena-finetune.test');
const QUERY = 'ft=1&ftn=30&fts=10&ftseeds=2';

async function gotoArena(page, url) {
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForFunction(() => document.documentElement.dataset.pageState === 'ready' && !!document.querySelector('.arena-ft'));
}

async function runFinetune(page) {
  await page.click('.arena-ft .arena-primary');
  await page.waitForFunction(() => ['done', 'error'].includes(document.querySelector('.arena-ft').dataset.state), null, { timeout: WAIT_MS * 4 });
  return page.evaluate(() => document.querySelector('.arena-ft').finetuneResults());
}

/** The experiment computed with the API directly (not the page's runner): the runs it must show. */
async function expected(settings) {
  const pe = await peFor(true);
  const o = (seed) => ({ samples: FT_SAMPLES, seed });
  const pick = ({ accuracy, token_accuracy, loss }) => ({ accuracy, token_accuracy, loss });
  const L = settings.len;
  return Array.from({ length: settings.seeds }, (_, k) => {
    const seed = settings.seed + k;
    const t = pe.trainer(baseSpec(settings, seed));
    try {
      t.step(settings.steps);
      const run = { seed, at1: pick(t.evaluate(L, o(seed))), at2: { none: pick(t.evaluate(2 * L, o(seed))) }, after1: {} };
      for (const type of EVAL_SCALINGS) run.at2[type] = pick(t.evaluate(2 * L, { ...o(seed), rope_scaling: evalScaling(settings, type) }));
      for (const c of ['ftPI', 'ftPlain']) {
        const f = t.finetune(finetuneOptions(settings, c === 'ftPI'));
        try {
          f.step(settings.ftSteps);
          run.at2[c] = pick(f.evaluate(2 * L, o(seed)));
          run.after1[c] = pick(f.evaluate(L, o(seed)));
        } finally {
          f.free();
        }
      }
      return run;
    } finally {
      t.free();
    }
  });
}

describe.skipIf(avail.skip)('the fine-tuning experiment in Chromium', () => {
  let session;
  beforeAll(async () => {
    session = await openPage({ avail });
  });
  afterAll(async () => {
    await session?.close();
  });

  it('shows the numbers the API computes, as mean [min–max] over the seeds', async () => {
    const { page, server, log } = session;
    await gotoArena(page, `${server.url}?lang=en#arena?${QUERY}`);
    expect(await page.getAttribute('.arena-ft', 'data-state')).toBe('idle');
    const got = await runFinetune(page);
    expect(await page.getAttribute('.arena-ft', 'data-state')).toBe('done');
    const { settings } = readFinetune(new URLSearchParams(QUERY));
    expect(got.settings).toEqual(settings);
    const want = await expected(settings);
    expect(got.runs.map(({ seed, at1, at2, after1 }) => ({ seed, at1, at2, after1 }))).toEqual(want);
    // The table: a row per condition, the cells the spreads of those numbers.
    const rows = await page.$$eval('.arena-ft-table tbody tr', (trs) => trs.map((tr) => [tr.dataset.condition, ...[...tr.querySelectorAll('td')].map((td) => td.textContent)]));
    const runs = want.map((r) => ({ ...r, done: true }));
    const tok = resultRows(runs, 'token_accuracy');
    const seq = resultRows(runs, 'accuracy');
    expect(rows).toEqual(CONDITIONS.map((c, i) => [c, fmtSpread(tok[i].at2), fmtSpread(seq[i].at2), tok[i].after1 ? fmtSpread(tok[i].after1) : '—']));
    const words = await page.$$eval('.arena-ft .arena-findings p', (ps) => ps.map((p) => p.textContent));
    expect(words.some((w) => /in \d of 2 seeds/.test(w))).toBe(true);
    // 30 steps are too few to learn reverse at 6: the page says so, and checks no paper claim on it.
    const fits = want.filter((r) => r.at1.token_accuracy >= 0.9).length;
    if (fits < want.length) {
      expect(words.some((w) => w.startsWith(`The model did not learn the task at the training length in ${want.length - fits} of ${want.length} seeds`))).toBe(true);
      expect(words.some((w) => w.startsWith('Chen et al.\'s claims are not checked here'))).toBe(true);
      expect(words.some((w) => w.startsWith('Chen et al. report'))).toBe(false);
    } else expect(words.some((w) => w.startsWith('Chen et al. report'))).toBe(true);
    expect(Number(await page.getAttribute('.arena-ft', 'data-wall-ms'))).toBeGreaterThan(0);
    await screenshot(page, 'arena-finetune-en', '.arena-ft');
    expect(logProblems(log)).toEqual({});
  });

  it('pauses a run while the learner is on another page and resumes it on return, with the same numbers', async () => {
    const { page, server, log } = session;
    const query = 'ft=1&ftn=300&fts=10&ftseeds=2';
    // The card of the test before is still there (a new hash on the same page): it takes the new
    // link's settings for its next run.
    await gotoArena(page, `${server.url}?lang=en#arena?${query}`);
    await page.click('.arena-ft .arena-primary');
    // The card, kept by the test: its results still read the runner once the card is unmounted.
    const stepsNow = () => page.evaluate(() => window.__ftCard.finetuneResults().runs.reduce((a, r) => a + r.steps, 0));
    await page.waitForFunction(() => document.querySelector('.arena-ft').finetuneResults().runs.some((r) => r.steps > 0));
    await page.evaluate(() => { window.__ftCard = document.querySelector('.arena-ft'); });
    await page.evaluate(() => { location.hash = '#learn'; });
    await page.waitForFunction(() => document.documentElement.dataset.page === 'learn' && document.documentElement.dataset.pageState === 'ready');
    // Away for a while: paused, at most the chunk each worker had in hand (25 steps) completes;
    // an unpaused run would take hundreds of steps meanwhile (two workers).
    const away = await stepsNow();
    await page.waitForTimeout(1500);
    expect(await stepsNow() - away).toBeLessThanOrEqual(2 * 25);
    await page.evaluate((q) => { location.hash = `#arena?${q}`; }, query);
    await page.waitForFunction(() => document.documentElement.dataset.page === 'arena' && !!document.querySelector('.arena-ft'));
    expect(await page.getAttribute('.arena-ft', 'data-state')).toBe('running');
    await page.waitForFunction(() => ['done', 'error'].includes(document.querySelector('.arena-ft').dataset.state), null, { timeout: WAIT_MS * 4 });
    const got = await page.evaluate(() => document.querySelector('.arena-ft').finetuneResults());
    const { settings } = readFinetune(new URLSearchParams(query));
    expect(got.runs.map(({ seed, at1, at2, after1 }) => ({ seed, at1, at2, after1 }))).toEqual(await expected(settings));
    expect(logProblems(log)).toEqual({});
  });

  it('speaks Korean throughout the card', async () => {
    const { page, server } = session;
    await gotoArena(page, `${server.url}?lang=ko#arena?${QUERY}`);
    await runFinetune(page);
    const text = await page.textContent('.arena-ft');
    expect(text).toContain('위치 보간(PI)');
    // English words of the English strings must not be left (names such as RoPE, PI, YaRN may stay).
    expect(text).not.toMatch(/\b(fine-tuned|tokens right|seeds|evaluation only|no scaling)\b/);
    await screenshot(page, 'arena-finetune-ko', '.arena-ft');
  });

  it('the Learn path\'s scaling step links here, in its language', async () => {
    const { page, server } = session;
    await gotoApp(page, `${server.url}?lang=ko#learn/scaling`, { state: null });
    await page.waitForFunction(() => document.querySelector('.learn')?.dataset.ready === 'scaling');
    await page.click('.learn-finetune a');
    await page.waitForFunction(() => document.documentElement.dataset.page === 'arena' && document.documentElement.dataset.pageState === 'ready');
    expect(await page.evaluate(() => location.hash)).toMatch(/^#arena\?ft=1/);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('ko');
    await page.waitForFunction(() => {
      const r = document.querySelector('.arena-ft')?.getBoundingClientRect();
      return r && r.top < window.innerHeight && r.bottom > 0;
    });
  });

  it('a link to the card followed from the Arena itself brings the card up', async () => {
    const { page, server } = session;
    await gotoArena(page, `${server.url}?lang=en#arena`);
    await page.evaluate(() => window.scrollTo(0, 0));
    const inView = () => page.evaluate(() => {
      const r = document.querySelector('.arena-ft').getBoundingClientRect();
      return r.top < window.innerHeight && r.bottom > 0;
    });
    expect(await inView()).toBe(false);
    await page.evaluate(() => { location.hash = '#arena?ft=1'; });
    await page.waitForFunction(() => {
      const r = document.querySelector('.arena-ft').getBoundingClientRect();
      return r.top < window.innerHeight && r.bottom > 0;
    });
  });

  it('gives the attention maps the explorer\'s colour-scale control', async () => {
    const { page, server } = session;
    await gotoArena(page, `${server.url}?lang=en#arena?task=copy&enc=rope&causal=1&len=8&min=8&steps=40&seed=0&seeds=1&lr=0.003`);
    await page.click('.arena-actions .arena-primary');
    await page.waitForFunction(() => !!document.querySelector('.arena').dataset.attention, null, { timeout: WAIT_MS * 2 });
    const select = page.locator('.arena-att-tools select');
    expect(await select.locator('option').evaluateAll((os) => os.map((o) => o.value))).toEqual(['auto', 'linear', 'sqrt', 'log']);
    const drawn = {};
    const bar = () => page.$$eval('.arena-att-cbar .hm-cbar-ticks .hm-tick', (ts) => ts.map((x) => x.textContent));
    for (const scale of ['linear', 'log', 'sqrt']) {
      await select.selectOption(scale);
      expect(await page.getAttribute('.arena-att', 'data-scale')).toBe(scale);
      drawn[scale] = (await canvasStats(page, '.arena-att-canvas')).hash;
      // The colour bar beside the map reads the colours back on the same scale: weights 0 … 1,
      // or powers of ten from a floor ("≤ …") on log.
      const ticks = await bar();
      expect(ticks.length, scale).toBeGreaterThanOrEqual(2);
      if (scale === 'log') {
        expect(ticks[0]).toMatch(/^≤ /);
        expect(ticks.at(-1)).toBe('1');
      } else {
        expect(ticks[0]).toBe('0');
        expect(ticks.at(-1)).toBe('1');
      }
    }
    expect(await page.textContent('.arena-att-cbar .hm-cbar-title')).toBe('attention weight');
    expect(new Set(Object.values(drawn)).size).toBe(3);
    await select.selectOption('auto');
    const used = await page.getAttribute('.arena-att', 'data-scale');
    expect(['linear', 'sqrt', 'log']).toContain(used);
    expect(await select.locator('option').first().textContent()).toBe(`auto (${{ linear: 'linear', sqrt: '√ (square root)', log: 'log' }[used]})`);
    expect((await canvasStats(page, '.arena-att-canvas')).hash).toBe(drawn[used]);
  });
});

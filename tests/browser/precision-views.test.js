// Browser tests of the precision lab's views (web/views/precision/, kind rope_precision): error by
// position, by pair, collisions, attention drift, two recipes, apply to a model. Every view paints,
// its controls change it, its state survives a permalink, and Korean leaves nothing in English.
// The real page, the real WebAssembly build, the system Chromium. Saves tests/artifacts/precision-*.png.
//   npx vitest run tests/browser/precision-views.test.js
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { suiteAvailability, openPage, screenshot, viewKit, canvasStats, logProblems, gotoApp, watchPage } from '../helpers/browser.js';
import strings from '../../web/views/precision/strings.js';

const KIND = 'rope_precision';
const IDS = ['precision-position', 'precision-pair', 'precision-collisions', 'precision-drift', 'precision-compare', 'precision-model'];
const sel = (id) => `#view-${id}`;
const [POS, PAIR, COL, DRIFT, CMP, MODEL] = IDS.map(sel);

const avail = suiteAvailability('precision-views.test');

/** The fixed text of every English string (function strings split at their arguments), ≥ 14 characters, not the same in Korean. */
function englishFragments() {
  const out = new Set();
  const mark = '\u0001';
  for (const [key, en] of Object.entries(strings.en)) {
    const ko = strings.ko[key];
    const texts = typeof en === 'function' ? String(en(...Array(8).fill(mark))).split(mark) : [en];
    const kos = typeof ko === 'function' ? String(ko(...Array(8).fill(mark))) : String(ko);
    for (const s of texts) {
      const f = s.trim();
      if (f.length >= 14 && !kos.includes(f)) out.add(f);
    }
  }
  return [...out];
}

describe('precision strings', () => {
  it('have the same keys in English and Korean, and Korean text in Korean', () => {
    expect(Object.keys(strings.ko).sort()).toEqual(Object.keys(strings.en).sort());
    for (const [key, v] of Object.entries(strings.ko)) {
      const text = typeof v === 'function' ? String(v(1, 2, 3, 4, 5, 6, 7)) : v;
      if (!/^precision\.(yes|no|pos\.jumpTo|drift\.series|x\.pair)$/.test(key)) expect(text, key).toMatch(/[가-힣]/);
    }
  });
});

describe.skipIf(avail.skip)('precision views in Chromium', () => {
  let page;
  let log;
  let close;
  let session;
  const { dataOf, drawn, drawnAfter, showKind, setField } = viewKit(() => page, { views: IDS });
  const shot = (name, s) => screenshot(page, name, s);
  const paints = async (s, what, min = 1500) => {
    const st = await canvasStats(page, `${s} .chart-box canvas`);
    expect(st.painted, what).toBeGreaterThan(min);
    expect(st.distinct, what).toBeGreaterThan(4);
    return st;
  };
  /** Pick a named recipe in the view's recipe control . */
  const setRecipe = async (name) => {
    const n = Number(await page.evaluate(() => document.getElementById('main').dataset.renders || 0));
    await page.selectOption(`${POS} select.prec-recipe`, name);
    if (name !== 'custom') await page.waitForFunction((k) => Number(document.getElementById('main').dataset.renders || 0) > k, n);
  };
  /** Wait until a view's data-<key> is `value`, keeping the view in sight (it draws only there). */
  const dataBecomes = (s, key, value) => page.waitForFunction(([x, k, v]) => {
    const el = document.querySelector(x);
    if (el?.querySelector('.view-body')?.dataset[k] === v) return true;
    const r = el?.getBoundingClientRect();
    if (r && (r.bottom < 0 || r.top > window.innerHeight)) el.scrollIntoView({ block: 'start' });
    return false;
  }, [s, key, String(value)]);
  /** Do something, then wait until the view has drawn again and return its new canvas. */
  const redraws = async (s, act) => {
    const n = await drawn(s);
    await act();
    await drawnAfter(s, n);
    return canvasStats(page, `${s} .chart-box canvas`);
  };

  beforeAll(async () => {
    session = await openPage({ avail, url: '?lang=en' });
    ({ page, log, close } = session);
    await showKind(KIND);
  });

  afterAll(async () => {
    await close?.();
  });

  it('paints every view', async () => {
    for (const s of [POS, PAIR, COL, DRIFT, CMP, MODEL]) {
      await drawnAfter(s);
      await paints(s, s);
      await shot(`precision-${s.slice(6)}`, s);
    }
  });

  it('error by position: the jump buttons move the window via offset, and the first collision is marked', async () => {
    const before = await canvasStats(page, `${POS} .chart-box canvas`);
    const after = await redraws(POS, () => page.click(`${POS} button[data-jump="20"]`));
    expect(after.hash).not.toBe(before.hash);
    expect(await page.inputValue('#f-rope_precision-offset')).toBe(String(2 ** 20 - 2048));
    expect(await page.textContent(`${POS} .view-stats`)).toContain('1,046,528 – 1,050,623');
    expect(await page.getAttribute(`${POS} button[data-jump="20"]`, 'aria-pressed')).toBe('true');
    // bfloat16 positions collide from 257 on: the view says so and marks it.
    await setField('f-rope_precision-offset', 0, POS);
    await setRecipe('bf16_positions');
    await page.waitForFunction((s) => document.querySelector(`${s} .view-body`)?.dataset.firstCollision === '257', POS);
    expect(await page.textContent(`${POS} .prec-summary`)).toMatch(/From position 257 on, [\d,]+ rows are identical/);
  });

  it('error by position: 2^20 positions around the table come from pe.precisionSweep, the same numbers', async () => {
    // Here: bf16_positions from offset 0 (the test before). The wider window starts at 0 too.
    await page.click(`${POS} button[data-span="20"]`);
    await dataBecomes(POS, 'rows', 2 ** 20);
    expect(await page.getAttribute(`${POS} button[data-span="20"]`, 'aria-pressed')).toBe('true');
    expect(await page.textContent(`${POS} .view-stats`)).toMatch(/positions 0 – 1,048,575 · 1,048,576 rows · computed in [\d,]+ ms/);
    // The curve's numbers are the sweep's: its worst row and collisions, as the API gives them.
    // (a string, so Vitest does not rewrite the import meant for the browser)
    const want = await page.evaluate(`(async () => {
      const { createPE } = await import('/pe.js');
      const pe = await createPE();
      const r = pe.precisionSweep({ length: 2 ** 20, dim: 128, recipe: 'bf16_positions' });
      return { collisions: r.collisions, first: r.first_collision };
    })()`);
    expect(want.first).toBe(257);
    const summary = await page.textContent(`${POS} .prec-summary`);
    expect(summary).toContain(`From position 257 on, ${want.collisions.toLocaleString('en-US')} rows are identical`);
    expect(await page.getAttribute(`${POS} .view-body`, 'data-first-collision')).toBe('257');
    // Back to the table's rows.
    await page.click(`${POS} button[data-span="0"]`);
    await dataBecomes(POS, 'rows', 4096);
  });

  it('the recipe control: a named recipe or each of the four formats', async () => {
    await setRecipe('custom');
    await page.waitForSelector(`${POS} .prec-dtypes:not([hidden])`);
    const n = Number(await page.evaluate(() => document.getElementById('main').dataset.renders || 0));
    await page.selectOption(`${POS} select[data-field="phase_dtype"]`, 'float16');
    await page.waitForFunction((k) => Number(document.getElementById('main').dataset.renders || 0) > k, n);
    // The parameter panel says the same with its own selects (it was a JSON box).
    expect(await page.inputValue('#f-rope_precision-recipe')).toBe('');
    const panel = await page.$$eval('[id^="f-rope_precision-recipe-"][id$="_dtype"]', (els) => els.map((e) => [e.id.replace('f-rope_precision-recipe-', ''), e.value, e.offsetParent !== null]));
    expect(Object.fromEntries(panel.map(([k, v]) => [k, v]))).toEqual({
      inv_freq_dtype: 'float32', position_dtype: 'bfloat16', phase_dtype: 'float16', table_dtype: 'float32' });
    expect(panel.every(([, , shown]) => shown)).toBe(true);
    expect(await page.textContent(`${POS} .prec-summary`)).toContain('float32 · bfloat16 · float16 · float32');
    await setRecipe('bf16_positions');
    expect(await page.inputValue('#f-rope_precision-recipe')).toBe('bf16_positions');
    expect(await page.isHidden('#f-rope_precision-recipe-phase_dtype')).toBe(true);
    // And the panel drives it: custom from bf16_positions, then a bfloat16 table.
    await page.selectOption('#f-rope_precision-recipe', '');
    const k = Number(await page.evaluate(() => document.getElementById('main').dataset.renders || 0));
    await page.selectOption('#f-rope_precision-recipe-table_dtype', 'bfloat16');
    await page.waitForFunction((x) => Number(document.getElementById('main').dataset.renders || 0) > x, k);
    await page.waitForFunction((x) => document.querySelector(x)?.textContent.includes('float32 · bfloat16 · float32 · bfloat16'), `${POS} .prec-summary`);
    await setRecipe('bf16_positions');
  });

  it('collisions: explained from the numbers (bfloat16 positions, bfloat16 angles)', async () => {
    await drawnAfter(COL);
    // Drawn before, for another recipe, maybe while off screen: wait for this recipe's numbers.
    await dataBecomes(COL, 'first', '257');
    const text = await page.textContent(COL);
    expect(text).toContain('positions start to collide at 257');
    expect(text).toContain('The positions are stored in bfloat16, whose numbers near 257 are 2 apart, so 256 and 257 are both stored as 256.');
    // the curve's count (rows compared in JS) is the kernel's
    const count = await page.evaluate(() => document.querySelector('#view-precision-collisions .prec-verdict').textContent.match(/: ([\d,]+) of/)[1].replace(/,/g, ''));
    await dataBecomes(COL, 'collisions', count);
    await paints(COL, 'collisions, bf16_positions', 800);
    await shot('precision-collisions-bf16-positions', COL);

    const n = await drawn(COL);
    await setRecipe('bf16_phase');
    await drawnAfter(COL, n);
    expect(await page.textContent(`${COL} .prec-summary`)).toMatch(/angles are stored in bfloat16: near [\d,]+ the fastest pair’s angle/);
  });

  it('error by pair: the position control changes the row, and it is kept in the link', async () => {
    await setRecipe('bf16_table');
    await drawnAfter(PAIR);
    const before = await canvasStats(page, `${PAIR} .chart-box canvas`);
    const after = await redraws(PAIR, () => page.fill(`${PAIR} input[type=number]`, '1234'));
    expect(await dataOf(PAIR, 'position')).toBe('1234');
    expect(after.hash).not.toBe(before.hash);
    expect(await page.textContent(`${PAIR} .prec-summary`)).toContain('At position 1234');
    await page.waitForFunction(() => location.hash.includes('~x.precisionPosition=1234'));
  });

  it('attention drift: d and the vectors change the curve; exact RoPE is flat', async () => {
    await drawnAfter(DRIFT);
    const a = await canvasStats(page, `${DRIFT} .chart-box canvas`);
    const b = await redraws(DRIFT, () => page.fill(`${DRIFT} input[type=number]`, '100'));
    expect(await dataOf(DRIFT, 'distance')).toBe('100');
    expect(b.hash).not.toBe(a.hash);
    const c = await redraws(DRIFT, () => page.click(`${DRIFT} .segmented label >> nth=1`));
    expect(await dataOf(DRIFT, 'vectors')).toBe('ones');
    expect(c.hash).not.toBe(b.hash);
    expect(await page.textContent(`${DRIFT} .prec-summary`)).toMatch(/At distance 100 exact RoPE scores −?[\d.]+ at every position/);
    await page.waitForFunction(() => location.hash.includes('~x.precisionDistance=100'));
    // The exact recipe: the score stays on the flat line (drift below float32 rounding).
    const n = await drawn(DRIFT);
    await setRecipe('exact');
    await drawnAfter(DRIFT, n);
    const dev = await page.evaluate(() => Number(document.querySelector('#view-precision-drift .prec-summary').textContent.match(/drifts up to ([^ ]+?)(?: |\()/)[1].replace('e−', 'e-')));
    expect(dev).toBeLessThan(1e-4);
    await page.click(`${DRIFT} .segmented label >> nth=0`);
    await setRecipe('bf16_table');
  });

  it('two recipes: the second recipe is picked in the view and kept in the link', async () => {
    await dataBecomes(CMP, 'recipeB', 'float32');   // the default beside bf16_table
    const a = await canvasStats(page, `${CMP} .chart-box canvas`);
    const b = await redraws(CMP, () => page.selectOption(`${CMP} select`, 'fp16'));
    expect(await dataOf(CMP, 'recipeB')).toBe('fp16');
    expect(b.hash).not.toBe(a.hash);
    expect(await page.textContent(`${CMP} .prec-summary`)).toMatch(/Collided rows: bfloat16 cos\/sin table 0, float16 everywhere \d+/);
    await page.waitForFunction(() => location.hash.includes('~x.precisionRecipeB=fp16'));
  });

  it('apply to a model: presets, context, recipe and a pasted config give a verdict from the numbers, with code', async () => {
    await drawnAfter(MODEL);
    expect(await dataOf(MODEL, 'model')).toBe('llama-3.1-8b');
    const verdict = () => page.textContent(`${MODEL} .prec-verdict`);
    expect(await verdict()).toMatch(/^With bfloat16 cos\/sin table, at 131,072 tokens \d+ of 64 pairs can no longer tell neighbouring positions apart \(the \d+ slowest, pairs \d+–63\)\. The first checked window where a pair is lost is the one that starts at position [\d,]+; the windows before it lose none\.$/);
    // The first loss is said as the window it was found in, never as "by position" its start.
    expect(await verdict()).not.toMatch(/by position/);
    const code = await page.textContent(`${MODEL} pre code`);
    expect(code).toContain('context, window = 131072, 64');
    expect(code).toContain("'float32', 'float32', 'float32', 'bfloat16'");
    expect(code).toContain('import torch');

    let st = await redraws(MODEL, () => page.selectOption(`${MODEL} select[id$="-recipe"]`, 'float32'));
    expect(await verdict()).toMatch(/^With float32 \(transformers today\), all 64 pairs still tell neighbouring positions apart up to 131,072 tokens\.$/);
    await page.waitForFunction(() => location.hash.includes('~x.precisionModelRecipe=float32'));
    const h1 = st.hash;
    st = await redraws(MODEL, () => page.selectOption(`${MODEL} select.prec-model`, 'llama-2-7b'));
    expect(st.hash).not.toBe(h1);
    expect(await dataOf(MODEL, 'context')).toBe('4096');
    await redraws(MODEL, () => page.fill(`${MODEL} input[type=number]`, '200000'));
    await page.selectOption(`${MODEL} select[id$="-recipe"]`, 'bf16_positions');
    await page.waitForFunction((s) => document.querySelector(`${s} .view-body`).dataset.recipe === 'bf16_positions', MODEL);
    expect(await page.textContent(`${MODEL} .prec-summary`)).toMatch(/Whole rows collide too: the first collision found in the checked windows \(.*\) is at position [\d,]+\. Positions between the windows are not checked, so one could come earlier\./);
    // NumPy code, and the copy button
    await page.click(`${MODEL} .segmented label >> nth=1`);
    await page.waitForFunction((s) => document.querySelector(`${s} .view-body`).dataset.codeLang === 'numpy', MODEL);
    expect(await page.textContent(`${MODEL} pre code`)).toContain('import numpy as np');
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.click(`${MODEL} button:has-text("Copy code")`);
    await page.waitForFunction((s) => /Copied|Could not copy/.test(document.querySelector(`${s} .prec-copied`).textContent), MODEL);
    // A pasted config (Gemma-like, head_dim 256) and a bad one
    await page.click(`${MODEL} .prec-paste summary`);
    await page.fill(`${MODEL} textarea`, '{"hidden_size": 2048, "num_attention_heads": 8, "head_dim": 256, "rope_theta": 10000, "max_position_embeddings": 8192}');
    await page.click(`${MODEL} button:has-text("Use this config")`);
    await page.waitForFunction((s) => document.querySelector(`${s} .view-body`).dataset.model === 'custom', MODEL);
    expect(await page.textContent(`${MODEL} .view-stats`)).toContain('rotary dim 256');
    expect(await dataOf(MODEL, 'context')).toBe('8192');
    await page.fill(`${MODEL} textarea`, '{"hidden_size": ');
    await page.click(`${MODEL} button:has-text("Use this config")`);
    await page.waitForSelector(`${MODEL} .field-error:not([hidden])`);
    expect(await page.textContent(`${MODEL} .field-error`)).toContain('not valid JSON');
    // A model without rotary positions is told so in words (ALiBi: nothing to round).
    await page.fill(`${MODEL} textarea`, '{"model_type": "bloom", "hidden_size": 14336, "n_head": 112, "n_layer": 70}');
    await page.click(`${MODEL} button:has-text("Use this config")`);
    await page.waitForFunction((s) => /no rotary positions/.test(document.querySelector(`${s} .field-error`).textContent), MODEL);
    expect(await page.textContent(`${MODEL} .field-error`)).toBe('This config cannot be used: this model has no rotary positions (it uses ALiBi, a distance penalty per head), so there are no angles to round.');
    // "Show the end of this context above" sets the page's parameters.
    await page.click(`${MODEL} button:has-text("Show the end of this context above")`);
    await page.waitForFunction(() => document.getElementById('f-rope_precision-dim')?.value === '256');
    await shot('precision-model-custom', MODEL);
  });

  it('keeps the view state in a permalink', async () => {
    await page.selectOption(`${MODEL} select.prec-model`, 'qwen2.5-7b');
    await page.waitForFunction(() => location.hash.includes('~x.precisionModel=qwen2.5-7b'));
    const hash = await page.evaluate(() => location.hash);
    const p2 = await session.context.newPage();
    const log2 = await watchPage(p2, new URL(session.server.url).origin);
    await gotoApp(p2, `${session.server.url}?lang=en${hash}`);
    const other = page;
    page = p2;
    try {
      for (const s of [PAIR, DRIFT, CMP, MODEL]) await drawnAfter(s);
      expect(await dataOf(DRIFT, 'distance')).toBe('100');
      expect(await dataOf(CMP, 'recipeB')).toBe('fp16');
      expect(await dataOf(MODEL, 'model')).toBe('qwen2.5-7b');
      expect(await dataOf(MODEL, 'recipe')).toBe('bf16_positions');
      expect(await p2.evaluate(() => location.hash)).toBe(hash);
      expect(logProblems(log2)).toEqual({});
    } finally {
      page = other;
      await p2.close();
    }
  });

  it('speaks Korean, with nothing left in English', async () => {
    await page.click('#lang button[lang="ko"]');
    await page.waitForFunction(() => document.documentElement.lang === 'ko');
    await showKind(KIND);
    const fragments = englishFragments();
    expect(fragments.length).toBeGreaterThan(50);
    for (const s of IDS.map(sel)) {
      await drawnAfter(s);
      const text = await page.evaluate((x) => document.querySelector(x).innerText, s);
      expect(text, s).toMatch(/[가-힣]/);
      const left = fragments.filter((f) => text.includes(f));
      expect(left, s).toEqual([]);
      // chart labels and aria text too
      const aria = await page.evaluate((x) => [...document.querySelectorAll(`${x} [aria-label]`)].map((e) => e.getAttribute('aria-label')).join('\n'), s);
      expect(fragments.filter((f) => aria.includes(f)), `${s} aria`).toEqual([]);
      await shot(`precision-ko-${s.slice(6)}`, s);
    }
    expect(await page.textContent(`${MODEL} h3`)).toBe('모델에 적용하기');
    await page.click('#lang button[lang="en"]');
    await page.waitForFunction(() => document.documentElement.lang === 'en');
  });

  it('logs no errors and loads nothing from outside 127.0.0.1', () => {
    expect(logProblems(log)).toEqual({});
  });
});

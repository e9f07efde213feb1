// Browser tests of the learned-table views of the vision family (web/views/vision/learned-grid.js,
// sum-concat.js) for the learned2d kind, in English and Korean: the numbers they show are the
// API's (pe.compute in Node, the same WebAssembly, and math.js), a trained table opened from a
// .npy file replaces the parameters' one, and axe-core finds nothing serious or critical.
// Saves tests/artifacts/vision-learned-{en,ko}.png and vision-sumconcat-{en,ko}.png.
//   npx vitest run tests/browser/vision-learned.test.js
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { suiteAvailability, openPage, gotoApp, screenshot, logProblems, waitDrawn, ARTIFACTS } from '../helpers/browser.js';
import { axeKit } from '../helpers/axe.js';
import { createPE } from '../../web/pe.js';
import { crossTerms, gridCosine, neighbourSimilarity, samePlace, tokenPairs } from '../../web/views/vision/math.js';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

const LG = '#view-vision-learned';
const SC = '#view-vision-sum-concat';
const HASH = '#v1/learned2d?resize_height=24&resize_width=24';
const avail = suiteAvailability('vision-learned.test');

/** A float32 .npy file (v1.0) of a table of the given shape. */
function npy(data, ...shape) {
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': (${shape.join(', ')}), }`;
  header += ' '.repeat(63 - ((10 + header.length) % 64)) + '\n';
  const head = Buffer.alloc(10);
  Buffer.from('\x93NUMPY', 'latin1').copy(head);
  head[6] = 1;
  head.writeUInt16LE(header.length, 8);
  return Buffer.concat([head, Buffer.from(header, 'latin1'), Buffer.from(data.buffer, data.byteOffset, data.byteLength)]);
}

describe.skipIf(avail.skip)('learned2d views in Chromium', () => {
  let server;
  let page;
  let log;
  let close;
  let pe;
  const report = [];

  const open = async (hash, lang = 'en') => {
    await page.goto('about:blank');
    await gotoApp(page, `${server.url}?lang=${lang}${hash}`);
  };
  const valuesOf = async () => {
    await waitDrawn(page, LG);
    await page.waitForFunction((s) => document.querySelector(`${s} .lg-numbers`)?.dataset.ready, LG);
    return page.evaluate((s) => JSON.parse(document.querySelector(`${s} .lg-numbers`).dataset.values), LG);
  };

  beforeAll(async () => {
    pe = await createPE();
    ({ server, page, log, close } = await openPage({ avail }));
  });
  afterAll(async () => {
    if (report.length) console.log(`axe, learned2d views:\n${report.join('\n')}`);
    await close?.();
  });

  it('shows the similarity before and after the resize, with the API’s numbers (en and ko)', async () => {
    const spec = { kind: 'learned2d', height: 14, width: 14, dim: 768, resize_height: 24, resize_width: 24 };
    const r = pe.compute(spec);
    const pick = { row: 4, col: 9 }; // the default: 0.3 and 0.7 of the grid
    const there = samePlace(pick.row, pick.col, 14, 14, 24, 24);
    const before = gridCosine(r.source, 768, 1, 14, 14, pick.row * 14 + pick.col);
    const after = gridCosine(r.data, 768, 1, 24, 24, there.row * 24 + there.col);
    const expected = {
      smoothBefore: neighbourSimilarity(r.source, 768, 1, 14, 14),
      smoothAfter: neighbourSimilarity(r.data, 768, 1, 24, 24),
      pick: [pick.row, pick.col], there: [there.row, there.col],
      rightBefore: before[pick.row * 14 + pick.col + 1], rightAfter: after[there.row * 24 + there.col + 1],
    };
    for (const lang of ['en', 'ko']) {
      await open(HASH, lang);
      const shown = await valuesOf();
      expect(shown.pick).toEqual(expected.pick);
      expect(shown.there).toEqual(expected.there);
      for (const k of ['smoothBefore', 'smoothAfter', 'rightBefore', 'rightAfter']) expect(shown[k], k).toBeCloseTo(expected[k], 6);
      const text = await page.locator(`${LG} .lg-numbers`).innerText();
      expect(text).toContain(String(Number(expected.smoothBefore.toPrecision(4))));
      expect(text).toContain(String(Number(expected.smoothAfter.toPrecision(4))));
      expect(await page.locator(`${LG} .lg-pair canvas:visible`).count()).toBe(2);
      await screenshot(page, `vision-learned-${lang}`, LG);
    }
    console.log(`learned2d 14×14 → 24×24 (MAE sin-cos, dim 768): neighbour similarity ${expected.smoothBefore.toFixed(4)} → ${expected.smoothAfter.toFixed(4)}; `
      + `patch (4, 9) → (${there.row}, ${there.col}), right-hand neighbour ${expected.rightBefore.toFixed(4)} → ${expected.rightAfter.toFixed(4)}`);
  });

  it('offers timm’s antialiased resize as a checkbox and names the interpolation it shows (en and ko)', async () => {
    const spec = { kind: 'learned2d', height: 14, width: 14, dim: 768, resize_height: 24, resize_width: 24 };
    const smoothOf = (x) => neighbourSimilarity(pe.compute(x).data, 768, 1, 24, 24);
    const plain = smoothOf(spec);
    const aa = smoothOf({ ...spec, resize_antialias: true });
    expect(Math.abs(plain - aa)).toBeGreaterThan(1e-4);   // the pictures' numbers tell the two apart
    const names = { en: [/as Hugging Face/, /antialiased bicubic, as timm/], ko: [/Hugging Face 방식/, /안티에일리어싱 쌍삼차 보간, timm 방식/] };
    for (const lang of ['en', 'ko']) {
      await open(HASH, lang);
      expect((await valuesOf()).smoothAfter).toBeCloseTo(plain, 6);
      expect(await page.locator(`${LG} .lg-caption`).nth(1).innerText()).toMatch(names[lang][0]);
      expect(await page.locator(`${LG} .lg-resize-note`).innerText()).toMatch(/interpolate_pos_encoding/);
      // The schema's field is a checkbox among the controls; switching it on redraws with timm's resize.
      const box = page.locator('input[type=checkbox][name=resize_antialias]');
      expect(await box.isChecked()).toBe(false);
      const drawn = await page.evaluate((s) => Number(document.querySelector(`${s} .view-body`).dataset.drawn), LG);
      await box.check();
      await waitDrawn(page, LG, drawn);
      await page.waitForFunction(([s, want]) => {
        const v = document.querySelector(`${s} .lg-numbers`)?.dataset.values;
        return v && Math.abs(JSON.parse(v).smoothAfter - want) < 1e-6;
      }, [LG, aa]);
      expect(await page.locator(`${LG} .lg-caption`).nth(1).innerText()).toMatch(names[lang][1]);
      expect(await page.locator(`${LG} .lg-resize-note`).innerText()).toMatch(/antialias=True/);
      // The address follows the change once the page has written it (it is rewritten after a short pause).
      await page.waitForFunction(() => /resize_antialias=!t/.test(decodeURIComponent(location.hash)));
      await screenshot(page, `vision-learned-aa-${lang}`, LG);
      // The link round-trips: opened afresh, the box is ticked and the numbers are timm's.
      const link = await page.evaluate(() => location.hash);
      await page.goto('about:blank');
      await gotoApp(page, `${server.url}${link}`);
      expect(await page.locator('input[type=checkbox][name=resize_antialias]').isChecked()).toBe(true);
      expect((await valuesOf()).smoothAfter).toBeCloseTo(aa, 6);
    }
  });

  it('measures the cross terms of e + p with the API’s tables, and none for [e; p] (en and ko)', async () => {
    const spec = pe.defaults('learned2d');
    const full = { ...spec, height: 14, width: 14, dim: 768, resize_height: 24, resize_width: 24 };
    const e = pe.compute({ kind: 'learned2d', height: 24, width: 24, dim: 768, init: 'normal', std: 0.02, seed: 1, cls_token: false }).data;
    const pairs = tokenPairs(576);
    const rows = ['sincos', 'normal'].map((init) => ({ init, ...crossTerms(e, pe.compute({ ...full, init }).data, 1, 768, pairs) }));
    for (const lang of ['en', 'ko']) {
      await open(HASH, lang);
      await waitDrawn(page, SC);
      const shown = await page.evaluate((s) => JSON.parse(document.querySelector(`${s} .view-body`).dataset.values), SC);
      expect(shown.map((x) => x.init)).toEqual(['sincos', 'normal']);
      for (const [i, x] of shown.entries()) {
        for (const k of ['position', 'content', 'cross']) expect(x[k] / rows[i][k], `${x.init} ${k}`).toBeCloseTo(1, 9);
        expect(x.concatCross).toBeLessThan(1e-9 * rows[i].position + 1e-15);
      }
      const cells = await page.locator(`${SC} tbody tr`).first().locator('td').allInnerTexts();
      expect(cells[0]).toBe(String(Number(rows[0].position.toPrecision(4))));
      await screenshot(page, `vision-sumconcat-${lang}`, SC);
    }
    console.log(`cross terms at 24×24, dim 768, e ~ N(0, 0.02²): ${rows.map((r) => `${r.init}: position ${r.position.toPrecision(3)}, content ${r.content.toPrecision(3)}, cross ${r.cross.toPrecision(3)} (${(r.cross / r.position).toPrecision(3)}× position)`).join('; ')}`);
  });

  it('opens a trained-layout table from a .npy file and shows its grid, class row left out', async () => {
    // A [1, 197, 64] table as timm saves ViT's pos_embed (the leading 1 is dropped): the class row,
    // then 14 × 14 patches.
    const t = pe.compute({ kind: 'learned2d', height: 14, width: 14, dim: 64, init: 'normal', seed: 9 }).data;
    const file = path.join(ARTIFACTS, 'vision-learned-pos_embed.npy');
    writeFileSync(file, npy(t, 1, 197, 64));
    await open('#v1/learned2d');
    await waitDrawn(page, LG);
    const drawn = await page.evaluate((s) => Number(document.querySelector(`${s} .view-body`).dataset.drawn), LG);
    await page.setInputFiles(`${LG} input[type=file]`, file);
    await page.waitForFunction((s) => /197 × 64/.test(document.querySelector(`${s} [role=status]`)?.textContent ?? ''), LG);
    await waitDrawn(page, LG, drawn); // views draw only in sight: waitDrawn keeps it there
    expect(await page.evaluate((s) => document.querySelector(`${s} .lg-numbers`).dataset.source, LG)).toBe('loaded');
    const shown = await page.evaluate((s) => JSON.parse(document.querySelector(`${s} .lg-numbers`).dataset.values), LG);
    expect(shown.smoothBefore).toBeCloseTo(neighbourSimilarity(t, 64, 1, 14, 14), 6);
  });

  it('the Learn path\'s patches step links here, opened at the view (ko)', async () => {
    await open('#learn/patches', 'ko');
    await page.waitForFunction(() => document.querySelector('.learn')?.dataset.ready === 'patches');
    await page.click('.learn-vit a');
    await page.waitForFunction((s) => document.activeElement === document.querySelector(s), LG);
    expect(decodeURIComponent(await page.evaluate(() => location.hash))).toMatch(/learned2d\?.*resize_height=24.*~lang=ko/);
    await valuesOf();
  });

  it('axe-core: nothing serious or critical on the learned2d views (en and ko)', async () => {
    const s = await openPage({ avail });
    try {
      const kit = await axeKit(s.page, s.server.url, report);
      const problems = [];
      for (const lang of ['en', 'ko']) {
        await kit.open(`?lang=${lang}${HASH}`);
        await kit.drawEveryView();
        await s.page.locator(LG).scrollIntoViewIfNeeded();
        await kit.check(`${lang} learned2d (every view)`, problems);
      }
      expect(problems).toEqual([]);
    } finally {
      await s.close();
    }
  });

  it('logs no page errors', () => {
    expect(logProblems(log)).toEqual({});
  });
});

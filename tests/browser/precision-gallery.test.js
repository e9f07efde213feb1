// Browser test of the gallery's way into the precision lab (web/views/rope/gallery.js,
// web/views/precision/models.js): every rotary card links to its rope_precision permalink, each
// link's accessible name starts with its visible text, and the Phi-3.5 mini link opens the lab
// drawn with that model's RoPE (LongRoPE, its long factors at the end of its 131,072 tokens), in
// English and in Korean. Saves tests/artifacts/precision-gallery-*.png.
//   npx vitest run tests/browser/precision-gallery.test.js
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import path from 'node:path';
import { suiteAvailability, openPage, screenshot, viewKit, logProblems, gotoApp, waitDrawn, ROOT } from '../helpers/browser.js';
import { GALLERY } from '../../web/api/models.js';
import { MODELS, NO_ROPE } from '../../web/views/precision/models.js';

const avail = suiteAvailability('precision-gallery.test');
const GAL = '#view-rope-gallery';
const POS = '#view-precision-position';
const MODEL = '#view-precision-model';
const PHI = 'phi-3.5-mini';

describe.skipIf(avail.skip)('the gallery opens models in the precision lab', () => {
  let session;
  let page;
  const { dataOf, drawnAfter } = viewKit(() => page);
  const field = (name) => page.inputValue(`#f-rope_precision-${name}`);

  beforeAll(async () => {
    session = await openPage({ avail });
    ({ page } = session);
    // axe-core, injected before the page's own scripts (its Content-Security-Policy has no inline scripts).
    await page.addInitScript({ path: path.join(ROOT, 'node_modules', 'axe-core', 'axe.min.js') });
    await gotoApp(page, `${session.server.url}?lang=en#rope`);
  });

  afterAll(async () => {
    await session?.close();
  });

  /** Opens the gallery in `lang`, then its Phi-3.5 mini lab link; returns the link's href. */
  async function openPhi(lang) {
    await gotoApp(page, `${session.server.url}?lang=${lang}#rope`);
    await waitDrawn(page, GAL);
    const link = `${GAL} a[data-lab="${PHI}"]`;
    await page.locator(link).scrollIntoViewIfNeeded();
    await screenshot(page, `precision-gallery-cards-${lang}`, `${GAL} .rope-gallery-pick`);
    const href = await page.getAttribute(link, 'href');
    await page.click(link);
    await page.waitForFunction(() => document.getElementById('main')?.dataset.kind === 'rope_precision');
    return href;
  }

  it('links every rotary card, with accessible names that start with the visible text', async () => {
    await waitDrawn(page, GAL);
    const links = await page.$$eval(`${GAL} .rope-gallery-list a`, (as) => as.map((a) => ({
      text: a.textContent.trim(), name: a.getAttribute('aria-label') ?? a.textContent.trim(), lab: a.dataset.lab ?? null, href: a.getAttribute('href'),
    })));
    // axe's label-content-name-mismatch: the name must hold the visible text; here it starts with it.
    for (const l of links) expect(l.name.startsWith(l.text), `${l.name} / ${l.text}`).toBe(true);
    const lab = links.filter((l) => l.lab);
    expect(lab.map((l) => l.lab)).toEqual(GALLERY.map((g) => g.id).filter((id) => !NO_ROPE.includes(id)));
    expect(lab.length).toBe(Object.keys(MODELS).length - 2);   // the two kept for earlier links are not cards
    for (const l of lab) {
      expect(l.text).toBe('Open in the precision lab');
      expect(l.href).toMatch(new RegExp(`^#v1/rope_precision\\?.*&~x\\.precisionModel=${l.lab.replace(/\./g, '\\.')}$`));
    }
    expect(await page.getAttribute(`${GAL} [data-model="llama-2-7b"] a:not([data-lab])`, 'aria-label')).toBe('link: permalink to Llama 2 7B');
    // axe-core's own rule (experimental in axe 4: enabled here, as tests/browser/a11y.test.js does).
    const mismatched = await page.evaluate(async (s) => {
      const res = await window.axe.run(document.querySelector(s), {
        runOnly: { type: 'rule', values: ['label-content-name-mismatch'] }, resultTypes: ['violations'],
      });
      return res.violations.flatMap((v) => v.nodes.map((n) => n.target.join(' ')));
    }, GAL);
    expect(mismatched).toEqual([]);
    expect(await page.$$(`${GAL} [data-model="bloom"] a[data-lab]`)).toHaveLength(0);
  });

  it.each([['en'], ['ko']])('opens Phi-3.5 mini in the lab with its LongRoPE (%s)', async (lang) => {
    const href = await openPhi(lang);
    expect(href).toContain('long_factor');
    // The parameters are the model's: a 96-channel head, rope_theta 10000, the last 4096 of
    // 131,072 positions, LongRoPE over an original 4096.
    expect(await field('dim')).toBe('96');
    expect(await field('base')).toBe('10000');
    expect(await field('length')).toBe('4096');
    expect(await field('offset')).toBe(String(131072 - 4096));
    expect(await field('max_position_embeddings')).toBe('131072');
    expect(await field('rope_scaling-rope_type')).toBe('longrope');
    expect(await field('rope_scaling-original_max_position_embeddings')).toBe('4096');
    const numbers = (text) => text.match(/[\d.]+(e[-+]?\d+)?/g).map(Number);
    expect(numbers(await field('rope_scaling-long_factor'))).toEqual(MODELS[PHI].rope.rope_scaling.long_factor);
    expect(numbers(await field('rope_scaling-short_factor'))).toEqual(MODELS[PHI].rope.rope_scaling.short_factor);
    // The lab draws: the error curve over positions 126,976 – 131,071, and the model view on Phi-3.5.
    await drawnAfter(POS);
    expect(await page.textContent(`${POS} .view-stats`)).toContain(lang === 'en' ? '126,976 – 131,071' : '126,976');
    await screenshot(page, `precision-gallery-lab-${lang}`, POS);
    await drawnAfter(MODEL);
    expect(await dataOf(MODEL, 'model')).toBe(PHI);
    expect(await dataOf(MODEL, 'context')).toBe('131072');
    const stats = await page.textContent(`${MODEL} .view-stats`);
    expect(stats).toContain(lang === 'en' ? 'LongRoPE: long_factor (a context past 4096 tokens)' : 'LongRoPE: long_factor (문맥 4096 토큰 초과)');
    expect(stats).toContain(lang === 'en' ? 'rotary dim 96' : '회전 차원 96');
    expect(await page.textContent(`${MODEL} .prec-verdict`)).toMatch(lang === 'en' ? /of 48 pairs|all 48 pairs/ : /쌍 48개/);
    await screenshot(page, `precision-gallery-model-${lang}`, MODEL);
    expect(logProblems(session.log)).toEqual({});
  });
});

// Browser test of the Learn path's claim checks (web/pages/learn/claims.js): on every step that has
// claim checks, in English and Korean, each box shows the sentence Node builds from the numbers
// Node computes (web/pe.js + claims-compute.js + claims-strings.js), and carries those numbers in
// data-values; the Korean boxes hold no English outside the cited sources and names; the
// sinusoids step's "read the values" widget gives the values Node reads for what is typed in; the
// Arena link opens the Arena. Saves tests/artifacts/claims-*.png.
//   npx vitest run tests/browser/claims.test.js
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { suiteAvailability, logProblems, screenshot } from '../helpers/browser.js';
import { usePage } from '../helpers/browser-suite.js';
import { createPE } from '../../web/pe.js';
import { CLAIMS, readValues, fmt5 } from '../../web/pages/learn/claims-compute.js';
import CLAIM_STRINGS, { LATIN_NAMES } from '../../web/pages/learn/claims-strings.js';

const avail = suiteAvailability('claims.test');
const STEPS = [...new Set(CLAIMS.map((c) => c.step))];
// Latin words a Korean claim check may hold: names, symbols, tokens.
const NAMES = new Set(['PE', 'RoPE', 'M-RoPE', 'ALiBi', 'T5', 'YaRN', 'NTK', 'PI', 'Llama', 'Qwen2-VL', 'MAE', 'BERT', 'GPT-2', 'base', 'rad',
  'sin', 'cos', 'love', 'AI', 'I', 'mrope_section', ...LATIN_NAMES]);

describe.skipIf(avail.skip)('claim checks in Chromium', () => {
  const session = usePage({ avail });
  let values;
  const report = [];

  beforeAll(async () => {
    const pe = await createPE();
    values = Object.fromEntries(CLAIMS.map((c) => [c.id, c.compute(pe)]));
    values.reader = (spec) => readValues(pe, spec).values.map(fmt5).join(', ');
  });

  afterAll(() => {
    if (report.length) console.log(`\nClaim checks\n${report.join('\n')}\n`);
  });

  async function open(id, lang) {
    const { page } = session;
    await page.goto('about:blank');
    await page.goto(`${session.server.url}?lang=en#learn/${id}${lang === 'ko' ? '?~lang=ko' : ''}`);
    await page.waitForFunction((r) => document.documentElement.dataset.pageState === 'ready' && document.querySelector('.learn')?.dataset.ready === r, id);
  }

  for (const lang of ['en', 'ko']) {
    it(`every claim check in ${lang} cites the numbers Node computes`, async () => {
      const { page, log } = session;
      const dict = CLAIM_STRINGS[lang];
      for (const step of STEPS) {
        await open(step, lang);
        const boxes = await page.$$eval('.claim-check', (els) => els.map((el) => ({
          id: el.dataset.claim, values: JSON.parse(el.dataset.values), right: el.querySelector('.claim-right').textContent,
          source: el.querySelector('.claim-source cite a')?.href ?? '', text: (() => {
            const c = el.cloneNode(true);
            c.querySelectorAll('cite, fieldset').forEach((x) => x.remove());
            return c.innerText;
          })(),
        })));
        expect(boxes.map((b) => b.id), step).toEqual(CLAIMS.filter((c) => c.step === step).map((c) => c.id));
        for (const b of boxes) {
          expect(b.values, `${lang} ${b.id}`).toEqual(JSON.parse(JSON.stringify(values[b.id])));
          expect(b.right, `${lang} ${b.id}`).toBe(dict[`claim.${b.id}.right`](values[b.id]));
          expect(b.source, b.id).toMatch(/^https:\/\//);
          if (lang === 'ko') {
            const words = (b.text.match(/[A-Za-z][A-Za-z0-9_.'-]*/g) ?? []).map((w) => w.replace(/[.,'-]+$/, '').replace(/'s$/, ''))
              .filter((w) => w.length > 2 && !NAMES.has(w) && !/^e-?\d+$/.test(w));
            expect(words, `${b.id}: English words in Korean text`).toEqual([]);
          }
        }
        if (step === 'sinusoids' || (lang === 'en' && ['order', 'shift', 'patches'].includes(step))) await screenshot(page, `claims-${step}-${lang}`, '.learn-step');
        report.push(`  ${lang} ${step}: ${boxes.map((b) => b.id).join(', ')}`);
      }
      expect(logProblems(log)).toEqual({});
    });
  }

  it('the value reader gives the values Node reads, for what a learner types', async () => {
    const { page } = session;
    await open('sinusoids', 'en');
    const reader = '.claim-reader';
    expect(await page.getAttribute(reader, 'data-values')).toBe('−0.99385, 0.11069, −0.99823');
    expect(await page.getAttribute(reader, 'data-values')).toBe(values.reader({ p: 5, dim: 512, from: 2, count: 3 }));
    const fields = page.locator(`${reader} input`);
    await fields.nth(0).fill('37');   // position
    await fields.nth(1).fill('128');  // d
    await fields.nth(2).fill('0');    // from column
    await fields.nth(3).fill('6');    // how many
    await page.selectOption(`${reader} select`, 'concat');
    const want = values.reader({ p: 37, dim: 128, from: 0, count: 6, layout: 'concat' });
    await page.waitForFunction(([s, w]) => document.querySelector(s).dataset.values === w, [reader, want]);
    expect(await page.$$eval(`${reader} .claim-value strong`, (s) => s.map((x) => x.textContent).join(', '))).toBe(want);
    // A d the kernel refuses: said in words, no numbers left standing.
    await fields.nth(1).fill('0');
    await page.waitForSelector(`${reader} .claim-error`);
    expect(await page.getAttribute(reader, 'data-values')).toBe('');
    report.push(`  reader: position 37, d = 128, concat, columns 0–5: ${want}`);
  });

  it('the base-10000 check opens the precision lab at its d and base, which draws', async () => {
    const { page, log } = session;
    await open('sinusoids', 'en');
    const link = '.claim-check[data-claim="base10000"] .claim-link a';
    const href = decodeURIComponent(await page.getAttribute(link, 'href'));
    expect(href).toMatch(/^#v1\/rope_precision\?/);
    expect(href).toMatch(/dim=512/);
    await page.click(link);
    await page.waitForFunction(() => /rope_precision/.test(location.hash) && document.documentElement.dataset.state === 'ready');
    await page.waitForFunction(() => document.querySelector('#view-heatmap .view-body')?.dataset.paintMs
      || [...document.querySelectorAll('section.view .view-body')].some((b) => Number(b.dataset.drawn) > 0));
    expect(await page.inputValue('#f-rope_precision-dim')).toBe('512');
    expect(logProblems(log)).toEqual({});
  });

  it('the extrapolation check links to the Arena preset, which opens', async () => {
    const { page, log } = session;
    await open('shift', 'ko');
    const href = await page.getAttribute('.claim-check[data-claim="sinExtrapolate"] .claim-link a', 'href');
    expect(href).toMatch(/^#arena\?task=kback&enc=sinusoidal,learned,t5,rope&causal=0/);
    expect(href).toMatch(/~lang=ko$/);
    await page.click('.claim-check[data-claim="sinExtrapolate"] .claim-link a');
    await page.waitForFunction(() => location.hash.startsWith('#arena') && document.documentElement.dataset.pageState === 'ready');
    expect(await page.getAttribute('html', 'lang')).toBe('ko');
    expect(logProblems(log)).toEqual({});
  });
});

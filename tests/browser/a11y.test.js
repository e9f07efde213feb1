// Accessibility of the page with axe-core (node_modules/axe-core, the WCAG 2.0/2.1 A and AA rules
// plus the landmark and heading ones): the explorer (four kinds in full, every view drawn and every
// folded view opened; every other kind of the catalogue as it first appears), the Learn path (its
// index and every step), and the Arena (before and after a tiny experiment), in English and in
// Korean, and a few of them in the dark theme. Nothing serious or critical, and none of the rules
// fixed once (landmarks, headings, summaries) comes back. A failure lists each rule's nodes.
//   npx vitest run tests/browser/a11y.test.js
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { suiteAvailability, openPage, gotoApp, ROOT, WAIT_MS } from '../helpers/browser.js';
import path from 'node:path';
import { KINDS } from '../../web/api/schema/index.js';
import { STEP_IDS } from '../../web/pages/learn/steps.js';

const avail = suiteAvailability('a11y.test');
const AXE = path.join(ROOT, 'node_modules', 'axe-core', 'axe.min.js');

/** The kinds checked with every view drawn; the others are checked as they first appear. */
const FULL_KINDS = ['sinusoidal', 'rope', 'attention', 'rope_precision', 'alibi'];
/** Rules below "serious" that the page passes and must keep passing. */
const KEPT = ['region', 'landmark-one-main', 'landmark-unique', 'landmark-no-duplicate-main', 'landmark-complementary-is-top-level',
  'landmark-main-is-top-level', 'page-has-heading-one', 'heading-order', 'empty-heading'];
/** A tiny Arena experiment: two encodings, one seed, a few steps (its cards appear when it is done). */
const TINY_ARENA = 'task=copy&enc=none,rope&causal=1&len=4&min=2&steps=20&seed=3&seeds=1&lr=0.003';

describe.skipIf(avail.skip)('accessibility (axe-core) in Chromium', () => {
  let page;
  let close;
  let base;
  const report = [];

  beforeAll(async () => {
    ({ page, close, server: { url: base } } = await openPage({ avail }));
    // Injected before the page's own scripts, past its Content-Security-Policy (no inline scripts).
    await page.addInitScript({ path: AXE });
  });
  afterAll(async () => {
    if (report.length) console.log(`\naxe-core\n${report.join('\n')}\n`);
    await close?.();
  });

  /** axe's violations on the page now: [{ id, impact, nodes: [target …] }]. */
  function audit() {
    return page.evaluate(async () => {
      const res = await window.axe.run(document, {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
        // Experimental in axe 4, and what a speech-input user needs: a link's name holds its visible text.
        rules: { 'label-content-name-mismatch': { enabled: true } },
        resultTypes: ['violations'],
      });
      return res.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')) }));
    });
  }

  /**
   * Audits the page now: what is serious or critical, or one of KEPT, goes into `problems` (each
   * test expects its list empty at the end, so one run names every page that fails).
   */
  async function check(label, problems) {
    const found = await audit();
    report.push(`  ${label.padEnd(34)} ${found.length ? found.map((v) => `${v.id} (${v.impact}) ×${v.nodes.length}`).join(', ') : 'clean'}`);
    for (const v of found.filter((x) => x.impact === 'serious' || x.impact === 'critical' || KEPT.includes(x.id))) {
      problems.push(`${label}: ${v.id} (${v.impact}) ${v.nodes.slice(0, 8).join(' | ')}${v.nodes.length > 8 ? ` … ${v.nodes.length} nodes` : ''}`);
    }
  }

  /**
   * A fresh load of `hash` (a deep link), waiting for the explorer or a page to be ready and shown
   * (<html class="pe-booted">: until then web/app/boot.css keeps the layout and the page hidden).
   */
  async function open(hash) {
    await page.goto('about:blank');
    if (/#(learn|arena)/.test(hash)) {
      await page.goto(`${base}${hash}`);
      await page.waitForFunction(() => document.documentElement.dataset.pageState === 'ready');
    } else {
      await gotoApp(page, `${base}${hash}`);
    }
    await page.waitForFunction(() => document.documentElement.classList.contains('pe-booted'));
  }

  /**
   * Opens every folded view and brings each view into sight until it has drawn (views draw only on
   * screen): until something in it reports data-drawn, or, for a view that counts nothing (a
   * table, the share box), 1.5 s after its code arrived; at most 8 s (a slow view on a busy
   * machine is audited as it is then). Scrolls back up.
   */
  function drawEveryView() {
    return page.evaluate(async () => {
      for (const d of document.querySelectorAll('#main details.view-fold')) d.open = true;
      for (const section of document.querySelectorAll('#main section.view')) {
        section.scrollIntoView({ block: 'start' });
        const t0 = performance.now();
        const drawn = () => [...section.querySelectorAll('[data-drawn]')].some((el) => Number(el.dataset.drawn) > 0)
          || (!section.querySelector('.view-loading') && performance.now() - t0 > 1500);
        while (!drawn() && performance.now() - t0 < 8000) await new Promise((r) => setTimeout(r, 50));
      }
      window.scrollTo(0, 0);
    });
  }

  for (const lang of ['en', 'ko']) {
    const q = lang === 'en' ? '?lang=en' : '?lang=ko';
    it(`the explorer in ${lang}: four kinds, every view drawn and unfolded`, async () => {
      const problems = [];
      for (const kind of FULL_KINDS) {
        await open(`${q}#${kind}`);
        await check(`${lang} #${kind} (first screen)`, problems);
        await drawEveryView();
        await check(`${lang} #${kind} (every view)`, problems);
      }
      expect(problems).toEqual([]);
    });
  }

  it('the explorer in en: every other kind of the catalogue as it first appears', async () => {
    const problems = [];
    await open('?lang=en#sinusoidal');
    for (const kind of KINDS.filter((k) => !FULL_KINDS.includes(k))) {
      await page.click(`#catalogue a[data-kind="${kind}"]`);
      await page.waitForFunction((k) => document.getElementById('main')?.dataset.kind === k && document.documentElement.dataset.state === 'ready', kind);
      await check(`en #${kind} (first screen)`, problems);
    }
    expect(problems).toEqual([]);
  });

  it('the dark theme in en: two kinds in full, a Learn step and the Arena', async () => {
    const problems = [];
    await page.emulateMedia({ colorScheme: 'dark' });
    try {
      for (const kind of ['sinusoidal', 'attention']) {
        await open(`?lang=en#${kind}`);
        await drawEveryView();
        await check(`dark en #${kind} (every view)`, problems);
      }
      await open('?lang=en#learn/order');
      await page.waitForFunction(() => Number(document.querySelector('.learn-figure')?.dataset.drawn || 0) > 0);
      await check('dark en #learn/order', problems);
      await open(`?lang=en#arena?${TINY_ARENA}`);
      await check('dark en #arena', problems);
    } finally {
      await page.emulateMedia({ colorScheme: 'light' });
    }
    expect(problems).toEqual([]);
  });

  for (const lang of ['en', 'ko']) {
    const tail = lang === 'en' ? '' : '?~lang=ko';
    it(`the Learn path in ${lang}: its index and every step`, async () => {
      const problems = [];
      await open(`?lang=en#learn${tail}`);
      await check(`${lang} #learn`, problems);
      for (const id of STEP_IDS) {
        await open(`?lang=en#learn/${id}${tail}`);
        await page.waitForFunction(() => Number(document.querySelector('.learn-figure')?.dataset.drawn || 0) > 0);
        await check(`${lang} #learn/${id}`, problems);
      }
      expect(problems).toEqual([]);
    });

    it(`the Arena in ${lang}: the form, then a tiny experiment's results`, async () => {
      const problems = [];
      await open(`?lang=en#arena?${TINY_ARENA}${lang === 'en' ? '' : '&~lang=ko'}`);
      await check(`${lang} #arena`, problems);
      await page.click('.arena-primary');
      await page.waitForFunction(() => document.querySelector('.arena')?.dataset.state === 'done', null, { timeout: WAIT_MS * 2 });
      await check(`${lang} #arena (results)`, problems);
      expect(problems).toEqual([]);
    });
  }
});

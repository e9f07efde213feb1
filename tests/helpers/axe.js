// axe-core in the page, for the accessibility suites (tests/browser/a11y-*.test.js): the WCAG 2.0/2.1
// A and AA rules plus axe's best practices, the rules fixed once that must not come back, a fresh
// load of a deep link, and every view brought into sight until it has drawn.
import path from 'node:path';
import { gotoApp, ROOT } from './browser.js';

export const AXE = path.join(ROOT, 'node_modules', 'axe-core', 'axe.min.js');

/** Rules below "serious" that the page passes and must keep passing. */
export const KEPT = ['region', 'landmark-one-main', 'landmark-unique', 'landmark-no-duplicate-main', 'landmark-complementary-is-top-level',
  'landmark-main-is-top-level', 'page-has-heading-one', 'heading-order', 'empty-heading'];
/** A tiny Arena experiment: two encodings, one seed, a few steps (its cards appear when it is done). */
export const TINY_ARENA = 'task=copy&enc=none,rope&causal=1&len=4&min=2&steps=20&seed=3&seeds=1&lr=0.003';

/**
 * The audit kit of one page (axe injected before the page's own scripts, past its
 * Content-Security-Policy: call it once the page exists, before any load). `base` is the server's
 * URL; `report` collects one line per audit.
 */
export async function axeKit(page, base, report) {
  await page.addInitScript({ path: AXE });

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
   * table, the share box), 0.4 s after its code arrived; at most 8 s (a slow view on a busy
   * machine is audited as it is then). Scrolls back up.
   */
  function drawEveryView() {
    return page.evaluate(async () => {
      for (const d of document.querySelectorAll('#main details.view-fold')) d.open = true;
      for (const section of document.querySelectorAll('#main section.view')) {
        section.scrollIntoView({ block: 'start' });
        const t0 = performance.now();
        const drawn = () => [...section.querySelectorAll('[data-drawn]')].some((el) => Number(el.dataset.drawn) > 0)
          || (!section.querySelector('.view-loading') && performance.now() - t0 > 400);
        while (!drawn() && performance.now() - t0 < 8000) await new Promise((r) => setTimeout(r, 50));
      }
      window.scrollTo(0, 0);
    });
  }

  /** Audits `kinds` on their first screen and with every view drawn. */
  async function fullKinds(lang, kinds, problems) {
    for (const kind of kinds) {
      await open(`?lang=${lang}#${kind}`);
      await check(`${lang} #${kind} (first screen)`, problems);
      await drawEveryView();
      await check(`${lang} #${kind} (every view)`, problems);
    }
  }

  return { audit, check, open, drawEveryView, fullKinds };
}

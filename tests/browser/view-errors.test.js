// A view whose update throws (web/app/view-host.js): the page keeps the view's last picture and
// the rest of the page working, and says why in that view's section, in the page's language; the
// next update that succeeds takes the message away. The heatmap is made to throw from inside the
// page: its colour-map select (written on every update) is given a `value` setter that throws.
import { describe, it, expect } from 'vitest';
import { suiteAvailability, gotoApp, WAIT_MS } from '../helpers/browser.js';
import { usePage } from '../helpers/browser-suite.js';

const avail = suiteAvailability('view-errors');

const ERROR = '#view-heatmap .view-error';

describe.skipIf(avail.skip)('a view that fails to update says so (Chromium)', () => {
  const session = usePage({ avail });

  /** Types `value` into the dimension and waits until the page has computed and updated the views. */
  async function setDim(value) {
    const n = await session.page.evaluate(() => window.__peLab.renders);
    await session.page.evaluate((v) => {
      const input = document.getElementById('f-sinusoidal-dim');
      input.value = String(v);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    }, value);
    await session.page.waitForFunction((k) => window.__peLab.renders > k, n, { timeout: WAIT_MS });
  }

  /** Makes (or, with false, stops making) the heatmap's updates throw. */
  const breakHeatmap = (broken) => session.page.evaluate((on) => {
    const select = document.querySelector('#view-heatmap .view-toolbar select[id$="-map"]');
    if (!on) {
      delete select.value; // the element's own setter goes: the prototype's works again
      return;
    }
    Object.defineProperty(select, 'value', {
      configurable: true,
      get: () => 'viridis',
      set: () => { throw new Error('test: no colour map today'); },
    });
  }, broken);

  const errorShown = () => session.page.evaluate((sel) => {
    const p = document.querySelector(sel);
    return p && !p.hidden ? p.textContent : null;
  }, ERROR);

  for (const [lang, hash, said] of [
    ['en', '#v1/sinusoidal', /^This view could not be redrawn and still shows what it drew before: test: no colour map today$/],
    ['ko', '#v1/sinusoidal?~lang=ko', /^이 보기를 다시 그리지 못해 이전에 그린 그림을 그대로 보여 줍니다: test: no colour map today$/],
  ]) {
    it(`shows the error in the view's section and clears it on the next good update (${lang})`, async () => {
      await session.page.goto('about:blank');
      await gotoApp(session.page, `${session.server.url}${hash}`);
      await session.page.evaluate(() => document.getElementById('view-heatmap').scrollIntoView({ block: 'start' }));
      expect(await errorShown()).toBeNull();

      await breakHeatmap(true);
      await setDim(48);
            expect(await errorShown()).toMatch(said);
      expect(await session.page.getAttribute('#view-heatmap', 'data-error')).toBe('update');
      // The rest of the page went on: the new spec computed, with no error at the fields.
      expect(await session.page.evaluate(() => document.querySelectorAll('.controls .field-error:not([hidden])').length)).toBe(0);
      expect(await session.page.getAttribute('html', 'data-state')).toBe('ready');

      await breakHeatmap(false);
      await setDim(64);
      expect(await errorShown()).toBeNull();
      expect(await session.page.getAttribute('#view-heatmap', 'data-error')).toBeNull();
    });
  }
});

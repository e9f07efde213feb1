// The RoPE step's motion: the query's pairs drawn as they turn while the position scrubs. The
// angles come from the kernel's rotated query (pe.applyRope): pair 0 turns 1 rad a position, the
// last pair base^(−(d−2)/d) rad; Play moves the position and Pause stops it.
import { describe, it, expect } from 'vitest';
import { suiteAvailability, gotoApp } from '../helpers/browser.js';
import { usePage } from '../helpers/browser-suite.js';

const avail = suiteAvailability('learn-rotor.test');

describe.skipIf(avail.skip)('RoPE step: the pairs turn with the position (Chromium)', () => {
  const s = usePage({ avail });

  it('at position 5, pair 0 has turned 5 rad, the slowest pair next to nothing; Play moves on', async () => {
    const { page } = s;
    await gotoApp(page, `${s.server.url}?lang=en#learn/rope`, { state: null });
    await page.waitForFunction(() => document.querySelector('.learn')?.dataset.ready === 'rope');
    const slider = page.locator('.learn-rotor-figure input[type=range]');
    await slider.evaluate((el) => {
      el.value = '5';
      el.dispatchEvent(new Event('input', { bubbles: true }));
    });
    const legend = await page.locator('.learn-rotor-legend').textContent();
    const turned = Object.fromEntries([...legend.matchAll(/pair (\d+): turned (\d+)°/g)].map((m) => [Number(m[1]), Number(m[2])]));
    expect(turned[0]).toBe(Math.round(((5 * 180) / Math.PI) % 360)); // 286°
    expect(turned[15]).toBe(Math.round((5 * 10000 ** (-30 / 32) * 180) / Math.PI)); // 0°
    expect(turned[8]).toBe(Math.round((5 * 10000 ** (-16 / 32) * 180) / Math.PI)); // 3°
    await page.click('.learn-rotor-figure button');
    await page.waitForFunction(() => Number(document.querySelector('.learn-rotor-figure').parentElement.dataset.position) >= 8);
    await page.click('.learn-rotor-figure button');
    const stopped = await page.evaluate(() => document.querySelector('.learn-rotor-figure').parentElement.dataset.playing);
    expect(stopped).toBe('false');
  });
});

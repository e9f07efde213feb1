// The page computes a large output into the shown result's array (web/app/compute.js reusable,
// pe.compute's options.reuse): a drag at 2000 × 1600 then copies 12.8 MB a frame into memory the
// page already has instead of allocating it. What must hold: every view draws the new values,
// never a stale cache keyed by the array (the heatmap's colour range over every head, the vision
// similarity's row norms), so the pixels after a few edits equal a fresh load of the same spec;
// and a bad value leaves the last good result as it was.
import { describe, it, expect } from 'vitest';
import { suiteAvailability, gotoApp, canvasStats, nextFrames, WAIT_MS } from '../helpers/browser.js';
import { usePage } from '../helpers/browser-suite.js';

const HEATMAP = '#view-heatmap canvas.hm-canvas';

const avail = suiteAvailability('reuse');

describe.skipIf(avail.skip)('a large result computed into the last one\'s array (Chromium)', () => {
  const session = usePage({ avail });

  const renders = () => session.page.evaluate(() => window.__peLab.renders);
  const reused = () => session.page.evaluate(() => window.__peLab.reused);

  /** Sets a field and waits for the page to redraw and paint. */
  async function edit(id, value) {
    const n = await renders();
    // as a slider or a typed value does (the attention's encoding field sits behind its editor)
    await session.page.evaluate(([i, v]) => {
      const input = document.getElementById(i);
      input.value = v;
      input.dispatchEvent(new Event('input', { bubbles: true }));
    }, [id, String(value)]);
    await session.page.waitForFunction((k) => window.__peLab.renders > k && window.__peLab.paintedRender > k, n, { timeout: WAIT_MS });
  }

  const SIMILARITY = '#view-vision-similarity canvas';
  /** Loads `hash` in a page of its own (a real load, not a hash change) and waits for its heatmap. */
  async function load(hash, p = session.page) {
    // From the app's own address a new hash is only a hash change, and data-state is already
    // "ready" from the kind before: leave the app first.
    await p.goto('about:blank');
    await gotoApp(p, `${session.server.url}${hash}`);
    await nextFrames(p);
  }
  /**
   * The heatmap's pixels, or for a vision kind the similarity picture's (shown and drawn; the
   * view is mounted once its module has loaded, which on a busy machine can be after the first plot).
   */
  async function pixels(p, vision) {
    if (!vision) return { heatmap: await canvasStats(p, HEATMAP) };
    await p.waitForSelector('#view-vision-similarity', { state: 'attached', timeout: WAIT_MS });
    // shown (an off-screen view draws when it comes into view), drawn, and drawn for the result on
    // show: its draw count (data-draws) holds still over a few frames
    await p.waitForFunction(() => new Promise((resolve) => {
      const view = document.querySelector('#view-vision-similarity');
      const r = view.getBoundingClientRect();
      if (r.bottom < 0 || r.top > window.innerHeight) view.scrollIntoView({ block: 'start' });
      const count = () => Number(view.querySelector('.view-body')?.dataset.draws || 0);
      const first = count();
      let frames = 0;
      const tick = () => (++frames < 4 ? requestAnimationFrame(tick) : resolve(first > 0 && count() === first));
      requestAnimationFrame(tick);
    }), null, { timeout: WAIT_MS });
    // (the heatmap is off-screen now: it redraws when it comes back into view)
    return { similarity: await canvasStats(p, SIMILARITY) };
  }

  const encoding = (base) => JSON.stringify({ kind: 'rope', base });
  it.each([
    // [start, field, values, what the reuse could break]
    ['#sinusoidal?length=1024&dim=512', 'f-sinusoidal-base', [500, 20000, 777], 'a 2-D table'],
    ['#attention?length=256&heads=8', 'f-attention-encoding', [encoding(500), encoding(20000), encoding(777)], 'attention'],
    // without the causal mask no row is a sure 1, so the colour range over every head moves
    ['#attention?length=256&heads=8&causal=false', 'f-attention-seed', [3, 11, 42], 'the colour range over every head'],
    ['#sinusoidal2d?height=48&width=48&dim=256', 'f-sinusoidal2d-base', [100, 5000], 'the similarity picture'],
  ])('%s, %s edited: the same pixels as a fresh load (%s)', async (start, field, values) => {
    await load(start);
    const vision = start.startsWith('#sinusoidal2d');
    await pixels(session.page, vision); // every view drawn once, its caches filled
    const before = await reused();
    for (const v of values) await edit(field, v);
    // each edit of the same output size computed into the shown result's array
    expect(await reused()).toBeGreaterThan(before);
    const edited = await pixels(session.page, vision);
    await session.page.waitForFunction(() => document.documentElement.dataset.link === 'written', null, { timeout: WAIT_MS });
    const url = await session.page.evaluate(() => location.hash);
    const fresh = await session.context.newPage();
    try {
      await load(url, fresh);
      expect(edited).toEqual(await pixels(fresh, vision));
    } finally {
      await fresh.close();
    }
  });

  it('keeps the last good result when a value is refused', async () => {
    await load('#sinusoidal?length=1024&dim=512&base=500');
    const good = await canvasStats(session.page, HEATMAP);
    const n = await renders();
    await session.page.fill('#f-sinusoidal-base', '-3');
    await session.page.waitForSelector('#f-sinusoidal-base[aria-invalid="true"]', { timeout: WAIT_MS });
    expect(await renders()).toBe(n);
    // a redraw of the kept result (another colour map and back) shows the same values
    await session.page.selectOption('#view-heatmap select[id$="-map"]', 'cividis');
    await session.page.selectOption('#view-heatmap select[id$="-map"]', 'viridis');
    await session.page.waitForFunction(() => new Promise((r) => requestAnimationFrame(() => r(true))));
    expect(await canvasStats(session.page, HEATMAP)).toEqual(good);
  });
});

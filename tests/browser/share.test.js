// Share, embed, export in Chromium: permalinks that reopen the same view, hostile fragments that
// change nothing, the exports (PNG, SVG, CSV, .npy, code), the ?embed mode in a cross-origin
// iframe, the <pe-plot> example page (one WebAssembly instance, no style leaks, inline errors),
// the offline single file from file:// with no request, and the Content-Security-Policy of each.
//   npx vitest run tests/browser/share.test.js
// Screenshots: tests/artifacts/share-*.png.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildOffline } from '../../scripts/build-offline.js';
import { createPE } from '../../web/pe.js';
import { codeFor } from '../../web/share/codegen.js';
import { decodePermalink } from '../../web/share/permalink.js';
import { SCHEMA } from '../../web/api/schema/index.js';
import {
  WEB, ARTIFACTS, suiteAvailability, gotoApp, watchPage, canvasStats, nextFrames, waitDrawn, inSight,
} from '../helpers/browser.js';
import { useBrowser } from '../helpers/browser-suite.js';

// WEB, the served root, holds web/dist: built once for the run by tests/setup/bundle.js.
const HEATMAP = '#view-heatmap canvas.hm-canvas';
const KINDS = Object.keys(SCHEMA);

const avail = suiteAvailability('share.test');

/** Width and height from a PNG's IHDR. */
function pngSize(buf) {
  expect([...buf.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
}

function readNpy(buf) {
  expect([...buf.subarray(0, 8)]).toEqual([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]);
  const len = buf.readUInt16LE(8);
  const header = buf.subarray(10, 10 + len).toString('latin1');
  const shape = /'shape': \(([^)]*)\)/.exec(header)[1].split(',').map((s) => s.trim()).filter(Boolean).map(Number);
  const body = buf.subarray(10 + len);
  return { header, shape, data: new Float32Array(body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength)) };
}

describe.skipIf(avail.skip)('share, embed, export (Chromium)', () => {
  const session = useBrowser({ avail });
  let other; // another site (its own origin, no CSP of ours), for the iframe host page
  let hostPage = '';
  let pe;

  beforeAll(async () => {
    other = createServer((req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(hostPage);
    });
    await new Promise((resolve) => other.listen(0, '127.0.0.1', resolve));
    other.url = `http://127.0.0.1:${other.address().port}/`;
    pe = await createPE();
  });

  afterAll(async () => {
    await new Promise((resolve) => (other ? other.close(resolve) : resolve()));
  });

  /** A fresh context and page, watched (non-local requests aborted and recorded). */
  async function open(url, { viewport = { width: 1280, height: 900 }, locale = 'en-US' } = {}) {
    const context = await session.browser.newContext({ viewport, deviceScaleFactor: 1, locale, colorScheme: 'light', acceptDownloads: true });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(session.server.url).origin });
    const page = await context.newPage();
    const log = await watchPage(page, new URL(session.server.url).origin);
    const requests = [];
    page.on('request', (r) => requests.push(r.url()));
    await gotoApp(page, url, { state: null });
    return { context, page, log, requests };
  }
  const renders = (page) => page.evaluate(() => Number(document.getElementById('main')?.dataset.renders || 0));
  // The URL is written 250 ms after the last change; the page says so with data-link="written".
  const settle = async (page) => {
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await page.waitForFunction(() => document.documentElement.dataset.link !== 'pending');
  };

  it('copy link: the link reopens exactly the same view (spec, colours, head, curves, compare, language)', async () => {
    const a = await open(`${session.server.url}#v1/alibi`);
    const { page } = a;
    const n = await renders(page);
    await page.fill('#f-alibi-length', '24');
    await page.waitForFunction((k) => Number(document.getElementById('main').dataset.renders) > k, n);
    await page.selectOption('#view-heatmap select[id$="-map"]', 'cividis');
    await page.fill('#view-heatmap input[type=number]', '3');
    await page.fill('#view-lines input[type=text]', '5, 20');
    await page.click('#view-compare .chip:has-text("symmetric")');
    await page.waitForSelector('#view-compare .compare-active:not([hidden])');
    await page.click('#lang [lang="ko"]');
    await page.waitForFunction(() => document.documentElement.lang === 'ko');
    await settle(page);
    await page.click('#copy-link');
    await page.waitForFunction(() => document.querySelector('.copy-status')?.textContent);
    const link = await page.evaluate(() => navigator.clipboard.readText());
    expect(link).toBe(await page.evaluate(() => location.href));
    const hash = new URL(link).hash;
    expect(hash).toBe('#v1/alibi?length=24&~map=cividis&~head=3&~rows=5,20&~cmp=(mode:symmetric)&~lang=ko');
    const before = {
      heatmap: await canvasStats(page, HEATMAP),
      b: await canvasStats(page, '#view-compare .compare-pane:nth-child(2) canvas.hm-canvas'),
      diff: await page.textContent('#view-compare .compare-diff-list'),
      list: await page.inputValue('#view-lines input[type=text]'),
    };
    await page.locator('#main .kind-head').screenshot({ path: path.join(ARTIFACTS, 'share-copy-link.png') });

    // A new visitor (English browser, nothing stored) opens the link.
    const b = await open(link, { locale: 'en-US' });
    const p2 = b.page;
    await p2.waitForSelector('#view-compare .compare-active:not([hidden])');
    await settle(p2);
    expect(await p2.evaluate(() => document.documentElement.lang)).toBe('ko');
    expect(await p2.inputValue('#f-alibi-length')).toBe('24');
    expect(await p2.inputValue('#view-heatmap select[id$="-map"]')).toBe('cividis');
    expect(await p2.inputValue('#view-heatmap input[type=number]')).toBe('3');
    expect(await p2.inputValue('#view-lines input[type=text]')).toBe(before.list);
    expect(await p2.textContent('#view-compare .compare-diff-list')).toBe(before.diff);
    expect((await canvasStats(p2, HEATMAP)).hash).toBe(before.heatmap.hash);
    expect((await canvasStats(p2, '#view-compare .compare-pane:nth-child(2) canvas.hm-canvas')).hash).toBe(before.b.hash);
    expect(await p2.isVisible('#link-notice')).toBe(false);
    await settle(p2);
    expect(await p2.evaluate(() => location.hash)).toBe(hash); // nothing moved
    for (const x of [a, b]) {
      expect(x.log.external).toEqual([]);
      expect(x.log.pageErrors).toEqual([]);
      expect(x.log.consoleErrors).toEqual([]);
      for (const r of x.requests) expect(new URL(r).origin).toBe(new URL(session.server.url).origin);
    }
    await a.context.close();
    await b.context.close();
  });

  describe('every kind: its link reproduces the same picture', () => {
    let context;
    let page;
    let second;
    let log;
    beforeAll(async () => {
      ({ context, page, log } = await open(`${session.server.url}#v1/sinusoidal`));
      second = await context.newPage();
    });
    afterAll(async () => {
      expect(log.external).toEqual([]);
      await context?.close();
    });
    it.each(KINDS)('%s', async (kind) => {
      await page.bringToFront(); // pages in the background get no animation frames
      const n = await renders(page);
      await page.click(`#catalogue a[data-kind="${kind}"]`);
      await page.waitForFunction((k) => document.getElementById('main').dataset.kind === k, kind);
      if (kind !== 'sinusoidal') await page.waitForFunction((k) => Number(document.getElementById('main').dataset.renders) > k, n);
      await settle(page);
      const href = await page.evaluate(() => location.href);
      expect(decodePermalink(new URL(href).hash).status, href).toBe('ok');
      const shot = await canvasStats(page, HEATMAP);
      await second.bringToFront();
      await second.goto('about:blank');
      await gotoApp(second, href);
      await settle(second);
      expect((await canvasStats(second, HEATMAP)).hash, kind).toBe(shot.hash);
    });
  });

  it('hostile fragments: no script runs, a notice shows, the last good state stays', async () => {
    const { context, page, log } = await open(`${session.server.url}#v1/sinusoidal?dim=32&~map=cividis`);
    await settle(page);
    const good = await page.evaluate(() => location.hash);
    const picture = await canvasStats(page, HEATMAP);
    const payloads = [
      '#v1/<img src=x onerror=window.__pwned=1>',
      '#<script>window.__pwned=1</script>',
      "#v1/sinusoidal?dim='<img src=x onerror=window.__pwned=1>'",
      '#v1/sinusoidal?layout=\'<svg onload="window.__pwned=1">\'',
      '#v1/<svg><script>window.__pwned=1</script></svg>',
      "#v1/attention?content=tokens&length=1&tokens='<img src=x onerror=window.__pwned=1>'",
      '#v1/sinusoidal?~x.__proto__=(polluted:1)',
      '#v1/rope?rope_scaling=(__proto__:(polluted:!t))',
      '#v1/__proto__',
      '#v1/sinusoidal?dim=1e999',
      '#v1/sinusoidal?dim=99999999999999999999',
      '#v7/sinusoidal?dim=8',
      `#v1/sinusoidal?dim=${'!('.repeat(50000)}`,
      `#${'junk'.repeat(2 ** 18)}`,
      '#javascript:window.__pwned=1',
    ];
    for (const [i, payload] of payloads.entries()) {
      // A link to a known kind with one bad parameter opens without it (and says so); any other
      // damage changes nothing. Either way no script runs and a notice names the problem.
      const partial = decodePermalink(payload).status === 'ok';
      await page.evaluate((h) => { location.hash = h; }, payload);
      await page.waitForSelector('#link-notice:not([hidden])');
      const notice = await page.textContent('#link-notice');
      expect(notice.length, payload.slice(0, 60)).toBeGreaterThan(10);
      if (i === 0) await page.screenshot({ path: path.join(ARTIFACTS, 'share-notice.png'), clip: { x: 0, y: 0, width: 1280, height: 420 } });
      await settle(page);
      if (partial) {
        expect(notice, payload.slice(0, 60)).toMatch(/^Part of this link could not be used: /);
        const shown = decodePermalink(await page.evaluate(() => location.hash));
        expect(shown.status).toBe('ok');
        expect(shown.dropped).toEqual([]); // the address bar holds what is shown, all of it valid
        const n = await renders(page);
        await page.evaluate((h) => { location.hash = h; }, good);
        await page.waitForFunction((k) => Number(document.getElementById('main').dataset.renders) > k, n);
        await settle(page);
      } else {
        expect(await page.evaluate(() => location.hash), payload.slice(0, 60)).toBe(good); // the address bar is put back
      }
      expect((await canvasStats(page, HEATMAP)).hash).toBe(picture.hash);
      expect(await page.inputValue('#f-sinusoidal-dim')).toBe('32');
      if (await page.isVisible('#link-notice')) await page.click('#link-notice button');
      expect(await page.isVisible('#link-notice')).toBe(false);
      expect(await page.evaluate(() => window.__pwned)).toBeUndefined();
    }
    // A valid link whose text holds markup: shown as text wherever it appears.
    const before = await renders(page);
    await page.evaluate(() => { location.hash = "#v1/attention?content=tokens&length=4&tokens='<img src=x onerror=window.__pwned=1> <b>hi</b>'"; });
    await page.waitForFunction(() => document.getElementById('main').dataset.kind === 'attention');
    await page.waitForFunction((k) => Number(document.getElementById('main').dataset.renders || 0) > k, before);
    await page.waitForFunction(() => document.querySelector('#view-attention-sentence .view-body')?.dataset.drawn);
    await settle(page);
    const result = await page.evaluate(() => {
      const all = [document, ...[...document.querySelectorAll('*')].filter((e) => e.shadowRoot).map((e) => e.shadowRoot)];
      return {
        pwned: window.__pwned,
        polluted: ({}).polluted,
        injected: all.reduce((n, r) => n + r.querySelectorAll('img[src="x"], b, svg[onload], script:not([type]):not([src])').length, 0),
      };
    });
    expect(result).toEqual({ pwned: undefined, polluted: undefined, injected: 0 });
    expect(log.pageErrors).toEqual([]);
    expect(log.external).toEqual([]);
    await context.close();
  });

  it('a damaged link on load: the defaults and a notice, never a blank page', async () => {
    for (const hash of ['#v1/<img src=x onerror=window.__pwned=1>', '#v3/rope?dim=8', '#v1/sinusoidal?dim=0']) {
      const { context, page, log } = await open(`${session.server.url}${hash}`);
      expect(await page.isVisible('#link-notice')).toBe(true);
      // A bad field of a known kind is dropped and named; a broken link shows the defaults.
      expect(await page.textContent('#link-notice')).toMatch(hash.includes('dim=0') ? /^Part of this link could not be used: dim/ : /Showing the defaults instead\./);
      expect(await page.evaluate(() => document.getElementById('main').dataset.kind)).toBe('sinusoidal');
      expect((await canvasStats(page, HEATMAP)).distinct).toBeGreaterThan(20);
      expect(await page.evaluate(() => window.__pwned)).toBeUndefined();
      expect(log.pageErrors).toEqual([]);
      await context.close();
    }
  });

  it('a link\'s notice goes when the route moves to another page (#arena, #learn/…), and stays away coming back', async () => {
    for (const [hash, to] of [['#v1/sinusoidal?dim=0', '#arena'], ['#v3/rope?dim=8', '#learn/rope'], ['#v1/sinusoidal?dim=0', '#learn']]) {
      const { context, page, log } = await open(`${session.server.url}${hash}`);
      expect(await page.isVisible('#link-notice'), hash).toBe(true);
      // The explorer puts its own state back in the address bar (250 ms after load): wait for it,
      // or the history entry Back returns to is still the damaged link, whose notice then shows again.
      await page.waitForFunction(() => document.documentElement.dataset.link === 'written');
      await page.evaluate((h) => { location.hash = h; }, to);
      const page_ = to.slice(1).split('/')[0];
      await page.waitForFunction((p) => document.documentElement.dataset.page === p, page_);
      expect(await page.isVisible('#link-notice'), `${hash} → ${to}`).toBe(false);
      // Back to the explorer with the browser history: the page the link opened, no notice.
      await page.goBack();
      await page.waitForFunction(() => !document.documentElement.dataset.page);
      expect(await page.isVisible('#link-notice'), `${hash} → ${to} → back`).toBe(false);
      expect(log.pageErrors).toEqual([]);
      await context.close();
    }
  });

  it('exports the heatmap (PNG), the curves (PNG, SVG), the tensor (CSV, .npy) and code', async () => {
    const { context, page, log } = await open(`${session.server.url}#v1/rope?length=64&dim=32&~tf=sin`);
    await waitDrawn(page, '#view-lines');
    await inSight(page, '#view-share', () => page.waitForSelector('#view-share .view-body[data-ready="true"] .share-code-text'));
    await page.locator('#view-share').screenshot({ path: path.join(ARTIFACTS, 'share-view.png') });
    const save = async (key) => {
      const [dl] = await Promise.all([page.waitForEvent('download'), page.click(`#view-share [data-export="${key}"]`)]);
      // Read through a stream: the suite's Chromium is the run's shared one, over a connection,
      // where a download has no local path.
      const chunks = [];
      for await (const chunk of await dl.createReadStream()) chunks.push(chunk);
      return { name: dl.suggestedFilename(), buf: Buffer.concat(chunks) };
    };
    const hm = await save('heatmapPng');
    expect(hm.name).toBe('rope-length64-dim32-heatmap.png');
    const hs = pngSize(hm.buf);
    expect(hs.width).toBe(1520);
    expect(hs.height).toBeGreaterThan(400);
    const lp = await save('linesPng');
    expect(pngSize(lp.buf)).toEqual({ width: 1520, height: 880 });
    const svg = await save('linesSvg');
    const svgText = svg.buf.toString('utf8');
    expect(svgText).toMatch(/^<\?xml[^>]*>\s*<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect((svgText.match(/<path /g) ?? []).length).toBe(5); // the five default curves
    expect(svgText).toContain('sin(angle)');
    const result = pe.compute({ kind: 'rope', length: 64, dim: 32 });
    const npy = readNpy((await save('npy')).buf);
    expect(npy.header).toContain("'descr': '<f4', 'fortran_order': False, 'shape': (64, 16)");
    expect(npy.shape).toEqual([64, 16]);
    expect(Buffer.from(npy.data.buffer).equals(Buffer.from(result.data.buffer))).toBe(true);
    const csv = (await save('csv')).buf.toString('utf8').trim().split('\n');
    expect(csv[0]).toMatch(/^# shape 64x16; PE Lab rope: http/);
    expect(csv.length).toBe(65);
    const row3 = csv[4].split(',').map(Number);
    for (let c = 0; c < 16; c++) expect(Math.fround(row3[c])).toBe(result.data[3 * 16 + c]);
    // Copy as code: PyTorch, to the clipboard.
    await page.click('#view-share label:has-text("PyTorch")');
    await page.click('#view-share button:has-text("Copy code")');
    await page.waitForFunction(() => document.querySelector('#view-share .share-status')?.textContent);
    const code = await page.evaluate(() => navigator.clipboard.readText());
    const expected = codeFor(result.spec, 'torch', { link: 'X', result }).code;
    const strip = (s) => s.split('\n').filter((l) => !l.startsWith('# http') && l !== '# X').join('\n');
    expect(strip(code)).toBe(strip(expected));
    // Embed snippets.
    await page.click('#view-share label:has-text("iframe")');
    const iframe = await page.textContent('#view-share .share-embed-code');
    expect(iframe).toMatch(/^<iframe src="http:\/\/127\.0\.0\.1:\d+\/\?embed#v1\/rope\?length=64&amp;dim=32&amp;~tf=sin"/);
    await page.click('#view-share label:has-text("Web component")');
    const element = await page.textContent('#view-share .share-embed-code');
    expect(element).toContain('/dist/pe-plot.js"></script>');
    expect(element).toContain('<pe-plot kind="rope" length="64" dim="32" transform="sin"></pe-plot>');
    expect(log.external).toEqual([]);
    expect(log.pageErrors).toEqual([]);
    await context.close();
  });

  it('?embed shows the figure alone, links back, and can be framed by another site (strict CSP kept)', async () => {
    const hash = '#v1/alibi?length=32&~map=cividis&~head=2';
    const res = await fetch(`${session.server.url}?embed`);
    const csp = res.headers.get('content-security-policy');
    expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
    expect(csp).toContain('frame-ancestors *');
    expect(csp).toContain("default-src 'self'");
    expect((await fetch(session.server.url)).headers.get('content-security-policy')).toContain("frame-ancestors 'none'");

    const { context, page, log } = await open(`${session.server.url}?embed${hash}`, { viewport: { width: 760, height: 620 } });
    await waitDrawn(page, '#view-lines');
    const ids = await page.$$eval('#views > section', (s) => s.map((x) => x.id));
    expect(ids).toEqual(['view-heatmap', 'view-lines']);
    for (const sel of ['.site-header', '.catalogue', '.controls', '.site-footer']) expect(await page.isVisible(sel), sel).toBe(false);
    const back = await page.getAttribute('#open-full', 'href');
    expect(back).toBe(`${session.server.url}${hash}`);
    expect((await canvasStats(page, HEATMAP)).distinct).toBeGreaterThan(5);
    await page.screenshot({ path: path.join(ARTIFACTS, 'share-embed.png') });
    expect(log.external).toEqual([]);
    expect(log.consoleErrors).toEqual([]);
    await context.close();

    // A page on another origin frames it.
    hostPage = `<!doctype html><title>host</title><p>A post on another site.</p><iframe id="f" src="${session.server.url}?embed${hash}" width="760" height="620"></iframe>`;
    const host = await session.browser.newContext({ viewport: { width: 900, height: 760 } });
    const hp = await host.newPage();
    await hp.goto(`${other.url}host.html`);
    const frame = await (await hp.waitForSelector('#f')).contentFrame();
    await frame.waitForFunction(() => document.documentElement.dataset.state === 'ready');
    expect(await frame.evaluate(() => document.querySelectorAll('#view-heatmap canvas').length)).toBeGreaterThan(0);
    await hp.screenshot({ path: path.join(ARTIFACTS, 'share-embed-iframe.png') });
    await host.close();
  });

  it('<pe-plot> example page: renders, shares one WebAssembly instance, no style leaks either way', async () => {
    const context = await session.browser.newContext({ viewport: { width: 900, height: 900 }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    const log = await watchPage(page, new URL(session.server.url).origin);
    const requests = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(`${session.server.url}embed-example.html`);
    await page.waitForFunction(() => ['fig-sin', 'fig-rope', 'fig-bad'].every((id) => document.getElementById(id)?.dataset.state));
    const states = await page.$$eval('pe-plot', (els) => els.map((e) => [e.id, e.dataset.state]));
    expect(states).toEqual([['fig-sin', 'ready'], ['fig-rope', 'ready'], ['fig-bad', 'error']]);
    // One module fetched, one instance shared.
    expect(requests.filter((u) => u.endsWith('.wasm'))).toHaveLength(1);
    expect(await page.evaluate(() => window.PePlot.engineLoads)).toBe(1);
    expect(await page.evaluate(async () => {
      const [a, b] = [document.getElementById('fig-sin'), document.getElementById('fig-rope')];
      return a.pe === b.pe && a.pe === await window.PePlot.engine();
    })).toBe(true);
    // Pictures in the shadow roots.
    const shadowStats = (id, sel) => page.evaluate(([i, s]) => {
      const c = document.getElementById(i).shadowRoot.querySelector(s);
      if (!c) return null;
      const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      const colours = new Set();
      for (let k = 0; k < px.length; k += 4) colours.add((px[k] << 16) | (px[k + 1] << 8) | px[k + 2]);
      return { width: c.width, height: c.height, distinct: colours.size };
    }, [id, sel]);
    expect(await shadowStats('fig-sin', 'canvas.hm-canvas')).toMatchObject({ width: 32, height: 64 });
    expect((await shadowStats('fig-rope', 'canvas.hm-canvas')).distinct).toBeGreaterThan(20);
    expect(await page.evaluate(() => document.getElementById('fig-sin').shadowRoot.querySelectorAll('.pp-lines svg path').length)).toBe(4);
    expect(await page.evaluate(() => document.getElementById('fig-rope').shadowRoot.querySelector('.pp-lines').hidden)).toBe(true);
    expect(await page.evaluate(() => document.getElementById('fig-rope').shadowRoot.querySelector('.hm-xlabel').textContent)).toBe('주파수 쌍');
    expect(await page.evaluate(() => document.getElementById('fig-bad').shadowRoot.querySelector('.pp-error').textContent))
      .toMatch(/^dim must be an even integer/);
    // The page's styles do not get in …
    const inside = await page.evaluate(() => {
      const r = document.getElementById('fig-sin').shadowRoot;
      const cs = (el) => getComputedStyle(el);
      return {
        font: cs(r.querySelector('.pp-title')).fontFamily,
        transform: cs(r.querySelector('.pp-title')).textTransform,
        color: cs(r.querySelector('.pp-title')).color,
        canvasBorder: cs(r.querySelector('canvas.hm-canvas')).borderTopStyle,
        svgBorder: cs(r.querySelector('.pp-lines svg')).borderTopStyle,
        svgOpacity: cs(r.querySelector('.pp-lines svg')).opacity,
        button: cs(r.querySelector('button.hm-tool')).backgroundColor,
      };
    });
    expect(inside.font).not.toMatch(/Georgia/);
    expect(inside.transform).toBe('none');
    expect(inside.color).toBe('rgb(26, 32, 48)');
    expect(inside.canvasBorder).toBe('none');
    expect(inside.svgBorder).toBe('none');
    expect(inside.svgOpacity).toBe('1');
    expect(inside.button).not.toBe('rgb(0, 128, 128)');
    expect(inside.button).not.toBe('rgb(0, 128, 0)');
    // … and the figures' styles do not get out (same class names on a plain div).
    const outside = await page.evaluate(() => {
      const cs = getComputedStyle(document.getElementById('lookalike'));
      return { color: cs.color, cursor: cs.cursor, border: cs.borderTopStyle, transform: cs.textTransform, bg: cs.backgroundImage };
    });
    expect(outside).toEqual({ color: 'rgb(200, 0, 0)', cursor: 'auto', border: 'none', transform: 'uppercase', bg: 'none' });
    await page.screenshot({ path: path.join(ARTIFACTS, 'share-example.png'), fullPage: true });

    // Attribute changes redraw; a bad attribute shows an inline error; fixing it recovers.
    const sin = page.locator('#fig-sin');
    await sin.evaluate((e) => e.setAttribute('dim', '16'));
    await page.waitForFunction(() => document.getElementById('fig-sin').shadowRoot.querySelector('canvas.hm-canvas').width === 16);
    for (const [name, value, msg] of [['dim', 'abc', /dim must be a whole number/], ['layout', 'diagonal', /layout must be one of/],
      ['colormap', 'hotpink', /colormap must be one of/], ['dimm', '3', /unknown attribute "dimm"/], ['rope_scaling', '{oops', /unknown attribute|JSON/],
      ['kind', '<img src=x onerror=window.__pwned=1>', /kind must be one of/]]) {
      await sin.evaluate((e, [n, v]) => e.setAttribute(n, v), [name, value]);
      await page.waitForFunction(() => document.getElementById('fig-sin').dataset.state === 'error');
      expect(await page.evaluate(() => document.getElementById('fig-sin').shadowRoot.querySelector('.pp-error').textContent), name).toMatch(msg);
      await sin.evaluate((e, n) => (n === 'kind' ? e.setAttribute('kind', 'sinusoidal') : e.removeAttribute(n)), name);
      await page.waitForFunction(() => document.getElementById('fig-sin').dataset.state === 'ready');
    }
    expect(await page.evaluate(() => [window.__pwned, window.PePlot.engineLoads])).toEqual([undefined, 1]);
    // A figure added later uses the same instance.
    await page.evaluate(() => document.querySelector('article').insertAdjacentHTML('beforeend', '<pe-plot id="late" kind="alibi" length="16" heads="4" head="3" view="heatmap"></pe-plot>'));
    // A figure renders when it comes near the screen (tests/browser/pe-plot.test.js): scroll to it.
    await inSight(page, '#late', () => page.waitForFunction(() => document.getElementById('late')?.dataset.state === 'ready'));
    expect(await page.evaluate(() => window.PePlot.engineLoads)).toBe(1);
    expect(requests.filter((u) => u.endsWith('.wasm'))).toHaveLength(1);
    expect(log.external).toEqual([]);
    expect(log.pageErrors).toEqual([]);
    expect(log.consoleErrors).toEqual([]); // no CSP violation under the page's strict policy
    await context.close();
  });

  it('the offline single file works from file:// with no request at all, under its own strict CSP', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pe-offline-'));
    try {
      const out = path.join(dir, 'pe-lab.html');
      const built = await buildOffline({ webDir: WEB, outFile: out });
      console.log(`offline single file: ${(built.bytes / 1024).toFixed(0)} KiB`);
      const html = readFileSync(out, 'utf8');
      const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)[1];
      expect(meta).toMatch(/default-src 'none'/);
      expect(meta).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+' 'wasm-unsafe-eval'/);
      expect(meta).not.toMatch(/unsafe-inline|https?:|\*/);
      const markup = html.replace(/<script type="(module|application\/wasm)"[^>]*>[\s\S]*?<\/script>/g, '').replace(/<style>[\s\S]*?<\/style>/g, '');
      expect(markup).not.toMatch(/<script|<link rel="stylesheet"|<link rel="(module)?preload"/);
      const context = await session.browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
      const page = await context.newPage();
      const requests = [];
      const errors = [];
      context.on('request', (r) => requests.push(r.url()));
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      page.on('pageerror', (e) => errors.push(String(e)));
      await context.route('**/*', (route) => {
        const u = route.request().url();
        return u.startsWith('file:') || u.startsWith('blob:') || u.startsWith('data:') ? route.continue() : route.abort();
      });
      const url = `${pathToFileURL(out).href}#v1/sinusoidal?dim=48&~lang=ko`;
      await gotoApp(page, url);
      await waitDrawn(page, '#view-lines');
      await page.waitForFunction(() => document.querySelector('#view-properties .view-body')?.dataset.done);
      expect(await canvasStats(page, HEATMAP)).toMatchObject({ width: 48, height: 128 });
      expect((await canvasStats(page, '#view-lines .chart-box canvas')).painted).toBeGreaterThan(500);
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('ko');
      await page.screenshot({ path: path.join(ARTIFACTS, 'share-offline.png') });
      // Another kind, a second worker, a view's own stylesheet.
      const before = await page.evaluate(() => Number(document.getElementById('main').dataset.renders || 0));
      await page.click('#catalogue a[data-kind="alibi"]');
      await page.waitForFunction(() => document.getElementById('main').dataset.kind === 'alibi');
      await page.waitForFunction((k) => Number(document.getElementById('main').dataset.renders || 0) > k, before);
      await nextFrames(page);
      expect((await canvasStats(page, HEATMAP)).distinct).toBeGreaterThan(5);
      // The Arena trains in workers started from blob: URLs, each with the module from the page.
      await page.evaluate(() => { location.hash = '#arena?task=copy&enc=learned,rope&len=4&min=4&steps=20&seed=1&seeds=1'; });
      await page.waitForFunction(() => document.documentElement.dataset.pageState === 'ready' && !!document.querySelector('.arena'));
      await page.click('.arena-primary');
      await page.waitForFunction(() => document.querySelector('.arena')?.dataset.state === 'done');
      const jobs = await page.evaluate(() => document.querySelector('.arena').arenaResults().jobs.map((j) => [j.enc, j.state, j.steps]));
      expect(jobs).toEqual([['learned', 'done', 20], ['rope', 'done', 20]]);
      const remote = requests.filter((u) => !u.startsWith('blob:') && !u.startsWith('data:'));
      expect(remote).toEqual([pathToFileURL(out).href]);
      expect(errors).toEqual([]);
      await context.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// Regression tests for the audit's findings that live in the page (the Node ones are in
// tests/hardening.test.js): a tap reads out the tapped cell, one bad field of a link is dropped
// and named, a refused file does not stay "being read", a .safetensors file with a repeated name
// or overlapping ranges is refused without offering a choice, the consistency note follows its numbers,
// and the offline single file offers embed snippets that can work.
import { describe, it, expect } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildOffline } from '../../scripts/build-offline.js';
import { WEB, suiteAvailability, gotoApp, nextFrames, watchPage, screenshot, canvasStats, logProblems, waitViewSet, inSight } from '../helpers/browser.js';
import { useBrowser } from '../helpers/browser-suite.js';

const avail = suiteAvailability('hardening.test');

describe.skipIf(avail.skip)('hardening, in the page (Chromium)', () => {
  const session = useBrowser({ avail });

  async function open(hash, options = {}) {
    const context = await session.browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1, locale: 'en-US', ...options });
    const page = await context.newPage();
    const log = await watchPage(page, new URL(session.server.url).origin);
    await gotoApp(page, `${session.server.url}${hash}`);
    return { context, page, log };
  }

  it('9: a tap on the heatmap reads out the tapped cell, not position 0', async () => {
    const { context, page, log } = await open('#v1/sinusoidal?length=16&dim=16', { hasTouch: true, isMobile: true, viewport: { width: 390, height: 844 } });
    const plot = page.locator('#view-heatmap .hm-plot');
    await plot.scrollIntoViewIfNeeded();
    const box = await plot.boundingBox();
    // Row 12, column 9 of a 16 × 16 table: the centre of that cell.
    await page.touchscreen.tap(box.x + (9.5 / 16) * box.width, box.y + (12.5 / 16) * box.height);
    await page.waitForFunction(() => /position 12 · dimension 9/.test(document.querySelector('#view-heatmap .hm-readout').textContent));
    expect(await page.textContent('#view-heatmap .hm-readout')).toMatch(/^position 12 · dimension 9 → /);
    await context.close();
    expect(log.pageErrors).toEqual([]);
  });

  it('10: a link with one bad field opens its kind with every good field, and names the one it dropped', async () => {
    const { context, page, log } = await open('#v1/rope?dim=abc&base=500000&length=64');
    expect(await page.evaluate(() => document.getElementById('main').dataset.kind)).toBe('rope');
    expect(await page.inputValue('#f-rope-base')).toBe('500000');
    expect(await page.inputValue('#f-rope-length')).toBe('64');
    expect(await page.inputValue('#f-rope-dim')).toBe('128');
    await page.waitForSelector('#link-notice:not([hidden])');
    expect(await page.textContent('#link-notice')).toMatch(/^Part of this link could not be used: dim \(dim must be an integer in \[2, 16384\], got "abc"/);
    await context.close();
    expect(log.pageErrors).toEqual([]);
  });

  it('10, in Korean: the notice says in Korean which field was dropped and why', async () => {
    const { context, page, log } = await open('#v1/rope?dim=abc&base=500000&length=64&~lang=ko', { locale: 'ko-KR' });
    await page.waitForSelector('#link-notice:not([hidden])');
    const text = await page.textContent('#link-notice .link-notice-text');
    expect(text).toBe('링크의 일부를 쓸 수 없었습니다: dim(2 이상 16384 이하의 정수여야 합니다. 링크의 값은 “abc”입니다). '
      + '그 설정은 기본값으로 두고, 나머지는 링크대로 보여 줍니다.');
    expect(text).not.toMatch(/must|got|integer|a string/);
    expect(await page.inputValue('#f-rope-base')).toBe('500000');
    await screenshot(page, 'hardening-10-korean-notice', '#link-notice');
    // A link refused whole (not a PE Lab link): the reason in Korean too.
    await page.evaluate(() => { location.hash = '#%3F%3F%3F'; });
    await page.waitForFunction(() => /PE Lab 링크 형식이 아닙니다/.test(document.querySelector('#link-notice')?.textContent ?? ''));
    expect(await page.textContent('#link-notice .link-notice-text')).toBe('링크가 손상되었습니다: PE Lab 링크 형식이 아닙니다: “???”. 화면은 그대로입니다.');
    await context.close();
    expect(log.pageErrors).toEqual([]);
  });

  it('14: after a refused file, the load view no longer says it is reading it', async () => {
    const { context, page } = await open('#v1/learned?length=32&dim=16');
    await page.locator('#view-load').scrollIntoViewIfNeeded();
    await page.setInputFiles('#view-load input[type=file]', { name: 'bad.npy', mimeType: 'application/octet-stream', buffer: Buffer.from('not a numpy file') });
    await page.waitForSelector('#view-load .field-error:not([hidden])');
    const status = await page.locator('#view-load .view-body').evaluate((el) => [...el.querySelectorAll('p, output, [role=status]')].map((p) => p.textContent).join(' | '));
    expect(status).not.toMatch(/Reading bad\.npy/);
    expect(status).toMatch(/bad\.npy could not be used/);
    await context.close();
  });

  it('8: a .safetensors file with a repeated name or overlapping ranges is refused; the last good table stays', async () => {
    const { context, page, log } = await open('#v1/learned?length=32&dim=16');
    /** A .safetensors file: 8-byte little-endian header length, the JSON header, the data. */
    const safetensors = (header, values) => {
      const text = Buffer.from(header, 'utf8');
      const length = Buffer.alloc(8);
      length.writeBigUInt64LE(BigInt(text.length));
      return Buffer.concat([length, text, Buffer.from(new Float32Array(values).buffer)]);
    };
    const entry = (rows, cols, begin) => `{"dtype":"F32","shape":[${rows},${cols}],"data_offsets":[${begin},${begin + 4 * rows * cols}]}`;
    const choose = (name, buffer) => page.setInputFiles('#view-load input[type=file]', { name, mimeType: 'application/octet-stream', buffer });
    const loaded = () => page.textContent('.loaded-note .loaded-text');
    await page.locator('#view-load').scrollIntoViewIfNeeded();

    // A good file with two tensors: the view picks wpe.weight and the page shows it.
    await choose('good.safetensors', safetensors(`{"wte.weight":${entry(2, 2, 0)},"wpe.weight":${entry(3, 2, 16)}}`, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]));
    await page.waitForFunction(() => !document.querySelector('.loaded-note').hidden);
    expect(await loaded()).toContain('good.safetensors · wpe.weight [3 × 2, float32]');
    const renders = await page.evaluate(() => document.getElementById('main').dataset.renders);

    for (const [name, header, values, refusal] of [
      ['repeated.safetensors', `{"wpe.weight":${entry(1, 2, 0)},"wpe.weight":${entry(1, 2, 8)}}`, [1, 2, 3, 4],
        'the tensor name "wpe.weight" appears 2 times in the .safetensors header'],
      ['overlap.safetensors', `{"wte.weight":${entry(2, 2, 0)},"wpe.weight":${entry(2, 2, 8)}}`, [1, 2, 3, 4, 5, 6],
        'tensor "wpe.weight": data_offsets [8, 24] overlap those of tensor "wte.weight" [0, 16]'],
    ]) {
      await choose(name, safetensors(header, values));
      await page.waitForFunction((text) => {
        const error = document.querySelector('#view-load .field-error');
        return !error.hidden && error.textContent.includes(text);
      }, refusal);
      // No tensor is offered to choose from, the status says the file was refused, and the
      // explorer still shows the last good table.
      expect(await page.locator('#view-load select').isVisible()).toBe(false);
      expect(await page.textContent('#view-load .view-body')).toContain(`${name} could not be used`);
      expect(await loaded()).toContain('good.safetensors · wpe.weight [3 × 2, float32]');
      expect(await page.evaluate(() => document.getElementById('main').dataset.renders)).toBe(renders);
    }
    await screenshot(page, 'hardening-8-refused-safetensors', '#view-load');
    await context.close();
    expect(log.pageErrors).toEqual([]);
  });

  it('26 §4: a .npy of tiny, subnormal or huge values is drawn in its own colours, not the last file\'s', async () => {
    // Before: such a file said "Loaded …" while the heatmap kept the previous file's picture and
    // colour bar (float32 could not hold its colour range: "vmax … status 106", logged and dropped).
    const { context, page, log } = await open('#v1/learned?length=32&dim=16');
    /** A .npy v1.0 file of a float32 [rows, cols] table (C order). */
    const npy = (values, rows, cols) => {
      let header = `{'descr': '<f4', 'fortran_order': False, 'shape': (${rows}, ${cols}), }`;
      header = header.padEnd(header.length + ((64 - ((11 + header.length) % 64)) % 64), ' ') + '\n';
      const head = Buffer.alloc(10);
      Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]).copy(head);
      head.writeUInt16LE(header.length, 8);
      return Buffer.concat([head, Buffer.from(header, 'latin1'), Buffer.from(Float32Array.from(values).buffer)]);
    };
    const [rows, cols] = [6, 4];
    const ramp = (lo, hi) => Array.from({ length: rows * cols }, (_, i) => lo + ((hi - lo) * i) / (rows * cols - 1));
    const HM = '#view-heatmap';
    const picture = async () => ({
      canvas: await canvasStats(page, `${HM} canvas.hm-canvas`),
      ticks: await page.textContent(`${HM} .hm-cbar-ticks`),
      aria: await page.getAttribute(`${HM} .hm-plot`, 'aria-label'),
    });
    await page.locator('#view-load').scrollIntoViewIfNeeded();
    let last = null;
    for (const [name, values, tick] of [
      ['ordinary.npy', ramp(-1, 1), /^−1(.0)?\b/],
      ['tiny.npy', ramp(1e-39, 4e-39), /e−39/],
      ['subnormal.npy', ramp(0, 3.2e-44), /e−44|e−45/],
      ['huge.npy', ramp(-3e38, 3e38), /e38/],
    ]) {
      await page.setInputFiles('#view-load input[type=file]', { name, mimeType: 'application/octet-stream', buffer: npy(values, rows, cols) });
      await page.waitForFunction((n) => document.querySelector('.loaded-note .loaded-text')?.textContent.includes(n), name);
      await inSight(page, HM, () => page.waitForFunction(([sel, n]) => document.querySelector(`${sel} .hm-plot`)?.getAttribute('aria-label') !== n, [HM, last?.aria ?? '']));
      await nextFrames(page);
      const now = await picture();
      // Its own colour bar and picture: a ramp over the whole map (not the last file's, not flat).
      expect(now.ticks, name).toMatch(tick);
      expect(now.canvas.distinct, name).toBeGreaterThanOrEqual(rows * cols - 2);
      if (last) expect(now.ticks, name).not.toBe(last.ticks);
      expect(await page.textContent('#view-load .view-body'), name).not.toMatch(/could not be used/);
      last = now;
      await page.locator('#view-load').scrollIntoViewIfNeeded();
    }
    await context.close();
    expect(logProblems(log)).toEqual({});
  });

  it('26 §4: a heatmap that colours in JS (no pe.heatmap) draws tiny and huge tables too', async () => {
    // The compare, similarity and arena views colour through pe.colorize, which works in float32:
    // before, a range of 1e-39 … 4e-39 or ±3e38 threw there and the view kept its last picture.
    const { context, page, log } = await open('#v1/sinusoidal?length=16&dim=16');
    // (The modules are imported by the page; an import() in this file would be Vitest's own.)
    await page.evaluate(`Promise.all([import('./plot/heatmap.js'), import('./pe.js')])
      .then(async ([{ Heatmap }, { createPE }]) => { window.hmTest = { Heatmap, pe: await createPE() }; })`);
    const drawn = await page.evaluate(async () => {
      const { Heatmap, pe } = window.hmTest;
      const box = document.createElement('div');
      box.style.cssText = 'width: 240px; height: 180px';
      document.body.append(box);
      const hm = new Heatmap(box, { colorize: (v, o) => pe.colorize(v, o), t: (key) => key, axes: { x: 'x', y: 'y', value: 'v' } });
      const out = {};
      for (const [name, lo, hi] of [['tiny', 1e-39, 4e-39], ['subnormal', 0, 3.2e-44], ['huge', -3e38, 3e38], ['ordinary', -1, 1]]) {
        const data = Float32Array.from({ length: 24 }, (_, i) => lo + ((hi - lo) * i) / 23);
        hm.setData({ data, rows: 6, cols: 4 });
        const c = hm.canvas;
        const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        const colours = new Set();
        for (let i = 0; i < px.length; i += 4) colours.add(`${px[i]},${px[i + 1]},${px[i + 2]},${px[i + 3]}`);
        out[name] = { distinct: colours.size, ticks: hm.colorbar.ticks.textContent };
      }
      hm.destroy();
      return out;
    });
    for (const [name, tick] of [['tiny', /e−39/], ['subnormal', /e−44|e−45/], ['huge', /e38/], ['ordinary', /0\.5/]]) {
      expect(drawn[name].distinct, name).toBe(24);
      expect(drawn[name].ticks, name).toMatch(tick);
    }
    await context.close();
    expect(logProblems(log)).toEqual({});
  });

  it('12: the relative-consistency note follows the computed verdict', async () => {
    for (const [kind, verdict, note] of [
      ['binary', /^Different lengths/, /differ in length/],
      ['integer', /^Same length/, /are the same vector/],
      ['sinusoidal', /^Same length/, /pointing in different directions/],
    ]) {
      const { context, page } = await open(`#v1/${kind}?length=128&dim=16`);
      const body = page.locator('#view-properties .view-body');
      await waitViewSet(page, '#view-properties', 'done');
      const texts = await body.evaluate((el) => [...el.querySelectorAll('.verdict, .help')].map((p) => p.textContent));
      const i = texts.findIndex((x) => /lengths?:|Same length|Different lengths/.test(x));
      expect(texts[i], kind).toMatch(verdict);
      expect(texts[i + 1], kind).toMatch(note);
      if (kind === 'binary') expect(texts[i + 1]).not.toMatch(/equal length/);
      if (kind === 'integer') expect(texts[i + 1]).not.toMatch(/different directions/);
      await context.close();
    }
  });

  it('11: the offline single file offers embeds that can work, and says how', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pe-offline-'));
    try {
      const out = path.join(dir, 'pe-lab.html');
      await buildOffline({ webDir: WEB, outFile: out });
      const context = await session.browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1, locale: 'en-US' });
      const page = await context.newPage();
      await page.goto(`${pathToFileURL(out).href}#v1/alibi?length=16`);
      await page.waitForFunction(() => document.documentElement.dataset.state === 'ready');
      await page.locator('#view-share').scrollIntoViewIfNeeded();
      await page.click('#view-share label:has-text("Web component")');
      await page.waitForFunction(() => document.querySelector('#view-share .share-embed-code')?.textContent.includes('pe-plot'));
      const code = await page.textContent('#view-share .share-embed-code');
      expect(code).toContain('<script type="module" src="https://your-site.example/pe-lab/dist/pe-plot.js"></script>');
      expect(code).not.toMatch(/file:|dist\/dist/);
      expect(await page.textContent('#view-share')).toMatch(/runs from a file, which no web page can load/);
      await page.click('#view-share label:has-text("iframe")');
      await nextFrames(page);
      expect(await page.textContent('#view-share .share-embed-code')).toMatch(/^<iframe src="https:\/\/your-site\.example\/pe-lab\/\?embed#v1\/alibi/);
      await context.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

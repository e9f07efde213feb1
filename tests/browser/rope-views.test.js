// Browser tests of the rope views (web/views/rope/): wavelengths against the training context,
// the scaling methods compared, the relative property and long-term decay, one pair on the unit
// circle, and "paste your model's config". The real page, the real WebAssembly build, the system
// Chromium. Saves tests/artifacts/rope-*.png.
//   npx vitest run tests/browser/rope-views.test.js
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { suiteAvailability, openPage, screenshot, canvasStats, nextFrames, logProblems, waitDrawn, waitViewData, clickSteady, inSight } from '../helpers/browser.js';
import { createPE } from '../../web/pe.js';
import { sameFreqAtLength } from '../../web/views/rope/common.js';
import { GALLERY } from '../../web/api/models.js';

const VIEWS = ['rope-config', 'rope-gallery', 'rope-wavelengths', 'rope-scaling', 'rope-longrope', 'rope-relative', 'rope-pair'];
const avail = suiteAvailability('rope-views.test');

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : NaN;
};

describe.skipIf(avail.skip)('rope views in Chromium', () => {
  let page;
  let log;
  let close;

  const body = (id) => `#view-${id} .view-body`;
  const drawnCount = (id) => page.evaluate((sel) => Number(document.querySelector(sel)?.dataset.drawn || 0), body(id));
  /** Scrolls a view into sight and waits until it has drawn more than `n` times. */
  async function drawnAfter(id, n = 0) {
    await waitDrawn(page, `#view-${id}`, n);
  }
  const renders = () => page.evaluate(() => Number(document.getElementById('main')?.dataset.renders || 0));
  async function rendersAfter(n) {
    await page.waitForFunction((k) => Number(document.getElementById('main')?.dataset.renders || 0) > k, n);
  }
  const shot = (id, name = id) => screenshot(page, name, `#view-${id}`);
  const text = (sel) => page.textContent(sel);
  /** Waits until the text of `sel` matches `re` (views draw on the next frame, or once scrolled to). */
  async function waitText(sel, re) {
    await inSight(page, sel, () => page.waitForFunction(([s, src, flags]) => new RegExp(src, flags).test(document.querySelector(s)?.textContent ?? ''),
      [sel, re.source, re.flags]));
  }

  beforeAll(async () => {
    ({ page, log, close } = await openPage({ avail, url: '?lang=en#rope' }));
  });

  afterAll(async () => {
    await close?.();
  });

  it('shows every rope view, each drawing something', async () => {
    const ids = await page.$$eval('#views > section', (ss) => ss.map((s) => s.id.replace(/^view-/, '')));
    for (const id of VIEWS) expect(ids, id).toContain(id);
    for (const id of ['rope-wavelengths', 'rope-scaling', 'rope-relative']) {
      await drawnAfter(id);
      const stats = await page.$$eval(`#view-${id} .chart-box canvas`, (cs) => cs.map((c) => {
        const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        const colours = new Set();
        let painted = 0;
        for (let i = 0; i < px.length; i += 4) {
          if (px[i + 3]) painted++;
          colours.add((px[i] << 16) | (px[i + 1] << 8) | px[i + 2]);
        }
        return { painted, distinct: colours.size };
      }));
      expect(stats.length, id).toBe(id === 'rope-relative' ? 2 : 1);
      for (const [i, s] of stats.entries()) {
        expect(s.painted, `${id}: plot ${i}`).toBeGreaterThan(1000);
        expect(s.distinct, `${id}: plot ${i} colours`).toBeGreaterThan(6);
      }
      expect(await page.getAttribute(`#view-${id} .chart-box`, 'aria-label')).toBeTruthy();
      expect(await page.locator(`#view-${id} details.data-table`).count(), `${id}: text alternative`).toBeGreaterThanOrEqual(1);
      await shot(id);
    }
    // Defaults: base 10000, 64 pairs, no training context in the spec (2048 assumed).
    expect(await text('#view-rope-wavelengths .rope-summary')).toMatch(/41 of 64 pairs complete at least one full turn within the training context of 2048 positions/);
    expect(await text('#view-rope-scaling .rope-summary')).toMatch(/No rope_scaling in the parameters: every method is shown with factor 4 over a training context of 2048/);
    // The relative property: the curves for several m coincide to float32 rounding.
    const rel = await text('#view-rope-relative .rope-summary');
    const m = /\(m = ([\d, ]+)\): ([^,]+), ([^ ]+) of the largest score/.exec(rel);
    expect(m, rel).not.toBeNull();
    expect(m[1].split(',').length).toBe(4);
    expect(Number(m[3].replace('−', '-'))).toBeLessThan(1e-5);
    // The pair on the unit circle.
    await page.locator('#view-rope-pair').scrollIntoViewIfNeeded();
    const aria = await page.getAttribute('#view-rope-pair svg', 'aria-label');
    expect(aria).toMatch(/^Unit circle: at position \d+, frequency pair \d+ is turned by/);
    const cx = Number(await page.getAttribute('#view-rope-pair circle.rope-point', 'cx'));
    expect(Number.isFinite(cx)).toBe(true);
    await shot('rope-pair');
    await shot('rope-config');
  });

  it('computes dynamic NTK at any length from a two-row equivalent spec, exactly', async () => {
    // The scaling and relative views rely on it (web/views/rope/common.js); checked here in Node.
    const pe = await createPE();
    let worst = 0;
    for (const [length, mpe, factor] of [[5000, 2048, 4], [300, 128, 2.5], [100, 128, 4], [131072, 8192, 8]]) {
      const spec = { kind: 'rope', length, dim: 128, rope_scaling: { rope_type: 'dynamic', factor }, max_position_embeddings: mpe };
      const a = pe.compute(spec).inv_freq;
      const b = pe.compute(sameFreqAtLength(spec, 2)).inv_freq;
      for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]) / a[i]);
    }
    expect(worst).toBeLessThanOrEqual(1.2e-7);
  });

  it('reacts to rope_scaling: yarn changes the wavelengths and the comparison', async () => {
    const waveBefore = await canvasStats(page, '#view-rope-wavelengths canvas');
    await page.locator('#view-rope-scaling').scrollIntoViewIfNeeded();
    const scaleBefore = await canvasStats(page, '#view-rope-scaling canvas');
    const dw = await drawnCount('rope-wavelengths');
    const ds = await drawnCount('rope-scaling');
    const n = await renders();
    await page.selectOption('#f-rope-rope_scaling-rope_type', 'yarn'); // factor 4 over 32768
    await rendersAfter(n);
    await drawnAfter('rope-scaling', ds);
    expect(await text('#view-rope-scaling .rope-summary')).toMatch(/Current method: yarn \(thick line\), factor 4, training context 32,768/);
    expect((await canvasStats(page, '#view-rope-scaling canvas')).hash).not.toBe(scaleBefore.hash);
    // The factor and context now come from the spec: their boxes are read-only.
    expect(await page.isDisabled('#view-rope-scaling input[id$="-factor"]')).toBe(true);
    await drawnAfter('rope-wavelengths', dw);
    const summary = await text('#view-rope-wavelengths .rope-summary');
    expect(summary).toMatch(/With yarn, every pair stays within the angles seen in training up to 131,072 positions \(4 × the training context\)/);
    expect((await canvasStats(page, '#view-rope-wavelengths canvas')).hash).not.toBe(waveBefore.hash);
    await shot('rope-wavelengths', 'rope-wavelengths-yarn');
    await shot('rope-scaling', 'rope-scaling-yarn');
    // Back to no scaling; the view's own training context then applies (and is shared).
    const m = await renders();
    await page.selectOption('#f-rope-rope_scaling-rope_type', '');
    await rendersAfter(m);
    await page.fill('#view-rope-wavelengths input[type=number]', '4096');
    await waitText('#view-rope-wavelengths .rope-summary', /within the training context of 4096 positions/);
    // The scaling view draws only on screen: bring it there, then its box follows the shared context.
    await inSight(page, '#view-rope-scaling', () => page.waitForFunction(() => document.querySelector('#view-rope-scaling input[id$="-ctx"]')?.value === '4096'));
  });

  it('draws other random q and k on request, still coinciding', async () => {
    const d = await drawnCount('rope-relative');
    const before = await canvasStats(page, '#view-rope-relative canvas');
    await page.click('#view-rope-relative button:has-text("Other random q and k")');
    await drawnAfter('rope-relative', d);
    expect((await canvasStats(page, '#view-rope-relative canvas')).hash).not.toBe(before.hash);
    expect(await text('#view-rope-relative .rope-summary')).toMatch(/e−[6-9] of the largest score/);
  });

  it('turns the pair with the slider, the keyboard and play/pause', async () => {
    const posBox = page.locator('#view-rope-pair input[type=number][id$="-pos"]');
    await posBox.fill('10');
    expect(await page.getAttribute('#view-rope-pair svg', 'aria-label')).toMatch(/at position 10,/);
    await page.focus('#view-rope-pair input[type=range][id$="-pos-range"]');
    await page.keyboard.press('ArrowRight');
    expect(await page.getAttribute('#view-rope-pair svg', 'aria-label')).toMatch(/at position 11,/);
    await page.fill('#view-rope-pair input[type=number][id$="-pair"]', '0');
    expect(await text('#view-rope-pair .rope-readout')).toMatch(/0 and 64 \(half pairing\)/);
    await page.selectOption('#view-rope-pair select', '64');
    const play = page.locator('#view-rope-pair .rope-play');
    await play.click();
    expect(await play.getAttribute('aria-pressed')).toBe('true');
    await page.waitForFunction(() => /at position (1[2-9]|[2-9]\d|\d{3}),/.test(document.querySelector('#view-rope-pair svg').getAttribute('aria-label')));
    await play.click();
    expect(await play.getAttribute('aria-pressed')).toBe('false');
    // Reduced motion: no animation, the steps and the slider remain.
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.waitForFunction(() => document.querySelector('#view-rope-pair .rope-play').disabled);
    expect(await text('#view-rope-pair')).toContain('Animation is off because your system asks for reduced motion');
    await page.emulateMedia({ reducedMotion: 'no-preference' });
  });

  it('sets the parameters from a preset config (Llama 3.1 8B)', async () => {
    await page.locator('#view-rope-config').scrollIntoViewIfNeeded();
    const n = await renders();
    const dw = await drawnCount('rope-wavelengths');
    const ds = await drawnCount('rope-scaling');
    await page.click('#view-rope-config [data-preset="llama-3.1-8b"]');
    await rendersAfter(n);
    expect(await page.inputValue('#f-rope-base')).toBe('500000');
    expect(await page.inputValue('#f-rope-rope_scaling-rope_type')).toBe('llama3');
    expect(await text('#view-rope-config .rope-applied')).toMatch(/Now showing Llama 3\.1 8B/);
    expect(await text('#view-rope-config .rope-applied')).toMatch(/rope_theta/);
    await page.waitForFunction(() => location.hash.includes('base=500000'));
    await shot('rope-config', 'rope-config-llama');
    await drawnAfter('rope-wavelengths', dw);
    expect(await text('#view-rope-wavelengths .rope-summary')).toMatch(/training context of 8192 positions.*With llama3/s);
    await drawnAfter('rope-scaling', ds);
    expect(await text('#view-rope-scaling .rope-summary')).toMatch(/Current method: llama3 \(thick line\), factor 8, training context 8192/);
    await shot('rope-scaling', 'rope-scaling-llama');
  });

  it('says why a config cannot be used and keeps the parameters', async () => {
    await page.locator('#view-rope-config').scrollIntoViewIfNeeded();
    const area = page.locator('#view-rope-config textarea');
    const n = await renders();
    await area.fill('{ "hidden_size": 4096, "num_attention_heads": 32, "rope_theta": 1e6,');
    await page.click('#view-rope-config button:has-text("Use this config")');
    const error = page.locator('#view-rope-config .field-error');
    await error.waitFor({ state: 'visible' });
    expect(await error.textContent()).toMatch(/^This is not valid JSON, so nothing changed\./);
    expect(await area.getAttribute('aria-invalid')).toBe('true');
    await area.fill(JSON.stringify({ hidden_size: 4096, num_attention_heads: 32, rope_scaling: { rope_type: 'linear', factor: -4 } }));
    await area.press('Control+Enter');
    await page.waitForFunction(() => /factor/.test(document.querySelector('#view-rope-config .field-error').textContent));
    expect(await error.textContent()).toMatch(/^This config cannot be used, so nothing changed\..*rope_scaling\.factor/);
    await nextFrames(page);
    expect(await renders()).toBe(n);
    expect(await page.inputValue('#f-rope-base')).toBe('500000');
    expect(await page.isVisible('#view-rope-wavelengths .chart-box')).toBe(true);
    await shot('rope-config', 'rope-config-error');
    // A good one clears the message.
    await area.fill(JSON.stringify({ hidden_size: 2048, num_attention_heads: 16, rope_theta: 10000, max_position_embeddings: 2048 }));
    await page.click('#view-rope-config button:has-text("Use this config")');
    await rendersAfter(n);
    expect(await error.isVisible()).toBe(false);
    expect(await page.inputValue('#f-rope-base')).toBe('10000');
  });

  it('applies what it can of a config and lists every positional key, used or ignored', async () => {
    await page.locator('#view-rope-config').scrollIntoViewIfNeeded();
    const area = page.locator('#view-rope-config textarea');
    // An unknown scaling type: the rest still applies, and the report says what was left out.
    let n = await renders();
    await area.fill(JSON.stringify({ hidden_size: 4096, num_attention_heads: 32, rope_theta: 250000, max_position_embeddings: 8192, sliding_window: 4096, rope_scaling: { rope_type: 'xpos', factor: 4 } }));
    await page.click('#view-rope-config button:has-text("Use this config")');
    await rendersAfter(n);
    expect(await page.inputValue('#f-rope-base')).toBe('250000');
    expect(await page.isVisible('#view-rope-config .field-error')).toBe(false);
    await page.click('#view-rope-config .rope-report summary');
    const rows = await page.$$eval('#view-rope-config .rope-keys tbody tr', (trs) => trs.map((tr) => [tr.querySelector('th').textContent, tr.dataset.used, tr.lastElementChild.textContent]));
    const row = (k) => rows.find((r) => r[0] === k);
    expect(row('rope_theta')[1]).toBe('true');
    expect(row('rope_scaling.rope_type')).toEqual(['rope_scaling.rope_type', 'false', expect.stringMatching(/not a scaling PE Lab computes/)]);
    expect(row('sliding_window')[1]).toBe('false');
    expect(await text('#view-rope-config .rope-report summary')).toMatch(/used, 3 ignored/);
    await shot('rope-config', 'rope-config-report');
    // Gemma 3: the global layers first; the sliding-window layers one click away.
    n = await renders();
    await area.fill(JSON.stringify({ model_type: 'gemma3_text', head_dim: 128, hidden_size: 5376, num_attention_heads: 32, rope_theta: 1000000, rope_local_base_freq: 10000, rope_scaling: { factor: 8, rope_type: 'linear' }, max_position_embeddings: 131072 }));
    await page.click('#view-rope-config button:has-text("Use this config")');
    await rendersAfter(n);
    expect(await page.inputValue('#f-rope-base')).toBe('1000000');
    n = await renders();
    await page.click('#view-rope-config [data-layers="sliding_attention"]');
    await rendersAfter(n);
    expect(await page.inputValue('#f-rope-base')).toBe('10000');
    expect(await page.inputValue('#f-rope-rope_scaling-rope_type')).toBe('');
    // An ALiBi model opens the alibi kind with its head count.
    await area.fill(JSON.stringify({ model_type: 'bloom', n_head: 112, hidden_size: 14336 }));
    await page.click('#view-rope-config button:has-text("Use this config")');
    await page.waitForFunction(() => location.hash.startsWith('#v1/alibi'));
    await page.waitForFunction(() => document.getElementById('f-alibi-heads')?.value === '112');
    await page.goBack();
    await page.waitForSelector('#view-rope-config textarea');
  });

  it('draws LongRoPE\'s per-pair factors, short up to the original context and long past it', async () => {
    await page.locator('#view-rope-longrope').scrollIntoViewIfNeeded();
    await waitViewData(page, '#view-rope-longrope', 'longrope', 'none');
    expect(await text('#view-rope-longrope .rope-summary')).toMatch(/do not use LongRoPE/);
    const n = await renders();
    const d = await drawnCount('rope-longrope');
    await page.click('#view-rope-longrope [data-action=phi35]');
    await rendersAfter(n);
    await waitViewData(page, '#view-rope-longrope', 'longrope', 'short');
    await drawnAfter('rope-longrope', d);
    expect(await page.inputValue('#f-rope-dim')).toBe('96');
    const summary = await text('#view-rope-longrope .rope-summary');
    expect(summary).toMatch(/Length 4096 ≤ original context 4096: the short factors are in use/);
    expect(summary).toMatch(/long_factor by 1\.08 to 64\.84/);
    expect(summary).toMatch(/attention factor 1\.19 = √\(1 \+ ln 32 \/ ln 4096\)/);
    const before = await canvasStats(page, '#view-rope-longrope canvas');
    expect(before.painted).toBeGreaterThan(0);
    await shot('rope-longrope', 'rope-longrope-short');
    const m = await renders();
    await page.fill('#f-rope-length', '4097');
    await rendersAfter(m);
    // The length box is at the top of the page: the view, now off screen, updates when back in sight.
    await waitViewData(page, '#view-rope-longrope', 'longrope', 'long');
    await waitText('#view-rope-longrope .rope-summary', /Length 4097 > original context 4096: the long factors are in use/);
    await shot('rope-longrope', 'rope-longrope-long');
  });

  it('redraws each view after every change', async () => {
    await page.click('#view-rope-config [data-preset="qwen2.5-7b-yarn"]');
    const ids = ['rope-wavelengths', 'rope-scaling', 'rope-relative'];
    const report = [];
    for (const id of ids) {
      await drawnAfter(id, 0);
      const r = await page.evaluate(async (view) => {
        const input = document.getElementById('f-rope-base');
        const el = document.querySelector(`#view-${view} .view-body`);
        const frame = () => new Promise((res) => requestAnimationFrame(() => res()));
        const draws = [];
        const mark = window.__peLab.viewMs[view].length;
        for (let i = 0; i < 6; i++) {
          const before = Number(el.dataset.drawn);
          input.value = String(1000000 + 997 * (i + 1));
          input.dispatchEvent(new Event('input', { bubbles: true }));
          // Kept in sight: views draw only on screen, and the page may still grow above this one.
          while (Number(el.dataset.drawn) === before) {
            const r = el.getBoundingClientRect();
            if (r.bottom < 0 || r.top > window.innerHeight) el.closest('section').scrollIntoView({ block: 'start' });
            await frame();
          }
          draws.push(Number(el.dataset.ms));
        }
        return { draws, updates: window.__peLab.viewMs[view].slice(mark) };
      }, id);
      report.push(`    ${id.padEnd(18)} update() median ${median(r.updates).toFixed(2)} ms, drawing median ${median(r.draws).toFixed(1)} ms (max ${Math.max(...r.draws).toFixed(1)})`);
      expect(r.draws.every(Number.isFinite), `${id} redrew after every change`).toBe(true);
    }
    const pair = await page.evaluate(() => window.__peLab.viewMs['rope-pair'].slice(-6));
    report.push(`    ${'rope-pair'.padEnd(18)} update() median ${median(pair).toFixed(2)} ms (draws at once: one SVG)`);
    console.log(`rope views, per control change (headless Chromium, software rendering):\n${report.join('\n')}`);
  });

  it('names the transformers version YaRN is computed as, and switches to the older one', async () => {
    await page.locator('#view-rope-config').scrollIntoViewIfNeeded();
    let n = await renders();
    await page.click('#view-rope-config [data-preset="qwen2.5-7b-yarn"]');
    await rendersAfter(n);
    await page.locator('#view-rope-scaling').scrollIntoViewIfNeeded();
    await waitText('#view-rope-scaling .rope-summary', /Computed as transformers 4\.56 and later do: factor 4 as given\. Before 4\.56, transformers used max_position_embeddings ÷ original context = 1 instead/);
    await page.waitForFunction(() => document.querySelector('#view-rope-scaling .rope-version')?.dataset.convention === 'since_4.56');
    n = await renders();
    await page.selectOption('#f-rope-rope_scaling-convention', 'before_4.56');
    await rendersAfter(n);
    await page.locator('#view-rope-scaling').scrollIntoViewIfNeeded();
    await waitText('#view-rope-scaling .rope-summary', /Computed as transformers before 4\.56 did: factor = max_position_embeddings ÷ original context = 1/);
    await page.waitForFunction(() => location.hash.includes('before_4.56'));
    await shot('rope-scaling', 'rope-scaling-yarn-before-4.56');
  });

  it('opens gallery models in one click and draws every model\'s bands against its context', async () => {
    await waitViewData(page, '#view-rope-gallery', 'models', GALLERY.length);
    expect(await page.$$eval('#view-rope-gallery .rope-gallery-svg g[data-model]', (gs) => gs.length)).toBe(GALLERY.length);
    // Llama 3.1: some pairs stretched (llama3), some turning fully within 8192.
    const llama = await page.$$eval('#view-rope-gallery g[data-model="llama-3.1-8b"] rect', (rs) => rs.map((r) => r.getAttribute('class')));
    expect(llama.filter((c) => c === 'rope-stretched').length).toBeGreaterThan(0);
    expect(llama.filter((c) => c === 'rope-full').length).toBeGreaterThan(0);
    await shot('rope-gallery', 'rope-gallery');
    let n = await renders();
    await clickSteady(page, '#view-rope-gallery [data-open="deepseek-v3"]');
    await rendersAfter(n);
    expect(await page.inputValue('#f-rope-dim')).toBe('64');
    expect(await page.inputValue('#f-rope-layout')).toBe('interleaved');
    expect(await page.inputValue('#f-rope-rope_scaling-rope_type')).toBe('yarn');
    expect(await text('#view-rope-gallery [role=status]')).toMatch(/Opened DeepSeek-V3 \(MLA\) \(from deepseek-ai\/DeepSeek-V3\)/);
    n = await renders();
    await clickSteady(page, '#view-rope-gallery [data-open="phi-3.5-mini"]');
    await rendersAfter(n);
    expect(await page.inputValue('#f-rope-dim')).toBe('96');
    // An ALiBi model moves the page to the alibi kind; back returns to RoPE.
    await clickSteady(page, '#view-rope-gallery [data-open="bloom"]');
    await page.waitForFunction(() => location.hash.startsWith('#v1/alibi'));
    await page.waitForFunction(() => document.getElementById('f-alibi-heads')?.value === '112');
    await page.goBack();
    await page.waitForSelector('#view-rope-gallery [data-open]');
  });

  it('renders in Korean', async () => {
    await page.click('#lang [lang="ko"]');
    await page.waitForFunction(() => document.documentElement.lang === 'ko');
    // Views mount as they come near the screen: wait for each title.
    await waitText('#view-rope-wavelengths h3', /^파장과 학습 문맥 길이$/);
    await waitText('#view-rope-scaling h3', /^스케일링 방법 비교$/);
    await waitText('#view-rope-relative h3', /^상대 위치, 직접 계산하기$/);
    // Views further down mount as they come near the screen.
    await waitText('#view-rope-pair h3', /^한 쌍이 도는 모습$/);
    await waitText('#view-rope-longrope h3', /^LongRoPE: 쌍마다 다른 배수$/);
    await waitText('#view-rope-gallery h3', /^모델 갤러리: 실제 모델을 나란히$/);
    expect(await text('#view-rope-config h3')).toBe('내 모델의 config 붙여 넣기');
    await page.click('#view-rope-config [data-preset="qwen2.5-7b-yarn"]');
    await waitText('#view-rope-wavelengths .rope-summary', /64개 쌍 중 40개는 학습 문맥 32,768 위치 안에서/);
    expect((await canvasStats(page, '#view-rope-wavelengths canvas')).painted).toBeGreaterThan(1000);
    await shot('rope-wavelengths', 'rope-ko-wavelengths');
    await drawnAfter('rope-relative', 0);
    await shot('rope-relative', 'rope-ko-relative');
    await page.locator('#view-rope-pair').scrollIntoViewIfNeeded();
    await shot('rope-pair', 'rope-ko-pair');
    await page.click('#lang [lang="en"]');
  });

  it('logged no errors and made no outside requests', () => {
    expect(logProblems(log, ['pageErrors', 'consoleErrors', 'external'])).toEqual({});
  });
});

// The Python package python/ (pe_lab) as a researcher gets it: built and installed into a fresh
// virtual environment (pip, no index, no build isolation: Debian's setuptools), the example
// notebook docs/notebook.ipynb executed with nbconvert, and its HTML opened from file:// in
// Chromium with every request off the machine refused: every figure (specs, a NumPy table, a
// PyTorch attention tensor) must paint, from the one copy of the component the notebook carries.
// A second test shows a PyTorch tensor of the user's and compares the values drawn with it.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFile, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { browserAvailability, connectChromium, ROOT, WEB, ARTIFACTS, requireBuild } from '../helpers/browser.js';

const run = promisify(execFile);
const PYTHON = '/usr/bin/python3';
const PKG = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

/** Chromium, and Debian's Python with venv, ipykernel, nbconvert, NumPy and PyTorch (setup.sh test). */
function availability() {
  const browser = browserAvailability();
  const py = spawnSync(PYTHON, ['-c', 'import venv, ipykernel, nbconvert, nbformat, numpy, torch, setuptools, wheel'], { encoding: 'utf8' });
  const pip = spawnSync(PYTHON, ['-m', 'pip', '--version'], { encoding: 'utf8' });
  const missing = [!browser.run && browser.reason,
    py.status !== 0 && `${PYTHON} lacks a module (${(py.stderr || py.error?.message || '').trim().split('\n').pop()}): bash scripts/setup.sh test`,
    pip.status !== 0 && `${PYTHON} has no pip (python3-pip): bash scripts/setup.sh test`].filter(Boolean);
  if (!missing.length) return { skip: false };
  if (process.env.CI) return { skip: false, reason: missing.join('; ') };
  console.warn(`[notebook.test] skipped: ${missing.join('; ')}`);
  return { skip: true };
}
const avail = availability();

describe.skipIf(avail.skip)('the Python package pe_lab in a notebook (nbconvert, Chromium from file://)', () => {
  let dir;
  let venvPython;
  let env;
  let browser;

  beforeAll(async () => {
    if (avail.reason) throw new Error(avail.reason);
    requireBuild(['dist/pe-plot.js', 'wasm/pe_simd.wasm']);
    dir = mkdtempSync(path.join(tmpdir(), 'pe-notebook-'));
    // A copy of python/ (its build files stay out of the repository); PE_LAB_WEB names the build.
    cpSync(path.join(ROOT, 'python'), path.join(dir, 'python'), {
      recursive: true, filter: (src) => !/(^|[/\\])(build|dist|static|[^/\\]*\.egg-info|__pycache__)$/.test(path.relative(path.join(ROOT, 'python'), src)),
    });
    env = {
      ...process.env, PE_LAB_WEB: WEB, PIP_NO_INDEX: '1', PIP_DISABLE_PIP_VERSION_CHECK: '1', PYDEVD_DISABLE_FILE_VALIDATION: '1',
      JUPYTER_PATH: path.join(dir, 'jupyter'), JUPYTER_CONFIG_DIR: path.join(dir, 'jupyter-config'),
      JUPYTER_RUNTIME_DIR: path.join(dir, 'jupyter-runtime'), IPYTHONDIR: path.join(dir, 'ipython'), MPLBACKEND: 'Agg',
    };
    // No pip inside the environment (ensurepip alone took 4 s): Debian's pip installs into it.
    await run(PYTHON, ['-m', 'venv', '--system-site-packages', '--without-pip', path.join(dir, 'venv')], { env });
    venvPython = path.join(dir, 'venv', 'bin', 'python');
    await run(PYTHON, ['-m', 'pip', '--python', venvPython, 'install', '--no-build-isolation', '--no-index', '--quiet', path.join(dir, 'python')], { env, cwd: dir });
    // The notebook's kernel "python3" is this environment's Python (not the system's kernelspec).
    mkdirSync(path.join(dir, 'jupyter', 'kernels', 'python3'), { recursive: true });
    writeFileSync(path.join(dir, 'jupyter', 'kernels', 'python3', 'kernel.json'), JSON.stringify({
      argv: [venvPython, '-Xfrozen_modules=off', '-m', 'ipykernel_launcher', '-f', '{connection_file}'], display_name: 'Python 3 (pe_lab test)', language: 'python',
    }));
    browser = await connectChromium();
  });

  afterAll(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A page from file:// with every other request refused and recorded. */
  async function openFile(file, viewport = { width: 1000, height: 900 }) {
    const context = await browser.newContext({ viewport, deviceScaleFactor: 1, locale: 'en-US' });
    const page = await context.newPage();
    const log = { external: [], pageErrors: [] };
    page.on('pageerror', (e) => log.pageErrors.push(String(e)));
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (/^(file|data|blob):/.test(url)) return route.continue();
      log.external.push(url);
      return route.abort('internetdisconnected');
    });
    await page.goto(pathToFileURL(file).href);
    return { context, page, log };
  }

  /** Scrolls to each <pe-plot> (they draw near the screen) and waits until it is ready or failed. */
  async function waitFigures(page) {
    const n = await page.$$eval('pe-plot', (els) => els.length);
    for (let i = 0; i < n; i++) {
      await page.evaluate((k) => document.querySelectorAll('pe-plot')[k].scrollIntoView({ block: 'center' }), i);
      await page.waitForFunction((k) => ['ready', 'error'].includes(document.querySelectorAll('pe-plot')[k].dataset.state), i);
    }
    return page.$$eval('pe-plot', (els) => els.map((e) => {
      const c = e.shadowRoot.querySelector('canvas.hm-canvas');
      const colours = new Set();
      if (c) {
        const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        for (let i = 0; i < px.length; i += 4) colours.add((px[i] << 16) | (px[i + 1] << 8) | px[i + 2]);
      }
      return {
        state: e.dataset.state, error: e.shadowRoot.querySelector('.pp-error').textContent, colours: colours.size,
        title: e.shadowRoot.querySelector('.pp-title').textContent, curves: e.shadowRoot.querySelectorAll('.pp-lines svg path').length,
        downloads: e.shadowRoot.querySelectorAll('.pp-downloads button').length,
      };
    }));
  }

  it('the example notebook executes; its HTML from file://, offline, paints every figure from one copy of the component', async () => {
    const out = path.join(dir, 'out');
    await run(venvPython, ['-m', 'nbconvert', '--to', 'notebook', '--execute', path.join(ROOT, 'docs', 'notebook.ipynb'), '--output-dir', out, '--output', 'executed'], { env, cwd: dir });
    await run(venvPython, ['-m', 'nbconvert', '--to', 'html', path.join(out, 'executed.ipynb'), '--output-dir', out], { env, cwd: dir });
    const executed = readFileSync(path.join(out, 'executed.ipynb'), 'utf8');
    const nb = JSON.parse(executed);
    const htmlOutputs = nb.cells.flatMap((c) => c.outputs ?? []).map((o) => [].concat(o.data?.['text/html'] ?? []).join('')).filter(Boolean);
    const component = statSync(path.join(WEB, 'dist', 'pe-plot.js')).size;
    console.log(`[notebook] executed.ipynb ${Buffer.byteLength(executed)} bytes; figure outputs ${htmlOutputs.map((h) => Buffer.byteLength(h)).join(', ')} bytes; executed.html ${statSync(path.join(out, 'executed.html')).size} bytes (pe-plot.js ${component}, wasm ${statSync(path.join(WEB, 'wasm', 'pe_simd.wasm')).size})`);
    expect(htmlOutputs.length).toBe(4);
    // The component and its WebAssembly travel once, in the first figure's output.
    expect(htmlOutputs.map((h) => (h.match(/<script type="module">/g) ?? []).length)).toEqual([1, 0, 0, 0]);
    expect(htmlOutputs.map((h) => (h.match(/id="pe-wasm-simd"/g) ?? []).length)).toEqual([1, 0, 0, 0]);
    expect(htmlOutputs.slice(1).every((h) => Buffer.byteLength(h) < 20_000)).toBe(true);

    const { context, page, log } = await openFile(path.join(out, 'executed.html'));
    const figures = await waitFigures(page);
    console.log(`[notebook] ${figures.map((f) => `${f.title}: ${f.state}, ${f.colours} colours, ${f.curves} curves`).join('; ')}`);
    expect(figures.map((f) => [f.state, f.error])).toEqual(Array(4).fill(['ready', '']));
    mkdirSync(ARTIFACTS, { recursive: true });
    for (let i = 0; i < 4; i++) await page.locator('pe-plot').nth(i).screenshot({ path: path.join(ARTIFACTS, `notebook-figure-${i}.png`) });
    // A blank canvas has 1 or 2 colours; the 6 × 6 attention pattern (one pixel a cell) has a few.
    expect(figures.map((f) => f.colours > (f.title.includes('attention') ? 2 : 8))).toEqual([true, true, true, true]);
    expect(figures.map((f) => f.downloads)).toEqual([4, 4, 4, 4]);
    expect(figures.map((f) => f.title)).toEqual(['Rotary (RoPE)', '사인파 (Sinusoidal)', 'my table (NumPy)', 'causal attention (PyTorch)']);
    expect(await page.evaluate(() => ({ loads: globalThis.PePlot.engineLoads, version: globalThis.PePlot.version, modules: document.querySelectorAll('script[type=module]').length }))).toEqual({ loads: 1, version: PKG.version, modules: 1 });
    // The attention figure's read-out names the tokens.
    const attention = page.locator('pe-plot').nth(3);
    await attention.scrollIntoViewIfNeeded();
    const box = await attention.locator('canvas.hm-canvas').boundingBox();
    await page.mouse.move(box.x + box.width * 0.25, box.y + box.height * 0.9);
    await page.waitForFunction(() => /“\w+”/.test(document.querySelectorAll('pe-plot')[3].shadowRoot.querySelector('.hm-readout').textContent));
    const readout = await attention.evaluate((e) => e.shadowRoot.querySelector('.hm-readout').textContent);
    console.log(`[notebook] attention read-out: ${readout}`);
    expect(readout).toMatch(/^query 5 “mat” · key 1 “cat” → [\d.]+(e−\d+)?$/);
    await page.screenshot({ path: path.join(ARTIFACTS, 'notebook-page.png'), fullPage: true });
    await context.close();
    // Nothing of PE Lab's left the page; nbconvert's own template names require.js and MathJax
    // on a CDN (refused here), which the figures do not need.
    expect(log.pageErrors).toEqual([]);
    expect(log.external.filter((u) => !/require\.min\.js|mathjax/i.test(u))).toEqual([]);
  });

  it('a PyTorch tensor of the user\'s: the figure draws its values (bfloat16, a batch of one), Korean labels', async () => {
    const script = `
import json, sys, torch, pe_lab
torch.manual_seed(1)
w = torch.randn(1, 3, 5, 5).softmax(-1).to(torch.bfloat16)      # [batch, heads, query, key]
fig = pe_lab.show(w, kind="attention", labels=["나는", "고양이를", "좋아", "해", "."], lang="ko")
fig.save(sys.argv[1])
for bad in (torch.zeros(2, 3, 4, 5), torch.zeros(4, 5)):
    try:
        pe_lab.show(bad, kind="table" if bad.dim() == 4 else "graph")
        raise SystemExit("no error for a bad input")
    except ValueError as e:
        print("refused:", e, file=sys.stderr)
print(json.dumps({"shape": list(w.shape[1:]), "data": w.float().flatten().tolist()}))
`;
    const file = path.join(dir, 'torch.html');
    const { stdout } = await run(venvPython, ['-c', script, file], { env, cwd: dir });
    const expected = JSON.parse(stdout);
    const { context, page, log } = await openFile(file);
    const [figure] = await waitFigures(page);
    expect([figure.state, figure.error, figure.title]).toEqual(['ready', '', '어텐션 가중치']);
    const drawn = await page.$eval('pe-plot', (e) => ({ shape: e.state.result.shape, data: Array.from(e.state.result.data), dtype: e.state.result.dtype, slider: !!e.shadowRoot.querySelector('.pp-tools input[type=range]') }));
    expect(drawn.shape).toEqual(expected.shape);
    expect(drawn.dtype).toBe('float32');
    expect(drawn.data).toEqual(expected.data);
    expect(drawn.slider).toBe(true); // three heads
    await page.locator('pe-plot').screenshot({ path: path.join(ARTIFACTS, 'notebook-torch-ko.png') });
    await context.close();
    expect(log).toEqual({ external: [], pageErrors: [] });
  });
});

// The npm package as a stranger gets it: `npm pack` of this repository, installed into a fresh
// project in a temporary folder (no path back to the repository), then the three routes of
// docs/embed.md: (a) the API in Node (`import { createPE } from 'pe-lab'`, and its types through
// `exports`); (b) a blog's page that imports 'pe-lab/pe-plot', bundled with esbuild, drawing in
// Chromium; (c) a plain HTML page whose <script type="module"> names the package's
// web/dist/pe-plot.js on another origin, served as a package CDN serves the installed folder.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import * as esbuild from 'esbuild';
import { suiteAvailability, connectChromium, ROOT, ARTIFACTS, requireBuild } from '../helpers/browser.js';
import { createPE } from '../../web/pe.js';

const avail = suiteAvailability('package.test');
const run = promisify(execFile);
const PKG = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

/** The environment without npm's per-run variables (npm test sets npm_config_*, npm_package_*). */
function cleanEnv() {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
}

const MIME = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.json': 'application/json', '.ts': 'text/plain' };

/** A static server of `root` on 127.0.0.1 (cors: Access-Control-Allow-Origin *, as package CDNs send). */
function serve(root, { cors = false } = {}) {
  const server = createServer((req, res) => {
    const rel = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const file = path.join(root, rel);
    if (!file.startsWith(root) || !existsSync(file)) {
      res.writeHead(404).end('not found');
      return;
    }
    const headers = { 'content-type': MIME[path.extname(file)] ?? 'application/octet-stream' };
    if (cors) headers['access-control-allow-origin'] = '*';
    res.writeHead(200, headers).end(readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    url: `http://127.0.0.1:${server.address().port}/`,
    close: () => new Promise((r) => server.close(r)),
  })));
}

/** Three figures of a post: a spec's heatmap, a Korean one, and an attention pattern. */
const FIGURES = `
<pe-plot id="f0" kind="sinusoidal" length="64" dim="32" view="heatmap"></pe-plot>
<pe-plot id="f1" kind="rope" length="64" dim="32" lang="ko" rope_scaling='{"rope_type": "yarn", "factor": 4, "original_max_position_embeddings": 32}'></pe-plot>
<pe-plot id="f2" kind="alibi" length="24" heads="4" head="2" view="heatmap"></pe-plot>`;

describe.skipIf(avail.skip)('the npm package pe-lab, packed and installed in a fresh project', () => {
  let dir;
  let app;
  let pack;
  let browser;
  const servers = [];

  beforeAll(async () => {
    requireBuild(['dist/pe-plot.js', 'wasm/pe_simd.wasm', 'wasm/pe_scalar.wasm']);
    dir = mkdtempSync(path.join(tmpdir(), 'pe-pack-'));
    const env = cleanEnv();
    const packed = await run('npm', ['pack', ROOT, '--json', '--pack-destination', dir], { cwd: dir, env, maxBuffer: 1 << 24 });
    pack = JSON.parse(packed.stdout)[0];
    app = path.join(dir, 'blog');
    mkdirSync(app);
    writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'blog', private: true, type: 'module' }));
    // No dependencies at run time, so nothing but the tarball is needed: --offline.
    await run('npm', ['install', '--offline', '--no-audit', '--no-fund', path.join(dir, pack.filename)], { cwd: app, env });
    browser = await connectChromium();
  });

  afterAll(async () => {
    await browser?.close();
    for (const s of servers) await s.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Opens `url`, waits until every <pe-plot> is ready, and returns what each drew. */
  async function figuresOf(url, shot) {
    const context = await browser.newContext({ viewport: { width: 900, height: 2400 }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    const log = { external: [], pageErrors: [] };
    page.on('pageerror', (e) => log.pageErrors.push(String(e)));
    await page.route('**/*', (route) => {
      const u = new URL(route.request().url());
      if (u.hostname === '127.0.0.1' || u.protocol === 'data:' || u.protocol === 'blob:') return route.continue();
      log.external.push(u.href);
      return route.abort('blockedbyclient');
    });
    await page.goto(url);
    await page.waitForFunction(() => {
      const els = [...document.querySelectorAll('pe-plot')];
      return els.length > 0 && els.every((e) => e.dataset.state === 'ready' || e.dataset.state === 'error');
    });
    const figures = await page.$$eval('pe-plot', (els) => els.map((e) => {
      const c = e.shadowRoot.querySelector('canvas.hm-canvas');
      const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      const colours = new Set();
      for (let i = 0; i < px.length; i += 4) colours.add((px[i] << 16) | (px[i + 1] << 8) | px[i + 2]);
      return { id: e.id, state: e.dataset.state, error: e.shadowRoot.querySelector('.pp-error').textContent, colours: colours.size, title: e.shadowRoot.querySelector('.pp-title').textContent };
    }));
    const info = await page.evaluate(() => ({ version: globalThis.PePlot?.version, loads: globalThis.PePlot?.engineLoads }));
    if (shot) {
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: path.join(ARTIFACTS, shot) });
    }
    await context.close();
    return { figures, info, log };
  }

  function expectDrawn({ figures, info, log }) {
    expect(figures.map((f) => [f.id, f.state, f.error])).toEqual([['f0', 'ready', ''], ['f1', 'ready', ''], ['f2', 'ready', '']]);
    for (const f of figures) expect(f.colours, f.id).toBeGreaterThan(8); // a blank canvas has 1 or 2
    expect(figures[1].title).toMatch(/[가-힣]/); // lang="ko"
    expect(info).toEqual({ version: PKG.version, loads: 1 });
    expect(log).toEqual({ external: [], pageErrors: [] });
  }

  it('holds only what runs: the API, its types, the component and the two WebAssembly modules', () => {
    const files = pack.files.map((f) => f.path).sort();
    console.log(`[package] ${pack.filename}: ${pack.size} bytes packed, ${pack.unpackedSize} unpacked, ${files.length} files`);
    expect(pack.name).toBe('pe-lab');
    expect(pack.version).toBe(PKG.version);
    for (const f of ['package.json', 'web/pe.js', 'web/pe.d.ts', 'web/api/pe.js', 'web/dist/pe-plot.js', 'web/wasm/pe_simd.wasm', 'web/wasm/pe_scalar.wasm']) {
      expect(files).toContain(f);
    }
    // No page bundle, source maps, C sources, tests or other build outputs.
    expect(files.filter((f) => !/^(package\.json|README\.md|LICENSE|web\/(pe\.js|pe\.d\.ts|api\/.*\.js|dist\/pe-plot\.js|wasm\/pe_(simd|scalar)\.wasm))$/.test(f))).toEqual([]);
    expect(PKG.private).toBeUndefined();
    const installed = JSON.parse(readFileSync(path.join(app, 'node_modules', 'pe-lab', 'package.json'), 'utf8'));
    expect(installed.dependencies ?? {}).toEqual({});
  });

  it('(a) Node: import { createPE } from "pe-lab" computes what the repository computes; types resolve', async () => {
    writeFileSync(path.join(app, 'node-check.mjs'), `import { createPE } from 'pe-lab';
const pe = await createPE();
const r = pe.compute({ kind: 'rope', length: 16, dim: 8, rope_scaling: { rope_type: 'linear', factor: 2 } });
console.log(JSON.stringify({ shape: r.shape, data: Array.from(r.data) }));
`);
    const { stdout } = await run(process.execPath, ['node-check.mjs'], { cwd: app, env: cleanEnv() });
    const out = JSON.parse(stdout);
    console.log(`[package] (a) node: shape [${out.shape}], row 5 ${out.data.slice(20, 24).join(', ')}`);
    const here = (await createPE()).compute({ kind: 'rope', length: 16, dim: 8, rope_scaling: { rope_type: 'linear', factor: 2 } });
    expect(out.shape).toEqual([16, 4]);
    expect(Float32Array.from(out.data)).toEqual(here.data);
    // The types come through exports: a spec with a misspelt field must not compile.
    writeFileSync(path.join(app, 'check.ts'), `import { createPE, type RopeSpec } from 'pe-lab';
const spec: RopeSpec = { kind: 'rope', length: 16, dim: 8 };
const pe = await createPE();
const n: number[] = pe.compute(spec).shape;
// @ts-expect-error: not a field of a rope spec
const bad: RopeSpec = { kind: 'rope', dimm: 8 };
export { n, bad };
`);
    writeFileSync(path.join(app, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', strict: true, noEmit: true, skipLibCheck: false }, files: ['check.ts'] }));
    await run(process.execPath, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], { cwd: app, env: cleanEnv() });
  });

  it('(b) a bundler: esbuild bundles a post that imports "pe-lab/pe-plot"; it draws in Chromium', async () => {
    const site = path.join(app, 'site');
    mkdirSync(path.join(app, 'src'), { recursive: true });
    writeFileSync(path.join(app, 'src', 'main.js'), "import 'pe-lab/pe-plot';\n");
    const result = await esbuild.build({
      entryPoints: [path.join(app, 'src', 'main.js')], bundle: true, format: 'esm', minify: true,
      outdir: path.join(site, 'assets'), absWorkingDir: app, logLevel: 'silent',
    });
    expect(result.errors).toEqual([]);
    // docs/embed.md: the .wasm files go beside the bundle's folder (site/wasm/ for site/assets/).
    cpSync(path.join(app, 'node_modules', 'pe-lab', 'web', 'wasm'), path.join(site, 'wasm'), { recursive: true });
    writeFileSync(path.join(site, 'index.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A post</title>
<script type="module" src="./assets/main.js"></script></head><body><h1>A post</h1>${FIGURES}</body></html>`);
    const server = await serve(site);
    servers.push(server);
    const got = await figuresOf(`${server.url}index.html`, 'package-bundler.png');
    console.log(`[package] (b) esbuild: ${got.figures.map((f) => `${f.id} ${f.state} (${f.colours} colours)`).join(', ')}; engine loads ${got.info.loads}`);
    expectDrawn(got);
  });

  it('(c) a plain script tag: the installed folder served as a package CDN serves it, on another origin', async () => {
    const cdn = await serve(path.join(app, 'node_modules'), { cors: true });
    servers.push(cdn);
    const blogDir = path.join(dir, 'plain');
    mkdirSync(blogDir);
    writeFileSync(path.join(blogDir, 'index.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A post</title>
<script type="module" src="${cdn.url}pe-lab/web/dist/pe-plot.js"></script></head><body><h1>A post</h1>${FIGURES}</body></html>`);
    const blog = await serve(blogDir);
    servers.push(blog);
    const got = await figuresOf(`${blog.url}index.html`, 'package-cdn.png');
    console.log(`[package] (c) script tag from ${cdn.url}pe-lab/web/dist/pe-plot.js: ${got.figures.map((f) => `${f.id} ${f.state} (${f.colours} colours)`).join(', ')}; engine loads ${got.info.loads}`);
    expectDrawn(got);
  });
});

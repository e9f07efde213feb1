#!/usr/bin/env node
// Builds PE Lab as ONE self-contained HTML file, dist/pe-lab.html, that works opened straight from
// disk (file://) with no server and no network: the page script (web/app/app.js with Chart.js and
// every view, one bundle), the stylesheets, the workers and both WebAssembly modules are inside.
//
//   node scripts/build-offline.js [--out dist/pe-lab.html]      (npm run build runs it)
//
// How the pieces get in:
//   - script   one inline <script type="module">; dynamic import()s are bundled in
//   - styles   web/style.css, web/share/share.css and every stylesheet a view links at run time
//              (new URL('./x.css', import.meta.url)) in one inline <style>; that URL becomes
//              { href: null }, so the view's h('link', { href }) makes an inert <link> (no href)
//   - workers  new Worker(new URL('./w.js', import.meta.url), …) becomes a blob: worker built
//              from an inlined classic-script bundle of w.js
//   - WASM     <script type="application/wasm" id="pe-wasm-simd|pe-wasm-scalar"> data blocks in
//              base64 (inert), which web/app/app.js hands to createPE({ wasm: bytes }); where pe.js
//              would fetch a module (new URL('./wasm/….wasm', import.meta.url)), it gets the bytes
//              of these blocks instead, in the page and in workers (whose blob source starts with
//              the base64 text, read from the page's blocks when the worker starts)
//   - CSP      a meta policy with the SHA-256 of the inline script and style: nothing else runs,
//              nothing is fetched (default-src 'none'), workers only from blob:, WebAssembly
//              compiled with 'wasm-unsafe-eval'
// In-process: import { buildOffline } from './scripts/build-offline.js'; await buildOffline();
import * as esbuild from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..');
export const WEB_DIR = path.join(ROOT, 'web');
export const OUT_FILE = path.join(ROOT, 'dist', 'pe-lab.html');

const WORKER_RE = /new Worker\(\s*new URL\(\s*(['"])(\.{1,2}\/[^'"]+?\.m?js)\1\s*,\s*import\.meta\.url\s*\)\s*(?:,\s*\{[^}]*\}\s*)?\)/g;
const CSS_RE = /new URL\(\s*(['"])(\.{1,2}\/[^'"]+?\.css)\1\s*,\s*import\.meta\.url\s*\)/g;
const WASM_RE = /new URL\(\s*([^()]*?'\.{1,2}\/wasm\/[^']+\.wasm'[^()]*?)\s*,\s*import\.meta\.url\s*\)/g;
const INERT_URL = '({ href: null, toString: () => "" })';

const sha256 = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** Makes every web module's workers and run-time stylesheets part of the one file. */
function inlinePlugin(webDir, found) {
  return {
    name: 'pe-lab-offline-inline',
    setup(build) {
      build.onLoad({ filter: /\.m?js$/ }, async (args) => {
        const rel = path.relative(webDir, args.path);
        if (rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
        let source = await readFile(args.path, 'utf8');
        if (!source.includes('import.meta.url')) return undefined;
        const dir = path.dirname(args.path);
        source = source.replace(WORKER_RE, (_, q, file) => {
          const abs = path.resolve(dir, file);
          found.workers.add(abs);
          return `globalThis.__peLabWorker(${JSON.stringify(path.relative(webDir, abs).split(path.sep).join('/'))})`;
        });
        source = source.replace(CSS_RE, (_, q, file) => {
          found.styles.add(path.resolve(dir, file));
          return INERT_URL;
        });
        source = source.replace(WASM_RE, (_, expr) => {
          found.wasm.add(rel);
          return `globalThis.__peLabWasm(${expr})`;
        });
        if (source.includes('import.meta.url')) found.unresolved.add(rel);
        return { contents: source, loader: 'js' };
      });
    },
  };
}

function checkInline(text, what) {
  // "</script" would end the inline script; "<!--" could make a later "<script" change how the
  // rest is parsed. (esbuild already writes "</script" inside strings as "<\\/script".)
  if (/<\/script|<!--/i.test(text)) throw new Error(`build-offline: ${what} contains "</script" or "<!--"`);
}

const common = {
  bundle: true,
  platform: 'browser',
  target: ['es2022'],
  minify: true,
  legalComments: 'eof',
  external: ['node:*'],
  write: false,
  logLevel: 'warning',
  absWorkingDir: ROOT,
  nodePaths: [path.join(ROOT, 'node_modules')],
};

/**
 * Builds the single file. Returns { file, bytes, parts: { script, style, wasm } } (byte counts).
 * Needs web/wasm/*.wasm (bash build.sh).
 */
export async function buildOffline({ webDir = WEB_DIR, outFile = OUT_FILE } = {}) {
  const found = { workers: new Set(), styles: new Set(), unresolved: new Set(), wasm: new Set() };
  const app = await esbuild.build({ ...common, format: 'esm', entryPoints: [path.join(webDir, 'app', 'app.js')], plugins: [inlinePlugin(webDir, found)] });
  let script = app.outputFiles[0].text;

  // Workers: classic-script bundles, started from blob: URLs.
  const workers = {};
  for (const abs of [...found.workers].sort()) {
    const w = await esbuild.build({ ...common, format: 'iife', entryPoints: [abs], plugins: [inlinePlugin(webDir, found)] });
    workers[path.relative(webDir, abs).split(path.sep).join('/')] = w.outputFiles[0].text;
  }
  // __peLabWasm(path) → the bytes of ./wasm/pe_simd.wasm or ./wasm/pe_scalar.wasm, from the base64
  // text of the page's data blocks, or in a worker from the text its source starts with.
  const wasmLookup = 'globalThis.__peLabWasm=(p)=>{const t=globalThis.__peLabWasmText[/scalar/.test(p)?"scalar":"simd"];'
    + 'const b=atob(t);const u=new Uint8Array(b.length);for(let i=0;i<b.length;i++)u[i]=b.charCodeAt(i);return u;};';
  const prelude = `${wasmLookup}globalThis.__peLabWasmText={get simd(){return document.getElementById("pe-wasm-simd").textContent},`
    + 'get scalar(){return document.getElementById("pe-wasm-scalar").textContent}};'
    + `globalThis.__peLabWorker=(p)=>{const src=${JSON.stringify(workers)}[p];`
    + 'if(src===undefined)throw new Error(`PE Lab offline: no worker ${p}`);'
    + 'const w=globalThis.__peLabWasmText;'
    + `const head="self.__peLabWasmText="+JSON.stringify({simd:w.simd,scalar:w.scalar})+";"+${JSON.stringify(wasmLookup)};`
    + 'return new Worker(URL.createObjectURL(new Blob([head,src],{type:"text/javascript"})));};\n';
  script = prelude + script;
  checkInline(script, 'the page script');

  // Styles: the page's, then each view's, in a stable order.
  const styleFiles = [path.join(webDir, 'style.css'), path.join(webDir, 'share', 'share.css'), ...[...found.styles].sort()];
  let style = '';
  for (const f of styleFiles) {
    const text = await readFile(f, 'utf8').catch(() => null);
    if (text !== null) style += `/* ${path.relative(webDir, f)} */\n${text}\n`;
  }
  if (/<\/style/i.test(style)) throw new Error('build-offline: a stylesheet contains "</style"');

  const simd = await readFile(path.join(webDir, 'wasm', 'pe_simd.wasm'));
  const scalar = await readFile(path.join(webDir, 'wasm', 'pe_scalar.wasm'));

  const csp = [
    "default-src 'none'",
    `script-src ${sha256(script)} 'wasm-unsafe-eval'`,
    'worker-src blob:',
    `style-src ${sha256(style)}`,
    'img-src data: blob:',
    "connect-src 'none'",
    "font-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');

  let html = await readFile(path.join(webDir, 'index.html'), 'utf8');
  const drop = [
    /\s*<meta http-equiv="Content-Security-Policy"[^>]*>/,
    /\s*<noscript><link rel="stylesheet"[^>]*><\/noscript>/g, // boot-noscript.css: the single file has no boot wait
    /\s*<link rel="modulepreload"[^>]*>/g,
    /\s*<link rel="preload"[^>]*>/g,
    /\s*<link rel="stylesheet"[^>]*>/g,
    /\s*<script type="module" src="[^"]*"><\/script>/g,
  ];
  for (const re of drop) html = html.replace(re, '');
  if (/<link rel="stylesheet"|<script[^>]*\ssrc=/.test(html)) throw new Error('build-offline: index.html links a file this build does not inline');
  const head = [
    `<meta http-equiv="Content-Security-Policy" content="${csp}">`,
    '<meta name="pe-lab-build" content="offline single file">',
    `<style>${style}</style>`,
    `<script type="application/wasm" id="pe-wasm-simd">${simd.toString('base64')}</script>`,
    `<script type="application/wasm" id="pe-wasm-scalar">${scalar.toString('base64')}</script>`,
    `<script type="module">${script}</script>`,
  ].join('\n');
  if (!html.includes('<meta charset="utf-8">')) throw new Error('build-offline: index.html has no <meta charset="utf-8">');
  // (a function, so that "$&" and the like in the script are not replacement patterns)
  html = html.replace('<meta charset="utf-8">', () => `<meta charset="utf-8">\n${head}`);

  if (![...found.wasm].some((f) => /(^|\/)pe\.js$/.test(f))) console.warn('build-offline: web/pe.js no longer loads ./wasm/*.wasm as expected; workers cannot start the module offline');
  // A file left to import.meta.url cannot load from a blob: worker or file://: refuse to write a
  // single file that is only partly offline (the Arena's workers failed this way, silently).
  if (found.unresolved.size) throw new Error(`build-offline: import.meta.url left in ${[...found.unresolved].join(', ')}: it would load a file that is not inlined`);
  await mkdir(path.dirname(outFile), { recursive: true });
  await writeFile(outFile, html);
  return {
    file: outFile,
    bytes: Buffer.byteLength(html),
    parts: { script: Buffer.byteLength(script), style: Buffer.byteLength(style), wasm: simd.length + scalar.length },
    workers: Object.keys(workers),
    styles: styleFiles.map((f) => path.relative(webDir, f)),
  };
}

const isMain = process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (isMain) {
  const i = process.argv.indexOf('--out');
  const outFile = i > 0 ? path.resolve(process.argv[i + 1]) : OUT_FILE;
  const r = await buildOffline({ outFile });
  const kib = (n) => `${(n / 1024).toFixed(0)} KiB`;
  console.log(`Wrote ${path.relative(process.cwd(), r.file)}: ${kib(r.bytes)} (script ${kib(r.parts.script)}, styles ${kib(r.parts.style)}, WebAssembly ${kib(r.parts.wasm)} before base64; workers: ${r.workers.join(', ') || 'none'})`);
}

#!/usr/bin/env node
// Bundle the page script (web/app/app.js) into web/dist/app.js with Rollup (minified by esbuild),
// and the line plots (web/plot/lineplot.js with Chart.js from node_modules) into
// web/dist/lineplot.js with esbuild, which the page imports dynamically once the first heatmap is
// on screen. Also web/share/pe-plot.js (the embeddable <pe-plot> element, with style.css as text
// for its shadow root) into web/dist/pe-plot.js.
//
// Why Rollup for the page: every module app.js imports statically lands in app.js itself, and the
// views' chunks (imported on demand) import what they share with it from app.js. esbuild put
// each module shared by app.js and a view into a chunk of its own, so the first screen waited
// for app.js and then for 11 more files behind it (a second round of requests): Rollup's single
// file saved about 80-100 ms of a cold first plot in headless Chromium (median of 5 cold loads,
// 4 interleaved rounds: 553-577 ms against 613-741 ms).
//
//   node scripts/bundle.js            # minified ESM bundle + source map
//   node scripts/bundle.js --dev      # unminified
//
// In-process use: `import { bundle } from './scripts/bundle.js'; await bundle();`

import * as esbuild from 'esbuild';
import { rollup } from 'rollup';
import { existsSync } from 'node:fs';
import { readFileSync } from 'node:fs';
import { readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const WEB_DIR = path.resolve(HERE, '..', 'web');

/**
 * The package's version (package.json), written into the bundles wherever a module says
 * __PE_LAB_VERSION__: the "Share & export" card's embed snippet names the published package at
 * this version (so an old post keeps loading the component it was written with), and <pe-plot>
 * reports it (PePlot.version). Unbundled, the token is undefined and the modules fall back.
 */
export const VERSION = JSON.parse(readFileSync(path.resolve(HERE, '..', 'package.json'), 'utf8')).version;
const VERSION_TOKEN = '__PE_LAB_VERSION__';

/**
 * The page modules find files next to themselves with `new URL('./wasm/pe_simd.wasm', import.meta.url)`
 * (web/pe.js does). Bundled, import.meta.url would be web/dist/app.js, so in every module under web/
 * `import.meta.url` is rewritten to the URL that module has when it is served unbundled, computed
 * from the bundle's own URL at run time.
 */
function moduleUrl(webDir, outDir, file, source) {
  const rel = path.relative(webDir, file);
  if (rel.startsWith('..') || path.isAbsolute(rel) || !source.includes('import.meta.url')) return null;
  const fromOut = path.relative(outDir, file).split(path.sep).join('/');
  return source.replaceAll('import.meta.url', `(new URL(${JSON.stringify(fromOut)}, import.meta.url).href)`);
}

/** moduleUrl as an esbuild plugin (the lazy and stand-alone bundles). */
function moduleUrlPlugin(webDir, outDir) {
  return {
    name: 'pe-lab-module-url',
    setup(build) {
      build.onLoad({ filter: /\.m?js$/ }, async (args) => {
        const contents = moduleUrl(webDir, outDir, args.path, await readFile(args.path, 'utf8'));
        return contents === null ? undefined : { contents, loader: 'js' };
      });
    },
  };
}

/**
 * The stand-alone bundles run only in browsers, and the npm package ships them for other
 * people's bundlers (esbuild, Rollup, Vite refuse to bundle a `node:` import for the browser):
 * web/api/pe.js's Node-only `import('node:fs/promises')` (never reached in a browser) becomes a
 * small module that says so, instead of an import a blogger's bundler cannot resolve.
 */
function browserOnlyPlugin() {
  return {
    name: 'pe-lab-browser-only',
    setup(build) {
      build.onResolve({ filter: /^node:/ }, (args) => ({ path: args.path, namespace: 'pe-lab-browser-only' }));
      build.onLoad({ filter: /.*/, namespace: 'pe-lab-browser-only' }, (args) => ({
        contents: `export function readFile() { throw new Error(${JSON.stringify(`${args.path} is not available in a browser`)}); }`,
        loader: 'js',
      }));
    },
  };
}

/**
 * The lazily loaded modules: a dynamic import() of one of these stays a dynamic import of its own
 * bundle in web/dist/ (built separately, so the page's bundle shares no chunk with it and starts
 * with a single request).
 */
export const LAZY = [{ entry: 'plot/lineplot.js', out: 'lineplot.js' }];

/** Stand-alone bundles for other pages: the <pe-plot> web component (docs/embed.md). */
export const STANDALONE = [{ entry: 'share/pe-plot.js', out: 'pe-plot.js' }];

/**
 * The page's Rollup plugins: import.meta.url rewritten (moduleUrl), a dynamic import() of a LAZY
 * module kept as an import of its own bundle, and every chunk minified by esbuild (source maps
 * chained by Rollup).
 */
function pagePlugins(webDir, outDir, minify) {
  const lazyOf = (file) => LAZY.find((l) => l.entry === path.relative(webDir, file).split(path.sep).join('/'));
  return [{
    name: 'pe-lab-page',
    resolveId(source) {
      return source.startsWith('node:') ? { id: source, external: true } : null;
    },
    async resolveDynamicImport(specifier, importer) {
      if (typeof specifier !== 'string' || !importer) return null;
      const lazy = lazyOf(path.resolve(path.dirname(importer), specifier));
      return lazy ? { id: `./${lazy.out}`, external: true } : null;
    },
    transform(code, id) {
      let contents = moduleUrl(webDir, outDir, id, code);
      const source = contents ?? code;
      if (source.includes(VERSION_TOKEN)) contents = source.replaceAll(VERSION_TOKEN, JSON.stringify(VERSION));
      return contents === null ? null : { code: contents, map: null };
    },
    async renderChunk(code) {
      const r = await esbuild.transform(code, {
        format: 'esm', target: 'es2022', minify, sourcemap: true, legalComments: 'eof', logLevel: 'error',
      });
      return { code: r.code, map: r.map };
    },
  }];
}

/**
 * A chunk's file name: its module's name and its content hash (8 characters, base36), or for
 * web/views/<family>/views.js and web/pages/<page>/index.js the folder's name, so that
 * attention-4k2….js says what it holds. The server lets browsers keep these without asking
 * again (scripts/serve.js HASHED): a new content is a new name.
 */
function chunkName(chunk) {
  const file = chunk.facadeModuleId;
  const base = file && path.basename(file, '.js');
  const name = base === 'index' || base === 'views' ? path.basename(path.dirname(file)) : chunk.name;
  return `${name.replace(/[^\w-]/g, '_')}-[hash].js`;
}

/** The page: app.js and the chunks of what it imports on demand, into outDir. */
async function bundlePage(webDir, outDir, { minify, sourcemap }) {
  const build = await rollup({
    input: { app: path.join(webDir, 'app', 'app.js') },
    plugins: pagePlugins(webDir, outDir, minify),
    onwarn(warning, warn) {
      if (warning.code === 'CIRCULAR_DEPENDENCY') return;   // ES modules allow them; ours are benign
      warn(warning);
    },
  });
  try {
    const { output } = await build.write({
      dir: outDir, format: 'es', sourcemap, entryFileNames: '[name].js', chunkFileNames: chunkName,
      hashCharacters: 'base36',
    });
    return output.filter((o) => o.type === 'chunk').map((o) => ({ file: path.join(outDir, o.fileName), bytes: Buffer.byteLength(o.code) }));
  } finally {
    await build.close();
  }
}

/**
 * @param {{ webDir?: string, minify?: boolean, sourcemap?: boolean, logLevel?: string }} [opts]
 * @returns {Promise<{ outfile: string, bytes: number, files: string[] }>}
 */
export async function bundle({ webDir = WEB_DIR, minify = true, sourcemap = true, logLevel = 'warning' } = {}) {
  const finalDir = path.join(webDir, 'dist');
  const outfile = path.join(finalDir, 'app.js');
  // Built beside web/dist (same depth, so module URLs are the same) and swapped in at the end:
  // a page or a test served from web/dist never sees it half written or missing for long.
  const outdir = path.join(webDir, `dist.building-${process.pid}-${Date.now()}`);
  await rm(outdir, { force: true, recursive: true });
  const common = {
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022'],
    minify,
    sourcemap,
    // pe.js imports node:fs dynamically, and only when it runs under Node.
    external: ['node:*'],
    legalComments: 'linked',
    metafile: true,
    logLevel,
    define: { [VERSION_TOKEN]: JSON.stringify(VERSION) },
    absWorkingDir: path.resolve(HERE, '..'),
    // Resolve chart.js from this repository even when webDir is elsewhere (e.g. a scratch copy).
    nodePaths: [path.resolve(HERE, '..', 'node_modules')],
  };
  const builds = [
    // The page: each family's views (web/views/<family>/views.js, imported on demand) become
    // chunks of their own beside app.js, importing what they share with it from app.js.
    bundlePage(webDir, outdir, { minify, sourcemap }),
    ...LAZY.map(({ entry, out }) => esbuild.build({
      ...common, entryPoints: [path.join(webDir, entry)], outfile: path.join(outdir, out), plugins: [moduleUrlPlugin(webDir, outdir)],
    })),
    ...STANDALONE.filter(({ entry }) => existsSync(path.join(webDir, entry))).map(({ entry, out }) => esbuild.build({
      ...common, entryPoints: [path.join(webDir, entry)], outfile: path.join(outdir, out), loader: { '.css': 'text' },
      external: [], plugins: [browserOnlyPlugin(), moduleUrlPlugin(webDir, outdir)],
    })),
  ];
  let results;
  try {
    results = await Promise.all(builds);
  } catch (err) {
    await rm(outdir, { force: true, recursive: true });
    throw err;
  }
  const old = `${finalDir}.old-${process.pid}-${Date.now()}`;
  await rename(finalDir, old).catch(() => {});
  await rename(outdir, finalDir);
  await rm(old, { force: true, recursive: true });
  const root = path.resolve(HERE, '..');
  const [page, ...others] = results;
  const outputs = [
    ...page,
    ...others.flatMap((r) => Object.entries(r.metafile.outputs)).filter(([f]) => f.endsWith('.js'))
      .map(([f, o]) => ({ file: path.resolve(root, f), bytes: o.bytes })),
  ];
  const bytes = outputs.reduce((n, o) => n + o.bytes, 0);
  return { outfile, bytes, files: outputs.map((o) => path.join(finalDir, path.relative(outdir, o.file))) };
}

const isMain = process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (isMain) {
  const dev = process.argv.includes('--dev');
  const { outfile, bytes } = await bundle({ minify: !dev, logLevel: 'info' });
  console.log(`Bundled ${path.relative(process.cwd(), outfile)} and ${[...LAZY, ...STANDALONE].map((f) => `web/dist/${f.out}`).join(', ')} (${(bytes / 1024).toFixed(1)} KiB)`);
}

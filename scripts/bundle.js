#!/usr/bin/env node
// Bundle the page script (web/app/app.js) into web/dist/app.js with esbuild, and the line plots
// (web/plot/lineplot.js with Chart.js from node_modules) into web/dist/lineplot.js, which the page
// imports dynamically once the first heatmap is on screen. Also web/share/pe-plot.js (the
// embeddable <pe-plot> element, with style.css as text for its shadow root) into web/dist/pe-plot.js.
//
//   node scripts/bundle.js            # minified ESM bundle + source map
//   node scripts/bundle.js --dev      # unminified
//
// In-process use: `import { bundle } from './scripts/bundle.js'; await bundle();`

import * as esbuild from 'esbuild';
import { existsSync } from 'node:fs';
import { readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const WEB_DIR = path.resolve(HERE, '..', 'web');

/**
 * The page modules find files next to themselves with `new URL('./wasm/pe_simd.wasm', import.meta.url)`
 * (web/pe.js does). Bundled, import.meta.url would be web/dist/app.js, so in every module under web/
 * `import.meta.url` is rewritten to the URL that module has when it is served unbundled, computed
 * from the bundle's own URL at run time.
 */
function moduleUrlPlugin(webDir, outDir) {
  return {
    name: 'pe-lab-module-url',
    setup(build) {
      build.onLoad({ filter: /\.m?js$/ }, async (args) => {
        const rel = path.relative(webDir, args.path);
        if (rel.startsWith('..') || path.isAbsolute(rel)) return undefined; // not a page module
        const source = await readFile(args.path, 'utf8');
        if (!source.includes('import.meta.url')) return undefined;
        const fromOut = path.relative(outDir, args.path).split(path.sep).join('/');
        const url = `new URL(${JSON.stringify(fromOut)}, import.meta.url).href`;
        return { contents: source.replaceAll('import.meta.url', `(${url})`), loader: 'js' };
      });
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

function lazyPlugin(webDir) {
  return {
    name: 'pe-lab-lazy',
    setup(build) {
      build.onResolve({ filter: /\.js$/ }, (args) => {
        if (args.kind !== 'dynamic-import') return undefined;
        const target = path.resolve(args.resolveDir, args.path);
        const rel = path.relative(webDir, target).split(path.sep).join('/');
        const lazy = LAZY.find((l) => l.entry === rel);
        if (!lazy) return undefined;
        return { path: `./${lazy.out}`, external: true };
      });
    },
  };
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
    absWorkingDir: path.resolve(HERE, '..'),
    // Resolve chart.js from this repository even when webDir is elsewhere (e.g. a scratch copy).
    nodePaths: [path.resolve(HERE, '..', 'node_modules')],
  };
  const builds = [
    // The page: each family's views (web/views/<family>/views.js, imported on demand) become
    // chunks of their own beside app.js, sharing common code through chunk files.
    esbuild.build({
      ...common, entryPoints: { app: path.join(webDir, 'app', 'app.js') }, outdir, splitting: true,
      entryNames: '[name]', chunkNames: '[name]-[hash]',
      plugins: [lazyPlugin(webDir), moduleUrlPlugin(webDir, outdir)],
    }),
    ...LAZY.map(({ entry, out }) => esbuild.build({
      ...common, entryPoints: [path.join(webDir, entry)], outfile: path.join(outdir, out), plugins: [moduleUrlPlugin(webDir, outdir)],
    })),
    ...STANDALONE.filter(({ entry }) => existsSync(path.join(webDir, entry))).map(({ entry, out }) => esbuild.build({
      ...common, entryPoints: [path.join(webDir, entry)], outfile: path.join(outdir, out), loader: { '.css': 'text' },
      plugins: [moduleUrlPlugin(webDir, outdir)],
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
  const outputs = results.flatMap((r) => Object.entries(r.metafile.outputs)).filter(([f]) => f.endsWith('.js'));
  const bytes = outputs.reduce((n, [, o]) => n + o.bytes, 0);
  const root = path.resolve(HERE, '..');
  return { outfile, bytes, files: outputs.map(([f]) => path.join(finalDir, path.relative(outdir, path.resolve(root, f)))) };
}

const isMain = process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (isMain) {
  const dev = process.argv.includes('--dev');
  const { outfile, bytes } = await bundle({ minify: !dev, logLevel: 'info' });
  console.log(`Bundled ${path.relative(process.cwd(), outfile)} and ${[...LAZY, ...STANDALONE].map((f) => `web/dist/${f.out}`).join(', ')} (${(bytes / 1024).toFixed(1)} KiB)`);
}

#!/usr/bin/env node
// Bundle the page script (web/app.js + chart.js from node_modules) into web/dist/app.js with esbuild.
//
//   node scripts/bundle.js            # minified ESM bundle + source map
//   node scripts/bundle.js --dev      # unminified
//
// In-process use: `import { bundle } from './scripts/bundle.js'; await bundle();`

import * as esbuild from 'esbuild';
import { readFile } from 'node:fs/promises';
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
 * @param {{ webDir?: string, minify?: boolean, sourcemap?: boolean, logLevel?: string }} [opts]
 * @returns {Promise<{ outfile: string, bytes: number }>}
 */
export async function bundle({ webDir = WEB_DIR, minify = true, sourcemap = true, logLevel = 'warning' } = {}) {
  const outfile = path.join(webDir, 'dist', 'app.js');
  const result = await esbuild.build({
    entryPoints: [path.join(webDir, 'app.js')],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022'],
    minify,
    sourcemap,
    // pe.js imports node:fs dynamically, and only when it runs under Node.
    external: ['node:*'],
    plugins: [moduleUrlPlugin(webDir, path.dirname(outfile))],
    legalComments: 'linked',
    metafile: true,
    logLevel,
    absWorkingDir: path.resolve(HERE, '..'),
    // Resolve chart.js from this repository even when webDir is elsewhere (e.g. a scratch copy).
    nodePaths: [path.resolve(HERE, '..', 'node_modules')],
  });
  const bytes = Object.values(result.metafile.outputs).reduce((n, o) => n + (o.entryPoint ? o.bytes : 0), 0);
  return { outfile, bytes };
}

const isMain = process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (isMain) {
  const dev = process.argv.includes('--dev');
  const { outfile, bytes } = await bundle({ minify: !dev, logLevel: 'info' });
  console.log(`Bundled ${path.relative(process.cwd(), outfile)} (${(bytes / 1024).toFixed(1)} KiB)`);
}

// The layers of web/ and the direction of their imports (web/README.md):
//   app → pages → share → views → model → plot → api, with i18n beside api at the bottom.
// A module may import its own layer or any layer below it, never one above. web/pe.js is the
// public entry (a re-export of web/api/pe.js) and nothing inside web/ imports it.
import { describe, it, expect } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const WEB = path.join(ROOT, 'web');
export const LAYERS = ['i18n', 'api', 'plot', 'model', 'views', 'share', 'pages', 'app'];
const RANK = { i18n: 0, api: 0, plot: 2, model: 3, views: 4, share: 5, pages: 6, app: 7 };

function* modules(dir) {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) {
      if (name === 'dist' || name.startsWith('dist.') || name === 'wasm') continue;
      yield* modules(p);
    } else if (name.endsWith('.js')) yield p;
  }
}

/** Relative specifiers a module imports: static, dynamic, re-exports and new URL(…, import.meta.url). */
export function importsOf(file) {
  const src = readFileSync(file, 'utf8').replace(/^\s*\/\/.*$/gm, '');
  const re = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|new URL\(\s*)(['"])(\.{1,2}\/[^'"]+)\1(\s*,\s*import\.meta\.url)?/g;
  const out = [];
  for (const m of src.matchAll(re)) {
    if (m[0].startsWith('new URL') && !m[3]) continue;
    out.push(path.resolve(path.dirname(file), m[2]));
  }
  return out;
}

const layerOf = (file) => {
  const rel = path.relative(WEB, file).split(path.sep);
  return rel.length > 1 ? rel[0] : null; // files at web/'s root: the public entry and page assets
};

describe('web/ layers', () => {
  const files = [...modules(WEB)];

  it('every module sits in a layer folder (web/pe.js is the only root module)', () => {
    const loose = files.filter((f) => !layerOf(f)).map((f) => path.relative(WEB, f));
    expect(loose).toEqual(['pe.js']);
    const unknown = files.map(layerOf).filter((l) => l && !(l in RANK));
    expect(unknown).toEqual([]);
  });

  it('no import runs upward, and nothing inside web/ imports the public entry', () => {
    const bad = [];
    for (const f of files) {
      const from = layerOf(f);
      if (!from) continue;
      for (const target of importsOf(f)) {
        const rel = path.relative(WEB, f);
        if (target === path.join(WEB, 'pe.js')) bad.push(`${rel} imports web/pe.js (use api/pe.js)`);
        const to = layerOf(target);
        if (!to) continue; // page assets at the root (style.css)
        if (RANK[to] > RANK[from]) bad.push(`${rel} (${from}) → ${path.relative(WEB, target)} (${to})`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('reads imports as the bundler does (a known edge is found)', () => {
    const host = importsOf(path.join(WEB, 'app', 'view-host.js')).map((t) => path.relative(WEB, t));
    expect(host).toContain(path.join('app', 'views.js'));
  });
});

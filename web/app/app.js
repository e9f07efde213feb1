// PE Lab's page: the entry that starts the explorer. The jobs are in modules of their own:
//   state.js       the explorer's state (one shared object)
//   url.js         the state as a permalink in the address bar
//   catalogue.js   the header and the catalogue of kinds
//   language.js    the page language: the first one, the buttons, a link's
//   explorer.js    the chosen kind: heading, parameters (controls.js), the views' box
//   compute.js     every change recomputes on the next frame and updates the views
//   errors.js      a spec that does not compute: its error at the field it names
//   view-host.js   the views of the output (views.js), in and out of sight; toc.js, their contents
//   router.js      what the fragment shows: the explorer at a link, or a page (pages.js)
//   diagnostics.js window.__peLab, the timings tests and benches read (an observer, events.js)
//
// The state lives in the URL fragment as a versioned permalink (#v1/sinusoidal?dim=32&~map=cividis,
// web/share/permalink.js): the spec, the shared view state, compare mode's B and the language. A
// damaged link falls back (defaults on load, the current view later) with a notice. Without a
// ~lang in the link the language comes from ?lang=, the user's last choice, or navigator.languages.
// ?embed shows only the figure (heatmap and curves; ?embed=heatmap or ?embed=lines for one).
import { createPE, SCHEMA } from '../api/pe.js';
import { translator } from '../i18n/index.js';
import { h } from '../plot/dom.js';
import { decodePermalink } from '../share/permalink.js';
import { inlineWasm, showDroppedNotice, showNotice } from '../share/page.js';
import { renderCatalogue } from './catalogue.js';
import { startDiagnostics } from './diagnostics.js';
import { compute } from './compute.js';
import { showKind } from './explorer.js';
import { onLangPicked, renderChrome, startLang } from './language.js';
import { PAGES, pageRoute } from './pages.js';
import { linkView, onHashChange, setLang, showPage } from './router.js';
import { app, currentState, SHARED_START } from './state.js';
import { updateViews } from './view-host.js';

startDiagnostics();

async function main() {
  performance.mark('pe:script');
  const root = document.documentElement;
  const search = new URLSearchParams(location.search);
  const route = pageRoute(location.hash);
  const link = route ? { status: 'empty' } : decodePermalink(location.hash);
  app.embed = search.has('embed') ? search.get('embed') || 'all' : null;
  if (app.embed) root.classList.add('pe-embed');
  app.lang = startLang({ link, route, search });
  app.t = translator(app.lang);
  onLangPicked(setLang);
  // The kernels compile (web/app/wasm-start.js began it from index.html) while the header, the
  // catalogue and the chosen kind's heading and parameters are built: none of them needs WASM.
  const loading = loadKernels();
  renderChrome();
  const ok = link.status === 'ok';
  app.kind = ok ? link.kind : (SCHEMA.sinusoidal ? 'sinusoidal' : Object.keys(SCHEMA)[0]);
  if (ok && link.version >= 1) app.shared[app.kind] = linkView(link);
  renderCatalogue();
  if (!route) showKind(app.kind, ok ? link.spec ?? undefined : undefined); // computes once app.pe is set
  else PAGES[route.page]().catch(() => {}); // its chunk loads while the kernels compile (showPage reports a failure)
  if (!route) root.classList.add('pe-booted'); // the layout is filled: shown (web/app/boot.css)
  try {
    app.pe = await loading;
    performance.mark('pe:wasm-ready');
  } catch (err) {
    root.classList.add('pe-booted');
    root.dataset.state = 'error';
    const msg = err?.message ?? String(err);
    document.getElementById('main').replaceChildren(h('p', { class: 'load-error', role: 'alert', text: app.t('app.loadFailed', msg) }));
    document.getElementById('engine').textContent = '';
    console.warn(err);
    return;
  }
  renderChrome();
  if (route) {
    app.specs[app.kind] ??= app.pe.defaults(app.kind);
    app.shared[app.kind] ??= { ...SHARED_START };
    // Shown once the page has drawn (or failed) with its own stylesheets: the page host, too,
    // appears once (web/app/boot.css).
    showPage(route).then(stylesLoaded).finally(() => {
      root.classList.add('pe-booted');
      if (root.dataset.pageState === 'mounted') root.dataset.pageState = 'ready';
    });
  } else compute();
  if (link.status === 'error') showNotice(app.t, link, 'defaults');
  else if (link.dropped?.length) showDroppedNotice(app.t, link.dropped);
  window.addEventListener('hashchange', onHashChange);
  window.addEventListener('resize', () => app.fitControls?.());
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => {
    if (app.good[app.kind]) updateViews(currentState({ changed: new Set(['theme']), stale: app.stale }));
  });
}

/**
 * Settles when the stylesheets linked so far have loaded (a page links its own as it mounts), or
 * after at most STYLE_WAIT_MS (one that failed never will).
 */
function stylesLoaded() {
  const pending = [...document.querySelectorAll('link[rel="stylesheet"]')].filter((l) => !l.sheet)
    .map((l) => new Promise((r) => {
      l.addEventListener('load', r, { once: true });
      l.addEventListener('error', r, { once: true });
    }));
  return Promise.race([Promise.all(pending), new Promise((r) => setTimeout(r, STYLE_WAIT_MS))]);
}
const STYLE_WAIT_MS = 1500;

/**
 * The kernels: the offline single file's inline module, else the module web/app/wasm-start.js is
 * compiling, else (no early compile, or this engine refused the SIMD build) createPE's own load.
 */
async function loadKernels() {
  const inline = inlineWasm();
  if (inline) return createPE({ wasm: inline });
  const early = await globalThis.__peLabWasm?.catch(() => null);
  return createPE(early ? { wasm: early } : {});
}

main();

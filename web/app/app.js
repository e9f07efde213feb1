// PE Lab's page shell: the catalogue of kinds (grouped by each kind's schema `group`), the
// controls of the chosen kind (generated from its schema, web/app/controls.js) and the views that
// apply to its output (web/app/views.js). Every change recomputes with the WebAssembly API
// (web/pe.js) on the next animation frame and updates the views; there is no compute button.
// A bad value shows its PEError at the field it names, and the views keep the last good result.
//
// The state lives in the URL fragment as a versioned permalink (#v1/sinusoidal?dim=32&~map=cividis,
// web/share/permalink.js): the spec, the shared view state, compare mode's B and the language. A
// damaged link falls back (defaults on load, the current view later) with a notice. Without a
// ~lang in the link the language comes from ?lang=, the user's last choice, or navigator.languages.
// ?embed shows only the figure (heatmap and curves; ?embed=heatmap or ?embed=lines for one).
import { createPE, PEError, SCHEMA } from '../api/pe.js';
import { buildControls } from './controls.js';
import { h } from '../plot/dom.js';
import { LANGS, LANG_NAMES, pickLang, translator } from '../i18n/index.js';
import { outputInfo } from '../model/output.js';
import { isAdvanced, viewsFor } from './views.js';
import { watchVisibility, whenNearViewport } from '../views/lazy.js';
import { decodePermalink, encodePermalink, DEFAULT_LANG, VIEW_DEFAULTS } from '../share/permalink.js';
import { copyLinkButton, embedViews, hideNotice, inlineWasm, showDroppedNotice, showNotice } from '../share/page.js';
import { PAGES, PAGE_IDS, explorerHash, pageHash, pageRoute } from './pages.js';

// The catalogue's sections: the schema's `group` of each kind (its family's name everywhere:
// c/, web/api/, web/views/, tests/), headed by the i18n string group.<name>.
const GROUP_ORDER = ['absolute', 'relative', 'rope', 'vision', 'attention'];
const LANG_KEY = 'pe-lab-lang';
/** Outputs of at least this many values are computed into the shown result's array (reusable). */
const REUSE_MIN = 1 << 18;

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const groupOf = (kind) => SCHEMA[kind].group ?? 'other';

/**
 * Diagnostics for tests and the curious: render count, the time of each render (compute and
 * every view's update, in ms), of each view's updates, from the input to the next animation frame
 * after the redraw (paintMs; paintedRender: the render it timed), the time of the first plot.
 */
const diag = { renders: 0, renderMs: [], computeMs: [], paintMs: [], paintedRender: 0, viewMs: {}, firstPlotMs: null, lastRenderEnd: 0, reused: 0 };
window.__peLab = diag;

const app = {
  pe: null,
  lang: 'en',
  t: translator('en'),
  kind: null,
  specs: {}, // the user's working spec per kind (may be invalid)
  good: {}, // the last spec that computed, and its result, per kind
  loaded: {}, // a result a view supplied instead of computing (a trained table from a file), per kind
  shared: {}, // display state shared by the views, per kind
  unfolded: {}, // the advanced views the reader opened, per kind (a Set of view ids)
  views: [], // [{ view, handle, section }]
  mountedKey: null,
  controls: null,
  lastEdited: null,
  frame: 0, // a compute waiting for the next animation frame
  frameBusy: false, // a compute ran in this frame (the next change waits for the next frame)
  computing: false,
  urlTimer: 0,
  linkSpec: {}, // the last spec computed from the parameters, per kind (what a link holds)
  embed: null, // ?embed: null, or which views to show ('all' | 'heatmap' | 'lines')
  page: null, // the page shown instead of the explorer (web/app/pages.js): { id, route, handle, token }
};

// ---------------------------------------------------------------------------------------------
// Permalinks (web/share/permalink.js): the last good spec, the shared view state and the language.

/** The fragment of the current state (#v1/…). */
function currentHash() {
  const kind = app.kind;
  const spec = app.linkSpec[kind] ?? app.pe.defaults(kind);
  return encodePermalink({ kind, spec, view: app.shared[kind], lang: app.lang });
}

/** The shareable URL of the current state (without ?embed). */
function currentLink() {
  const search = new URLSearchParams(location.search);
  search.delete('embed');
  const q = search.toString();
  return `${location.href.split(/[?#]/)[0]}${q ? `?${q}` : ''}${currentHash()}`;
}

function scheduleUrl() {
  clearTimeout(app.urlTimer);
  if (app.page) return; // a page writes its own route
  // Announced for tests and embedders: data-link is "pending" until the address bar holds the state.
  document.documentElement.dataset.link = 'pending';
  const seen = location.hash;
  app.urlTimer = setTimeout(() => {
    if (app.page) return;
    // A navigation in the meantime (a link, the address bar, Back) wins: its hashchange shows it,
    // and writing the old state now would undo it.
    if (location.hash !== seen) return;
    const hash = currentHash();
    if (location.hash !== hash) history.replaceState(null, '', `${location.pathname}${location.search}${hash}`);
    document.documentElement.dataset.link = 'written';
  }, 250);
}

// ---------------------------------------------------------------------------------------------
// Header, catalogue, footer

function renderHeader() {
  const { t } = app;
  document.documentElement.lang = app.lang;
  document.title = t('app.pageTitle');
  document.getElementById('title').textContent = t('app.title');
  document.getElementById('tagline').textContent = t('app.tagline');
  document.getElementById('skip').textContent = t('app.skip');
  const langBox = document.getElementById('lang');
  langBox.replaceChildren();
  langBox.setAttribute('aria-label', t('app.language'));
  for (const lang of LANGS) {
    langBox.append(h('button', {
      type: 'button', class: 'lang-button', lang, 'aria-pressed': String(lang === app.lang), text: LANG_NAMES[lang],
      on: { click: () => setLang(lang) },
    }));
  }
  renderSections();
  const engine = document.getElementById('engine');
  if (app.pe) {
    engine.textContent = `${app.pe.simd ? t('app.simdOn') : t('app.simdOff')} ${t('app.private')}`;
    engine.dataset.simd = String(!!app.pe.simd);
  } else engine.textContent = t('app.loading');
}

/** The header's links to the explorer and the pages; the current one is marked. */
function renderSections() {
  const { t } = app;
  const nav = document.getElementById('sections');
  if (!nav) return;
  nav.setAttribute('aria-label', t('app.sections'));
  const current = app.page?.id ?? 'explorer';
  const explorer = app.kind && app.pe ? currentHash() : '#sinusoidal';
  const links = [['explorer', explorer], ...PAGE_IDS.map((id) => [id, pageHash(id, '', null, app.lang)])];
  nav.replaceChildren(...links.map(([id, href]) => h('a', {
    href, class: 'section-link', 'data-section': id, 'aria-current': id === current ? 'page' : null, text: t(`app.section.${id}`),
  })));
}

function renderCatalogue() {
  const { t } = app;
  const nav = document.getElementById('catalogue');
  nav.setAttribute('aria-label', t('app.catalogue'));
  const groups = new Map();
  for (const kind of Object.keys(SCHEMA)) {
    const g = groupOf(kind);
    if (!groups.has(g)) groups.set(g, []);
    groups.get(g).push(kind);
  }
  const order = [...GROUP_ORDER.filter((g) => groups.has(g)), ...[...groups.keys()].filter((g) => !GROUP_ORDER.includes(g))];
  const list = h('div', { class: 'cat-groups' });
  for (const g of order) {
    const headId = `cat-group-${g}`;
    const name = t(`group.${g}`);
    list.append(h('section', { class: 'cat-group', 'aria-labelledby': headId },
      h('h2', { id: headId, class: 'cat-group-title', text: name }),
      h('ul', {}, groups.get(g).map((kind) => h('li', {},
        h('a', {
          href: `#${kind}`, class: 'cat-item', 'data-kind': kind, 'aria-current': kind === app.kind ? 'page' : null,
          text: t.tr(SCHEMA[kind].label) || kind,
        }))))));
  }
  nav.replaceChildren(h('p', { class: 'cat-title', text: t('app.catalogue') }), list);
}

function markCatalogue() {
  for (const a of document.querySelectorAll('#catalogue .cat-item')) {
    if (a.dataset.kind === app.kind) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
}

// ---------------------------------------------------------------------------------------------
// The chosen kind: heading, controls, views

function destroyViews() {
  for (const v of app.views) {
    try {
      v.cancel?.();   // a lazy view still waiting for the screen
      v.handle?.destroy?.();
    } catch (err) {
      console.warn(err);
    }
  }
  app.views = [];
  app.mountedKey = null;
}

function showKind(kind, spec, { focus = false } = {}) {
  const { t } = app;
  destroyViews();
  cancelAnimationFrame(app.frame);
  app.frame = 0;
  app.kind = kind;
  if (spec) app.specs[kind] = spec;
  app.specs[kind] ??= app.pe.defaults(kind);
  app.shared[kind] ??= { colormap: 'viridis', head: 0 };
  app.lastEdited = null;
  markCatalogue();
  const schema = SCHEMA[kind];
  const main = document.getElementById('main');
  main.dataset.kind = kind;
  const group = groupOf(kind);

  const heading = h('h2', { id: 'kind-title', tabindex: -1, text: t.tr(schema.label) || kind });
  const head = h('div', { class: 'kind-head' },
    h('p', { class: 'kind-group', text: t(`group.${group}`) }),
    heading,
    h('p', { class: 'kind-help', text: t.tr(schema.help) }),
    copyLinkButton({ t, embed: !!app.embed, link: currentLink }));
  app.tocBox = h('nav', { class: 'kind-toc', 'aria-label': t('app.tocTitle') });
  app.tocBox.hidden = !!app.embed;
  head.append(app.tocBox);

  const paramsTitle = h('h3', { id: 'params-title', class: 'box-title', text: t('app.parameters') });
  const fieldsBox = h('div');
  const generalError = h('p', { class: 'field-error general-error', id: 'general-error', role: 'status' });
  generalError.hidden = true;
  const reset = h('button', {
    type: 'button', class: 'button', text: t('app.reset'),
    on: {
      click: () => {
        app.specs[kind] = app.pe.defaults(kind);
        app.controls.setValues(app.specs[kind]);
        schedule();
      },
    },
  });
  const loadedText = h('p', { class: 'loaded-text' });
  const loadedNote = h('div', { class: 'loaded-note', role: 'status' }, loadedText,
    h('button', { type: 'button', class: 'button', text: t('app.unload'), on: { click: () => clearResult() } }));
  loadedNote.hidden = true;
  const controlsBox = h('section', { class: 'controls box', 'aria-labelledby': 'params-title' },
    paramsTitle, loadedNote, fieldsBox, generalError, h('div', { class: 'controls-actions' }, reset));
  app.loadedUi = { note: loadedNote, text: loadedText, fields: fieldsBox, reset };
  app.controls = buildControls(fieldsBox, {
    fields: schema.fields,
    spec: app.specs[kind],
    t,
    idPrefix: `f-${kind}`,
    schemas: SCHEMA,
    onChange: (values, path) => {
      app.specs[kind] = values;
      app.lastEdited = path;
      schedule();
    },
  });
  app.generalError = generalError;
  const viewsBox = h('div', { class: 'views', id: 'views' });
  main.replaceChildren(head, h('div', { class: 'kind-body' }, controlsBox, viewsBox));
  app.viewsBox = viewsBox;
  app.fitControls = () => controlsBox.classList.toggle('is-sticky', controlsBox.offsetHeight + 32 <= window.innerHeight);
  new ResizeObserver(() => app.fitControls()).observe(controlsBox);
  if (focus) heading.focus({ preventScroll: false });
  compute();
}

function mountViews(info) {
  const { t } = app;
  destroyViews();
  app.viewsBox.replaceChildren();
  const ctx = {
    pe: app.pe,
    /** The colour maps in C, as renderers take them: colorize(values, { map, vmin, vmax }). */
    colorize: (values, options) => app.pe.colorize(values, options),
    t,
    lang: app.lang,
    kind: info.kind,
    schema: SCHEMA[info.kind],
    info,
    setShared,
    buildControls: (container, opts) => buildControls(container, { t, ...opts }),
    showResult,
    clearResult,
    setSpec,
  };
  const shown = embedViews(viewsFor(info), app.embed);
  const open = openViews(shown);
  for (const view of shown) {
    const titleId = `view-${view.id}-title`;
    const explain = typeof view.explain === 'function' ? view.explain(info) : view.explain;
    const body = h('div', { class: 'view-body' });
    const title = h('h3', { id: titleId, text: t.tr(view.title) });
    const folded = !app.embed && !open.has(view.id);
    const head = h('header', { class: 'view-head' },
      title,
      explain ? h('p', { class: 'view-explain', text: t.tr(explain) }) : null);
    // An advanced view is folded: its header is the summary, and it mounts only once opened.
    const fold = folded ? h('details', { class: 'view-fold' }, h('summary', { class: 'view-summary' }, head), body) : null;
    const section = h('section', {
      class: `view card view-${view.id}${folded ? ' is-folded' : ''}`, id: `view-${view.id}`, 'aria-labelledby': titleId, tabindex: -1,
    }, fold ?? [head, body]);
    app.viewsBox.append(section);
    const entry = { view, handle: null, section, fold };
    app.views.push(entry);
    if (fold) {
      fold.addEventListener('toggle', () => {
        section.classList.toggle('is-folded', !fold.open);
        if (fold.open) app.unfolded[app.kind]?.add(view.id);
        if (fold.open && !entry.started) startView(entry, body, ctx, info);
      });
      continue;
    }
    startView(entry, body, ctx, info);
  }
  app.mountedKey = `${info.kind}:${info.class}:${info.rank}:${info.slices}`;
  renderToc();
}

/** The ids of the views shown unfolded: all but the advanced ones, and those the reader opened (kept per kind). */
function openViews(views) {
  const opened = (app.unfolded[app.kind] ??= new Set());
  return new Set(views.filter((v) => !isAdvanced(v) || opened.has(v.id)).map((v) => v.id));
}

/** Mounts a view in its section (a lazy one when it comes near the screen). */
function startView(entry, body, ctx, info) {
  const { view } = entry;
  entry.started = true;
  if (view.lazy) {
    mountLazy(entry, body, { ...ctx, view: view.id }, info);
    return;
  }
  try {
    entry.handle = view.mount(body, { ...ctx, view: view.id });
    if (entry.handle) watchSight(entry);
    if (entry.fold && app.good[app.kind]) {
      entry.handle?.update(currentState({ changed: new Set(['result', 'shared', 'theme']), stale: app.stale }));
    }
  } catch (err) {
    console.error(`view ${view.id} failed to mount`, err);
  }
}

/** Opens a folded view's section (its view mounts). */
function unfold(entry) {
  if (entry.fold && !entry.fold.open) entry.fold.open = true;
}

/**
 * Scrolls a view's section to the top and focuses it. Views above it may still be arriving (their
 * code loads near the screen) and change height: it is kept in place until they settle (2 s) or
 * the reader scrolls, types or taps.
 */
function jumpTo(section) {
  const place = () => section.scrollIntoView({ block: 'start', behavior: 'auto' });
  place();
  section.focus({ preventScroll: true });
  const inputs = ['wheel', 'touchstart', 'keydown', 'pointerdown'];
  const observer = new ResizeObserver(() => place());
  const stop = () => {
    observer.disconnect();
    clearTimeout(timer);
    for (const ev of inputs) removeEventListener(ev, stop, true);
  };
  const timer = setTimeout(stop, 2000);
  observer.observe(app.viewsBox);
  for (const ev of inputs) addEventListener(ev, stop, true);
}

/**
 * The table of contents of the kind's views, under its heading: links that scroll to a view's
 * section without touching the address bar (the fragment holds the permalink). A lazy view's
 * title arrives with its family's code, fetched here without mounting anything. On phones the
 * list is folded.
 */
function renderToc() {
  const box = app.tocBox;
  if (!box) return;
  const { t } = app;
  const token = {};
  app.tocToken = token;
  const items = app.views.map((entry) => {
    const { view } = entry;
    const link = h('a', {
      href: `#view-${view.id}`, class: 'toc-link', 'data-view': view.id,
      text: t.tr(view.title) || t('app.viewLoading'),
      on: {
        click: (ev) => {
          ev.preventDefault();
          unfold(entry);
          jumpTo(entry.section);
        },
      },
    });
    if (entry.fold) link.append(h('span', { class: 'toc-folded', text: ` ${t('app.tocFolded')}` }));
    if (view.lazy) {
      link.classList.add('is-pending');
      view.load().then((real) => {
        if (app.tocToken !== token) return;
        link.firstChild.textContent = t.tr(real.title);
        link.classList.remove('is-pending');
      }).catch(() => {});
    }
    return h('li', {}, link);
  });
  const wide = matchMedia('(min-width: 821px)');
  const fold = h('details', { class: 'toc-fold', open: wide.matches ? '' : null },
    h('summary', { class: 'toc-summary', text: t('app.tocSummary', items.length) }),
    h('ol', { class: 'toc-list' }, items));
  box.replaceChildren(fold);
  box.dataset.count = String(items.length);
}

/**
 * A view whose code loads on demand (web/views/lazy.js): a placeholder until its section comes
 * near the screen, then the module arrives, its title and explanation fill the header, and it
 * mounts and draws the latest state.
 */
function mountLazy(entry, body, ctx, info) {
  const { t } = app;
  body.append(h('p', { class: 'view-loading', text: t('app.viewLoading') }));
  entry.cancel = whenNearViewport(entry.section, () => {
    entry.view.load().then((real) => {
      if (!app.views.includes(entry)) return;   // the kind changed meanwhile
      const explain = typeof real.explain === 'function' ? real.explain(info) : real.explain;
      const head = entry.section.querySelector('.view-head');
      head.querySelector('h3').textContent = t.tr(real.title);
      if (explain) head.append(h('p', { class: 'view-explain', text: t.tr(explain) }));
      body.replaceChildren();
      entry.handle = real.mount(body, ctx);
      entry.view = { ...real, lazy: false };
      if (entry.handle) watchSight(entry);
      if (app.good[app.kind]) {
        entry.handle?.update(currentState({ changed: new Set(['result', 'shared', 'theme']), stale: app.stale }));
      }
    }).catch((err) => console.error(`view ${entry.view.id} failed to load`, err));
  });
}

/**
 * Starts watching whether a mounted view is in sight (once). It starts at mount, so the first
 * change after a page loads already skips the views below the screen: the observer's first report
 * arrives a frame later, and until then a view counts as in sight. Back in sight, a view catches
 * up with what it missed, in the next frame.
 */
function watchSight(entry) {
  if (entry.sight) return;
  entry.sight = watchVisibility(entry.section, () => {
    if (!entry.missed || !app.views.includes(entry)) return;
    requestAnimationFrame(() => {
      if (entry.missed && app.views.includes(entry)) runView(entry, catchUp(entry, entry.missed));
    });
  });
  const cancel = entry.cancel;
  entry.cancel = () => {
    cancel?.();
    entry.sight.stop();
  };
}

/** Hands a state to one view, timing its update (diag.viewMs). */
function runView(entry, next) {
  const { view, handle } = entry;
  try {
    const t0 = performance.now();
    handle.update(next);
    const list = (diag.viewMs[view.id] ??= []);
    list.push(performance.now() - t0);
    if (list.length > 500) list.shift();
  } catch (err) {
    console.error(`view ${view.id} failed to update`, err);
  }
}

/** A state with what the view missed while out of sight merged into its changes (and forgotten). */
function catchUp(entry, next) {
  const missed = entry.missed;
  entry.missed = null;
  return missed ? { ...next, changed: new Set([...missed.changed, ...next.changed]) } : next;
}

/**
 * Hands a new state to the mounted views. A view out of sight (web/views/lazy.js watchVisibility)
 * does no work: it keeps the latest state and the union of what changed, and catches up when it
 * comes into view, so a slider drag recomputes and redraws only what the user can see.
 */
function updateViews(state) {
  for (const entry of app.views) {
    if (!entry.handle) continue; // a lazy view still loading: it mounts with the latest state
    watchSight(entry);
    if (entry.sight.visible === false) {
      entry.missed = { ...state, changed: new Set([...(entry.missed?.changed ?? []), ...state.changed]) };
      continue;
    }
    runView(entry, catchUp(entry, state));
  }
}

// ---------------------------------------------------------------------------------------------
// Computing and errors

function schedule() {
  // The first input waiting for a compute: what "input → painted frame" is timed from.
  app.inputAt ??= performance.now();
  if (app.frame) return; // a compute is already waiting for the next frame: it takes these values
  // At most one compute per frame: the first change since the last frame computes at once (so the
  // frame about to be painted shows it: a key press, typing or a change that arrives between
  // frames is not held back a frame); later ones within the same frame share one compute at the
  // next frame (the newest values win).
  if (!app.frameBusy && !app.computing) {
    compute();
    return;
  }
  app.frame = requestAnimationFrame(() => {
    app.frame = 0;
    compute();
  });
}

/** Marks that a compute ran in this frame (until the next animation frame). */
function markFrameBusy() {
  if (app.frameBusy) return;
  app.frameBusy = true;
  requestAnimationFrame(() => {
    app.frameBusy = false;
  });
}

function currentState(extra) {
  const good = app.good[app.kind];
  return {
    spec: good.spec,
    result: good.result,
    info: good.info,
    shared: app.shared[app.kind],
    stale: false,
    timing: good.timing,
    ...extra,
  };
}

function setShared(patch) {
  const kind = app.kind;
  const prev = app.shared[kind];
  const changed = new Set(['shared']);
  for (const [k, v] of Object.entries(patch)) if (!same(prev[k], v)) changed.add(`shared:${k}`);
  if (changed.size === 1) return;
  app.shared[kind] = { ...prev, ...patch };
  if (app.good[kind]) updateViews(currentState({ changed, stale: app.stale }));
  scheduleUrl();
}

/**
 * Set fields of the current kind's parameters from a view (e.g. the M-RoPE builder's segments):
 * the controls show the new values and the page recomputes on the next frame, as if typed. For
 * views (ctx).
 */
function setSpec(patch) {
  app.specs[app.kind] = { ...app.specs[app.kind], ...patch };
  app.controls.setValues(app.specs[app.kind]);
  app.lastEdited = Object.keys(patch)[0] ?? null;
  schedule();
}

function clearErrors() {
  app.controls.clearErrors();
  app.generalError.hidden = true;
}

function showError(err) {
  const { t } = app;
  clearErrors();
  const isPE = err instanceof PEError || err?.name === 'PEError';
  const msg = err?.message ?? String(err);
  const fieldLabel = (param) => {
    const f = SCHEMA[app.kind].fields[String(param).split('.')[0]];
    return f ? t.tr(f.label) || param : param;
  };
  const text = (param) => (app.lang === 'en' ? msg : `${t('app.fieldError', fieldLabel(param))} ${msg}`);
  let shown = false;
  if (isPE && err.param) {
    shown = app.controls.showError(err.param, text(err.param));
    // A limit set by another field (e.g. the output size) also shows where the user is typing.
    if (shown && app.lastEdited && app.lastEdited.split('.')[0] !== String(err.param).split('.')[0]) {
      app.controls.showError(app.lastEdited, text(err.param));
    }
  }
  if (!shown) {
    app.generalError.textContent = isPE ? text(err.param ?? '') : t('app.otherError', msg);
    app.generalError.hidden = false;
    if (!isPE) console.warn(err);
  }
  app.stale = true;
  if (app.good[app.kind] && app.views.length) {
    updateViews(currentState({ stale: true, changed: new Set(['stale']) }));
  }
}

/**
 * Show `result` (shaped like compute's, e.g. pe.loadMatrix's trained table) instead of computing
 * the kind's spec, until clearResult(). `label` says where it came from. For views (ctx).
 */
function showResult(result, label) {
  const [rows, cols] = result.shape;
  const spec = { ...app.pe.defaults(app.kind), ...(result.spec ?? {}) };
  if ('length' in spec) spec.length = rows;
  if ('dim' in spec) spec.dim = cols;
  app.loaded[app.kind] = { result: { ...result, spec }, label };
  compute();
}

function clearResult() {
  if (!app.loaded[app.kind]) return;
  delete app.loaded[app.kind];
  compute();
}

function markLoaded(loaded) {
  const ui = app.loadedUi;
  ui.note.hidden = !loaded;
  ui.text.textContent = loaded ? app.t('app.loadedNote', loaded.label) : '';
  // The parameters do not describe a loaded table: out of reach until it is put away.
  ui.fields.inert = !!loaded;
  ui.fields.classList.toggle('is-inert', !!loaded);
  ui.reset.disabled = !!loaded;
}

function compute() {
  app.computing = true;
  try {
    computeNow();
  } finally {
    app.computing = false;
  }
}

/**
 * The array the next compute of `kind` may write its output into: the shown result's own data,
 * when it came from pe.compute (never a loaded file's table) and is large. A large output then
 * costs one copy into memory the page already has, not a new allocation with its page faults and
 * garbage (a slider drag at 2000 × 1600 copies 12.8 MB a frame). The shown result is replaced
 * by the new one in the same call; a compute that throws leaves the array as it was, so the last
 * good result stays intact. Views that cache by array identity key on the result instead.
 */
function reusable(kind) {
  const good = app.good[kind];
  return good?.computed && good.result.data.length >= REUSE_MIN ? good.result.data : null;
}

function computeNow() {
  markFrameBusy();
  if (app.frame) {
    // A change that waited for a frame is taken by this compute.
    cancelAnimationFrame(app.frame);
    app.frame = 0;
  }
  const kind = app.kind;
  const schema = SCHEMA[kind];
  const spec = app.specs[kind];
  app.controls.updateBounds(spec);
  scheduleUrl();
  const t0 = performance.now();
  const inputAt = app.inputAt ?? t0;
  app.inputAt = null;
  const loaded = app.loaded[kind];
  markLoaded(loaded);
  let result;
  try {
    if (loaded) result = loaded.result;
    else {
      const reuse = reusable(kind);
      result = app.pe.compute(spec, { reuse });
      if (reuse && result.data === reuse) diag.reused += 1;
    }
  } catch (err) {
    if (!app.views.length) {
      // Nothing computed yet for this kind: mount the views for its default shape, blank.
      const d = app.pe.compute(app.pe.defaults(kind));
      mountViews(outputInfo(kind, schema, d.shape));
    }
    showError(err);
    return;
  }
  const computeMs = performance.now() - t0;
  clearErrors();
  app.stale = false;
  const info = outputInfo(kind, schema, result.shape);
  const key = `${kind}:${info.class}:${info.rank}:${info.slices}`;
  if (app.mountedKey !== key) mountViews(info);
  const shared = app.shared[kind];
  if ((shared.head ?? 0) >= info.slices) shared.head = 0;
  app.good[kind] = { spec: result.spec, result, info, timing: { computeMs, inputAt }, computed: !loaded };
  if (!loaded) app.linkSpec[kind] = result.spec;
  updateViews(currentState({ changed: new Set(['result']) }));
  const ms = performance.now() - t0;
  diag.renders += 1;
  diag.renderMs.push(ms);
  diag.computeMs.push(computeMs);
  diag.lastRenderEnd = performance.now();
  // Input → the next animation frame after the redraw: the frame that shows it has been painted.
  const renderNo = diag.renders;
  requestAnimationFrame(() => {
    const paintMs = performance.now() - inputAt;
    diag.paintMs.push(paintMs);
    if (diag.paintMs.length > 500) diag.paintMs.shift();
    diag.paintedRender = renderNo;
  });
  if (diag.renderMs.length > 500) {
    diag.renderMs.shift();
    diag.computeMs.shift();
  }
  document.getElementById('main').dataset.renders = String(diag.renders);
  if (diag.firstPlotMs === null) {
    diag.firstPlotMs = performance.now();
    performance.mark('pe:first-plot');
    document.documentElement.dataset.state = 'ready';
  }
}

// ---------------------------------------------------------------------------------------------
// Language, theme, navigation

function setLang(lang) {
  if (lang === app.lang) return;
  app.lang = lang;
  app.t = translator(lang);
  try {
    localStorage.setItem(LANG_KEY, lang);
  } catch { /* private mode */ }
  renderHeader();
  renderCatalogue();
  if (app.page) {
    const { route } = app.page;
    showPage({ ...route, lang }, { remount: true });
    history.replaceState(null, '', `${location.pathname}${location.search}${pageHash(route.page, route.path, route.params, lang)}`);
  } else {
    showKind(app.kind, app.specs[app.kind]);
    scheduleUrl();
  }
  document.querySelector(`#lang [lang="${lang}"]`)?.focus();
}

/** Switches to a link's language without remembering it as the user's choice. */
function applyLinkLang(lang) {
  if (!lang || lang === app.lang) return false;
  app.lang = lang;
  app.t = translator(lang);
  renderHeader();
  renderCatalogue();
  return true;
}

/** Shows a decoded link: its kind, spec, view state and language. */
function applyLink(link, { focus = false } = {}) {
  hideNotice();
  if (link.version >= 1) {
    applyLinkLang(link.lang ?? DEFAULT_LANG);
    // A versioned link states the whole view: nothing of the previous one carries over.
    app.shared[link.kind] = { ...VIEW_DEFAULTS, compare: null, ...link.view };
    delete app.loaded[link.kind];
  }
  showKind(link.kind, link.spec, { focus: focus && link.kind !== app.kind });
  if (link.dropped?.length) showDroppedNotice(app.t, link.dropped);
}

function onHashChange() {
  const route = pageRoute(location.hash);
  if (route) {
    hideNotice();   // a link's notice is about the explorer: it goes with it
    const relang = !!route.lang && LANGS.includes(route.lang) && applyLinkLang(route.lang);
    showPage(route, { remount: relang });
    return;
  }
  if (app.page) {
    // Back to the explorer: the link's setting, or the kind as it was left (a catalogue link). The
    // explorer was not drawn while the page was shown, so this draws even when the link equals
    // the explorer's current state.
    hidePage();
    const link = decodePermalink(location.hash);
    if (link.status === 'ok' && link.hasParams) applyLink(link, { focus: true });
    else {
      const kind = link.status === 'ok' ? link.kind : app.kind;
      showKind(kind, app.specs[kind], { focus: true });
      if (link.status === 'error') showNotice(app.t, link, 'kept');
    }
    scheduleUrl();
    return;
  }
  if (location.hash === currentHash()) return;
  const link = decodePermalink(location.hash);
  if (link.status === 'empty') return;
  if (link.status === 'error') {
    // Keep what is on screen, say why, and put the current state back in the address bar.
    showNotice(app.t, link, 'kept');
    scheduleUrl();
    return;
  }
  // A catalogue link (#kind alone) brings back that kind's last setting.
  if (!link.hasParams) {
    hideNotice();
    if (link.kind !== app.kind) showKind(link.kind, app.specs[link.kind], { focus: true });
    else scheduleUrl();
    return;
  }
  applyLink(link, { focus: true });
}

// ---------------------------------------------------------------------------------------------
// Pages beside the explorer (web/app/pages.js): Learn, Arena

/** Shows a page route: mounts the page (its code loads on demand), or updates the one shown. */
async function showPage(route, { remount = false } = {}) {
  const root = document.documentElement;
  if (app.page && app.page.id === route.page && !remount) {
    app.page.route = route;
    app.page.handle?.update?.(route);
    return;
  }
  hidePage({ keepHidden: true });
  destroyViews();
  cancelAnimationFrame(app.frame);
  app.frame = 0;
  clearTimeout(app.urlTimer);
  const token = {};
  app.page = { id: route.page, route, handle: null, token };
  root.dataset.page = route.page;
  root.dataset.pageState = 'loading';
  document.querySelector('.layout').hidden = true;
  const host = document.getElementById('page');
  host.hidden = false;
  host.replaceChildren(h('p', { class: 'page-loading', text: app.t('app.loading') }));
  renderSections();
  let mod;
  try {
    mod = (await PAGES[route.page]()).default;
  } catch (err) {
    if (app.page?.token !== token) return;
    host.replaceChildren(h('p', { class: 'load-error', role: 'alert', text: app.t('app.loadFailed', err?.message ?? String(err)) }));
    root.dataset.pageState = 'error';
    return;
  }
  if (app.page?.token !== token) return; // another route came first
  host.replaceChildren();
  const lang = app.lang;
  try {
    app.page.handle = mountPage(mod, host, route, lang, token);
  } catch (err) {
    // A page that fails to draw says so; the sections and the explorer stay usable.
    console.error(err);
    host.replaceChildren(h('p', { class: 'load-error', role: 'alert', text: app.t('app.loadFailed', err?.message ?? String(err)) }));
    root.dataset.pageState = 'error';
    return;
  }
  root.dataset.pageState = 'ready';
  root.dataset.state ||= 'ready'; // the app has started (on the explorer: its first plot)
  document.getElementById('page-title')?.focus?.({ preventScroll: true });
}

/** Calls a page module's mount with what a page may use of the app. */
function mountPage(mod, host, route, lang, token) {
  return mod.mount(host, {
    pe: app.pe,
    t: app.t,
    lang,
    route,
    hashFor: (path = '', params = null) => pageHash(route.page, path, params, lang),
    replaceLink: (path = '', params = null) => {
      const hash = pageHash(route.page, path, params, lang);
      if (location.hash !== hash) history.replaceState(null, '', `${location.pathname}${location.search}${hash}`);
      if (app.page?.token === token) app.page.route = pageRoute(hash);
    },
    explorerHash: (kind, spec, view) => explorerHash(kind, spec, lang, view),
  });
}

/** Leaves the page shown (if any) and brings the explorer back. */
function hidePage({ keepHidden = false } = {}) {
  if (!app.page) return;
  try {
    app.page.handle?.destroy?.();
  } catch (err) {
    console.warn(err);
  }
  app.page = null;
  const root = document.documentElement;
  delete root.dataset.page;
  delete root.dataset.pageState;
  const host = document.getElementById('page');
  host.replaceChildren();
  if (keepHidden) return;
  host.hidden = true;
  document.querySelector('.layout').hidden = false;
  renderSections();
}

async function main() {
  performance.mark('pe:script');
  const root = document.documentElement;
  let stored = null;
  try {
    stored = localStorage.getItem(LANG_KEY);
  } catch { /* private mode */ }
  const search = new URLSearchParams(location.search);
  const route = pageRoute(location.hash);
  const link = route ? { status: 'empty' } : decodePermalink(location.hash);
  app.embed = search.has('embed') ? search.get('embed') || 'all' : null;
  if (app.embed) root.classList.add('pe-embed');
  app.lang = link.status === 'ok' && link.version >= 1 && (link.lang || !search.get('lang'))
    ? link.lang ?? DEFAULT_LANG
    : route?.lang && LANGS.includes(route.lang) ? route.lang
      : pickLang({ query: search.get('lang'), stored, languages: navigator.languages ?? [navigator.language] });
  app.t = translator(app.lang);
  const wasm = inlineWasm(); // the offline single file carries the module in the page
  const loading = createPE(wasm ? { wasm } : {}); // fetch and compile while the header is built
  renderHeader();
  try {
    app.pe = await loading;
    performance.mark('pe:wasm-ready');
  } catch (err) {
    root.dataset.state = 'error';
    const msg = err?.message ?? String(err);
    document.getElementById('main').replaceChildren(h('p', { class: 'load-error', role: 'alert', text: app.t('app.loadFailed', msg) }));
    document.getElementById('engine').textContent = '';
    console.warn(err);
    return;
  }
  renderHeader();
  const ok = link.status === 'ok';
  app.kind = ok ? link.kind : (SCHEMA.sinusoidal ? 'sinusoidal' : Object.keys(SCHEMA)[0]);
  if (ok && link.version >= 1) app.shared[app.kind] = { ...VIEW_DEFAULTS, compare: null, ...link.view };
  renderCatalogue();
  if (route) {
    app.specs[app.kind] ??= app.pe.defaults(app.kind);
    app.shared[app.kind] ??= { colormap: 'viridis', head: 0 };
    showPage(route);
  } else showKind(app.kind, ok ? link.spec ?? undefined : undefined);
  if (link.status === 'error') showNotice(app.t, link, 'defaults');
  else if (link.dropped?.length) showDroppedNotice(app.t, link.dropped);
  window.addEventListener('hashchange', onHashChange);
  window.addEventListener('resize', () => app.fitControls?.());
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => {
    if (app.good[app.kind]) updateViews(currentState({ changed: new Set(['theme']), stale: app.stale }));
  });
}

main();

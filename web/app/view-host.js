// The views of the chosen kind's output (the registry: web/app/views.js): each in its section
// (an advanced one folded until opened; a lazy one mounted when it comes near the screen), handed
// every new state, and left alone while out of sight. A view whose update throws keeps its last
// picture and says why in its section until its next update succeeds.
import { SCHEMA } from '../api/pe.js';
import { h } from '../plot/dom.js';
import { watchVisibility, whenNearViewport } from '../views/lazy.js';
import { embedViews } from '../share/page.js';
import { buildControls } from './controls.js';
import { emit } from './events.js';
import { app, currentState, layoutKey } from './state.js';
import { jumpTo, renderToc } from './toc.js';
import { isAdvanced, viewsFor } from './views.js';

/** What a view is handed when it mounts late and must draw the latest state in full. */
const EVERYTHING = ['result', 'shared', 'theme'];

export function destroyViews() {
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

/**
 * Mounts the views that apply to `info` (web/model/output.js) in the views box. `actions` are what
 * a view may ask of the explorer (ctx): setShared, showResult, clearResult, setSpec.
 */
export function mountViews(info, actions) {
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
    setShared: actions.setShared,
    buildControls: (container, opts) => buildControls(container, { t, ...opts }),
    showResult: actions.showResult,
    clearResult: actions.clearResult,
    setSpec: actions.setSpec,
  };
  const shown = embedViews(viewsFor(info), app.embed);
  const open = openViews(shown);
  for (const view of shown) {
    const titleId = `view-${view.id}-title`;
    const explain = typeof view.explain === 'function' ? view.explain(info) : view.explain;
    const body = h('div', { class: 'view-body' });
    // A lazy view's title comes with its code: until then the heading (a folded view's summary)
    // says it is loading, as its table-of-contents link does, rather than being empty.
    const title = h('h3', { id: titleId, text: t.tr(view.title) || t('app.viewLoading') });
    const folded = !app.embed && !open.has(view.id);
    const head = h('header', { class: 'view-head' },
      title,
      explain ? h('p', { class: 'view-explain', text: t.tr(explain) }) : null);
    // An advanced view is folded: its header is the summary, and it mounts only once opened.
    const fold = folded ? h('details', { class: 'view-fold' }, h('summary', { class: 'view-summary' }, head), body) : null;
    // Named by its title once it has one: lazy views waiting for theirs would all be regions named
    // "Loading this view…", landmarks nobody can tell apart.
    const section = h('section', {
      class: `view card view-${view.id}${folded ? ' is-folded' : ''}`, id: `view-${view.id}`, 'aria-labelledby': view.lazy ? null : titleId, tabindex: -1,
    }, fold ?? [head, body]);
    app.viewsBox.append(section);
    const entry = { view, handle: null, section, body, fold };
    app.views.push(entry);
    // The table of contents fetches every lazy view's code for its title (web/app/toc.js): the
    // heading takes it too, so a folded view's summary names the view before it is opened.
    if (view.lazy) {
      view.load().then((real) => {
        if (!app.views.includes(entry) || !real.title) return;
        title.textContent = t.tr(real.title);
        section.setAttribute('aria-labelledby', titleId);
      }).catch(() => {});
    }
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
  app.mountedKey = layoutKey(info);
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
      entry.handle?.update(currentState({ changed: new Set(EVERYTHING), stale: app.stale }));
    }
  } catch (err) {
    console.error(`view ${view.id} failed to mount`, err);
  }
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
      entry.section.setAttribute('aria-labelledby', head.querySelector('h3').id);
      if (explain) head.append(h('p', { class: 'view-explain', text: t.tr(explain) }));
      body.replaceChildren();
      entry.handle = real.mount(body, ctx);
      entry.view = { ...real, lazy: false };
      if (entry.handle) watchSight(entry);
      if (app.good[app.kind]) {
        entry.handle?.update(currentState({ changed: new Set(EVERYTHING), stale: app.stale }));
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

/**
 * Hands a state to one view, timed (the `view-update` event). A view that throws keeps what it
 * drew last and says why in its section; its next update that succeeds takes the message away.
 */
function runView(entry, next) {
  const { view, handle } = entry;
  try {
    const t0 = performance.now();
    handle.update(next);
    emit('view-update', { id: view.id, ms: performance.now() - t0 });
    showViewError(entry, null);
  } catch (err) {
    console.error(`view ${view.id} failed to update`, err);
    showViewError(entry, err);
  }
}

/** The line above a view's body that says its last update failed (err), or nothing (null). */
function showViewError(entry, err) {
  if (!err) {
    if (entry.error && !entry.error.hidden) {
      entry.error.hidden = true;
      entry.error.textContent = '';
      delete entry.section.dataset.error;
    }
    return;
  }
  entry.error ??= entry.body.parentNode.insertBefore(h('p', { class: 'field-error view-error', role: 'status' }), entry.body);
  entry.error.textContent = app.t('app.viewFailed', err?.message ?? String(err));
  entry.error.hidden = false;
  entry.section.dataset.error = 'update';
}

/** A state with what the view missed while out of sight merged into its changes (and forgotten). */
function catchUp(entry, next) {
  const missed = entry.missed;
  entry.missed = null;
  return missed ? { ...next, changed: new Set([...missed.changed, ...next.changed]) } : next;
}

/**
 * A link's ~x.go=<view id> (e.g. Learn's link to the magnitudes view): that view is unfolded,
 * brought to the top of the screen and focused, once. The target is not state: it leaves the
 * shared state (and so the address bar) as soon as it is followed.
 */
function goToView(shared) {
  const id = shared.go;
  delete shared.go;
  const entry = app.views.find((e) => e.view.id === id);
  if (!entry) return;
  if (entry.fold && !entry.fold.open) entry.fold.open = true;
  jumpTo(entry.section);   // as the table of contents does: kept in place while views above arrive
}

/**
 * Hands a new state to the mounted views. A view out of sight (web/views/lazy.js watchVisibility)
 * does no work: it keeps the latest state and the union of what changed, and catches up when it
 * comes into view, so a slider drag recomputes and redraws only what the user can see.
 */
export function updateViews(state) {
  if (typeof state.shared?.go === 'string') goToView(state.shared);
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

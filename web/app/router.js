// What the URL fragment shows: the explorer at a permalink or catalogue link (#v1/…, #kind), or a
// page beside it (web/app/pages.js: #learn…, #arena…), on load, on every hashchange and when the
// language changes. A damaged link keeps what is on screen (or the defaults, on load) and says why.
import { LANGS } from '../i18n/index.js';
import { h } from '../plot/dom.js';
import { decodePermalink, DEFAULT_LANG, VIEW_DEFAULTS } from '../share/permalink.js';
import { hideNotice, showDroppedNotice, showNotice } from '../share/page.js';
import { renderSections } from './catalogue.js';
import { cancelScheduled } from './compute.js';
import { showKind } from './explorer.js';
import { applyLinkLang, chooseLang } from './language.js';
import { PAGES, explorerHash, pageHash, pageRoute } from './pages.js';
import { app } from './state.js';
import { cancelUrl, currentHash, replaceHash, scheduleUrl } from './url.js';
import { destroyViews } from './view-host.js';

/** The view state a versioned link states in full: nothing of the previous one carries over. */
export const linkView = (link) => ({ ...VIEW_DEFAULTS, compare: null, ...link.view });

/** The reader picks a language: the page or the kind shown is drawn again in it. */
export function setLang(lang) {
  if (!chooseLang(lang)) return;
  if (app.page) {
    const { route } = app.page;
    showPage({ ...route, lang }, { remount: true });
    replaceHash(pageHash(route.page, route.path, route.params, lang));
  } else {
    showKind(app.kind, app.specs[app.kind]);
    scheduleUrl();
  }
  document.querySelector(`#lang [lang="${lang}"]`)?.focus();
}

/** Shows a decoded link: its kind, spec, view state and language. */
function applyLink(link, { focus = false } = {}) {
  hideNotice();
  if (link.version >= 1) {
    applyLinkLang(link.lang ?? DEFAULT_LANG);
    app.shared[link.kind] = linkView(link);
    delete app.loaded[link.kind];
  }
  showKind(link.kind, link.spec, { focus: focus && link.kind !== app.kind });
  if (link.dropped?.length) showDroppedNotice(app.t, link.dropped);
}

export function onHashChange() {
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

/** Shows a page route: mounts the page (its code loads on demand), or updates the one shown. */
export async function showPage(route, { remount = false } = {}) {
  const root = document.documentElement;
  if (app.page && app.page.id === route.page && !remount) {
    app.page.route = route;
    app.page.handle?.update?.(route);
    return;
  }
  hidePage({ keepHidden: true });
  destroyViews();
  cancelScheduled();
  cancelUrl();
  const token = {};
  app.page = { id: route.page, route, handle: null, token };
  root.dataset.page = route.page;
  root.dataset.pageState = 'loading';
  document.querySelector('.layout').hidden = true;
  const host = document.getElementById('page');
  host.hidden = false;
  host.replaceChildren(h('p', { class: 'page-loading', text: app.t('app.loading') }));
  renderSections();
  const failed = (err) => {
    host.replaceChildren(h('p', { class: 'load-error', role: 'alert', text: app.t('app.loadFailed', err?.message ?? String(err)) }));
    root.dataset.pageState = 'error';
  };
  let mod;
  try {
    mod = (await PAGES[route.page]()).default;
  } catch (err) {
    if (app.page?.token !== token) return;
    failed(err);
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
    failed(err);
    return;
  }
  // 'ready' means on screen: on the first load the page host is shown only once the page's
  // stylesheets have applied (web/app/app.js then adds pe-booted and announces it ready).
  root.dataset.pageState = root.classList.contains('pe-booted') ? 'ready' : 'mounted';
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
      replaceHash(hash);
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

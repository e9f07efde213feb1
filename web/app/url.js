// The address bar: the explorer's state as a versioned permalink in the URL fragment
// (#v1/sinusoidal?dim=32&~map=cividis, web/share/permalink.js): the last good spec, the shared
// view state and the language. Written a moment after the last change, never over a navigation.
import { defaults } from '../api/pe.js';
import { encodePermalink } from '../share/permalink.js';
import { app } from './state.js';

/** How long the address bar waits after a change before it is written (ms). */
const URL_DELAY = 250;

/**
 * The fragment of the current state (#v1/…): the last spec that computed, else (the kernels may
 * still be compiling) the one the page opened with, else the kind's defaults (pure JS).
 */
export function currentHash() {
  const kind = app.kind;
  const spec = app.linkSpec[kind] ?? app.specs[kind] ?? defaults(kind);
  return encodePermalink({ kind, spec, view: app.shared[kind], lang: app.lang });
}

/** The shareable URL of the current state (without ?embed). */
export function currentLink() {
  const search = new URLSearchParams(location.search);
  search.delete('embed');
  const q = search.toString();
  return `${location.href.split(/[?#]/)[0]}${q ? `?${q}` : ''}${currentHash()}`;
}

/** Puts `hash` in the address bar without a new history entry (and without a hashchange). */
export function replaceHash(hash) {
  if (location.hash !== hash) history.replaceState(null, '', `${location.pathname}${location.search}${hash}`);
}

export function scheduleUrl() {
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
    replaceHash(currentHash());
    document.documentElement.dataset.link = 'written';
  }, URL_DELAY);
}

export function cancelUrl() {
  clearTimeout(app.urlTimer);
}

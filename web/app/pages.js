// The page's sections beside the explorer: whole pages with their own route in the URL fragment.
//
//   #learn                the Learn path's index;  #learn/<step-id>  one step
//   #arena                the Arena;               #arena?<experiment>  a given experiment
//   …?~lang=ko            any page route may carry the language, as permalinks do
//
// A page module (web/pages/<id>/index.js, loaded on demand) exports
//   default { id, mount(container, ctx) → { update(route), destroy() } }
// ctx: { pe, t, lang, route, hashFor(path, params), replaceLink(path, params), explorerHash(kind, spec) }
// `update(route)` runs when the fragment changes inside the same page (another step, another
// experiment); a language switch mounts the page again. Pages import from web/views/, web/model/,
// web/plot/, web/api/ and web/share/ (downward), never from web/app/.
import { encodePermalink } from '../share/permalink.js';

export const PAGES = {
  learn: () => import('../pages/learn/index.js'),
  arena: () => import('../pages/arena/index.js'),
};
export const PAGE_IDS = Object.keys(PAGES);

/**
 * The page a fragment names, or null for the explorer (permalinks, catalogue links, nothing).
 * @returns {{ page: string, path: string, params: URLSearchParams, lang: string | null } | null}
 */
export function pageRoute(hash) {
  const m = /^#([a-z]+)(?:\/([A-Za-z0-9_-]*))?(?:\?(.*))?$/.exec(typeof hash === 'string' ? hash : '');
  if (!m || !Object.hasOwn(PAGES, m[1])) return null;
  const params = new URLSearchParams(m[3] ?? '');
  const lang = params.get('~lang');
  params.delete('~lang');
  return { page: m[1], path: m[2] ?? '', params, lang };
}

/** The fragment of a page route: path (a step id, or '') and params (an object or URLSearchParams). */
export function pageHash(page, path = '', params = null, lang = 'en') {
  const q = [...new URLSearchParams(params ?? {})].filter(([k]) => k !== '~lang');
  if (lang && lang !== 'en') q.push(['~lang', lang]);
  // encodeURIComponent, not URLSearchParams' form encoding: "~" and "," stay readable.
  const qs = q.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v).replace(/%2C/g, ',')}`).join('&');
  return `#${page}${path ? `/${path}` : ''}${qs ? `?${qs}` : ''}`;
}

/** The explorer's permalink for a spec (what "open this in the explorer" links to). */
export function explorerHash(kind, spec, lang = 'en', view = undefined) {
  return encodePermalink({ kind, spec, view, lang });
}

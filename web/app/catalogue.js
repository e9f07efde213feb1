// The page's frame around the explorer: the header (title, tagline, the links to the explorer and
// the pages, the engine line) and the catalogue of kinds, grouped by each kind's schema `group`
// (its family's name everywhere: c/, web/api/, web/views/, tests/), headed by group.<name>.
import { SCHEMA } from '../api/pe.js';
import { h } from '../plot/dom.js';
import { PAGE_IDS, pageHash } from './pages.js';
import { app, groupOf } from './state.js';
import { currentHash } from './url.js';

const GROUP_ORDER = ['absolute', 'relative', 'rope', 'vision', 'attention'];

/** The header's texts in the page language (the language buttons: web/app/language.js). */
export function renderHeader() {
  const { t } = app;
  document.documentElement.lang = app.lang;
  document.title = t('app.pageTitle');
  document.getElementById('title').textContent = t('app.title');
  document.getElementById('tagline').textContent = t('app.tagline');
  renderSections();
  const engine = document.getElementById('engine');
  if (app.pe) {
    engine.textContent = `${app.pe.simd ? t('app.simdOn') : t('app.simdOff')} ${t('app.private')}`;
    engine.dataset.simd = String(!!app.pe.simd);
  } else engine.textContent = t('app.loading');
}

/**
 * The skip link goes to what is shown: the explorer's panel, or the page (Learn, Arena) in its place.
 * It moves focus itself: its fragment would be read as a route (#main is not a page, so it would
 * leave the page for the explorer).
 */
function renderSkip() {
  const skip = document.getElementById('skip');
  if (!skip) return;
  const target = app.page ? 'page' : 'main';
  skip.textContent = app.t(app.page ? 'app.skipPage' : 'app.skip');
  skip.setAttribute('href', `#${target}`);
  skip.onclick = (event) => {
    event.preventDefault();
    document.getElementById(target)?.focus();
  };
}

/** The header's links to the explorer and the pages; the current one is marked. */
export function renderSections() {
  const { t } = app;
  renderSkip();
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

export function renderCatalogue() {
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

/** Marks the chosen kind in the catalogue. */
export function markCatalogue() {
  for (const a of document.querySelectorAll('#catalogue .cat-item')) {
    if (a.dataset.kind === app.kind) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
}

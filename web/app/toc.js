// The table of contents of the kind's views, under its heading: links that scroll to a view's
// section without touching the address bar (the fragment holds the permalink). A lazy view's
// title arrives with its family's code, fetched here without mounting anything. On phones the
// list is folded.
import { h } from '../plot/dom.js';
import { app } from './state.js';

/** How long a jump keeps its section in place while the views above it arrive (ms). */
const SETTLE_MS = 2000;

export function renderToc() {
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

/** Opens a folded view's section (its view mounts). */
function unfold(entry) {
  if (entry.fold && !entry.fold.open) entry.fold.open = true;
}

/**
 * Scrolls a view's section to the top and focuses it. Views above it may still be arriving (their
 * code loads near the screen) and change height: it is kept in place until they settle (2 s) or
 * the reader scrolls, types or taps.
 */
export function jumpTo(section) {
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
  const timer = setTimeout(stop, SETTLE_MS);
  observer.observe(app.viewsBox);
  for (const ev of inputs) addEventListener(ev, stop, true);
}

// Views whose code loads on demand. A family's views (web/views/<family>/) are listed in the
// page's first bundle only by `id` and `kinds`; their code, strings and styles come in a chunk of
// their own when a section that shows one of them comes near the screen. This keeps the first
// page (sinusoidal) small: the page weight budget is 250 KB gzipped, WASM included.
//
//   lazyView({ id, kinds, load: () => import('./family/views.js').then((m) => m.byId.config) })
//
// The shell (web/app/app.js) sees `view.load` and mounts the real view once it has arrived, with the
// latest state; until then the section shows a one-line placeholder.

/** A view descriptor whose module is fetched by `load()` (a promise of the view object). */
export function lazyView({ id, kinds, load }) {
  let pending = null;
  return {
    id,
    kinds,
    lazy: true,
    /** The real view, loaded once and shared by every mount. */
    load: () => (pending ??= load()),
  };
}

/**
 * Calls `onNear` once, when `element` comes within `margin` of the viewport (at once where
 * IntersectionObserver is missing). Returns a function that cancels it.
 */
export function whenNearViewport(element, onNear, margin = '800px') {
  if (typeof IntersectionObserver !== 'function') {
    onNear();
    return () => {};
  }
  const observer = new IntersectionObserver((entries) => {
    if (entries.some((e) => e.isIntersecting)) {
      observer.disconnect();
      onNear();
    }
  }, { rootMargin: margin });
  observer.observe(element);
  return () => observer.disconnect();
}

/**
 * Watches whether `element` is within `margin` of the viewport: returns { visible, stop } where
 * visible is null until the first report, then true or false; `onShow()` runs each time it comes
 * back into sight after having been out of it. A hidden element (display: none) counts as out of
 * sight. Where IntersectionObserver is missing, everything counts as visible.
 */
export function watchVisibility(element, onShow, margin = '200px') {
  const sight = { visible: null, stop: () => {} };
  if (typeof IntersectionObserver !== 'function') {
    sight.visible = true;
    return sight;
  }
  const observer = new IntersectionObserver((entries) => {
    const was = sight.visible;
    sight.visible = entries[entries.length - 1].isIntersecting;
    if (sight.visible && was === false) onShow();
  }, { rootMargin: margin });
  observer.observe(element);
  sight.stop = () => observer.disconnect();
  return sight;
}

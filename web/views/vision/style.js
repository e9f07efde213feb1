// The vision views' stylesheet (vision.css beside this file), added to the page once, when the
// first of them mounts. A <link> to a same-origin file is what the page's CSP allows for styles.
// Returns a promise that settles once it has loaded (for canvases that read colours from it).
import { h } from '../../plot/dom.js';

let ready = null;

export function ensureVisionStyles() {
  if (!ready) {
    const link = h('link', { rel: 'stylesheet', href: new URL('./vision.css', import.meta.url).href });
    ready = new Promise((resolve) => {
      link.addEventListener('load', resolve, { once: true });
      link.addEventListener('error', resolve, { once: true });
    });
    document.head.append(link);
  }
  return ready;
}

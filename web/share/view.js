// The "Share & export" view (every kind): the permalink of what is on screen, embed snippets,
// downloads and copy as code. The body is ./panel.js; this module hands it the page's modules it
// needs (permalinks, the figure's data). The whole view loads on demand (./views.js, ../lazy.js).
import { both } from '../i18n/index.js';
import { encodePermalink, compactSpec } from './permalink.js';
import { figureOf } from '../model/figure.js';
import { mountPanel } from './panel.js';

export default {
  id: 'share',
  kinds: () => true,
  title: both('share.title'),
  explain: both('share.explain'),

  mount(el, ctx) {
    const panel = mountPanel(el, ctx, { encodePermalink, compactSpec, figureOf });
    el.dataset.ready = 'true';
    return panel;
  },
};

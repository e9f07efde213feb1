// The precision lab's views (kind rope_precision), in the order the page shows them (registered
// in web/app/views.js). Their code loads on demand (views.js, ../lazy.js).
//   precision-position    worst angle error of every row against the position (log scale)
//   precision-pair        every pair's error at one chosen position, beside half its step
//   precision-collisions  the first position whose cos/sin row equals the one before, and why
//   precision-drift       q·k at a fixed distance d against the absolute position
//   precision-compare     the current recipe beside a second one
//   precision-model       a model's config, context and recipe: a verdict, its numbers, code
import { lazyView } from '../lazy.js';

const load = (id) => () => import('./views.js').then((m) => m.byId[id]);
const view = (id) => lazyView({ id, kinds: ['rope_precision'], load: load(id) });

export default ['precision-position', 'precision-pair', 'precision-collisions', 'precision-drift', 'precision-compare', 'precision-model'].map(view);

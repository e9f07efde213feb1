// The relative family's views, in the order the page shows them (registered in web/app/views.js).
// Their code loads on demand (views.js, ../lazy.js).
//   relative-distance  alibi, t5, shaw, distance: every scheme's bias (or index) against key − query
//   alibi-heads        alibi: every head at once, with the slope list
import { lazyView } from '../lazy.js';

const load = (id) => () => import('./views.js').then((m) => m.byId[id]);

export default [
  lazyView({ id: 'relative-distance', kinds: ['alibi', 't5', 'shaw', 'distance'], load: load('relative-distance') }),
  lazyView({ id: 'alibi-heads', kinds: ['alibi'], load: load('alibi-heads') }),
];

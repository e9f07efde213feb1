// The bias views, in the order the page shows them (registered in web/views/index.js). Their code
// loads on demand (views.js, ../lazy.js).
//   bias-distance    alibi, t5, shaw, distance: every scheme's bias (or index) against key − query
//   bias-heads       alibi: every head at once, with the slope list
//   bias-simple      integer, binary, sinusoidal: side by side, and why the simple ones fail
//   bias-similarity  learned, sinusoidal: cosine similarity of every pair of positions
import { lazyView } from '../lazy.js';

const load = (id) => () => import('./views.js').then((m) => m.byId[id]);

export default [
  lazyView({ id: 'bias-distance', kinds: ['alibi', 't5', 'shaw', 'distance'], load: load('bias-distance') }),
  lazyView({ id: 'bias-heads', kinds: ['alibi'], load: load('bias-heads') }),
  lazyView({ id: 'bias-simple', kinds: ['integer', 'binary', 'sinusoidal'], load: load('bias-simple') }),
  lazyView({ id: 'bias-similarity', kinds: ['learned', 'sinusoidal'], load: load('bias-similarity') }),
];

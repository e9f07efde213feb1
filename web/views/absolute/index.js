// The absolute family's views, in the order the page shows them (registered in web/app/views.js).
// Their code loads on demand (views.js, ../lazy.js).
//   absolute-simple      integer, binary, sinusoidal: side by side, and why the simple ones fail
//   absolute-similarity  learned, sinusoidal: cosine similarity of every pair of positions
//   absolute-sine-likeness learned (a loaded table too): how much of each column one sine wave explains
//   absolute-embed-scale every additive table: ‖P‖ next to the token embeddings ‖E‖, with and without √d_model
import { lazyView } from '../lazy.js';

const load = (id) => () => import('./views.js').then((m) => m.byId[id]);

export default [
  lazyView({ id: 'absolute-simple', kinds: ['integer', 'binary', 'sinusoidal'], load: load('absolute-simple') }),
  lazyView({ id: 'absolute-similarity', kinds: ['learned', 'sinusoidal'], load: load('absolute-similarity') }),
  lazyView({ id: 'absolute-sine-likeness', kinds: ['learned'], load: load('absolute-sine-likeness') }),
  lazyView({ id: 'absolute-embed-scale', kinds: (info) => info.class === 'table' && info.additive && info.rank === 2, load: load('absolute-embed-scale') }),
];

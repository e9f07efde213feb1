// The attention views, in the order the page shows them (registered in web/app/views.js). Their
// code loads on demand (views.js, ../lazy.js).
//   heads          every head's pattern and their average, with token read-out on hover
//   row            one query's weights over the keys (a curve per head, Chart.js)
//   sentence       a sentence as the content, shuffled: the permutation lesson, measured
//   extrapolation  entropy and local mass against the query position up to 4× a training length
import { lazyView } from '../lazy.js';

const load = (id) => () => import('./views.js').then((m) => m.byId[id]);
const attention = (id) => lazyView({ id, kinds: ['attention'], load: load(id) });

export default [attention('attention-heads'), attention('attention-row'), attention('attention-sentence'), attention('attention-extrapolation')];

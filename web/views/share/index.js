// The share views, in the order the page shows them (registered in web/views/index.js). Their
// code loads on demand (views.js, ../lazy.js).
import { lazyView } from '../lazy.js';

export default [lazyView({ id: 'share', kinds: () => true, load: () => import('./views.js').then((m) => m.byId.share) })];

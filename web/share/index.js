// The share views, in the order the page shows them (registered in web/app/views.js). Their
// code loads on demand (views.js, ../lazy.js).
import { lazyView } from '../views/lazy.js';

export default [lazyView({ id: 'share', kinds: () => true, load: () => import('./views.js').then((m) => m.byId.share) })];

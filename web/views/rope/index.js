// The rope views, in the order the page shows them (registered in web/app/views.js): paste a
// model's config first (it sets the parameters), then what the frequencies do. Their code loads
// on demand (views.js, ../lazy.js).
import { lazyView } from '../lazy.js';

const load = (id) => () => import('./views.js').then((m) => m.byId[id]);
const rope = (id) => lazyView({ id, kinds: ['rope'], load: load(id) });

export default [rope('rope-config'), rope('rope-gallery'), rope('rope-wavelengths'), rope('rope-scaling'), rope('rope-longrope'), rope('rope-relative'), rope('rope-pair')];

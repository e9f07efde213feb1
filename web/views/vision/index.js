// The vision views, in the order the page shows them (registered in web/app/views.js). Their
// code loads on demand (views.js, ../lazy.js).
//   mrope-builder   compose text/image/video segments and read the M-RoPE ids
//   similarity      patch similarity pictures: sinusoidal2d (every layout), sinusoidal3d (frames),
//                   axial 2-D RoPE (rope with grid_height/grid_width)
import { lazyView } from '../lazy.js';

const load = (id) => () => import('./views.js').then((m) => m.byId[id]);

export default [
  lazyView({ id: 'mrope-builder', kinds: ['mrope'], load: load('mrope-builder') }),
  lazyView({ id: 'vision-similarity', kinds: ['sinusoidal2d', 'sinusoidal3d', 'rope'], load: load('vision-similarity') }),
];

// The vision views, in the order the page shows them (registered in web/app/views.js). Their
// code loads on demand (views.js, ../lazy.js).
//   mrope-builder   compose text/image/video segments and read the M-RoPE ids
//   similarity      patch similarity pictures: sinusoidal2d (every layout), sinusoidal3d (frames),
//                   axial 2-D RoPE (rope with grid_height/grid_width)
//   vision-learned  learned2d: a learned table's patch similarity before and after a bicubic resize
//   vision-sum-concat  learned2d: the cross terms of x = e + p against x = [e; p], measured
import { lazyView } from '../lazy.js';

const load = (id) => () => import('./views.js').then((m) => m.byId[id]);

export default [
  lazyView({ id: 'mrope-builder', kinds: ['mrope'], load: load('mrope-builder') }),
  lazyView({ id: 'vision-learned', kinds: ['learned2d'], load: load('vision-learned') }),
  lazyView({ id: 'vision-sum-concat', kinds: ['learned2d'], load: load('vision-sum-concat') }),
  lazyView({ id: 'vision-similarity', kinds: ['sinusoidal2d', 'sinusoidal3d', 'rope'], load: load('vision-similarity') }),
];

// Every kind's kernel binding, one module per encoding family. A binding is
//   { args: [C argument names], compute(k, spec) → { data, ...extras } }
// where k.wasm is the module's exports and k.run(io, call) allocates inputs/outputs in WASM
// memory, calls, copies the outputs out and frees (see web/api/pe.js).
import sinusoidal from './sinusoidal.js';
import vision from './vision.js';
import mrope from './mrope.js';
import rope from './rope.js';
import precision from './precision.js';
import absolute from './absolute.js';
import relative from './relative.js';
import attention from './attention.js';

// One module per family, as web/api/schema/index.js lists the schemas: every kind of SCHEMA has
// exactly one binding here (tests/house/registry.test.js).
export const KERNELS = Object.assign({}, sinusoidal, vision, mrope, rope, precision, absolute, relative, attention);

// Not a kind: the heatmap colour maps (c/colormap.c) behind pe.colorize. Non-enumerable, so
// anything that lists KERNELS as kinds does not see it.
import colormap from './colormap.js';
Object.defineProperty(KERNELS, 'colorize', { value: colormap, enumerable: false });

// Not a kind either: the heatmap path (c/heatmap.c) behind pe.heatmap and pe.heatmapRange.
import heatmap from './heatmap.js';
Object.defineProperty(KERNELS, 'heatmap', { value: heatmap, enumerable: false });

// Not a kind either: the Arena's trainer (c/arena_*.c) behind pe.trainer.
import arena from './arena.js';
Object.defineProperty(KERNELS, 'arena', { value: arena, enumerable: false });

// The Arena's binding moved to web/api/kernels/arena.js (one binding place for every family);
// this re-export keeps older import paths working until they point there.
export * from './kernels/arena.js';

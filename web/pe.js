// PE Lab's public JS API (the path README, benches, tests and embedders import). The code lives in
// web/api/pe.js, the bottom layer of web/ (see web/README.md); this file only re-exports it.
//
//   import { createPE, PEError } from './web/pe.js';
//   const pe = await createPE();                       // { simd: 'auto' | true | false }
//   const { data, shape } = pe.compute({ kind: 'sinusoidal', length: 128, dim: 64 });
//   pe.release(data);      // done with it: the next output of its size is copied into its memory
export * from './api/pe.js';

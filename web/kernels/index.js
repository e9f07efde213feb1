// Every kind's kernel binding, one module per encoding family. A binding is
//   { args: [C argument names], compute(k, spec) → { data, ...extras } }
// where k.wasm is the module's exports and k.run(io, call) allocates inputs/outputs in WASM
// memory, calls, copies the outputs out and frees (see web/pe.js).
import sinusoidal from './sinusoidal.js';
import vision from './vision.js';

export const KERNELS = {
  ...sinusoidal,
  ...vision,
};

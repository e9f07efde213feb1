// How the kinds `integer`, `binary` and `learned` call their C kernels (c/absolute.c); the
// `learned` binding also carries loadMatrix, which reads a trained table (web/api/kernels/matrix.js).
import { loadMatrix } from './matrix.js';

const flag = (b) => (b === true ? 1 : b === false ? 0 : -1);   // -1: C rejects a non-boolean

export default {
  integer: {
    args: ['out', 'length', 'dim', 'normalize'],
    compute(k, s) {
      return k.run({ outputs: { data: s.length * s.dim } }, (p) =>
        k.wasm.pe_integer(p.data, s.length, s.dim, flag(s.normalize)));
    },
  },
  binary: {
    args: ['out', 'length', 'dim'],
    compute(k, s) {
      return k.run({ outputs: { data: s.length * s.dim } }, (p) =>
        k.wasm.pe_binary(p.data, s.length, s.dim));
    },
  },
  learned: {
    args: ['out', 'length', 'dim', 'std', 'seed'],
    compute(k, s) {
      // seed goes as a double: C checks that it is an integer in [0, 2^32 − 1].
      return k.run({ outputs: { data: s.length * s.dim } }, (p) =>
        k.wasm.pe_learned(p.data, s.length, s.dim, s.std, s.seed));
    },
    loadMatrix,
  },
};

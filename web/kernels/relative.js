// How the kinds `t5`, `shaw` and `distance` call their C kernels (c/relative.c).
import { MODE } from './alibi.js';

const FUNCTION = { linear: 0, log: 1, gaussian: 2, exponential: 3 };
const flag = (b) => (b === true ? 1 : b === false ? 0 : -1);   // -1: C rejects a non-boolean

export default {
  t5: {
    args: ['out', 'length', 'num_buckets', 'max_distance', 'bidirectional'],
    compute(k, s) {
      return k.run({ outputs: { data: s.length * s.length } }, (p) =>
        k.wasm.pe_t5(p.data, s.length, s.num_buckets, s.max_distance, flag(s.bidirectional)));
    },
  },
  shaw: {
    args: ['out', 'length', 'max_relative_position'],
    compute(k, s) {
      return k.run({ outputs: { data: s.length * s.length } }, (p) =>
        k.wasm.pe_shaw(p.data, s.length, s.max_relative_position));
    },
  },
  distance: {
    args: ['out', 'length', 'function', 'strength', 'scale', 'mode'],
    compute(k, s) {
      return k.run({ outputs: { data: s.length * s.length } }, (p) =>
        k.wasm.pe_distance(p.data, s.length, FUNCTION[s.function] ?? -1, s.strength, s.scale, MODE[s.mode] ?? -1));
    },
  },
};

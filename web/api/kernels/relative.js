// How the relative family's kinds `alibi`, `t5`, `shaw` and `distance` call their C kernels
// (c/relative.c).
export const MODE = { causal: 0, symmetric: 1 };

export const FUNCTION = { linear: 0, log: 1, gaussian: 2, exponential: 3 };
const flag = (b) => (b === true ? 1 : b === false ? 0 : -1);   // -1: C rejects a non-boolean

export default {
  alibi: {
    // The C arguments in order, named by the spec field each comes from: PE_ERR_ARG(k) → args[k-1].
    args: ['out', 'slopes', 'length', 'heads', 'mode'],
    compute(k, s) {
      return k.run({ outputs: { data: s.heads * s.length * s.length, slopes: s.heads } }, (p) =>
        k.wasm.pe_alibi(p.data, p.slopes, s.length, s.heads, MODE[s.mode] ?? -1));   // -1: C rejects an unknown mode
    },
    // The profile (see pe.relativeProfile): (heads, 2·length − 1), and the slopes.
    profile(k, s) {
      return k.run({ outputs: { data: s.heads * (2 * s.length - 1), slopes: s.heads } }, (p) =>
        k.wasm.pe_alibi_profile(p.data, p.slopes, s.length, s.heads, MODE[s.mode] ?? -1));
    },
  },
  t5: {
    args: ['out', 'length', 'num_buckets', 'max_distance', 'bidirectional'],
    compute(k, s) {
      return k.run({ outputs: { data: s.length * s.length } }, (p) =>
        k.wasm.pe_t5(p.data, s.length, s.num_buckets, s.max_distance, flag(s.bidirectional)));
    },
    profile(k, s) {
      return k.run({ outputs: { data: 2 * s.length - 1 } }, (p) =>
        k.wasm.pe_t5_profile(p.data, s.length, s.num_buckets, s.max_distance, flag(s.bidirectional)));
    },
  },
  shaw: {
    args: ['out', 'length', 'max_relative_position'],
    compute(k, s) {
      return k.run({ outputs: { data: s.length * s.length } }, (p) =>
        k.wasm.pe_shaw(p.data, s.length, s.max_relative_position));
    },
    profile(k, s) {
      return k.run({ outputs: { data: 2 * s.length - 1 } }, (p) => k.wasm.pe_shaw_profile(p.data, s.length, s.max_relative_position));
    },
  },
  distance: {
    args: ['out', 'length', 'function', 'strength', 'scale', 'mode'],
    compute(k, s) {
      return k.run({ outputs: { data: s.length * s.length } }, (p) =>
        k.wasm.pe_distance(p.data, s.length, FUNCTION[s.function] ?? -1, s.strength, s.scale, MODE[s.mode] ?? -1));
    },
    profile(k, s) {
      return k.run({ outputs: { data: 2 * s.length - 1 } }, (p) =>
        k.wasm.pe_distance_profile(p.data, s.length, FUNCTION[s.function] ?? -1, s.strength, s.scale, MODE[s.mode] ?? -1));
    },
  },
};

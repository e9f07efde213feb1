// How the `sinusoidal` kind calls its C kernel (c/sinusoidal.c).
export const LAYOUT = { interleaved: 0, concat: 1, tensor2tensor: 2 };

export default {
  sinusoidal: {
    // The C arguments in order, named by the spec field each comes from: PE_ERR_ARG(k) → args[k-1].
    args: ['out', 'length', 'dim', 'base', 'layout', 'offset'],
    compute(k, s) {
      return k.run({ outputs: { data: s.length * s.dim } }, (p) =>
        k.wasm.pe_sinusoidal(p.data, s.length, s.dim, s.base, LAYOUT[s.layout] ?? -1, s.offset));   // -1: C rejects an unknown layout
    },
  },
};

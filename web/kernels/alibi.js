// How the `alibi` kind calls its C kernel (c/alibi.c).
export const MODE = { causal: 0, symmetric: 1 };

export default {
  alibi: {
    // The C arguments in order, named by the spec field each comes from: PE_ERR_ARG(k) → args[k-1].
    args: ['out', 'slopes', 'length', 'heads', 'mode'],
    compute(k, s) {
      return k.run({ outputs: { data: s.heads * s.length * s.length, slopes: s.heads } }, (p) =>
        k.wasm.pe_alibi(p.data, p.slopes, s.length, s.heads, MODE[s.mode] ?? -1));   // -1: C rejects an unknown mode
    },
  },
};

// How the 2-D and 3-D sinusoidal kinds call their C kernels (c/vision.c).
export const LAYOUT_2D = { mae: 0, sum: 1, tatp22: 2 };

export default {
  sinusoidal2d: {
    args: ['out', 'height', 'width', 'dim', 'base', 'layout'],
    compute(k, s) {
      return k.run({ outputs: { data: s.height * s.width * s.dim } }, (p) =>
        k.wasm.pe_sinusoidal2d(p.data, s.height, s.width, s.dim, s.base, LAYOUT_2D[s.layout] ?? -1));
    },
  },
  sinusoidal3d: {
    args: ['out', 'depth', 'height', 'width', 'dim', 'base'],
    compute(k, s) {
      return k.run({ outputs: { data: s.depth * s.height * s.width * s.dim } }, (p) =>
        k.wasm.pe_sinusoidal3d(p.data, s.depth, s.height, s.width, s.dim, s.base));
    },
  },
};

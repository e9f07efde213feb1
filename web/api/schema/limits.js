// Limits shared by every kind; the C side has the same numbers in c/pe.h (tests/house/constants.test.js
// compares them).

/** Largest output, in float32 elements, that `compute` accepts (2^26 floats = 256 MiB). */
export const PE_MAX_ELEMENTS = 2 ** 26;

/** Positions are 32-bit in the kernels; offset + length must stay below this. */
export const PE_MAX_POSITION = 2 ** 31 - 1;

export const PE_MAX_LENGTH = 2 ** 20;
export const PE_MAX_DIM = 16384;

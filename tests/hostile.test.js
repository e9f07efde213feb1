// Hostile input through the public API: every spec here must give a PEError naming the field,
// never trap, never return NaN silently; afterwards a normal spec still computes the right
// values and the WASM heap has not grown. Plus a soak test: many recomputes, a flat heap.
import { describe, it, expect, beforeAll } from 'vitest';
import { createPE, KINDS } from '../web/pe.js';
import { expectRejected } from './helpers/pe.js';

const sin = { kind: 'sinusoidal', length: 16, dim: 8 };
const grid = { kind: 'sinusoidal2d', height: 4, width: 4, dim: 8 };
const cube = { kind: 'sinusoidal3d', depth: 2, height: 2, width: 2, dim: 6 };

// [description, spec, the field the PEError must name]
const HOSTILE = [
  ['a number instead of a spec', 7, 'spec'],
  ['a string instead of a spec', 'sinusoidal', 'spec'],
  ['undefined', undefined, 'spec'],
  ['a function', () => 1, 'spec'],
  ['no kind', { length: 4 }, 'kind'],
  ['unknown kind', { kind: 'quantum' }, 'kind'],
  ['kind as an array', { kind: ['sinusoidal'] }, 'kind'],
  ['kind __proto__', { kind: '__proto__' }, 'kind'],
  ['kind constructor', { kind: 'constructor' }, 'kind'],
  ['kind toString', { kind: 'toString' }, 'kind'],
  ['own __proto__ key', JSON.parse('{"kind":"sinusoidal","length":4,"dim":4,"__proto__":{"length":9}}'), '__proto__'],
  ['constructor field', { ...sin, constructor: 1 }, 'constructor'],
  ['unknown field', { ...sin, heads: 8 }, 'heads'],
  ['length NaN', { ...sin, length: NaN }, 'length'],
  ['length +Infinity', { ...sin, length: Infinity }, 'length'],
  ['length -Infinity', { ...sin, length: -Infinity }, 'length'],
  ['length negative', { ...sin, length: -16 }, 'length'],
  ['length zero', { ...sin, length: 0 }, 'length'],
  ['length fractional', { ...sin, length: 15.5 }, 'length'],
  ['length huge', { ...sin, length: 1e300 }, 'length'],
  ['length 2^32 (wraps to 0 as int32)', { ...sin, length: 2 ** 32 }, 'length'],
  ['length 2^31 (negative as int32)', { ...sin, length: 2 ** 31 }, 'length'],
  ['length a numeric string', { ...sin, length: '16' }, 'length'],
  ['length an array', { ...sin, length: [16] }, 'length'],
  ['length an object with valueOf', { ...sin, length: { valueOf: () => 16 } }, 'length'],
  ['length a BigInt', { ...sin, length: 16n }, 'length'],
  ['length a boolean', { ...sin, length: true }, 'length'],
  ['length null', { ...sin, length: null }, 'length'],
  ['dim zero', { ...sin, dim: 0 }, 'dim'],
  ['dim negative zero', { ...sin, dim: -0 }, 'dim'],
  ['dim too large', { ...sin, dim: 1e6 }, 'dim'],
  ['base NaN', { ...sin, base: NaN }, 'base'],
  ['base Infinity', { ...sin, base: Infinity }, 'base'],
  ['base zero', { ...sin, base: 0 }, 'base'],
  ['base negative', { ...sin, base: -1 }, 'base'],
  ['base exactly 1', { ...sin, base: 1 }, 'base'],
  ['base 1e308', { ...sin, base: 1e308 }, 'base'],
  ['layout unknown', { ...sin, layout: 'diagonal' }, 'layout'],
  ['layout with script', { ...sin, layout: '<img src=x onerror=alert(1)>' }, 'layout'],
  ['offset overflowing int32 with length', { ...sin, offset: 2 ** 31 - 8 }, 'offset'],
  ['offset negative', { ...sin, offset: -1 }, 'offset'],
  ['offset NaN', { ...sin, offset: NaN }, 'offset'],
  ['length x dim over the cap', { ...sin, length: 2 ** 20, dim: 128 }, 'length'],
  ['grid product over 32 bits', { ...grid, height: 4096, width: 4096, dim: 4096 }, 'height'],
  ['grid height zero', { ...grid, height: 0 }, 'height'],
  ['grid width fractional', { ...grid, width: 3.5 }, 'width'],
  ['mae with dim not a multiple of 4', { ...grid, dim: 10 }, 'dim'],
  ['3-D depth negative', { ...cube, depth: -2 }, 'depth'],
  ['3-D product over 32 bits', { ...cube, depth: 4096, height: 4096, width: 4096, dim: 1 }, 'depth'],
];

describe('hostile specs', () => {
  let pe;
  beforeAll(async () => {
    pe = await createPE();
  });

  it('has at least 40 of them', () => {
    expect(HOSTILE.length).toBeGreaterThanOrEqual(40);
  });

  it.each(HOSTILE)('%s → PEError naming the field, module intact', (_, spec, param) => {
    pe.compute(sin);   // warm: the heap already holds a small output's worth
    const error = expectRejected(pe, () => pe.compute(spec), param, undefined, () => {
      const { data } = pe.compute(sin);
      expect(data[1]).toBe(1);
      expect(Math.abs(data[8] - Math.sin(1))).toBeLessThan(2e-7);
    });
    expect(typeof error.message).toBe('string');
    expect(error.message.length).toBeGreaterThan(10);
  });

  it('did not pollute Object.prototype', () => {
    expect({}.length).toBeUndefined();
    expect(Object.prototype.length).toBeUndefined();
  });

  it('never returns NaN for any default spec', () => {
    for (const kind of KINDS) {
      const { data } = pe.compute(pe.defaults(kind));
      expect(data.some((v) => Number.isNaN(v)), kind).toBe(false);
    }
  });
});

describe('hostile files', () => {
  /** A .safetensors file: uint64 LE header length, the JSON header, `buffer` zero bytes. */
  function safetensors(header, buffer) {
    const text = new TextEncoder().encode(header);
    const bytes = new Uint8Array(8 + text.length + buffer);
    new DataView(bytes.buffer).setBigUint64(0, BigInt(text.length), true);
    bytes.set(text, 8);
    return bytes;
  }
  const f32 = (name, begin) => `"${name}":{"dtype":"F32","shape":[1,1],"data_offsets":[${begin},${begin + 4}]}`;

  it.each([
    ['a gap between two tensors', `{${f32('a', 0)},${f32('b', 8)}}`, 12, 'tensor "b": data_offsets [8, 12] begin at 8, but the data before them ends at 4'],
    ['the first tensor past 0', `{${f32('w', 4)}}`, 8, 'tensor "w": data_offsets [4, 8] begin at 4, but the data before them ends at 0'],
  ])('a .safetensors file with %s is refused, naming the tensor', async (_, header, buffer, fragment) => {
    const pe = await createPE();
    for (const name of ['a', 'b', 'w']) {
      expectRejected(pe, () => pe.loadMatrix(safetensors(header, buffer), { name }), 'bytes', fragment);
    }
    expect(pe.loadMatrix(safetensors(`{${f32('a', 0)},${f32('b', 4)}}`, 8), { name: 'b' }).shape).toEqual([1, 1]);
  });
});

describe('soak', () => {
  it('keeps the heap flat over 1,000 recomputes of varying size', async () => {
    const pe = await createPE();
    const sizes = [[7, 3], [128, 64], [513, 129], [2000, 160], [31, 1024]];
    const spec = (i) => ({ kind: 'sinusoidal', length: sizes[i % 5][0], dim: sizes[i % 5][1], offset: i });
    for (let i = 0; i < 50; i++) pe.compute(spec(i));   // warm-up reaches the largest size
    const heap = pe.memoryBytes;
    let checksum = 0;
    for (let i = 0; i < 1000; i++) {
      const { data } = pe.compute(i % 7 === 0 ? { ...grid, layout: 'sum' } : spec(i));
      checksum += data[data.length - 1];
    }
    expect(Number.isFinite(checksum)).toBe(true);
    expect(pe.memoryBytes).toBe(heap);
  });
});

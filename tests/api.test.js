// The JS API contract: createPE options, defaults, and validation of every field.
import { describe, it, expect, beforeAll } from 'vitest';
import { createPE, PEError, SCHEMA, KINDS, PE_MAX_ELEMENTS } from '../web/pe.js';
import { expectPEError, expectRejected } from './helpers/pe.js';

const valid = { kind: 'sinusoidal', length: 16, dim: 8 };

// [description, spec, the field the error must name, a fragment the message must contain]
const invalid = [
  ['not an object', 42, 'spec', 'plain object'],
  ['null', null, 'spec', 'plain object'],
  ['an array', [1, 2], 'spec', 'plain object'],
  ['no kind', { length: 4, dim: 4 }, 'kind', 'required'],
  ['unknown kind', { kind: 'sinusodial', length: 4, dim: 4 }, 'kind', 'did you mean "sinusoidal"'],
  ['kind not a string', { kind: 7 }, 'kind', 'one of'],
  ['missing length', { kind: 'sinusoidal', dim: 4 }, 'length', 'required'],
  ['missing dim', { kind: 'sinusoidal', length: 4 }, 'dim', 'required'],
  ['length 0', { ...valid, length: 0 }, 'length', 'integer in [1, 1048576]'],
  ['length negative', { ...valid, length: -3 }, 'length', 'got -3'],
  ['length fractional', { ...valid, length: 2.5 }, 'length', 'got 2.5'],
  ['length NaN', { ...valid, length: NaN }, 'length', 'got NaN'],
  ['length Infinity', { ...valid, length: Infinity }, 'length', 'got Infinity'],
  ['length as a string', { ...valid, length: '16' }, 'length', '(a string)'],
  ['length as an array', { ...valid, length: [16] }, 'length', 'an array'],
  ['length too big', { ...valid, length: 2 ** 20 + 1 }, 'length', 'got 1048577'],
  ['dim 0', { ...valid, dim: 0 }, 'dim', 'integer in [1, 16384]'],
  ['dim too big', { ...valid, dim: 16385 }, 'dim', 'got 16385'],
  ['dim null', { ...valid, dim: null }, 'dim', 'got null'],
  ['base 1', { ...valid, base: 1 }, 'base', 'finite number in (1,'],
  ['base below 1', { ...valid, base: 0.5 }, 'base', 'got 0.5'],
  ['base negative', { ...valid, base: -10000 }, 'base', 'got -10000'],
  ['base NaN', { ...valid, base: NaN }, 'base', 'got NaN'],
  ['base Infinity', { ...valid, base: Infinity }, 'base', 'got Infinity'],
  ['base a string', { ...valid, base: '1e4' }, 'base', '(a string)'],
  ['layout unknown', { ...valid, layout: 'half' }, 'layout', '"interleaved", "concat", "tensor2tensor"'],
  ['layout not a string', { ...valid, layout: 1 }, 'layout', 'got 1'],
  ['offset negative', { ...valid, offset: -1 }, 'offset', 'got -1'],
  ['offset fractional', { ...valid, offset: 0.5 }, 'offset', 'got 0.5'],
  ['offset past 2^31 - 1 - length', { ...valid, offset: 2 ** 31 - 16 }, 'offset', 'integer in [0, 2147483631]'],
  ['unknown field', { ...valid, lenght: 3 }, 'lenght', 'did you mean "length"'],
  ['unknown field __proto__', JSON.parse('{"kind":"sinusoidal","length":4,"dim":4,"__proto__":{"x":1}}'), '__proto__', 'unknown field'],
  ['output over PE_MAX_ELEMENTS', { ...valid, length: 2 ** 20, dim: 16384 }, 'length', 'PE_MAX_ELEMENTS'],
  ['output just over the cap', { ...valid, length: 4097, dim: 16384 }, 'length', String(PE_MAX_ELEMENTS)],
];

describe('JS API', () => {
  let pe;
  beforeAll(async () => {
    pe = await createPE();
  });

  it('exposes the contract: createPE, compute, defaults, PEError, simd flag', () => {
    expect(typeof pe.compute).toBe('function');
    expect(typeof pe.defaults).toBe('function');
    expect(typeof pe.simd).toBe('boolean');
    expect(KINDS).toContain('sinusoidal');
    expect(PE_MAX_ELEMENTS).toBeGreaterThanOrEqual(2 ** 26);
  });

  it('fills in every default, and the defaults compute', () => {
    const spec = pe.defaults('sinusoidal');
    expect(spec).toEqual({ kind: 'sinusoidal', length: 128, dim: 64, base: 10000, layout: 'interleaved', offset: 0 });
    expect(Object.keys(spec)).toEqual(['kind', ...Object.keys(SCHEMA.sinusoidal.fields)]);
    spec.length = 5;   // a fresh object every call
    expect(pe.defaults('sinusoidal').length).toBe(128);
    const result = pe.compute(pe.defaults('sinusoidal'));
    expect(result.shape).toEqual([128, 64]);
    expectPEError(() => pe.defaults('nope'), 'kind');
  });

  it('fills optional fields and reports the normalized spec', () => {
    const result = pe.compute({ kind: 'sinusoidal', length: 3, dim: 5 });
    expect(result.spec).toEqual({ kind: 'sinusoidal', length: 3, dim: 5, base: 10000, layout: 'interleaved', offset: 0 });
  });

  it('does not modify the spec it is given', () => {
    const spec = { kind: 'sinusoidal', length: 3, dim: 5 };
    pe.compute(spec);
    expect(spec).toEqual({ kind: 'sinusoidal', length: 3, dim: 5 });
  });

  it.each(invalid)('rejects %s with a PEError naming the field', (_, spec, param, fragment) => {
    // A PEError (error.name 'PEError'); the module is still usable and its memory did not grow
    // because of the bad spec.
    expectRejected(pe, () => pe.compute(spec), param, fragment, () => {
      const { data } = pe.compute(valid);
      expect(data[1]).toBe(1);
      expect(Math.abs(data[8] - Math.sin(1))).toBeLessThan(2e-7);
    });
  });

  it('turns C status codes into PEErrors naming the field (the C guard behind the JS one)', () => {
    const cases = [
      [{ dim: 0 }, 'dim'], [{ length: -1 }, 'length'], [{ base: NaN }, 'base'],
      [{ base: 0.5 }, 'base'], [{ offset: -5 }, 'offset'], [{ layout: 'nope' }, 'layout'],
      [{ length: 2 ** 20, dim: 16384 }, 'length'],
    ];
    for (const [fields, param] of cases) {
      expectPEError(() => pe._computeUnvalidated({ kind: 'sinusoidal', length: 4, dim: 4, ...fields }), param,
        /kernel status 1\d\d|PE_MAX_ELEMENTS/, JSON.stringify(fields));
    }
    expect(pe.compute(valid).data[1]).toBe(1);
  });

  it('names the allowed range in every size message', () => {
    expect(() => pe.compute({ ...valid, dim: 7.5 })).toThrow('dim must be an integer in [1, 16384], got 7.5');
  });

  it('writes into options.reuse when the lengths match, and never touches it otherwise', () => {
    const a = pe.compute({ kind: 'sinusoidal', length: 64, dim: 32 });
    const fresh = pe.compute({ kind: 'sinusoidal', length: 64, dim: 32, base: 500 });
    const b = pe.compute({ kind: 'sinusoidal', length: 64, dim: 32, base: 500 }, { reuse: a.data });
    expect(b.data).toBe(a.data);
    expect(Array.from(b.data)).toEqual(Array.from(fresh.data));
    // the same length in another shape is fine: the caller gave the array up
    const c = pe.compute({ kind: 'sinusoidal', length: 32, dim: 64 }, { reuse: b.data });
    expect(c.data).toBe(b.data);
    expect(c.shape).toEqual([32, 64]);
    // another length: a new array, the given one left as it was
    const before = Array.from(c.data);
    const d = pe.compute({ kind: 'sinusoidal', length: 16, dim: 8 }, { reuse: c.data });
    expect(d.data).not.toBe(c.data);
    expect(Array.from(c.data)).toEqual(before);
    // a failing compute leaves it as it was too (the page keeps its last good result in it)
    expectPEError(() => pe.compute({ kind: 'sinusoidal', length: 32, dim: 64, base: -1 }, { reuse: c.data }), 'base');
    expectPEError(() => pe._computeUnvalidated({ kind: 'sinusoidal', length: 32, dim: 64, base: 0.5 }), 'base');
    expect(Array.from(c.data)).toEqual(before);
    // attention computes its encoding's table first: only the attention output goes into reuse
    const spec = { kind: 'attention', length: 8, heads: 1, dim: 8, encoding: { kind: 'sinusoidal' } };
    const att = pe.compute(spec);
    const sameLength = new Float32Array(64); // the encoding table (8 × 8) has this length too
    const reused = pe.compute(spec, { reuse: sameLength });
    expect(reused.data).toBe(sameLength);
    expect(Array.from(reused.data)).toEqual(Array.from(att.data));
    const tableLength = new Float32Array(64).fill(7); // 2 heads: the output is 128, the table 64
    expect(pe.compute({ ...spec, heads: 2 }, { reuse: tableLength }).data).not.toBe(tableLength);
    expect(tableLength.every((v) => v === 7)).toBe(true);
    // bad options name the field
    expectPEError(() => pe.compute(valid, { reuse: [1, 2] }), 'reuse', 'Float32Array');
    expectPEError(() => pe.compute(valid, 7), 'options', 'object');
    expectPEError(() => pe.compute(valid, { get reuse() { throw new Error('no'); } }), 'options.reuse', 'could not be read');
    expect(pe.compute(valid, { reuse: null }).data[1]).toBe(1);
    expect(pe.compute(valid, null).data[1]).toBe(1);
  });

  it('refuses a bad simd option and reports SIMD support honestly', async () => {
    await expect(createPE({ simd: 'yes' })).rejects.toThrow(PEError);
    const scalar = await createPE({ simd: false });
    expect(scalar.simd).toBe(false);
  });

  it('loads from bytes given by the caller', async () => {
    const { readFile } = await import('node:fs/promises');
    const bytes = await readFile(new URL('../web/wasm/pe_scalar.wasm', import.meta.url));
    const fromBytes = await createPE({ wasm: bytes });
    expect(fromBytes.simd).toBe(false);
    expect(fromBytes.compute(valid).shape).toEqual([16, 8]);
  });
});

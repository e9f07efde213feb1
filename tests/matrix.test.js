// pe.loadMatrix: the .npy and .safetensors readers in C (c/matrix.c) against files written by
// NumPy's own writer and by tests/fixtures/gen_absolute.py from the published safetensors layout,
// plus byte-level damage built here: truncation at every length, lying lengths, bad headers, and
// seeded random corruption. A bad file must give a PEError saying what is wrong, never a crash, and
// leave the module usable.
import { describe, it, expect, beforeAll } from 'vitest';
import { PEError } from '../web/pe.js';
import { loadManifest, readFixture } from './helpers/fixtures.js';
import { BUILDS, peFor, expectPEError } from './helpers/pe.js';

const manifest = loadManifest('matrix');
const fixture = (file) => readFixture('matrix', file, Uint8Array);
const expected = (file) => readFixture('matrix', file);

const ascii = (s) => new TextEncoder().encode(s);
const concat = (...parts) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};
const f32bytes = (values) => new Uint8Array(new Float32Array(values).buffer);

/** A .npy file as NEP 1 lays it out (header padded with spaces to a multiple of 64, then '\n'). */
function npy({ descr = '<f4', fortran = false, shape = [2, 3], data, version = 1, dict, lengthField, padTo } = {}) {
  const shapeText = `(${shape.join(', ')}${shape.length === 1 ? ',' : ''})`;
  let text = dict ?? `{'descr': '${descr}', 'fortran_order': ${fortran ? 'True' : 'False'}, 'shape': ${shapeText}, }`;
  const pre = version === 1 ? 10 : 12;
  const padding = padTo !== undefined ? padTo - text.length - 1 : (64 - ((pre + text.length + 1) % 64)) % 64;
  text += ' '.repeat(padding) + '\n';
  const head = new Uint8Array(pre);
  head.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, version, 0]);
  const view = new DataView(head.buffer);
  const length = lengthField ?? text.length;
  if (version === 1) view.setUint16(8, length, true);
  else view.setUint32(8, length, true);
  const values = data ?? f32bytes(Array.from({ length: shape.reduce((a, b) => a * b, 1) }, (_, i) => i + 0.5));
  return concat(head, ascii(text), values);
}

/** A .safetensors file: uint64 LE header length, the JSON header, the buffer. */
function safetensors(headerText, buffer = new Uint8Array(0), lengthField) {
  const text = ascii(headerText);
  const head = new Uint8Array(8);
  new DataView(head.buffer).setBigUint64(0, BigInt(lengthField ?? text.length), true);
  return concat(head, text, buffer);
}

// A small deterministic generator for the corruption test (mulberry32).
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe.each(BUILDS)('loadMatrix, $name build', ({ simd }) => {
  let pe;
  let worst = 0;
  beforeAll(async () => {
    pe = await peFor(simd);
  });

  it.each(manifest.cases.map((c) => [c.name, c]))('fixture %s', (_, c) => {
    const bytes = fixture(c.file);
    if (c.expect === 'ok') {
      const r = pe.loadMatrix(bytes, c.options);
      expect(r.shape).toEqual(c.shape);
      expect(r.dtype).toBe(c.dtype);
      expect(r.format).toBe(c.format);
      expect(r.kind).toBe('learned');
      if (c.tensor !== null) expect(r.name).toBe(c.tensor);
      expect(r.data).toBeInstanceOf(Float32Array);
      const values = expected(c.values);
      expect(r.data.length).toBe(values.length);
      values.forEach((e, i) => {
        const err = Math.abs(r.data[i] - e);
        if (Math.abs(e) >= 2 ** -126) worst = Math.max(worst, err / Math.abs(e));   // float32 normal range
        expect(err, `${c.name} [${i}]`).toBeLessThanOrEqual(c.tolerance.abs + c.tolerance.rel * Math.abs(e));
      });
    } else {
      const error = expectPEError(() => pe.loadMatrix(bytes, c.options), c.param, c.message);
      if (c.param === 'name') expect(Array.isArray(error.names)).toBe(true);
    }
    // Still usable.
    expect(pe.compute({ kind: 'integer', length: 2, dim: 1 }).data[1]).toBe(1);
  });

  it('reports its accuracy', () => {
    console.log(`loadMatrix ${simd ? 'SIMD' : 'scalar'}: worst relative error vs the float64 values (float32 normal range): ${worst.toExponential(3)}`);
    expect(worst).toBeLessThanOrEqual(6e-8);
  });

  it('takes an ArrayBuffer, any typed-array view (with an offset) or a Node Buffer', () => {
    const file = npy({ shape: [2, 2], data: f32bytes([1, 2, 3, 4]) });
    const padded = new Uint8Array(file.length + 13);
    padded.set(file, 5);
    const views = [file.buffer, file, Buffer.from(file), padded.subarray(5, 5 + file.length),
      new DataView(padded.buffer, 5, file.length)];
    for (const v of views) expect(Array.from(pe.loadMatrix(v).data)).toEqual([1, 2, 3, 4]);
    for (const bad of ['x.npy', 42, null, undefined, [1, 2], { length: 3 }]) expectPEError(() => pe.loadMatrix(bad), 'bytes', 'ArrayBuffer or a typed array');
  });

  it('validates its options', () => {
    const file = npy();
    expectPEError(() => pe.loadMatrix(file, { nmae: 'x' }), 'nmae', 'unknown option "nmae"');
    expectPEError(() => pe.loadMatrix(file, { name: 3 }), 'name', 'name must be a string');
    expectPEError(() => pe.loadMatrix(file, 'wpe.weight'), 'options', 'options must be an object');
    expect(pe.loadMatrix(file, { name: 'ignored for .npy' }).shape).toEqual([2, 3]);
    expect(pe.loadMatrix(file, null).shape).toEqual([2, 3]);
  });

  it('refuses every truncation of a valid file, at every length', () => {
    const files = [npy({ shape: [3, 2] }), npy({ shape: [2, 2], version: 3, descr: '>f8', data: new Uint8Array(32) }),
      safetensors('{"a":{"dtype":"F32","shape":[2,1],"data_offsets":[0,8]}}', f32bytes([1, 2]))];
    for (const file of files) {
      expect(pe.loadMatrix(file).shape.length).toBe(2);
      for (let n = 0; n < file.length; n++) expectPEError(() => pe.loadMatrix(file.subarray(0, n)), 'bytes');
      expectPEError(() => pe.loadMatrix(concat(file, new Uint8Array([0]))), 'bytes', 'longer than');
    }
  });

  it('reads .npy headers the way NumPy writes them, and refuses malformed ones', () => {
    const data = f32bytes([1, 2, 3, 4, 5, 6]);
    const ok = (dict) => pe.loadMatrix(npy({ dict, data }));
    expect(ok("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }").shape).toEqual([2, 3]);
    expect(ok('{"shape": (2, 3,), "fortran_order": False, "descr": "<f4"}').shape).toEqual([2, 3]);   // any key order, quotes
    expect(ok("{'descr':'<f4','fortran_order':False,'shape':(2L, 3L)}").shape).toEqual([2, 3]);        // Python 2 longs
    expect(Array.from(ok("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }").data)).toEqual([1, 3, 5, 2, 4, 6]);
    const bad = [
      ["{'descr': '<f4', 'shape': (2, 3), }", "no 'fortran_order'"],
      ["{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), 'extra': 1}", "unexpected key 'extra'"],
      ["{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (2, 3)}", 'appears twice'],
      ["{'descr': '<f4', 'fortran_order': 0, 'shape': (2, 3)}", 'expected True or False'],
      ["{'descr': '<f4', 'fortran_order': False, 'shape': (2, -3)}", 'expected a non-negative integer'],
      ["{'descr': '<f4', 'fortran_order': False, 'shape': (2 3)}", "expected ',' or ')' in the shape"],
      ["{'descr': '<f4', 'fortran_order': False, 'shape': [2, 3]}", "expected a shape tuple '('"],
      ["{'descr': '=f4', 'fortran_order': False, 'shape': (2, 3)}", "dtype '=f4' is not supported"],
      ["{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3)} junk", 'only spaces and a newline'],
      ["{'descr': '<f4\\x00', 'fortran_order': False, 'shape': (2, 3)}", 'plain ASCII string'],
      ["{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3)", "expected ',' or '}'"],
      ["{'descr': '<f4', 'fortran_order': False, 'shape': (100000, 100000)}", 'more than PE_MAX_ELEMENTS = 67108864 values'],
      ["{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296)}", 'more than PE_MAX_ELEMENTS'],
      ["{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999, 1)}", 'at most 2^53'],
      ["{'descr': 'é', 'fortran_order': False, 'shape': (2, 3)}", 'not plain ASCII'],
    ];
    for (const [dict, fragment] of bad) expectPEError(() => ok(dict), 'bytes', fragment);
  });

  it('checks the .npy header length against the file and its limit, and reads a 64 KiB header', () => {
    expectPEError(() => pe.loadMatrix(npy({ version: 2, lengthField: 0xffffffff })), 'bytes', 'is more than the limit of 65536 bytes');
    expectPEError(() => pe.loadMatrix(npy({ version: 2, lengthField: 60000 })), 'bytes', 'the .npy header needs the first 60012 bytes');
    expectPEError(() => pe.loadMatrix(npy({ lengthField: 3 })), 'bytes', 'malformed .npy header');
    // A header of exactly 65536 bytes ends past the first 64 KiB read: the reader asks for more.
    const dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 2), }";
    const big = npy({ version: 2, dict, padTo: 65536, data: f32bytes([7, 8]) });
    expect(new DataView(big.buffer).getUint32(8, true)).toBe(65536);
    expect(Array.from(pe.loadMatrix(big).data)).toEqual([7, 8]);
  });

  it('reads safetensors names through JSON escapes, picks the only tensor, lists names otherwise', () => {
    const two = '{"__metadata__":{"format":"pt"},"a\\"b\\\\c\\u00e9\\ud83d\\ude00":{"dtype":"F32","shape":[1,2],"data_offsets":[0,8]},"z":{"dtype":"F32","shape":[1,1],"data_offsets":[8,12]}}';
    const file = safetensors(two, f32bytes([1, 2, 3]));
    expect(Array.from(pe.loadMatrix(file, { name: 'a"b\\cé😀' }).data)).toEqual([1, 2]);
    expect(pe.loadMatrix(file, { name: 'a"b\\cé😀' }).name).toBe('a"b\\cé😀');
    const e = expectPEError(() => pe.loadMatrix(file), 'name', 'the file holds 2 tensors: pick one by name; its tensors are "a\\"b\\\\cé😀", "z"');
    expect(e.names).toEqual(['a"b\\cé😀', 'z']);
    const one = safetensors('{"only":{"dtype":"F32","shape":[1,1],"data_offsets":[0,4]}}', f32bytes([5]));
    expect(pe.loadMatrix(one)).toMatchObject({ name: 'only', shape: [1, 1], dtype: 'float32', format: 'safetensors' });
    expectPEError(() => pe.loadMatrix(one, { name: '' }), 'name', 'no tensor named "" in the file; its tensors are "only"');
    expectPEError(() => pe.loadMatrix(safetensors('{}')), 'bytes', 'holds no tensors');
    const bad = [
      ['{"a":{"dtype":"F32","shape":[1,1],"data_offsets":[0,4]}}x', 'only spaces may follow'],
      ['{"a":{"dtype":"F32","shape":[1,1],"data_offsets":[0,4,8]}}', 'data_offsets holds two integers'],
      ['{"a":{"dtype":"F32","shape":[1.0,1],"data_offsets":[0,4]}}', 'non-negative integer in the shape'],
      ['{"a":{"dtype":"F32","shape":[01,1],"data_offsets":[0,4]}}', 'leading zero'],
      ['{"a":{"dtype":"F32","shape":[1,1],"data_offsets":[0,-4]}}', 'non-negative integer offset'],
      ['{"a":{"dtype":"F32","shape":[1,1],"data_offsets":[0,4],"dtype":"F32"}}', '"dtype" appears twice'],
      ['{"a":[1,2]}', 'its entry must be a JSON object'],
      ['{"a":{"dtype":"F32","shape":[1,1],"data_offsets":[0,4]},"__metadata__":{},"__metadata__":{}}', '"__metadata__" appears twice'],
      ['{"a\\x":{"dtype":"F32","shape":[1,1],"data_offsets":[0,4]}}', 'bad escape'],
      ['{"\\ud800":{"dtype":"F32","shape":[1,1],"data_offsets":[0,4]}}', 'unpaired surrogate'],
      ['{"a\n":{"dtype":"F32","shape":[1,1],"data_offsets":[0,4]}}', 'control character'],
      ['{"a":{"dtype":"F32","shape":[1,1],"data_offsets":[0,4],"x":tru}}', 'expected a JSON value'],
      ['{"a":{"dtype":"F32","shape":[1,1],"data_offsets":[0,4],"x":-1.5e+3}} ', null],   // unknown keys are skipped
      ['[]', 'nor a .safetensors file'],   // byte 8 must be '{'
    ];
    for (const [header, fragment] of bad) {
      const f = safetensors(header, f32bytes([9]));
      if (fragment === null) expect(Array.from(pe.loadMatrix(f).data)).toEqual([9]);
      else expectPEError(() => pe.loadMatrix(f), 'bytes', fragment);
    }
    expectPEError(() => pe.loadMatrix(safetensors('{"a":1}', new Uint8Array(0), 1)), 'bytes', 'header length 1 is not in [2, 100000000]');
  });

  it('returns tables usable like computed ones', () => {
    const computed = pe.compute({ kind: 'sinusoidal', length: 33, dim: 10 });
    const loaded = pe.loadMatrix(npy({ shape: computed.shape, data: new Uint8Array(computed.data.buffer) }));
    expect(loaded.shape).toEqual(computed.shape);
    expect(Array.from(loaded.data)).toEqual(Array.from(computed.data));
    expect(loaded.data.buffer.byteLength).toBe(loaded.data.byteLength);   // a copy, not a view
  });

  it('survives 3,000 seeded random corruptions with a PEError or a valid table, and a flat heap', () => {
    const seeds = [npy({ shape: [3, 4] }), npy({ shape: [2, 2], version: 2, descr: '<f2', fortran: true, data: new Uint8Array(8) }),
      safetensors('{"__metadata__":{"k":"v"},"w":{"dtype":"BF16","shape":[2,2],"data_offsets":[0,8]},"b":{"dtype":"F64","shape":[1,1],"data_offsets":[8,16]}}', new Uint8Array(16))];
    const random = rng(12345);
    let ok = 0;
    let refused = 0;
    let heap = 0;
    for (let t = 0; t < 3000; t++) {
      if (t === 300) heap = pe.memoryBytes;
      const file = seeds[t % seeds.length].slice();
      const edits = 1 + Math.floor(random() * 4);
      for (let k = 0; k < edits; k++) file[Math.floor(random() * file.length)] = Math.floor(random() * 256);
      const cut = random() < 0.2 ? file.subarray(0, Math.floor(random() * file.length)) : file;
      try {
        const r = pe.loadMatrix(cut, t % 3 === 2 && random() < 0.5 ? { name: 'w' } : undefined);
        expect(r.data.length).toBe(r.shape[0] * r.shape[1]);
        expect(r.data.every(Number.isFinite)).toBe(true);
        ok++;
      } catch (e) {
        expect(e, String(e)).toBeInstanceOf(PEError);
        expect(['bytes', 'name']).toContain(e.param);
        expect(e.message.length).toBeGreaterThan(10);
        refused++;
      }
    }
    expect(ok).toBeGreaterThan(50);
    expect(refused).toBeGreaterThan(500);
    expect(pe.memoryBytes).toBe(heap);
  });
});

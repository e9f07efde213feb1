// "Copy as code" (web/share/codegen.js) and the .npy/.csv exports (web/share/export.js), checked with the real
// NumPy and PyTorch: every snippet runs in /usr/bin/python3 and its `pe` must equal pe.compute's
// data within the kind's stated tolerance (exact for integer-valued tables); the exported .npy
// must load in NumPy as float32, C order, the same shape and the same bytes.
//   npx vitest run tests/codegen.test.js
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createPE } from '../web/pe.js';
import { SCHEMA } from '../web/api/schema/index.js';
import { codeFor, hasCode, py, pyFloat, TOLERANCE } from '../web/share/codegen.js';
import { csvNumber, npyHeader, toCsv, toNpy } from '../web/share/export.js';
import { runCommand } from './helpers/pe.js';

const PYTHON = '/usr/bin/python3';
const havePython = existsSync(PYTHON)
  && spawnSync(PYTHON, ['-c', 'import numpy, torch'], { encoding: 'utf8' }).status === 0;
if (!havePython) console.warn('[codegen.test] /usr/bin/python3 with numpy and torch not found: the snippet checks are skipped');

// A representative set: every kind, every layout and rope_scaling type, odd sizes, offsets.
export const SPECS = [
  { kind: 'sinusoidal', length: 37, dim: 16 },
  { kind: 'sinusoidal', length: 50, dim: 33, layout: 'interleaved', base: 500 },
  { kind: 'sinusoidal', length: 40, dim: 31, layout: 'concat', offset: 1000000 },
  { kind: 'sinusoidal', length: 20, dim: 24, layout: 'tensor2tensor', base: 1e4 },
  { kind: 'sinusoidal', length: 3, dim: 3, layout: 'tensor2tensor', offset: 2 ** 31 - 4 },
  { kind: 'rope', length: 64, dim: 32 },
  { kind: 'rope', length: 48, dim: 40, layout: 'interleaved', partial_rotary_factor: 0.5, base: 500000 },
  { kind: 'rope', length: 64, dim: 32, rope_scaling: { rope_type: 'linear', factor: 4 } },
  { kind: 'rope', length: 300, dim: 32, max_position_embeddings: 128, rope_scaling: { rope_type: 'dynamic', factor: 2 } },
  { kind: 'rope', length: 64, dim: 64, rope_scaling: { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 4096 } },
  { kind: 'rope', length: 64, dim: 64, rope_scaling: { rope_type: 'yarn', factor: 40, original_max_position_embeddings: 4096, mscale: 1, mscale_all_dim: 0.707, truncate: false, beta_fast: 16 } },
  { kind: 'rope', length: 32, dim: 64, max_position_embeddings: 2048, rope_scaling: { rope_type: 'yarn', factor: 2, attention_factor: 1.5 } },
  { kind: 'rope', length: 64, dim: 128, base: 500000, rope_scaling: { rope_type: 'llama3', factor: 8, original_max_position_embeddings: 8192, low_freq_factor: 1, high_freq_factor: 4 } },
  { kind: 'rope', length: 64, dim: 32, rope_scaling: { rope_type: 'ntk', factor: 3 } },
  { kind: 'rope', length: 40, dim: 64, base: 1000000, max_position_embeddings: 131072, rope_scaling: { rope_type: 'yarn', factor: 8, original_max_position_embeddings: 32768, convention: 'before_4.56' } },
  { kind: 'rope', length: 40, dim: 16, max_position_embeddings: 256, rope_scaling: { rope_type: 'longrope', short_factor: [1, 1.2, 1.5, 2, 2, 3, 4, 4], long_factor: [1, 2, 3, 5, 8, 13, 21, 34], original_max_position_embeddings: 32 } },
  { kind: 'rope', length: 20, dim: 24, partial_rotary_factor: 0.5, rope_scaling: { rope_type: 'longrope', short_factor: [1, 1, 2, 2, 3, 3], long_factor: [2, 2, 4, 4, 9, 9], original_max_position_embeddings: 32, attention_factor: 0.9 } },
  { kind: 'rope', length: 24, dim: 32, grid_height: 4, grid_width: 6 },
  { kind: 'rope_precision', length: 300, dim: 16 },
  // float32_pow as frameworks form it (base 500000, d 128: NumPy's own float32 ** on AVX-512 CPUs is
  // 1 ulp off in 13 of its 64 entries; the snippet must print the lab's numbers on any x86-64)
  { kind: 'rope_precision', length: 64, dim: 128, base: 500000, offset: 6000, recipe: 'float32_pow' },
  { kind: 'rope_precision', length: 64, dim: 32, offset: 15930, recipe: 'bf16_phase' },
  { kind: 'rope_precision', length: 48, dim: 20, offset: 250, recipe: 'bf16_positions', base: 500000 },
  { kind: 'rope_precision', length: 40, dim: 64, offset: 4080, recipe: 'bf16_inv_freq', rope_scaling: { rope_type: 'llama3', factor: 8, original_max_position_embeddings: 8192, low_freq_factor: 1, high_freq_factor: 4 } },
  { kind: 'rope_precision', length: 32, dim: 24, offset: 1000000, recipe: 'bf16_table', partial_rotary_factor: 0.5 },
  { kind: 'rope_precision', length: 80, dim: 16, offset: 65480, recipe: 'fp16' },
  { kind: 'rope_precision', length: 30, dim: 16, offset: 2 ** 31 - 31, recipe: 'exact' },
  { kind: 'rope_precision', length: 60, dim: 8, offset: 300, recipe: { inv_freq_dtype: 'bfloat16', position_dtype: 'float16', phase_dtype: 'bfloat16', table_dtype: 'float16' } },
  { kind: 'mrope' },
  { kind: 'mrope', dim: 16, mrope_section: [2, 3, 3], tokens_per_second: 2, spatial_merge_size: 2,
    segments: [{ type: 'text', length: 3 }, { type: 'image', t: 1, h: 4, w: 6 }, { type: 'video', t: 5, h: 2, w: 2, second_per_grid_t: 0.7 }, { type: 'text', length: 2 }] },
  { kind: 'mrope', dim: 16, mrope_section: [4, 2, 2], segments: [{ type: 'video', t: 3, h: 4, w: 2 }, { type: 'text', length: 4 }] },
  { kind: 'integer', length: 20, dim: 5 },
  { kind: 'integer', length: 7, dim: 3, normalize: true },
  { kind: 'integer', length: 1, dim: 2, normalize: true },
  { kind: 'binary', length: 70, dim: 40 },
  { kind: 'learned', length: 30, dim: 17 },
  { kind: 'learned', length: 9, dim: 8, std: 1.5, seed: 4294967295 },
  { kind: 'alibi', length: 16, heads: 8 },
  { kind: 'alibi', length: 12, heads: 6, mode: 'symmetric' },
  { kind: 't5', length: 40 },
  { kind: 't5', length: 150, num_buckets: 18, max_distance: 128, bidirectional: true },
  { kind: 't5', length: 70, num_buckets: 16, max_distance: 20, bidirectional: false },
  { kind: 'shaw', length: 30, max_relative_position: 5 },
  { kind: 'shaw', length: 6, max_relative_position: 0 },
  ...['linear', 'log', 'gaussian', 'exponential'].map((f, i) => ({ kind: 'distance', length: 20, function: f, strength: 1 + i, scale: 3.5, mode: i % 2 ? 'symmetric' : 'causal' })),
  { kind: 'sinusoidal2d', height: 5, width: 7, dim: 16 },
  { kind: 'sinusoidal2d', height: 4, width: 3, dim: 13, layout: 'sum', base: 100 },
  { kind: 'sinusoidal2d', height: 6, width: 5, dim: 14, layout: 'tatp22' },
  { kind: 'sinusoidal3d', depth: 3, height: 4, width: 5, dim: 22 },
  { kind: 'sinusoidal3d', depth: 2, height: 2, width: 3, dim: 7, base: 50 },
  // attention: every content, every encoding class
  { kind: 'attention', length: 64 },
  { kind: 'attention', length: 128, dim: 64, heads: 4, encoding: { kind: 'sinusoidal' }, causal: false },
  { kind: 'attention', length: 24, dim: 16, heads: 2 },
  { kind: 'attention', length: 20, dim: 12, heads: 1, causal: false, encoding: { kind: 'rope', layout: 'interleaved', partial_rotary_factor: 0.5, rope_scaling: { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 8 } }, seed: 7 },
  { kind: 'attention', length: 16, dim: 8, heads: 3, encoding: { kind: 'alibi' }, content: 'none' },
  { kind: 'attention', length: 18, dim: 8, heads: 2, encoding: { kind: 'alibi', mode: 'symmetric' }, causal: false },
  { kind: 'attention', length: 9, dim: 16, heads: 2, content: 'tokens', tokens: '안녕 하세요 the cat sat on the 안녕 mat', encoding: { kind: 't5' }, seed: 3 },
  { kind: 'attention', length: 12, dim: 8, heads: 2, causal: false, encoding: { kind: 'shaw', max_relative_position: 3 }, seed: 4294967295 },
  { kind: 'attention', length: 12, dim: 8, encoding: { kind: 'distance', function: 'gaussian', scale: 2 } },
  { kind: 'attention', length: 16, dim: 16, content: 'none', encoding: { kind: 'sinusoidal', base: 100 } },
  { kind: 'attention', length: 12, dim: 8, content: 'none', encoding: { kind: 'mrope', mrope_section: [2, 1, 1], segments: [{ type: 'text', length: 4 }, { type: 'image', t: 1, h: 4, w: 8 }] } },
  { kind: 'attention', length: 12, dim: 12, encoding: { kind: 'sinusoidal2d', height: 3, width: 4, layout: 'sum' } },
  { kind: 'attention', length: 10, dim: 12, encoding: { kind: 'learned', std: 0.5 }, content: 'tokens', tokens: 'a b c d e f g h i j' },
  { kind: 'attention', length: 10, dim: 8, encoding: null, content: 'none' },
  { kind: 'attention', length: 10, dim: 8, encoding: { kind: 'integer', normalize: true } },
];

/** The values of a little-endian float32 .npy file. */
function readNpy(buf) {
  const len = buf.readUInt16LE(8);
  const header = buf.subarray(10, 10 + len).toString('latin1');
  const shape = /'shape': \(([^)]*)\)/.exec(header)[1].split(',').map((s) => s.trim()).filter(Boolean).map(Number);
  const body = buf.subarray(10 + len);
  return { header, shape, data: new Float32Array(body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength)) };
}

/** Largest difference (abs or relative to max(|expected|, 1)); non-finite values must match exactly. */
function compare(got, want, tol) {
  let worst = 0;
  let at = -1;
  for (let i = 0; i < want.length; i++) {
    const a = got[i];
    const b = want[i];
    if (!Number.isFinite(b) || !Number.isFinite(a)) {
      if (!Object.is(a, b) && !(Number.isNaN(a) && Number.isNaN(b))) return { worst: Infinity, at: i };
      continue;
    }
    const d = tol.rel ? Math.abs(a - b) / Math.max(Math.abs(b), 1) : Math.abs(a - b);
    if (d > worst) {
      worst = d;
      at = i;
    }
  }
  return { worst, at };
}

const DRIVER = `
import json, sys, hashlib
import numpy as np
jobs = json.load(open(sys.argv[1]))
report = []
for job in jobs:
    if job['type'] == 'code':
        ns = {}
        try:
            exec(compile(job['code'], job['name'], 'exec'), ns)
            pe = ns['pe']
            if not isinstance(pe, np.ndarray):
                pe = pe.numpy()
            np.save(job['out'], np.ascontiguousarray(pe))
            report.append({'ok': True, 'dtype': str(pe.dtype)})
        except Exception as e:
            report.append({'ok': False, 'error': repr(e)})
    else:
        a = np.load(job['path'])
        report.append({'ok': True, 'dtype': str(a.dtype), 'shape': list(a.shape),
                       'fortran': bool(np.isfortran(a)) and a.ndim > 1,
                       'sha256': hashlib.sha256(np.ascontiguousarray(a).astype('<f4').tobytes()).hexdigest(),
                       'csv_equal': bool(np.array_equal(np.loadtxt(job['csv'], delimiter=',', ndmin=2).astype(np.float32).reshape(a.shape), a, equal_nan=True))})
json.dump(report, open(sys.argv[2], 'w'))
`;

describe('Python literals', () => {
  it('writes floats, ints, strings and structures as Python reads them', () => {
    expect(pyFloat(10000)).toBe('10000.0');
    expect(pyFloat(0.02)).toBe('0.02');
    expect(pyFloat(1e21)).toBe('1e21');
    expect(pyFloat(1e-7)).toBe('1e-7');
    expect(py({ type: 'text', length: 3, ok: true, x: null })).toBe("{'type': 'text', 'length': 3, 'ok': True, 'x': None}");
    expect(py("it's a \\ \n")).toBe("'it\\'s a \\\\ \\n'");
  });

  it('has a snippet for every kind, each with a stated tolerance', () => {
    for (const kind of Object.keys(SCHEMA)) {
      expect(hasCode(kind), kind).toBe(true);
      expect(TOLERANCE[kind], kind).toBeTruthy();
    }
    const kinds = new Set(SPECS.map((s) => s.kind));
    for (const kind of Object.keys(SCHEMA)) if (hasCode(kind)) expect(kinds.has(kind), `${kind} is tested`).toBe(true);
  });
});

describe('NPY and CSV exports', () => {
  it('writes an NPY v1.0 header padded to 64 bytes', () => {
    for (const shape of [[3], [128, 64], [8, 64, 64], [1, 1]]) {
      const h = npyHeader(shape);
      expect(h.length % 64).toBe(0);
      expect([...h.subarray(0, 8)]).toEqual([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]);
      const text = Buffer.from(h.subarray(10)).toString('latin1');
      expect(text.endsWith('\n')).toBe(true);
      expect(text).toContain("'descr': '<f4', 'fortran_order': False");
      expect(text).toContain(shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(', ')})`);
    }
  });

  it('writes the shortest decimal that reads back as the same float32', () => {
    for (const v of [0.1, 1 / 3, -2.5e-8, 3.4028234663852886e38, 1e-45, 0.8414709568023682, 123456.7890625]) {
      const f = Math.fround(v);
      expect(Math.fround(Number(csvNumber(f)))).toBe(f);
      expect(csvNumber(f).length).toBeLessThanOrEqual(15);
    }
    expect(csvNumber(-Infinity)).toBe('-inf');
    expect(csvNumber(7)).toBe('7');
    const csv = toCsv(new Float32Array([1, 2, 3, 4, 5, 6]), [3, 2], 'note');
    expect(csv).toBe('# shape 3x2; note\n1,2\n3,4\n5,6\n');
  });
});

describe.skipIf(!havePython)('snippets run in NumPy and PyTorch and equal pe.compute', () => {
  let pe;
  let dir;
  let report;
  let jobs;
  const results = [];
  beforeAll(async () => {
    pe = await createPE();
    dir = mkdtempSync(path.join(tmpdir(), 'pe-codegen-'));
    jobs = [];
    for (const [i, spec] of SPECS.entries()) {
      const result = pe.compute(spec);
      for (const lang of ['numpy', 'torch']) {
        const { code } = codeFor(result.spec, lang, { link: 'https://example.org/#v1/test', shape: result.shape });
        jobs.push({ type: 'code', name: `${spec.kind}-${i}-${lang}`, code, out: path.join(dir, `${i}-${lang}.npy`), spec, lang, result });
      }
      const npy = path.join(dir, `${i}-export.npy`);
      const csv = path.join(dir, `${i}-export.csv`);
      writeFileSync(npy, toNpy(result.data, result.shape));
      writeFileSync(csv, toCsv(result.data, result.shape, spec.kind));
      jobs.push({ type: 'npy', path: npy, csv, spec, result });
    }
    writeFileSync(path.join(dir, 'jobs.json'), JSON.stringify(jobs.map(({ spec, lang, result, ...j }) => j)));
    writeFileSync(path.join(dir, 'driver.py'), DRIVER);
    const run = await runCommand(PYTHON, [path.join(dir, 'driver.py'), path.join(dir, 'jobs.json'), path.join(dir, 'report.json')], { timeout: 120_000 });
    if (run.status !== 0) throw new Error(`python failed: ${run.stderr}`);
    report = JSON.parse(readFileSync(path.join(dir, 'report.json'), 'utf8'));
  }, 180_000);
  afterAll(() => {
    if (results.length) console.log(`codegen: worst difference per kind and language:\n${results.join('\n')}`);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('runs every snippet and gets pe.compute\'s tensor within the stated tolerance', () => {
    const worst = {};
    for (const [k, job] of jobs.entries()) {
      if (job.type !== 'code') continue;
      const r = report[k];
      expect(r.ok, `${job.name}: ${r.error}\n${job.code}`).toBe(true);
      expect(r.dtype, job.name).toBe('float32');
      const got = readNpy(readFileSync(job.out));
      expect(got.shape, job.name).toEqual(job.result.shape);
      const tol = TOLERANCE[job.spec.kind];
      const { worst: w, at } = compare(got.data, job.result.data, tol);
      const key = `${job.spec.kind} ${job.lang}`;
      worst[key] = Math.max(worst[key] ?? 0, w);
      const limit = tol.exact ? 0 : tol.abs ?? tol.rel;
      expect(w, `${job.name}: worst ${w} at ${at} (got ${got.data[at]}, want ${job.result.data[at]})\n${job.code}`).toBeLessThanOrEqual(limit);
    }
    for (const [k, w] of Object.entries(worst)) results.push(`  ${k}: ${w === 0 ? 'exact' : w.toExponential(2)}`);
  });

  it('exports .npy files that NumPy loads as the same float32 C-order array, and CSV that loadtxt reads back', () => {
    for (const [k, job] of jobs.entries()) {
      if (job.type !== 'npy') continue;
      const r = report[k];
      expect(r.dtype).toBe('float32');
      expect(r.shape).toEqual(job.result.shape);
      expect(r.fortran).toBe(false);
      const d = job.result.data;
      const sha = createHash('sha256').update(Buffer.from(d.buffer, d.byteOffset, d.byteLength)).digest('hex');
      expect(r.sha256, job.spec.kind).toBe(sha);
      expect(r.csv_equal, `${job.spec.kind}: CSV reads back equal`).toBe(true);
    }
  });
});

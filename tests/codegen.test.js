// "Copy as code" (web/share/codegen.js) and the .npy/.csv exports (web/share/export.js), checked with the real
// NumPy and PyTorch: every snippet runs in /usr/bin/python3 and its `pe` must equal pe.compute's
// data within the kind's stated tolerance (exact for integer-valued tables); so must the nn.Module
// form's table, and its forward output on a probe; the self-check line each snippet ends with
// must print what the page says it prints; the exported .npy must load in NumPy as float32, C
// order, the same shape and the same bytes.
//   npx vitest run tests/codegen.test.js
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createPE } from '../web/pe.js';
import { SCHEMA } from '../web/api/schema/index.js';
import { codeFor, hasCode, hasModule, pyFixed, py, pyFloat, selfCheck, TOLERANCE } from '../web/share/codegen.js';
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
  { kind: 'learned2d', height: 4, width: 5, dim: 16 },
  { kind: 'learned2d', height: 4, width: 5, dim: 16, resize_height: 7, resize_width: 3 },
  { kind: 'learned2d', height: 3, width: 3, dim: 6, init: 'normal', std: 0.5, seed: 2, cls_token: false, resize_height: 5, resize_width: 5 },
  // timm's antialiased resize, shrinking one axis and growing the other
  { kind: 'learned2d', height: 6, width: 6, dim: 8, init: 'normal', std: 1, seed: 1, resize_height: 4, resize_width: 9, resize_antialias: true },
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

// A code job runs as a script (__name__ == '__main__', so a module's usage block runs too); its
// printed output is kept, and a job's `probe` (a Python expression in the script's namespace)
// is saved beside `pe`.
const DRIVER = `
import contextlib, io, json, sys, hashlib
import numpy as np
jobs = json.load(open(sys.argv[1]))
report = []
def save(x, path):
    x = x if isinstance(x, np.ndarray) else x.detach().numpy()
    np.save(path, np.ascontiguousarray(x))
    return str(x.dtype)
for job in jobs:
    if job['type'] == 'code':
        ns = {'__name__': '__main__'}
        out = io.StringIO()
        try:
            with contextlib.redirect_stdout(out):
                exec(compile(job['code'], job['name'], 'exec'), ns)
                probe = eval(job['probe'], ns) if job.get('probe') else None
            dtype = save(ns['pe'], job['out'])
            if probe is not None:
                save(probe, job['out'] + '.probe.npy')
            report.append({'ok': True, 'dtype': dtype, 'stdout': out.getvalue()})
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

// What kind of module each kind's module form is, and the forward pass each is probed with (in
// the snippet's namespace after its usage block): the positions alone through forward.
const MODULE_CLASS = {
  sinusoidal: 'additive', integer: 'additive', binary: 'additive', learned: 'additive', sinusoidal2d: 'additive', sinusoidal3d: 'additive', learned2d: 'additive',
  rope: 'rotary', mrope: 'multimodalRotary', alibi: 'bias', distance: 'sharedBias', t5: 'index', shaw: 'index',
};
const NO_MODULE = ['rope_precision', 'attention'];
const PROBE = {
  additive: 'pos(torch.zeros(1, *pe.shape))[0]',   // x = 0: forward gives the table
  bias: 'rel_bias(torch.zeros(1, *pe.shape))[0]',  // scores = 0: forward gives the bias
  sharedBias: 'rel_bias(torch.zeros(1, 2, *pe.shape))[0, 1]',   // the second head gets it too
  rotary: 'rope(torch.ones(1, pe.shape[0], head_dim), torch.zeros(1, pe.shape[0], head_dim))[0][0]',   // q = 1, rotated
  multimodalRotary: 'rope(torch.ones(1, 1, S, head_dim), torch.zeros(1, 1, S, head_dim), position_ids)[0][0, 0]',
  index: null,   // the table is the index a learned embedding is looked up with: checked as the buffer
};

/**
 * What a rotary module's forward makes of q = 1 in every channel, from pe.compute's angles (RoPE's
 * table; M-RoPE's result.angles): a pair (x1, x2) = (1, 1) turns into af·(cos − sin, sin + cos);
 * channels past rotary_dim stay 1. Each entry with its slack: the lab's angle is float32 (|a|·2⁻²⁴
 * from the exact one), the module's cos/sin and products float32.
 */
function ropeProbe(result) {
  const mrope = result.spec.kind === 'mrope';
  const angles = mrope ? result.angles : result.data;
  const S = mrope ? result.shape[1] : result.shape[0];
  const P = angles.length / S;
  const D = result.spec.dim;
  const af = result.attention_factor ?? 1;
  const half = mrope || result.spec.layout === 'half';
  const want = new Float64Array(S * D).fill(1);
  const tol = new Float64Array(S * D).fill(0);
  for (let p = 0; p < S; p++) {
    for (let i = 0; i < P; i++) {
      const a = angles[p * P + i];
      const [c1, c2] = half ? [i, i + P] : [2 * i, 2 * i + 1];
      want[p * D + c1] = af * (Math.cos(a) - Math.sin(a));
      want[p * D + c2] = af * (Math.sin(a) + Math.cos(a));
      tol[p * D + c1] = tol[p * D + c2] = af * (2 * Math.abs(a) + 8) * 2 ** -24 + 1e-7;
    }
  }
  return { want, tol };
}

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

describe('module form and self-check', () => {
  it('has an nn.Module form for every kind where one makes sense, and says why not for the others', () => {
    for (const kind of Object.keys(SCHEMA)) {
      expect(hasModule(kind), kind).toBe(!NO_MODULE.includes(kind));
      if (hasModule(kind)) expect(MODULE_CLASS[kind], `${kind} is probed`).toBeTruthy();
    }
    const none = codeFor({ kind: 'attention' }, 'torch', { form: 'module' });
    expect(none.code).toBe(null);
    expect(none.reason).toMatch(/no nn\.Module form/);
    expect(() => codeFor({ kind: 'rope' }, 'torch', { form: 'class' })).toThrow(/form/);
  });

  it('prints an entry whose printed digits cannot move within the tolerance', () => {
    // The middle entry 0.12345 sits on a rounding tie at 4 decimals: the check moves on.
    const data = new Float32Array([1, 2, 3, 0.12345, 0.2, 7]);
    const check = selfCheck({ data, shape: [2, 3] }, { abs: 1e-6 });
    expect(check.index).toEqual([1, 1]);
    expect(check.expected).toBe('(2, 3) 0.2000');
    expect(check.print).toBe("print(tuple(pe.shape), f'{pe[1, 1].item():.4f}')");
    // Never an infinity, and exact tables may show 0.
    const inf = selfCheck({ data: new Float32Array([-Infinity, 0, -Infinity, 0]), shape: [2, 2] }, { exact: true });
    expect(inf.expected).toBe('(2, 2) 0.0000');
    expect(pyFixed(-0, 4)).toBe('-0.0000');
    expect(pyFixed(-0.00001, 4)).toBe('-0.0000');
    expect(pyFixed(2.5, 2)).toBe('2.50');
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
        const { code, check } = codeFor(result.spec, lang, { link: 'https://example.org/#v1/test', result });
        jobs.push({ type: 'code', name: `${spec.kind}-${i}-${lang}`, code, check, out: path.join(dir, `${i}-${lang}.npy`), spec, lang, result });
      }
      if (hasModule(spec.kind)) {
        const { code, check } = codeFor(result.spec, 'torch', { form: 'module', link: 'https://example.org/#v1/test', result });
        jobs.push({ type: 'code', name: `${spec.kind}-${i}-module`, code, check, probe: PROBE[MODULE_CLASS[spec.kind]], out: path.join(dir, `${i}-module.npy`), spec, lang: 'module', result });
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

  it('runs every snippet (tensor and module) and gets pe.compute\'s tensor within the stated tolerance', () => {
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
      // The self-check line prints what the page says.
      expect(r.stdout.trim().split('\n').at(-1), `${job.name}: self-check\n${job.code}`).toBe(job.check.expected);
      if (!job.probe) continue;
      const probe = readNpy(readFileSync(`${job.out}.probe.npy`));
      if (/rotary/i.test(MODULE_CLASS[job.spec.kind])) {
        const { want, tol: slack } = ropeProbe(job.result);
        const D = job.result.spec.dim;
        expect(probe.shape, job.name).toEqual([want.length / D, D]);
        let pw = 0;
        for (let i = 0; i < want.length; i++) {
          const d = Math.abs(probe.data[i] - want[i]);
          expect(d, `${job.name}: forward at ${i}: got ${probe.data[i]}, want ${want[i]}`).toBeLessThanOrEqual(slack[i]);
          pw = Math.max(pw, d);
        }
        worst[`${key} forward`] = Math.max(worst[`${key} forward`] ?? 0, pw);
      } else {
        expect(probe.shape, job.name).toEqual(job.result.shape);
        const f = compare(probe.data, job.result.data, tol);
        worst[`${key} forward`] = Math.max(worst[`${key} forward`] ?? 0, f.worst);
        expect(f.worst, `${job.name}: forward: worst ${f.worst} at ${f.at}`).toBeLessThanOrEqual(limit);
      }
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

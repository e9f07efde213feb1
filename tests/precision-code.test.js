// "Apply to a model"'s copy-as-code (web/views/precision/code.js): the NumPy and PyTorch programs
// it writes are run with /usr/bin/python3 and must print the numbers PE Lab computes for the same
// recipe over the same context (pe.compute, and the view's own assess()).
import { describe, it, expect, beforeAll } from 'vitest';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { peFor, runCommand } from './helpers/pe.js';
import { modelCode } from '../web/views/precision/code.js';
import { assess, modelSpec, MODELS, WINDOW } from '../web/views/precision/model.js';
import { RECIPES } from '../web/api/schema/precision.js';

const python = '/usr/bin/python3';
const hasPython = existsSync(python) && spawnSync(python, ['-c', 'import numpy, torch'], { stdio: 'ignore' }).status === 0;

const CONTEXT = 6000;
const CASES = [
  ['llama-3.1-8b', 'bf16_table'],
  ['llama-3.1-8b', 'float32_pow'],
  ['llama-2-7b', 'bf16_positions'],
  ['llama-2-7b', 'fp16'],
  ['qwen2.5-7b', 'bf16_phase'],
  ['gemma-2-9b', 'bf16_inv_freq'],
  ['phi-3-mini-4k', 'float32'],
];

// Each program runs as a script would (runpy, as __main__), all of one library in one python3, so
// PyTorch is imported once rather than once per program; the one with NumPy's AVX-512 paths turned
// off (an environment variable NumPy reads at import) gets a process of its own.
const DRIVER = `
import contextlib, io, json, runpy, sys
out = {}
for path in sys.argv[1:]:
    buf = io.StringIO()
    try:
        with contextlib.redirect_stdout(buf):
            runpy.run_path(path, run_name='__main__')
        out[path] = {'ok': True, 'stdout': buf.getvalue()}
    except BaseException as e:
        out[path] = {'ok': False, 'error': repr(e)}
sys.stdout.write(json.dumps(out))
`;

// NumPy dispatches float32 transcendentals by CPU (AVX-512 CPUs take SVML's pow, 1 ulp off in a
// fifth of the entries): the float32_pow program runs again with NumPy's AVX-512 paths turned off,
// as on an AVX2-only CPU, and must print the same numbers on both.
const AVX2_ONLY = { NPY_DISABLE_CPU_FEATURES: 'AVX512F AVX512CD AVX512_SKX AVX512_CLX AVX512_CNL AVX512_ICL' };
const RUNS = CASES.flatMap(([m, r]) => [[m, r, 'numpy', ''], [m, r, 'torch', '']]);
RUNS.push(['llama-3.1-8b', 'float32_pow', 'numpy', 'AVX2 paths']);

describe.skipIf(!hasPython && !process.env.CI)('precision lab: the model view\'s code reproduces its numbers', () => {
  let pe;
  let dir;
  const computed = new Map(); // case key → { r, a, file }
  const printed = new Map(); // file → { ok, stdout | error }
  const key = (model, recipe, lib, paths) => `${model}-${recipe}-${lib}${paths ? '-avx2' : ''}`;

  beforeAll(async () => {
    pe = await peFor(true);
    dir = mkdtempSync(join(tmpdir(), 'pe-precision-code-'));
    for (const [model, recipe, lib, paths] of RUNS) {
      const rope = modelSpec(MODELS[model].config);
      const r = pe.compute({ kind: 'rope_precision', ...rope, length: CONTEXT, recipe });
      const a = assess(pe, rope, CONTEXT, recipe);
      const file = join(dir, `${key(model, recipe, lib, paths)}.py`);
      writeFileSync(file, modelCode({ lib, title: `${model} test`, omega: r.exact_inv_freq, dim: 2 * r.shape[1], base: rope.base, dtypes: RECIPES[recipe], recipe, context: CONTEXT, window: WINDOW }));
      computed.set(key(model, recipe, lib, paths), { r, a, file });
    }
    const groups = [
      { env: undefined, files: RUNS.filter(([, , lib, paths]) => lib === 'numpy' && !paths) },
      { env: undefined, files: RUNS.filter(([, , lib]) => lib === 'torch') },
      { env: AVX2_ONLY, files: RUNS.filter(([, , , paths]) => paths) },
    ];
    const driver = join(dir, 'driver.py');
    writeFileSync(driver, DRIVER);
    await Promise.all(groups.map(async ({ env, files }) => {
      const paths = files.map((c) => computed.get(key(...c)).file);
      const run = await runCommand(python, [driver, ...paths], { timeout: 240_000, env });
      if (run.status !== 0) throw new Error(`python3 failed (${run.status}): ${run.stderr}`);
      for (const [f, v] of Object.entries(JSON.parse(run.stdout))) printed.set(f, v);
    }));
    return () => rmSync(dir, { recursive: true, force: true });
  }, 300_000);

  it.each(RUNS)('%s, %s, %s %s', (model, recipe, lib, paths) => {
    const { r, a, file } = computed.get(key(model, recipe, lib, paths));
    const n = r.shape[1];
    const run = printed.get(file);
    expect(run.ok, run.error).toBe(true);
    const got = JSON.parse(run.stdout.trim().split('\n').pop());

    // PE Lab over the whole context: the worst error, collisions, lost pairs in the last window.
    let worst = 0;
    for (const e of r.row_error) worst = Math.max(worst, e);
    const top = new Float64Array(n);
    for (let row = CONTEXT - WINDOW; row < CONTEXT; row++) for (let i = 0; i < n; i++) top[i] = Math.max(top[i], r.data[row * n + i]);
    const lost = [...top.keys()].filter((i) => top[i] >= r.exact_inv_freq[i] / 2);
    expect(a.lost, 'assess() agrees with the full table').toEqual(lost);
    console.log(`${model} ${recipe} ${lib}: worst ${got.worst} vs ${worst}, collisions ${got.collisions} vs ${r.collisions}, lost ${got.lost_pairs.length} vs ${lost.length}`);

    // float32 output of an error in [0, π]: half an ulp at π is 1.2e-7.
    expect(Math.abs(got.worst - worst)).toBeLessThan(lib === 'numpy' ? 3e-7 : 2e-3 * Math.max(worst, 1e-3));
    if (lib === 'numpy') {
      // One rounding per step, as the kernel: the same rows collide, the same pairs are lost.
      expect(got.collisions).toBe(r.collisions);
      expect(got.first_collision).toBe(r.first_collision);
      expect(got.lost_pairs).toEqual(lost);
    } else {
      // A model's casts can round twice at a midpoint: within 3 % of the rows and pairs.
      expect(Math.abs(got.collisions - r.collisions)).toBeLessThanOrEqual(Math.ceil(0.03 * r.collisions));
      expect(Math.abs(got.lost_pairs.length - lost.length)).toBeLessThanOrEqual(Math.ceil(0.03 * n));
    }
  });
});

// The Learn path's exercises (issue 29: web/pages/learn/exercises.js) and code questions (issue 30:
// exercises-code.js), in Node: each step's goal is not met where the step opens and is met at its
// target, which its controls can reach (slider ranges, the log sliders' 0.01-decade grid); the
// facts are the numbers the step's figure shows (checked independently below, some against the
// step's own sentence); rounding is never called a difference; both languages render every
// sentence; and every code question's answer is what PyTorch prints for the code the explorer's
// "Copy as code" writes (/usr/bin/python3 with torch; skipped without it).
//   npx vitest run tests/learn-exercises.test.js
import { describe, it, expect, beforeAll } from 'vitest';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { EXERCISES, NOISE } from '../web/pages/learn/exercises.js';
import { questionsOf, checkAnswer } from '../web/pages/learn/exercises-code.js';
import STRINGS from '../web/pages/learn/exercise-strings.js';
import { STEP_IDS } from '../web/pages/learn/steps.js';
import { codeFor } from '../web/share/codegen.js';
import { peFor, runCommand } from './helpers/pe.js';

/** What each step passes to env.explore when it opens (web/pages/learn/steps.js), and the shift step's p and k. */
const OPEN = {
  order: { kind: 'attention', spec: { length: 3, content: 'tokens', tokens: 'I love AI', encoding: null, causal: false, dim: 64, heads: 1 }, view: { compare: { tokens: 'AI love I' } } },
  sinusoids: { kind: 'sinusoidal', spec: { kind: 'sinusoidal', length: 128, dim: 64, base: 10000 }, view: {} },
  shift: { kind: 'sinusoidal', spec: { kind: 'sinusoidal', length: 256, dim: 32, base: 10000 }, view: {}, controls: { p: 20, k: 5 } },
  dot: { kind: 'sinusoidal', spec: { kind: 'sinusoidal', length: 191, dim: 64, base: 10000 }, view: {} },
  learned: { kind: 'learned', spec: { kind: 'learned', length: 64, dim: 64, std: 0.02, seed: 0 }, view: {} },
  naive: { kind: 'integer', spec: { kind: 'integer', length: 64, dim: 16, normalize: false }, view: {} },
  relative: { kind: 'alibi', spec: { kind: 'alibi', length: 48, heads: 8, mode: 'causal' }, view: { head: 0 } },
  rope: { kind: 'rope', spec: { kind: 'rope', length: 48, dim: 32, base: 10000 }, view: {} },
  decay: { kind: 'rope', spec: { kind: 'rope', length: 256, dim: 128, base: 10000 }, view: {} },
  scaling: { kind: 'rope', spec: { kind: 'rope', length: 256, dim: 128, base: 10000, rope_scaling: { rope_type: 'yarn', factor: 8, original_max_position_embeddings: 4096 } }, view: {} },
  patches: { kind: 'sinusoidal2d', spec: { kind: 'sinusoidal2d', height: 14, width: 14, dim: 64, base: 10000, layout: 'mae' }, view: { visionPatch: [4, 9] } },
  mrope: { kind: 'mrope', spec: { kind: 'mrope', segments: [{ type: 'text', length: 5 }, { type: 'image', t: 1, h: 6, w: 8 }, { type: 'text', length: 4 }] }, view: {} },
};

/** A state moved from `s`: spec fields, view fields, controls. */
const to = (s, spec = {}, view = {}, controls = null) => ({ ...s, spec: { ...s.spec, ...spec }, view: { ...s.view, ...view }, ...(controls ? { controls: { ...s.controls, ...controls } } : {}) });
/** The values a log slider can land on (web/pages/learn/figures.js: 0.01-decade steps, 3 significant digits). */
const logGrid = (min, max) => {
  const out = [];
  for (let p = Math.round(Math.log10(min) * 100); p <= Math.round(Math.log10(max) * 100); p++) out.push(Number((10 ** (p / 100)).toPrecision(3)));
  return out;
};

describe('exercises: every step has one, reachable from where the step opens', () => {
  it('covers every step, with a sentence in English and Korean', () => {
    expect(Object.keys(EXERCISES).sort()).toEqual([...STEP_IDS].sort());
    for (const id of STEP_IDS) {
      expect(typeof STRINGS.en[`learn.ex.${id}.done`], id).toBe('function');
      expect(typeof STRINGS.ko[`learn.ex.${id}.done`], id).toBe('function');
    }
    expect(Object.keys(STRINGS.ko).sort()).toEqual(Object.keys(STRINGS.en).sort());
  });

  it('is not met where a step opens, and is met at its target', () => {
    for (const id of STEP_IDS) {
      const ex = EXERCISES[id];
      expect(ex.goal([OPEN[id]]), `${id} at open`).toBe(false);
      expect(ex.goal(ex.target([OPEN[id]])), `${id} at its target`).toBe(true);
    }
  });

  it('log sliders can land on the values asked for (base 20000, 100, 500 and 500,000)', () => {
    const sin = logGrid(100, 100000).map((base) => [to(OPEN.sinusoids, { base })]);
    expect(sin.some((h) => EXERCISES.sinusoids.goal(h))).toBe(true);
    expect(logGrid(10, 100000).some((base) => EXERCISES.rope.goal([to(OPEN.rope, { base })]))).toBe(true);
    const decay = logGrid(10, 1000000);
    const five = decay.find((base) => EXERCISES.decay.goal([to(OPEN.decay, { base }), to(OPEN.decay, { base: 500000 })]));
    const fiveK = decay.find((base) => EXERCISES.decay.goal([to(OPEN.decay, { base: 500 }), to(OPEN.decay, { base })]));
    expect([five, fiveK]).toEqual([501, 501000]);
  });

  it('asks for what the controls allow and nothing else', () => {
    const d = EXERCISES;
    // Step 3: p in 0 … 128 (100 or beyond), k kept; not met at p = 99.
    expect(d.shift.goal([to(OPEN.shift, {}, {}, { p: 99 })])).toBe(false);
    expect(d.shift.goal([to(OPEN.shift, {}, {}, { p: 128, k: 64 })])).toBe(true);
    // Step 4: the dimension slider runs 8 … 128 in steps of 8.
    expect(d.dot.goal([to(OPEN.dot, { dim: 24 })])).toBe(false);
    // Step 5: four different seeds (0 … 50), one visit.
    expect(d.learned.goal([0, 1, 1, 2].map((seed) => to(OPEN.learned, { seed })))).toBe(false);
    expect(d.learned.goal([0, 1, 2, 50].map((seed) => to(OPEN.learned, { seed })))).toBe(true);
    // Step 6: the length slider ends at 512; the normalized scheme does not count.
    expect(d.naive.goal([to(OPEN.naive, { length: 512, normalize: true })])).toBe(false);
    expect(d.naive.goal([to(OPEN.naive, { length: 512 })])).toBe(true);
    // Step 7: ALiBi's head 7 after head 0; head 7 of Shaw does not exist.
    expect(d.relative.goal([OPEN.relative, to(OPEN.relative, {}, { head: 6 })])).toBe(false);
    expect(d.relative.goal([OPEN.relative, to(OPEN.relative, {}, { head: 7 })])).toBe(true);
    expect(d.relative.goal([OPEN.relative, to(OPEN.relative, {}, { head: 7 }), { kind: 'shaw', spec: { kind: 'shaw', length: 48, max_relative_position: 4 }, view: {} }])).toBe(false);
    // Step 1: ALiBi with the mask on does not count.
    const alibi = (b, causal = false) => to(OPEN.order, { encoding: { kind: 'alibi' }, causal, heads: 8 }, { compare: { tokens: b } });
    expect(d.order.goal([alibi('AI love I'), alibi('love I AI', true)])).toBe(false);
    expect(d.order.goal([alibi('AI love I'), alibi('love I AI')])).toBe(true);
    // Step 10: both at factor 8 (YaRN is where the step opens).
    const pi = (factor) => to(OPEN.scaling, { rope_scaling: { rope_type: 'linear', factor } });
    expect(d.scaling.goal([OPEN.scaling, pi(9)])).toBe(false);
    expect(d.scaling.goal([OPEN.scaling, pi(8)])).toBe(true);
    // Step 11: a corner and the centre (rows and columns 0 … 13).
    expect(d.patches.goal([OPEN.patches, to(OPEN.patches, {}, { visionPatch: [13, 0] })])).toBe(false);
    expect(d.patches.goal([to(OPEN.patches, {}, { visionPatch: [13, 0] }), to(OPEN.patches, {}, { visionPatch: [6, 7] })])).toBe(true);
    // Step 12: wider than it opened (the width slider runs 2 … 16 in steps of 2); taller does not count.
    const img = (h, w) => to(OPEN.mrope, { segments: [{ type: 'text', length: 5 }, { type: 'image', t: 1, h, w }, { type: 'text', length: 4 }] });
    expect(d.mrope.goal([OPEN.mrope, img(16, 8)])).toBe(false);
    expect(d.mrope.goal([OPEN.mrope, img(6, 10)])).toBe(true);
  });
});

describe('exercises: the numbers of each answer', () => {
  let pe;
  const facts = (id, history = EXERCISES[id].target([OPEN[id]])) => EXERCISES[id].facts(pe, history);
  beforeAll(async () => {
    pe = await peFor(true);
  });

  it('word order: the reversal changes nothing (rounding, said so), “love I AI” 17 %', () => {
    const f = facts('order');
    expect(f).toMatchObject({ reversed: 'AI love I', revPct: null, other: 'love I AI', movPct: '17', x: 'I', y: 'AI', was: 2, now: 1 });
    expect(Number(f.revMax)).toBeLessThan(NOISE);
    expect(STRINGS.en['learn.ex.order.done'](f)).toMatch(/changes nothing a word receives \(largest change .*: float32 rounding\)/);
  });

  it('sinusoids at base 20000: columns 0 and 1 unchanged, the slowest pair 47,117 → 92,215', () => {
    const f = facts('sinusoids');
    expect(f).toMatchObject({ same: '0, 1', changed: 62, pair: 31, before: '47,117', after: '92,215', first: '6.28' });
    // 2π·20000^(62/64), as the step's own sentence computes its last wavelength.
    expect(f.after).toBe(Math.round(2 * Math.PI * 20000 ** (62 / 64)).toLocaleString('en-US'));
  });

  it('shift: M_k from PE(k) takes every row to row p + k within float32 rounding, for every k the slider has', () => {
    for (let k = 1; k <= 64; k++) {
      const f = facts('shift', [to(OPEN.shift, {}, {}, { p: 100, k })]);
      expect(Number(f.worst), `k = ${k}`).toBeLessThan(NOISE);
      expect(f.rows).toBe(256 - k);
    }
    // A wrong rotation would show: PE(k + 1) in place of PE(k) misses by far more.
    const r = pe.compute(OPEN.shift.spec);
    const row = (p) => r.data.subarray(p * 32, p * 32 + 32);
    const [a, b, m] = [row(100), row(105), row(6)];
    expect(Math.abs(a[0] * m[1] + a[1] * m[0] - b[0])).toBeGreaterThan(0.01);
  });

  it('dot at d = 16: falls below half at k = 9, back to 80 % at k = 19; d = 64: 28, 61 %', () => {
    expect(facts('dot')).toMatchObject({ d: 16, drop: 9, back: 19, backPct: 80, travel: '7.8', refDrop: 28, refBackPct: 61, refTravel: '2.6', slow: false });
  });

  it('learned: over the 51 seeds the gap between neighbours and distant rows takes both signs (chance, said so)', () => {
    const f = facts('learned');
    expect(f.more + f.less).toBe(51);
    expect(f.more).toBeGreaterThan(10);
    expect(f.less).toBeGreaterThan(10);
    expect(Number(f.lo)).toBeLessThan(0);
    expect(Number(f.hi)).toBeGreaterThan(0);
    // Seed 0 reads as the step's sentence reads it (0.103 against 0.093 at seed 0).
    expect(facts('learned', [OPEN.learned, ...[1, 2, 3].map((seed) => to(OPEN.learned, { seed }))]).near.split(', ')[0]).toBe('0.103');
    for (const lang of ['en', 'ko']) expect(STRINGS[lang]['learn.ex.learned.done'](f)).toMatch(/chance|우연/);
  });

  it('naive at length 512: 511 in every column, length 2044 against 4', () => {
    expect(facts('naive')).toMatchObject({ value: '511', size: '2044', word: '4', times: '511' });
  });

  it('ALiBi at distance 40: head 0 keeps e^−20, head 7 86 %; heads 5–7 keep more than half', () => {
    expect(facts('relative')).toMatchObject({ hi: 0, mHi: '1/2', biasHi: '20', keepHi: '2.1e-9', lo: 7, mLo: '1/256', biasLo: '0.156', keepLo: 86, kept: '5, 6, 7' });
  });

  it('RoPE at base 100: 10 of 16 pairs turn past half a circle in 48 positions, the slowest every 471', () => {
    expect(facts('rope')).toMatchObject({ half: 10, refHalf: 5, turn: '471', refTurn: '35,333' });
  });

  it('decay at d = 128: one half at 12 (base 500) and 166 (base 500,000), and it is crossed at every d the slider has', () => {
    expect(facts('decay')).toMatchObject({ halfA: '12', halfB: '166', slowA: 4, slowB: 35, pairs: 64 });
    for (let dim = 16; dim <= 256; dim += 16) {
      const f = facts('decay', [to(OPEN.decay, { dim, base: 500 }), to(OPEN.decay, { dim, base: 500000 })]);
      expect(Number(f.halfB.replace(/,/g, '')), `d = ${dim}`).toBeLessThan(2048);
      expect(Number(f.halfB.replace(/,/g, '')), `d = ${dim}`).toBeGreaterThan(Number(f.halfA));
    }
  });

  it('scaling at 8×: PI moves pair 0 from 6.28 to 50.3; YaRN keeps pairs 0–20', () => {
    expect(facts('scaling')).toMatchObject({ pairs: 64, pi0: '8', wl0: '6.28', wl0pi: '50.3', kept: 21, lastKept: 20, wlKept: '112', full: 18 });
  });

  it('patches: every corner against the centre, the same similarity at the same offset (rounding)', () => {
    for (const corner of [[0, 0], [0, 13], [13, 0], [13, 13]]) {
      const f = facts('patches', [to(OPEN.patches, {}, { visionPatch: corner }), to(OPEN.patches, {}, { visionPatch: [7, 6] })]);
      expect(f.rounding, String(corner)).toBe(true);
      expect(f.stepA).toBe(f.stepB);
      expect(f.both).toBeGreaterThan(40);
      expect(f.brightA).toBeLessThan(f.brightB);
    }
  });

  it('M-RoPE at 6 × 16: 24 tokens, ids 5 … 12, the text resumes at 13 (29 tokens before it)', () => {
    expect(facts('mrope')).toMatchObject({ gh: 3, gw: 8, tokens: 24, start: 5, top: 12, ids: 8, resume: 13, place: 29, gap: 16 });
  });

  it('every sentence renders in both languages with its numbers, Korean in Hangul', () => {
    for (const id of STEP_IDS) {
      const f = facts(id);
      for (const lang of ['en', 'ko']) {
        const text = STRINGS[lang][`learn.ex.${id}.done`](f);
        expect(text, `${lang} ${id}`).not.toMatch(/undefined|NaN|\[object|null/);
        expect(text, `${lang} ${id}: long float digits`).not.toMatch(/\d\.\d{6,}/);
        for (const [key, v] of Object.entries(f)) {
          if ((typeof v === 'string' || typeof v === 'number') && !['L', 'rows', 'top', 'pi0', 'h', 'w', 'i'].includes(key)) {
            expect(text.replace(/−/g, '-'), `${lang} ${id} cites ${key} = ${v}`).toContain(String(v));
          }
        }
        if (lang === 'ko') expect(text, id).toMatch(/[\uac00-\ud7a3]/);
      }
    }
  });
});

describe('code questions', () => {
  let pe;
  let qs;
  beforeAll(async () => {
    pe = await peFor(true);
    qs = Object.fromEntries([...questionsOf('sinusoids', pe), ...questionsOf('learned', pe)].map((q) => [q.id, q]));
  });

  it('expect what the API computes: (1, 128, 64), PE(5) columns 2–4, 0 and 393,216 parameters', () => {
    expect(qs.sinShape.expect).toEqual([1, 128, 64]);
    expect(qs.sinValues.expect.map((v) => Number(v.toFixed(5)))).toEqual([-0.57113, -0.82086, 0.32394]);
    expect(qs.sinValues.expect[0]).toBeCloseTo(Math.sin(5 * 10000 ** (-2 / 64)), 6);
    expect(qs.sinParams.expect).toBe(0);
    expect(qs.embParams.expect).toBe(393216);
    expect(qs.embShape.expect).toEqual([100, 768]);
    expect(questionsOf('rope', pe)).toEqual([]);
  });

  it('take an answer as it is reasonably written', () => {
    const ok = (id, text) => expect(checkAnswer(qs[id], text), `${id}: ${text}`).toBe('right');
    const no = (id, text, verdict = 'wrong') => expect(checkAnswer(qs[id], text), `${id}: ${text}`).toBe(verdict);
    for (const s of ['torch.Size([1, 128, 64])', '(1, 128, 64)', '[1,128,64]', '1 x 128 x 64', '1×128×64', '  (1 ,128, 64) ']) ok('sinShape', s);
    for (const s of ['(128, 64)', '(1, 64, 128)', '1, 128, 64.0', '']) no('sinShape', s, s ? 'wrong' : 'empty');
    for (const s of ['tensor([-0.5711, -0.8209,  0.3239])', '-0.5711 -0.8209 0.3239', '[−0.57113, −0.82086, 0.32394]', '-0.5712, -0.8209, 0.3239']) ok('sinValues', s);
    no('sinValues', '-0.571, -0.821, 0.324', 'digits');
    no('sinValues', '-0.5711, -0.8209');
    no('sinValues', '0.5711, -0.8209, 0.3239');
    no('sinValues', '-0.5731, -0.8209, 0.3239');
    for (const s of ['0', ' 0 ']) ok('sinParams', s);
    no('sinParams', '8192');
    for (const s of ['393216', '393,216', '393 216', '512 * 768', '512×768', '512x768']) ok('embParams', s);
    for (const s of ['393217', '512 + 768', '3.9e5']) no('embParams', s);
    ok('embShape', 'torch.Size([100, 768])');
    ok('sinCheck', qs.sinCheck.args.expected);
    no('sinCheck', qs.sinCheck.args.expected.replace('(128, 64)', '(1, 128, 64)'));
  });

  const PYTHON = '/usr/bin/python3';
  const havePython = spawnSync(PYTHON, ['-c', 'import torch'], { encoding: 'utf8' }).status === 0;
  it.skipIf(!havePython)('are answered by what PyTorch prints for the explorer’s nn.Module code', async () => {
    const r = pe.compute({ kind: 'sinusoidal', length: 128, dim: 64, base: 10000 });
    const module = codeFor(r.spec, 'torch', { form: 'module' }).code;
    expect(module).toContain('class SinusoidalPositionalEncoding(nn.Module)');
    expect(module).toContain("self.register_buffer('pe',");
    const order = Object.keys(qs);
    const script = [
      'import io, contextlib',
      `src = ${JSON.stringify(module)}`,
      "ns = {'__name__': 'pelab'}",
      "exec(compile(src, 'module', 'exec'), ns)",
      ...order.map((id) => `buf = io.StringIO()\nwith contextlib.redirect_stdout(buf):\n    exec(${JSON.stringify(qs[id].code)}, ns)\nprint(${JSON.stringify(id)} + '\\t' + buf.getvalue().strip().replace('\\n', ' '))`),
    ].join('\n');
    const dir = mkdtempSync(path.join(tmpdir(), 'pe-quiz-'));
    const file = path.join(dir, 'quiz.py');
    writeFileSync(file, script);
    const run = await runCommand(PYTHON, [file], { timeout: 120_000 });
    expect(run.stderr).toBe('');
    const printed = Object.fromEntries(run.stdout.trim().split('\n').map((l) => l.split('\t')));
    expect(Object.keys(printed)).toEqual(order);
    for (const id of order) expect(checkAnswer(qs[id], printed[id]), `${id}: PyTorch printed ${printed[id]}`).toBe('right');
    expect(printed.sinShape).toBe('torch.Size([1, 128, 64])');
  }, 150_000);
});

// Every number the JS side copies from the C side, compared with the C source: limits, enum codes
// passed to the kernels, status codes, the Arena's tensor order. JS cannot include a header, so
// each of these is written twice; this file is what keeps the two equal. It reads the #defines and
// enums of c/*.h (and the few of c/*.c that a binding mirrors) and evaluates their values.
import { describe, it, expect } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as limits from '../../web/api/schema/limits.js';
import * as relativeSchema from '../../web/api/schema/relative.js';
import * as attentionSchema from '../../web/api/schema/attention.js';
import * as mropeSchema from '../../web/api/schema/mrope.js';
import * as visionSchema from '../../web/api/schema/vision.js';
import * as absoluteSchema from '../../web/api/schema/absolute.js';
import * as ropeSchema from '../../web/api/schema/rope.js';
import * as precisionSchema from '../../web/api/schema/precision.js';
import * as arenaSchema from '../../web/api/schema/arena.js';
import * as sinusoidalKernel from '../../web/api/kernels/sinusoidal.js';
import * as visionKernel from '../../web/api/kernels/vision.js';
import * as ropeKernel from '../../web/api/kernels/rope.js';
import * as mropeKernel from '../../web/api/kernels/mrope.js';
import * as relativeKernel from '../../web/api/kernels/relative.js';
import * as attentionKernel from '../../web/api/kernels/attention.js';
import * as heatmapKernel from '../../web/api/kernels/heatmap.js';
import * as matrixKernel from '../../web/api/kernels/matrix.js';
import * as arenaKernel from '../../web/api/kernels/arena.js';
import { COLORMAPS } from '../../web/api/colormaps.js';
import { COLOR_SCALES } from '../../web/api/color-scales.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The integer and floating constants of C source texts: object-like #defines whose value is an
 * arithmetic expression (of numbers and earlier constants) and the members of every enum
 * (implicit values counted on from the previous one).
 */
export function cConstants(texts) {
  const values = {};
  const evaluate = (expr) => {
    const e = expr.replace(/\b[A-Z_][A-Z0-9_]*\b/g, (name) => (name in values ? `(${values[name]})` : name))
      .replace(/\b(0x[0-9a-fA-F]+|\d+(?:\.\d*)?(?:e[+-]?\d+)?)[uUlL]+\b/g, '$1')
      .replace(/\(\s*(?:int64_t|int32_t|uint32_t|double|float)\s*\)/g, '');
    if (!/^[\s\d.xXa-fA-F()+\-*/<>|&~]+$/.test(e)) return undefined;
    try {
      return Function(`"use strict"; return (${e});`)();
    } catch {
      return undefined;   // not an arithmetic value (a macro body such as a cast of a name)
    }
  };
  for (const raw of texts) {
    const text = raw.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
    // Defines and enums in source order, so that a value may use an earlier one.
    const re = /^[ \t]*#define[ \t]+([A-Z_][A-Z0-9_]*)[ \t]+(.+)$|\benum\b[^{;]*\{([^}]*)\}/gm;
    for (const m of text.matchAll(re)) {
      if (m[1]) {
        const v = evaluate(m[2].trim());
        if (typeof v === 'number' && Number.isFinite(v)) values[m[1]] = v;
        continue;
      }
      let next = 0;
      for (const member of m[3].split(',').map((s) => s.trim()).filter(Boolean)) {
        const [name, expr] = member.split('=').map((s) => s.trim());
        const v = expr === undefined ? next : evaluate(expr);
        values[name] = v;
        next = v + 1;
      }
    }
  }
  return values;
}

const C_FILES = [
  ...readdirSync(path.join(ROOT, 'c')).filter((f) => f.endsWith('.h')).sort(),
  'heatmap.c',   // HEATMAP_MAX_SIDE
];
const C = cConstants(C_FILES.map((f) => readFileSync(path.join(ROOT, 'c', f), 'utf8')));

// [C name, JS value, where the JS value lives]
const SCALARS = [
  ['PE_MAX_ELEMENTS', limits.PE_MAX_ELEMENTS, 'web/api/schema/limits.js'],
  ['PE_MAX_POSITION', limits.PE_MAX_POSITION, 'web/api/schema/limits.js'],
  ['PE_MAX_LENGTH', limits.PE_MAX_LENGTH, 'web/api/schema/limits.js'],
  ['PE_MAX_DIM', limits.PE_MAX_DIM, 'web/api/schema/limits.js'],
  ['PE_MAX_BIAS_LENGTH', relativeSchema.PE_MAX_BIAS_LENGTH, 'web/api/schema/relative.js'],
  ['PE_MAX_ALIBI_HEADS', relativeSchema.PE_MAX_ALIBI_HEADS, 'web/api/schema/relative.js'],
  ['PE_MAX_T5_BUCKETS', relativeSchema.PE_MAX_T5_BUCKETS, 'web/api/schema/relative.js'],
  ['PE_MAX_ATTENTION_LENGTH', attentionSchema.PE_MAX_ATTENTION_LENGTH, 'web/api/schema/attention.js'],
  ['PE_MAX_ATTENTION_DIM', attentionSchema.PE_MAX_ATTENTION_DIM, 'web/api/schema/attention.js'],
  ['PE_MAX_ATTENTION_HEADS', attentionSchema.PE_MAX_ATTENTION_HEADS, 'web/api/schema/attention.js'],
  ['PE_MAX_ATTENTION_QK', attentionSchema.PE_MAX_ATTENTION_QK, 'web/api/schema/attention.js'],
  ['PE_ATTENTION_WINDOW', attentionSchema.PE_ATTENTION_WINDOW, 'web/api/schema/attention.js'],
  ['PE_MROPE_MAX_SEGMENTS', mropeSchema.PE_MROPE_MAX_SEGMENTS, 'web/api/schema/mrope.js'],
  ['PE_MROPE_MAX_GRID', mropeSchema.PE_MROPE_MAX_GRID, 'web/api/schema/mrope.js'],
  ['PE_MAX_GRID', visionSchema.PE_MAX_GRID, 'web/api/schema/vision.js'],
  ['PE_MAX_SEED', absoluteSchema.PE_MAX_SEED, 'web/api/schema/absolute.js'],
  ['HEATMAP_MAX_SIDE', heatmapKernel.MAX_SIDE, 'web/api/kernels/heatmap.js MAX_SIDE'],
  ['PE_ERR_MATRIX', matrixKernel.MATRIX_ERROR, 'web/api/kernels/matrix.js MATRIX_ERROR'],
  ['PE_MATRIX_NEED_MORE', matrixKernel.NEED_MORE, 'web/api/kernels/matrix.js NEED_MORE'],
  ['PE_MATRIX_ERROR_NAME', matrixKernel.ERROR_FIELD_NAME, 'web/api/kernels/matrix.js ERROR_FIELD_NAME'],
  ['PE_CONTENT_PREPARED', attentionKernel.CONTENT_PREPARED, 'web/api/kernels/attention.js CONTENT_PREPARED'],
  ['PE_COLORMAP_COUNT', Object.keys(COLORMAPS).length, 'web/api/colormaps.js (the number of maps)'],
  ['PE_SCALE_COUNT', Object.keys(COLOR_SCALES).length, 'web/api/color-scales.js (the number of scales)'],
  ...['LAYERS', 'D_MODEL', 'HEADS', 'SYMBOLS', 'TRAIN_LENGTH', 'BATCH', 'EVAL_LENGTH', 'SAMPLES', 'STEPS']
    .map((n) => [`PE_ARENA_MAX_${n}`, arenaSchema[`PE_ARENA_MAX_${n}`], 'web/api/schema/arena.js']),
  ['PE_ARENA_DIVERGED', arenaKernel.DIVERGED, 'web/api/kernels/arena.js DIVERGED'],
  ['PE_ARENA_NOT_FINITE', arenaKernel.NOT_FINITE, 'web/api/kernels/arena.js NOT_FINITE'],
];

const upper = (name) => name.toUpperCase().replace(/\./g, '_');
/** { name: code } tables: name ↦ C name by prefix + NAME (or an explicit map). */
const TABLES = [
  ['web/api/kernels/sinusoidal.js LAYOUT', sinusoidalKernel.LAYOUT, (n) => `PE_SIN_${upper(n)}`],
  ['web/api/kernels/vision.js LAYOUT_2D', visionKernel.LAYOUT_2D, (n) => `PE_2D_${upper(n)}`],
  ['web/api/kernels/rope.js LAYOUT', ropeKernel.LAYOUT, (n) => `PE_ROPE_${upper(n)}`],
  ['web/api/kernels/rope.js ROPE_TYPE', ropeKernel.ROPE_TYPE, (n) => `PE_ROPE_${upper(n)}`],
  ['web/api/kernels/rope.js VIEW', ropeKernel.VIEW, (n) => `PE_ROPE_VIEW_${upper(n)}`],
  ['web/api/schema/rope.js ROPE_TYPES (index)', Object.fromEntries(ropeSchema.ROPE_TYPES.map((t, i) => [t, i])), (n) => `PE_ROPE_${upper(n)}`],
  ['web/api/schema/precision.js INV_FREQ_DTYPES (index)', Object.fromEntries(precisionSchema.INV_FREQ_DTYPES.map((t, i) => [t, i])), (n) => `PE_RECIPE_${upper(n)}`],
  ['web/api/schema/mrope.js MROPE_CONVENTIONS (index)', Object.fromEntries(mropeSchema.MROPE_CONVENTIONS.map((t, i) => [t, i])), (n) => `PE_MROPE_${upper(n)}`],
  ['web/api/kernels/mrope.js SEGMENT', mropeKernel.SEGMENT, (n) => `PE_SEG_${upper(n)}`],
  ['web/api/kernels/relative.js MODE', relativeKernel.MODE, (n) => `PE_BIAS_${upper(n)}`],
  ['web/api/kernels/relative.js FUNCTION', relativeKernel.FUNCTION, (n) => `PE_DIST_${upper(n)}`],
  ['web/api/kernels/attention.js CLASS', attentionKernel.CLASS, (n) => `PE_ENCODING_${upper(n)}`],
  ['web/api/kernels/attention.js CONTENT', attentionKernel.CONTENT, (n) => `PE_CONTENT_${upper(n)}`],
  ['web/api/colormaps.js COLORMAPS (id)', Object.fromEntries(Object.entries(COLORMAPS).map(([n, m]) => [n, m.id])), (n) => `PE_COLORMAP_${upper(n)}`],
  ['web/api/color-scales.js COLOR_SCALES (id)', Object.fromEntries(Object.entries(COLOR_SCALES).map(([n, m]) => [n, m.id])), (n) => `PE_SCALE_${upper(n)}`],
  ['web/api/kernels/matrix.js MI', matrixKernel.MI, (n) => ({ BEGIN: 'PE_MI_DATA_BEGIN', END: 'PE_MI_DATA_END' })[n] ?? `PE_MI_${n}`],
  ['web/api/kernels/matrix.js DTYPES', Object.fromEntries(Object.entries(matrixKernel.DTYPES).map(([code, n]) => [n, Number(code)])),
    (n) => `PE_DTYPE_${{ float32: 'F32', float64: 'F64', float16: 'F16', bfloat16: 'BF16' }[n]}`],
  ['web/api/kernels/matrix.js FORMATS', Object.fromEntries(Object.entries(matrixKernel.FORMATS).map(([code, n]) => [n, Number(code)])), (n) => `PE_MATRIX_${upper(n)}`],
  ['web/api/schema/arena.js ARENA_ENCODINGS', arenaSchema.ARENA_ENCODINGS, (n) => `PE_ARENA_${upper(n)}`],
  ['web/api/schema/arena.js ARENA_TASKS', arenaSchema.ARENA_TASKS, (n) => `PE_ARENA_${upper(n)}`],
  ['web/api/schema/arena.js ARENA_ROPE_SCALING', arenaSchema.ARENA_ROPE_SCALING, (n) => `PE_ROPE_${upper(n)}`],
];

describe('C constants mirrored in JS', () => {
  it('the C reader finds the constants it is meant to (defines, expressions, implicit enum values)', () => {
    expect(C.PE_MAX_ELEMENTS).toBe(2 ** 26);        // (1 << 26)
    expect(C.PE_MAX_SEED).toBe(4294967295);         // 4294967295.0
    expect(C.PE_T_WPE).toBe(1);                     // enum member without a value
    expect(cConstants(['#define A (1 << 3)\n#define B (A + 1u)\nenum { X = B, Y, Z };'])).toEqual({ A: 8, B: 9, X: 9, Y: 10, Z: 11 });
  });

  it.each(SCALARS)('%s equals %s in %s', (name, value, where) => {
    expect(C[name], `${name} not found in c/`).toBeTypeOf('number');
    expect(value, `${where} mirrors c/ ${name}`).toBe(C[name]);
  });

  it.each(TABLES)('%s: every code is the C enum value', (where, table, cName) => {
    expect(Object.keys(table).length).toBeGreaterThan(0);
    for (const [name, code] of Object.entries(table)) {
      expect(C[cName(name)], `${cName(name)} (for ${where} "${name}") not found in c/`).toBeTypeOf('number');
      expect(code, `${where} "${name}" mirrors ${cName(name)}`).toBe(C[cName(name)]);
    }
  });

  it('every class the schema gives an encoding is a code of the attention binding', () => {
    for (const cls of Object.values(attentionSchema.ENCODING_CLASS)) expect(attentionKernel.CLASS).toHaveProperty(cls);
  });

  it('web/api/kernels/arena.js TENSOR_NAMES are c/arena.h pe_arena_tensor (PE_T_*) in order', () => {
    const names = arenaKernel.TENSOR_NAMES;
    const c = Object.entries(C).filter(([n]) => n.startsWith('PE_T_')).sort((a, b) => a[1] - b[1]);
    expect(c.map(([, v]) => v)).toEqual(c.map((_, i) => i));
    // 'ln1.weight' is PE_T_LN1W, 'head.bias' PE_T_HEADB, 'wte' PE_T_WTE.
    const cName = (n) => `PE_T_${n.replace(/\.weight$/, 'w').replace(/\.bias$/, 'b').toUpperCase()}`;
    expect(names.map(cName)).toEqual(c.map(([n]) => n));
  });
});

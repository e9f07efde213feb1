// Property-based tests over the spec schema (fast-check): specs drawn from every kind's field
// descriptors compute finite numbers of the declared shape; mutations of valid specs (hostile
// values in any field, nested ones included) either compute finite numbers or throw a PEError
// whose .param names a real field; afterwards the module still computes a known case exactly.
// Runs about PE_FC_RUNS cases per property (default 120 in npm test; npm run fuzz runs 20 times more).
import { describe, it, expect, beforeAll } from 'vitest';
import fc from 'fast-check';
import { createPE, PEError, SCHEMA, KINDS } from '../web/pe.js';

const RUNS = Number(process.env.PE_FC_RUNS) || 120;
const SEED = Number(process.env.PE_FC_SEED) || 20261124;
const SIZE_CAP = 40; // size fields stay small: the properties are about values, not memory

/** Fields whose value is a size of the output; drawn small. */
const SIZE_FIELDS = new Set(['length', 'dim', 'height', 'width', 'depth', 'heads', 'grid_height', 'grid_width']);

const bound = (b, fallback) => (typeof b === 'number' ? b : fallback);

/** An arbitrary for one field descriptor (web/api/schema/index.js vocabulary). */
function arbField(name, field, depth = 0) {
  let arb;
  switch (field.type) {
    case 'int': {
      const lo = Math.max(bound(field.min, 0), -1e9);
      let hi = Math.min(bound(field.max, lo + 1000), 2 ** 31 - 1);
      if (SIZE_FIELDS.has(name)) hi = Math.min(hi, lo + SIZE_CAP);
      arb = fc.oneof(fc.integer({ min: lo, max: hi }), fc.constantFrom(lo, hi));
      break;
    }
    case 'number': {
      const lo = bound(field.min, -1e6);
      const hi = bound(field.max, 1e12);
      const arbs = [fc.double({ min: lo, max: hi, noNaN: true, noDefaultInfinity: true }), fc.constantFrom(lo, hi, field.default ?? lo)];
      // Every order of magnitude alike, where the range is positive (factors, bases, scales).
      // (fc.double favours the ends and round values; a uniform integer spreads the exponent.)
      if (lo > 0) {
        const [a, b] = [Math.log(lo), Math.log(hi)];
        arbs.push(fc.integer({ min: 0, max: 1 << 20 }).map((k) => Math.min(hi, Math.max(lo, Math.exp(a + (k / (1 << 20)) * (b - a))))));
      }
      arb = fc.oneof(...arbs);
      if (field.exclusiveMin) arb = arb.filter((x) => x > lo);
      break;
    }
    case 'enum':
      arb = fc.constantFrom(...field.values);
      break;
    case 'bool':
      arb = fc.boolean();
      break;
    case 'string':
      arb = fc.array(fc.constantFrom('I', 'love', 'AI', '나는', 'AI를', '좋아해', 'x'), { minLength: 1, maxLength: 8 }).map((w) => w.join(' '));
      break;
    case 'list':
      arb = field.item.type === 'object'
        ? fc.array(arbField(`${name}[]`, field.item, depth + 1), { minLength: field.minItems, maxLength: Math.min(field.maxItems, 4) })
        : fc.constant(field.default);
      break;
    case 'object': {
      const tag = field.discriminator;
      arb = fc.constantFrom(...Object.keys(field.variants)).chain((variant) => {
        const { required = [], optional = [] } = field.variants[variant];
        const record = {};
        for (const key of [...required, ...optional]) record[key] = arbField(`${name}.${key}`, field.fields[key], depth + 1);
        return fc.record(record, { requiredKeys: required }).map((o) => ({ [tag]: variant, ...o }));
      });
      break;
    }
    case 'spec':
      arb = depth > 0 ? fc.constant(field.default) : fc.constantFrom(...field.kinds).chain((kind) => arbSpecOf(kind, depth + 1, true));
      break;
    default:
      arb = fc.constant(field.default);
  }
  return field.nullable ? fc.option(arb, { nil: null, freq: 4 }) : arb;
}

/** An arbitrary spec of a kind: each field drawn or left to its default. */
function arbSpecOf(kind, depth = 0, nested = false) {
  const record = {};
  for (const [name, field] of Object.entries(SCHEMA[kind].fields)) {
    if (nested && ['length', 'dim'].includes(name)) continue; // an encoding inherits them
    record[name] = arbField(name, field, depth);
  }
  const required = Object.entries(SCHEMA[kind].fields).filter(([n, f]) => f.required && !(nested && ['length', 'dim'].includes(n))).map(([n]) => n);
  return fc.record(record, { requiredKeys: required }).map((fields) => ({ kind, ...fields }));
}

// PE_FC_KINDS=rope,alibi narrows the kinds (when chasing one failure).
const FC_KINDS = process.env.PE_FC_KINDS ? process.env.PE_FC_KINDS.split(',') : KINDS;
const arbSpec = fc.constantFrom(...FC_KINDS).chain((kind) => arbSpecOf(kind));

/** Values no field should accept silently. */
const HOSTILE = [NaN, Infinity, -Infinity, -1, 0, 1e308, -1e308, 1e-310, 2 ** 53, 0.5, '', '12', 'NaN', [], [1, 2],
  {}, { kind: 'rope' }, true, null, 'x'.repeat(100000), { __proto__: { polluted: 1 } }, -0, 1e-40];

/** Whether every value is finite, but where the kind defines otherwise (−∞ above a causal diagonal). */
function nonFinite(kind, spec, result) {
  const allowNegInf = (kind === 'alibi' || kind === 'distance') && spec.mode === 'causal';
  const bad = [];
  const check = (name, arr) => {
    for (let i = 0; i < arr.length; i++) {
      const v = arr[i];
      if (Number.isFinite(v) || (allowNegInf && v === -Infinity)) continue;
      bad.push(`${name}[${i}] = ${v}`);
      if (bad.length > 3) return;
    }
  };
  check('data', result.data);
  for (const [key, value] of Object.entries(result)) {
    if (value instanceof Float32Array && key !== 'data') check(key, value);
    if (typeof value === 'number' && !Number.isFinite(value)) bad.push(`${key} = ${value}`);
  }
  return bad;
}

/** Top-level names a PEError may blame for a spec of this kind. */
function realParams(kind) {
  return new Set(['kind', 'spec', ...Object.keys(SCHEMA[kind].fields)]);
}

describe('spec properties (fast-check)', () => {
  let pe;
  beforeAll(async () => {
    pe = await createPE();
  });

  it('specs drawn from the schema compute finite numbers of the declared shape, or are refused naming a field', () => {
    let computed = 0;
    fc.assert(fc.property(arbSpec, (spec) => {
      let result;
      try {
        result = pe.compute(spec);
      } catch (e) {
        if (!(e instanceof PEError)) throw e;
        expect(realParams(spec.kind).has(e.param.split(/[.[]/)[0]), `${e.param}: ${e.message}`).toBe(true);
        return;
      }
      computed += 1;
      expect(result.shape).toEqual(SCHEMA[spec.kind].shape(result.spec));
      expect(result.data.length).toBe(result.shape.reduce((a, b) => a * b, 1));
      expect(nonFinite(spec.kind, result.spec, result), JSON.stringify(spec)).toEqual([]);
    }), { numRuns: RUNS * 2, seed: SEED });
    expect(computed, 'most drawn specs are valid').toBeGreaterThan(RUNS / 2);
  });

  it('a hostile value in any field, nested ones too, computes finite numbers or throws a PEError naming a real field', () => {
    const mutation = arbSpec.chain((spec) => {
      const paths = [];
      for (const [k, v] of Object.entries(spec)) {
        if (k === 'kind') continue;
        paths.push([k]);
        if (v && typeof v === 'object' && !Array.isArray(v)) for (const sub of Object.keys(v)) paths.push([k, sub]);
        if (Array.isArray(v)) v.forEach((_, i) => paths.push([k, i]));
      }
      return fc.tuple(fc.constant(spec), paths.length ? fc.constantFrom(...paths) : fc.constant(['length']), fc.constantFrom(...HOSTILE));
    });
    fc.assert(fc.property(mutation, ([spec, path, value]) => {
      const bad = structuredClone(spec);
      let at = bad;
      for (const p of path.slice(0, -1)) at = at[p];
      if (at && typeof at === 'object') at[path[path.length - 1]] = value;
      try {
        const result = pe.compute(bad);
        expect(nonFinite(bad.kind, result.spec, result), JSON.stringify({ path, value: String(value).slice(0, 40) })).toEqual([]);
      } catch (e) {
        expect(e, String(e)).toBeInstanceOf(PEError);
        expect(realParams(bad.kind).has(String(e.param).split(/[.[]/)[0]), `${e.param}: ${e.message}`).toBe(true);
      }
    }), { numRuns: RUNS * 2, seed: SEED + 1 });
  });

  it('one field at a time, across its whole range (every order of magnitude), computes finite numbers or is refused naming it', () => {
    // Every numeric field, nested rope_scaling ones per variant included, with the rest at their
    // defaults: the sweep that finds derived quantities overflowing (a factor of 1e-40 once gave
    // +Infinity angles). length is kept long (2048; attention 64), where angles are largest.
    const cases = [];
    for (const kind of FC_KINDS) {
      const fields = SCHEMA[kind].fields;
      const base = pe.defaults(kind);
      if (fields.length) base.length = Math.min(fields.length.max ?? 2048, kind === 'attention' ? 64 : 2048);
      for (const [name, field] of Object.entries(fields)) {
        if (field.type === 'number' || (field.type === 'int' && !SIZE_FIELDS.has(name))) cases.push(fc.tuple(fc.constant(base), fc.constant([name]), arbField(name, field)));
        if (field.type === 'object') {
          for (const [variant, { required = [], optional = [] }] of Object.entries(field.variants)) {
            for (const sub of [...required, ...optional]) {
              const d = field.fields[sub];
              if (d.type !== 'number' && d.type !== 'int') continue;
              const withVariant = { ...base, [name]: { [field.discriminator]: variant } };
              for (const r of required) withVariant[name][r] = field.fields[r].default;
              cases.push(fc.tuple(fc.constant(withVariant), fc.constant([name, sub]), arbField(sub, d)));
            }
          }
        }
      }
    }
    fc.assert(fc.property(fc.oneof(...cases), ([spec, path, value]) => {
      const s = structuredClone(spec);
      if (path.length === 1) s[path[0]] = value;
      else s[path[0]][path[1]] = value;
      try {
        const result = pe.compute(s);
        expect(nonFinite(s.kind, result.spec, result), `${path.join('.')} = ${value}`).toEqual([]);
      } catch (e) {
        expect(e, String(e)).toBeInstanceOf(PEError);
        expect(realParams(s.kind).has(String(e.param).split(/[.[]/)[0]), `${e.param}: ${e.message}`).toBe(true);
      }
    }), { numRuns: RUNS * 2, seed: SEED + 2 });
  });

  it('still computes a known case exactly afterwards', () => {
    const { data } = pe.compute({ kind: 'sinusoidal', length: 3, dim: 4 });
    // p = 2, pair 0 (ω = 1): sin 2, cos 2, float32-rounded; pair 1: ω = 10000^(-1/2) = 0.01.
    expect(data[8]).toBe(Math.fround(Math.sin(2)));
    expect(data[9]).toBe(Math.fround(Math.cos(2)));
    expect(data[10]).toBe(Math.fround(Math.sin(0.02)));
    expect(data[11]).toBe(Math.fround(Math.cos(0.02)));
  });
});

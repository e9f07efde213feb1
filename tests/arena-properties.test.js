// Property-based tests of the arena trainer's hostile input (fast-check, as
// tests/spec-properties.test.js does for pe.compute): specs drawn small (valid fields, hostile
// values in any field, odd types, getters that throw, Proxies, revoked Proxies), then setParams /
// evaluate / attention / step calls with drawn arguments and options. Every call either returns
// finite numbers of the documented shape or throws a PEError whose .param names a real field or
// argument; afterwards the module still trains a known case bit for bit.
// Runs about PE_FC_RUNS cases per property (default 120 in npm test), seed PE_FC_SEED.
import { describe, it, expect, beforeAll } from 'vitest';
import fc from 'fast-check';
import { createPE, PEError } from '../web/pe.js';
import ARENA from '../web/api/schema/arena.js';

const RUNS = Number(process.env.PE_FC_RUNS) || 120;
const SEED = Number(process.env.PE_FC_SEED) || 20261127;
const FIELDS = ARENA.arena.fields;
/** What a PEError may blame: the spec's fields, the call's arguments and options. */
const SPEC_PARAMS = new Set(['kind', 'spec', 'extra', ...Object.keys(FIELDS)]);   // 'extra': an unknown field, named
// ('kind': the unknown option of a hostile { kind: 'rope' } given as options, named)
const CALL_PARAMS = new Set(['length', 'n', 'params', 'options', 'samples', 'seed', 'rope_scaling', 'lr', 'kind']);

/** Values no field should accept silently. */
const HOSTILE = [NaN, Infinity, -Infinity, -1, 0, 1e308, -1e-310, 2 ** 53, 0.5, '', '12', [], [1], {}, true, null,
  { kind: 'rope' }, -0, 1e-40, 65, 257, Symbol('s'), 10n, () => 1];

/** A small valid model (milliseconds per trainer): every field drawn or left out. */
const arbModel = fc.record({
  task: fc.constantFrom('copy', 'reverse', 'kback', 'sort'),
  encoding: fc.constantFrom(null, ...['none', 'sinusoidal', 'learned', 'alibi', 't5', 'rope'].map((kind) => ({ kind }))),
  causal: fc.boolean(),
  layers: fc.integer({ min: 1, max: 2 }),
  heads: fc.constantFrom(1, 2),
  d_model: fc.constantFrom(4, 8),
  symbols: fc.integer({ min: 2, max: 8 }),
  train_length: fc.integer({ min: 3, max: 6 }),
  batch: fc.integer({ min: 1, max: 3 }),
  lr: fc.double({ min: 1e-4, max: 1, noNaN: true }),
  weight_decay: fc.double({ min: 0, max: 1, noNaN: true }),
  seed: fc.integer({ min: 0, max: 2 ** 32 - 1 }),
}, { requiredKeys: ['d_model', 'heads', 'train_length', 'batch'] }).map((s) => ({ kind: 'arena', ...s }));

/** A way of presenting an object: as is, a Proxy, a getter per field, a getter that throws. */
const WRAPS = ['plain', 'proxy', 'getters', 'throwing-getter', 'revoked', 'throwing-ownKeys'];
function wrap(object, how, victim) {
  switch (how) {
    case 'proxy': return new Proxy(object, {});
    case 'getters': {
      const o = {};
      for (const k of Object.keys(object)) Object.defineProperty(o, k, { get: () => object[k], enumerable: true });
      return o;
    }
    case 'throwing-getter': {
      const o = { ...object };
      Object.defineProperty(o, victim ?? 'kind', { get() { throw new Error('getter'); }, enumerable: true });
      return o;
    }
    case 'revoked': {
      const { proxy, revoke } = Proxy.revocable(object, {});
      revoke();
      return proxy;
    }
    case 'throwing-ownKeys': return new Proxy(object, { ownKeys() { throw new Error('ownKeys'); } });
    default: return object;
  }
}

/**
 * A spec: a valid one, maybe one field hostile, and how to wrap it. (fast-check looks into the
 * values it draws, so the Proxies are made inside the property, from this description.)
 */
const arbSpec = fc.tuple(arbModel, fc.option(fc.tuple(fc.constantFrom(...Object.keys(FIELDS), 'encoding.kind', 'extra'),
  fc.constantFrom(...HOSTILE)), { freq: 2 }), fc.constantFrom(...WRAPS), fc.constantFrom(...Object.keys(FIELDS)))
  .map(([model, hostile, how, victim]) => {
    const spec = structuredClone(model);
    if (hostile !== null) {
      const [path, value] = hostile;
      if (path === 'encoding.kind') spec.encoding = { kind: value };
      else spec[path] = value;
    }
    return { spec, how, victim, label: `${JSON.stringify(model)} ${hostile ? `${hostile[0]}=${String(hostile[1])}` : ''} ${how}` };
  });

function blames(e, allowed, label) {
  if (!(e instanceof PEError)) throw e;
  expect(allowed.has(String(e.param).split(/[.[]/)[0]), `${label}: ${e.param}: ${e.message}`).toBe(true);
}

function expectFinite(values, label) {
  for (let i = 0; i < values.length; i++) if (!Number.isFinite(values[i])) expect.fail(`${label}: [${i}] = ${values[i]}`);
}

/** An argument for evaluate/attention: a length, sometimes hostile. */
const arbLength = fc.oneof(fc.integer({ min: 1, max: 12 }), fc.constantFrom(...HOSTILE));
/** Their options: drawn fields, sometimes hostile, sometimes wrapped. */
const arbOptions = fc.oneof(
  fc.constant(undefined),
  fc.record({
    samples: fc.oneof(fc.integer({ min: 1, max: 8 }), fc.constantFrom(...HOSTILE)),
    seed: fc.oneof(fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.constantFrom(...HOSTILE)),
    rope_scaling: fc.oneof(fc.constant(null), fc.record({ rope_type: fc.constantFrom('linear', 'ntk', 'yarn', 'dynamic'), factor: fc.oneof(fc.double({ min: 1, max: 64, noNaN: true }), fc.constantFrom(...HOSTILE)) })),
  }, { requiredKeys: [] }).chain((o) => fc.constantFrom(...WRAPS).map((how) => ({ wrapped: o, how }))),
  fc.constantFrom(...HOSTILE),
);
/** The options value a drawn description stands for (wrapped inside the property). */
const options = (o) => (o !== null && typeof o === 'object' && 'wrapped' in o ? wrap(o.wrapped, o.how, 'seed') : o);
/** A parameter vector: the trainer's own, scaled, with a hostile value somewhere, or not an array. */
const arbParams = fc.record({
  scale: fc.constantFrom(0, 1, 100, 1e4, 1e5),
  at: fc.nat(),
  value: fc.option(fc.constantFrom(NaN, Infinity, -Infinity, 1e4, -1e4, 1e5, 3.4e38, 0), { freq: 2 }),
  kind: fc.constantFrom('float32', 'float32', 'float32', 'float64', 'short', 'proxy', 'array', 'null'),
});
function makeParams(t, { scale, at, value, kind }) {
  const p = t.params().map((v) => v * scale);
  if (value !== null) p[at % p.length] = value;
  switch (kind) {
    case 'float64': return new Float64Array(p);
    case 'short': return p.subarray(1);
    case 'proxy': return new Proxy(p, {});
    case 'array': return Array.from(p);
    case 'null': return null;
    default: return p;
  }
}

describe('arena trainer properties (fast-check)', () => {
  let pe;
  beforeAll(async () => {
    pe = await createPE();
  });

  it('pe.trainer(spec): a valid small spec trains finite losses; anything else throws a PEError naming a field', () => {
    let built = 0;
    fc.assert(fc.property(arbSpec, ({ spec, how, victim, label }) => {
      let t;
      try {
        t = pe.trainer(wrap(spec, how, victim));
      } catch (e) {
        blames(e, SPEC_PARAMS, label);
        return;
      }
      built += 1;
      try {
        const losses = t.step(2);
        expect(losses.length).toBe(2);
        expectFinite(losses, label);
      } finally {
        t.free();
      }
    }), { numRuns: RUNS, seed: SEED });
    expect(built, 'some drawn specs are valid').toBeGreaterThan(RUNS / 10);
  });

  it('setParams, evaluate, attention and step: finite results of the documented shape, or a PEError naming the argument', () => {
    const calls = fc.array(fc.oneof(
      fc.record({ op: fc.constant('setParams'), params: arbParams }),
      fc.record({ op: fc.constant('evaluate'), length: arbLength, options: arbOptions }),
      fc.record({ op: fc.constant('attention'), length: arbLength, options: arbOptions }),
      fc.record({ op: fc.constant('step'), n: fc.oneof(fc.integer({ min: 1, max: 3 }), fc.constantFrom(...HOSTILE)) }),
    ), { minLength: 1, maxLength: 5 });
    let answered = 0;
    fc.assert(fc.property(arbModel, calls, (spec, list) => {
      const t = pe.trainer(spec);
      try {
        for (const call of list) {
          const label = `${JSON.stringify(spec)} ${call.op}`;
          try {
            if (call.op === 'setParams') {
              t.setParams(makeParams(t, call.params));
              expectFinite(t.params(), label);
            } else if (call.op === 'evaluate') {
              const e = t.evaluate(call.length, options(call.options));
              expect(Object.keys(e).sort()).toEqual(['accuracy', 'loss', 'token_accuracy']);
              expectFinite([e.accuracy, e.token_accuracy, e.loss], label);
              expect(e.accuracy).toBeGreaterThanOrEqual(0);
              expect(e.token_accuracy).toBeLessThanOrEqual(1);
            } else if (call.op === 'attention') {
              const a = t.attention(call.length, options(call.options));
              const T = spec.causal === false ? call.length + 1 : 2 * call.length + 1;
              expect(a.shape).toEqual([spec.layers ?? 2, spec.heads ?? 4, T, T]);
              expect(a.data.length).toBe(a.shape.reduce((x, y) => x * y, 1));
              expect(a.tokens.length).toBe(T);
              expectFinite(a.data, label);
            } else {
              const losses = t.step(call.n);
              expect(losses.length).toBe(call.n);
              expectFinite(losses, label);
            }
            answered += 1;
          } catch (e) {
            blames(e, CALL_PARAMS, label);
          }
        }
      } finally {
        t.free();
      }
    }), { numRuns: RUNS, seed: SEED + 1 });
    expect(answered, 'some calls are valid').toBeGreaterThan(RUNS / 4);
  });

  it('the module still trains a known case bit for bit afterwards', () => {
    const spec = { kind: 'arena', layers: 1, d_model: 8, heads: 2, symbols: 4, train_length: 3, batch: 2, seed: 9 };
    const a = pe.trainer(spec);
    const losses = Array.from(a.step(3));
    a.free();
    return createPE().then((fresh) => {
      const b = fresh.trainer(spec);
      expect(Array.from(b.step(3))).toEqual(losses);
      b.free();
    });
  });
});

// Spec validation and defaults, driven entirely by the schema (web/schema.js). Pure JS, no WASM:
// the page uses it to check a field as the user types, the API before every kernel call.
import { SCHEMA, KINDS, PE_MAX_ELEMENTS } from './schema.js';

/** The error every bad spec produces: `.param` names the offending field. */
export class PEError extends Error {
  constructor(param, message) {
    super(message);
    this.name = 'PEError';
    this.param = param;
  }
}

const own = (object, key) => Object.prototype.hasOwnProperty.call(object, key);

/** A short, safe description of a value for error messages. */
export function describe(value) {
  if (typeof value === 'string') {
    const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
    return `"${shown}" (a string)`;
  }
  if (typeof value === 'number') return Number.isNaN(value) ? 'NaN' : String(value);
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'bigint') return `${value}n (a BigInt)`;
  return `a value of type ${typeof value}`;
}

/** Resolved bounds of a field for a (partially validated) spec: max may depend on other fields. */
export function fieldBounds(field, spec) {
  const max = typeof field.max === 'function' ? field.max(spec) : field.max;
  return { min: field.min, max };
}

/** What a field allows, as words: "an integer in [1, 1048576]". */
export function allowedText(field, spec = {}) {
  const { min, max } = fieldBounds(field, spec);
  switch (field.type) {
    case 'int': return `an integer in [${min}, ${max}]`;
    case 'number':
      return `a finite number in ${field.exclusiveMin ? '(' : '['}${min}, ${max}]`;
    case 'enum': return `one of ${field.values.map((v) => `"${v}"`).join(', ')}`;
    case 'bool': return 'true or false';
    default: return 'a valid value';
  }
}

function checkField(name, field, value, spec) {
  const fail = () => { throw new PEError(name, `${name} must be ${allowedText(field, spec)}, got ${describe(value)}`); };
  switch (field.type) {
    case 'int': {
      if (typeof value !== 'number' || !Number.isInteger(value)) fail();
      const { min, max } = fieldBounds(field, spec);
      if (value < min || value > max) fail();
      return value;
    }
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) fail();
      const { min, max } = fieldBounds(field, spec);
      if (value < min || (field.exclusiveMin && value === min) || value > max) fail();
      return value;
    }
    case 'enum':
      if (typeof value !== 'string' || !field.values.includes(value)) fail();
      return value;
    case 'bool':
      if (typeof value !== 'boolean') fail();
      return value;
    default:
      throw new PEError(name, `${name}: the schema has no type "${field.type}"`);
  }
}

function editDistance(a, b) {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length];
}

function suggestion(name, candidates) {
  let best = null;
  let bestDistance = 3;
  for (const candidate of candidates) {
    const d = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) { best = candidate; bestDistance = d; }
  }
  return best ? ` (did you mean "${best}"?)` : '';
}

function checkKind(spec) {
  if (spec === null || typeof spec !== 'object' || Array.isArray(spec)) {
    throw new PEError('spec', `a spec must be a plain object like { kind: "sinusoidal", length: 128, dim: 64 }, got ${describe(spec)}`);
  }
  if (!own(spec, 'kind')) throw new PEError('kind', `kind is required: one of ${KINDS.join(', ')}`);
  const { kind } = spec;
  if (typeof kind !== 'string' || !own(SCHEMA, kind)) {
    const hint = typeof kind === 'string' ? suggestion(kind, KINDS) : '';
    throw new PEError('kind', `kind must be one of ${KINDS.join(', ')}, got ${describe(kind)}${hint}`);
  }
  return SCHEMA[kind];
}

/** The full spec of a kind with every default filled in (a fresh object each call). */
export function defaults(kind) {
  const schema = checkKind({ kind });
  const spec = { kind };
  for (const [name, field] of Object.entries(schema.fields)) spec[name] = field.default;
  return spec;
}

/**
 * Checks a spec against the schema and returns a new, complete spec (defaults filled in for the
 * optional fields). Throws PEError naming the first offending field. Never mutates its input.
 */
export function normalizeSpec(spec) {
  const schema = checkKind(spec);
  const names = Object.keys(schema.fields);
  for (const key of Object.keys(spec)) {
    if (key !== 'kind' && !own(schema.fields, key)) {
      throw new PEError(key, `unknown field "${key}" for kind "${spec.kind}"${suggestion(key, names)}; its fields are ${names.join(', ')}`);
    }
  }
  const out = { kind: spec.kind };
  // Fields are checked in schema order, so a bound that depends on an earlier field sees it valid.
  for (const [name, field] of Object.entries(schema.fields)) {
    if (!own(spec, name) || spec[name] === undefined) {
      if (field.required) throw new PEError(name, `${name} is required: ${allowedText(field, out)}`);
      out[name] = field.default;
      continue;
    }
    out[name] = checkField(name, field, spec[name], out);
  }
  // Rules that tie fields together (e.g. dim % 4 == 0 for one layout): { param, message } or null.
  const broken = schema.check?.(out);
  if (broken) throw new PEError(broken.param, broken.message);
  const shape = schema.shape(out);
  const elements = shape.reduce((a, b) => a * b, 1);
  if (elements > PE_MAX_ELEMENTS) {
    const sizeFields = names.filter((n) => schema.fields[n].type === 'int' && n !== 'offset');
    throw new PEError(sizeFields[0] ?? 'kind',
      `the output [${shape.join(', ')}] has ${elements} values, more than the limit of ${PE_MAX_ELEMENTS} (PE_MAX_ELEMENTS); reduce ${sizeFields.join(' or ')}`);
  }
  return out;
}

/** The output shape of a valid (normalized) spec. */
export function shapeOf(spec) {
  return SCHEMA[spec.kind].shape(spec);
}

// Spec validation and defaults, driven entirely by the schema (web/api/schema/index.js). Pure JS, no WASM:
// the page uses it to check a field as the user types, the API before every kernel call.
import { SCHEMA, PE_MAX_ELEMENTS } from './schema/index.js';

/** The error every bad spec produces: `.param` names the offending field. */
export class PEError extends Error {
  /**
   * `details`, when the error is a value outside a field's range, so that a page can say it in
   * its own language: { expected: what the field allows (expectedOf below), got: the value given
   * when it is a string (cut to 40 characters), a number, a boolean or null }.
   */
  constructor(param, message, details) {
    super(message);
    this.name = 'PEError';
    this.param = param;
    if (details?.expected) this.expected = details.expected;
    if (details && own(details, 'got')) this.got = details.got;
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

/**
 * Resolved bounds of a field for a (partially validated) spec: min and max may be functions of
 * the fields validated before it. For a field of a nested object, `spec` is that object so far
 * and `root` the enclosing spec so far.
 */
export function fieldBounds(field, spec, root = spec) {
  const bound = (b) => (typeof b === 'function' ? b(spec, root) : b);
  return { min: bound(field.min), max: bound(field.max) };
}

/** What a field allows, as words: "an integer in [1, 1048576]", "null or a finite number > 0". */
export function allowedText(field, spec = {}, root = spec) {
  const { min, max } = fieldBounds(field, spec, root);
  const open = max === undefined || max === Infinity;   // no upper bound
  let text;
  switch (field.type) {
    case 'int': text = open ? `an integer ≥ ${min}` : `an integer in [${min}, ${max}]`; break;
    case 'number':
      text = open ? `a finite number ${field.exclusiveMin ? '>' : '≥'} ${min}`
        : `a finite number in ${field.exclusiveMin ? '(' : '['}${min}, ${max}]`;
      break;
    case 'enum': text = `one of ${field.values.map((v) => `"${v}"`).join(', ')}`; break;
    case 'bool': text = 'true or false'; break;
    case 'list': {
      const count = field.minItems === field.maxItems ? `${field.minItems}` : `${field.minItems} to ${field.maxItems}`;
      text = `a list of ${count} items, each ${allowedText(field.item, spec, root)}`;
      break;
    }
    case 'object': {
      const tag = field.fields[field.discriminator];
      text = `an object with ${field.discriminator} ${allowedText(tag)} (and that type's fields)`;
      break;
    }
    case 'named': {
      const names = Object.keys(field.presets).map((v) => `"${v}"`).join(', ');
      const subs = Object.values(field.fields).map((f) => allowedText(f));
      const keys = Object.keys(field.fields).join(', ');
      const each = subs.every((x) => x === subs[0]) ? ` each ${subs[0]}`
        : `: ${Object.keys(field.fields).map((k, i) => `${k} ${subs[i]}`).join('; ')}`;
      text = `one of ${names}, or an object { ${keys} }${each}`;
      break;
    }
    case 'string': text = `a string of at most ${field.maxLength} characters`; break;
    case 'spec': text = `a spec object with kind one of ${field.kinds.map((k) => `"${k}"`).join(', ')}`; break;
    default: text = 'a valid value';
  }
  if (field.rule) text += ` (${field.rule})`;
  return field.nullable ? `null or ${text}` : text;
}

/**
 * What a field allows, as data (allowedText's words, for another language): { type, nullable,
 * and per type min, max, exclusiveMin (int, number), values (enum, named presets, spec kinds,
 * the tag values of an object), minItems, maxItems, item (list), maxLength (string), keys
 * (named), tag (object) }.
 */
export function expectedOf(field, spec = {}, root = spec) {
  const out = { type: field.type, nullable: !!field.nullable };
  switch (field.type) {
    case 'int':
    case 'number': {
      const { min, max } = fieldBounds(field, spec, root);
      Object.assign(out, { min, max: max ?? Infinity, exclusiveMin: !!field.exclusiveMin });
      break;
    }
    case 'enum': out.values = [...field.values]; break;
    case 'list': Object.assign(out, { minItems: field.minItems, maxItems: field.maxItems, item: expectedOf(field.item, spec, root) }); break;
    case 'object': Object.assign(out, { tag: field.discriminator, values: [...field.fields[field.discriminator].values ?? []] }); break;
    case 'named': Object.assign(out, { values: Object.keys(field.presets), keys: Object.keys(field.fields) }); break;
    case 'string': out.maxLength = field.maxLength; break;
    case 'spec': out.values = [...field.kinds]; break;
    default:
  }
  return out;
}

/** The value given, for PEError.got: plain values only (a string cut to 40 characters). */
function given(value) {
  if (typeof value === 'string') return { got: value.length > 40 ? `${value.slice(0, 40)}…` : value };
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return { got: value };
  return {};
}

/**
 * Checks one value against a field descriptor of the schema vocabulary (web/api/schema/index.js),
 * outside any spec: the view state (web/model/view-state.js) is described and checked this way.
 * Returns the value; throws a PEError naming `name` with the allowed range.
 */
export function checkValue(name, field, value) {
  return checkField(name, field, value, {}, {});
}

function checkField(name, field, value, spec, root = spec) {
  const fail = () => {
    throw new PEError(name, `${name} must be ${allowedText(field, spec, root)}, got ${describe(value)}`,
      { expected: expectedOf(field, spec, root), ...given(value) });
  };
  if (value === null && field.nullable) return null;
  switch (field.type) {
    case 'int': {
      if (typeof value !== 'number' || !Number.isInteger(value)) fail();
      const { min, max } = fieldBounds(field, spec, root);
      if (value < min || value > max) fail();
      return value;
    }
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) fail();
      const { min, max } = fieldBounds(field, spec, root);
      if (value < min || (field.exclusiveMin && value === min) || value > max) fail();
      return value;
    }
    case 'object':
      if (value === null || typeof value !== 'object' || Array.isArray(value)) fail();
      return checkObject(name, field, value, root);
    case 'list': {
      // An array of items that share one descriptor (`item`), e.g. M-RoPE's segments; errors
      // name the item, e.g. 'segments[2].h'. minItems/maxItems bound the length.
      if (!Array.isArray(value) || value.length < field.minItems || value.length > field.maxItems) fail();
      const items = value.map((item, i) => checkField(`${name}[${i}]`, field.item, item, spec, root));
      const broken = field.check?.(items, spec);
      if (broken) throw new PEError(broken.param ?? name, broken.message);
      return items;
    }
    case 'enum':
      if (typeof value !== 'string' || !field.values.includes(value)) fail();
      return value;
    case 'bool':
      if (typeof value !== 'boolean') fail();
      return value;
    case 'string':
      if (typeof value !== 'string' || value.length > field.maxLength) fail();
      return value;
    case 'named':
      if (typeof value === 'string') {
        if (own(field.presets, value)) return value;
        throw new PEError(name, `${name} must be ${allowedText(field, spec, root)}, got ${describe(value)}${suggestion(value, Object.keys(field.presets))}`,
          { expected: expectedOf(field, spec, root), ...given(value) });
      }
      if (value === null || typeof value !== 'object' || Array.isArray(value)) fail();
      return checkNamed(name, field, value, root);
    case 'spec':
      if (value === null || typeof value !== 'object' || Array.isArray(value)) fail();
      return checkNestedSpec(name, field, value, spec);
    default:
      throw new PEError(name, `${name}: the schema has no type "${field.type}"`);
  }
}

/**
 * A nested object field (type 'object'), e.g. rope_scaling. Its descriptor has
 *   fields         sub-field descriptors (same form as a kind's fields, in validation order)
 *   discriminator  the sub-field (an enum) that selects the variant, e.g. 'rope_type'
 *   variants       { value: { required: [names], optional: [names] } }: the keys each variant
 *                  allows besides the discriminator; optional ones get their default
 *   aliases        { legacy name: sub-field name }, e.g. { type: 'rope_type' }
 *                  A variant may also give `defaults` ({ name: value }) for optional sub-fields
 *                  whose default differs for it (e.g. longrope leaves factor unset: null).
 * Sub-field errors name the full path ('rope_scaling.factor'); min/max functions of a sub-field
 * get (the object so far, the enclosing spec so far). Returns a new object, discriminator first.
 */
function checkObject(name, field, value, root) {
  const tag = field.discriminator;
  const input = { ...value };
  for (const [alias, key] of Object.entries(field.aliases ?? {})) {
    if (!own(input, alias)) continue;
    if (own(input, key) && input[key] !== input[alias]) {
      throw new PEError(`${name}.${alias}`, `${name}.${alias} is another name for ${name}.${key}; they disagree (${describe(input[alias])} and ${describe(input[key])}): give only ${key}`);
    }
    input[key] = input[alias];
    delete input[alias];
  }
  const tagName = `${name}.${tag}`;
  if (!own(input, tag) || input[tag] === undefined) {
    throw new PEError(tagName, `${tagName} is required: ${allowedText(field.fields[tag])}`, { expected: expectedOf(field.fields[tag]) });
  }
  const variant = checkField(tagName, field.fields[tag], input[tag], {}, root);
  const { required = [], optional = [], defaults: variantDefaults = {} } = field.variants[variant];
  const allowed = [tag, ...required, ...optional];
  for (const key of Object.keys(input)) {
    if (allowed.includes(key) || input[key] === undefined) continue;
    if (own(field.fields, key)) {
      throw new PEError(`${name}.${key}`, `${name}.${key} is not used when ${tag} is "${variant}"; its fields are ${allowed.join(', ')}`);
    }
    throw new PEError(`${name}.${key}`, `unknown field "${key}" in ${name}${suggestion(key, Object.keys(field.fields))}; with ${tag} "${variant}" its fields are ${allowed.join(', ')}`);
  }
  const out = { [tag]: variant };
  for (const [key, sub] of Object.entries(field.fields)) {
    if (key === tag || !allowed.includes(key)) continue;
    const subName = `${name}.${key}`;
    const isRequired = required.includes(key);
    const unsetByVariant = input[key] === null && own(variantDefaults, key) && variantDefaults[key] === null;
    if (!own(input, key) || input[key] === undefined || (input[key] === null && isRequired) || unsetByVariant) {
      if (isRequired) throw new PEError(subName, `${subName} is required when ${tag} is "${variant}": ${allowedText({ ...sub, nullable: false }, out, root)}`, { expected: expectedOf({ ...sub, nullable: false }, out, root) });
      out[key] = own(variantDefaults, key) ? variantDefaults[key] : sub.default;
      continue;
    }
    out[key] = checkField(subName, sub, input[key], out, root);
  }
  return out;
}

/**
 * The object form of a 'named' field (e.g. rope_precision's recipe): a preset's name, or an
 * object giving every sub-field of `fields` (no discriminator: all of them are required; the
 * presets are objects of the same fields). Errors name the path ('recipe.table_dtype'). Returns
 * a new object in the order of `fields`.
 */
function checkNamed(name, field, value, root) {
  const keys = Object.keys(field.fields);
  for (const key of Object.keys(value)) {
    if (!own(field.fields, key) && value[key] !== undefined) {
      throw new PEError(`${name}.${key}`, `unknown field "${key}" in ${name}${suggestion(key, keys)}; its fields are ${keys.join(', ')}`);
    }
  }
  const out = {};
  for (const [key, sub] of Object.entries(field.fields)) {
    const subName = `${name}.${key}`;
    if (!own(value, key) || value[key] === undefined) {
      throw new PEError(subName, `${subName} is required (a recipe object gives all of ${keys.join(', ')}): ${allowedText(sub, out, root)}`, { expected: expectedOf(sub, out, root) });
    }
    out[key] = checkField(subName, sub, value[key], out, root);
  }
  return out;
}

/**
 * A nested spec of another kind (type 'spec'), e.g. attention's `encoding`: validated by that
 * kind's own schema. The descriptor has
 *   kinds              the kinds allowed
 *   inherit(kind, root, kindSchema)   fields the enclosing spec sets (e.g. { length, dim }): the
 *                      nested spec may leave them out or repeat the same value
 *   defaults(kind, root)   defaults that differ from the kind's own (optional)
 * Errors name the path ('encoding.base'); an error on an inherited field names the enclosing
 * field ('dim'). Returns the normalized nested spec without the inherited fields.
 */
function checkNestedSpec(name, field, value, root) {
  const { kind } = value;
  if (typeof kind !== 'string' || !field.kinds.includes(kind)) {
    const hint = typeof kind === 'string' ? suggestion(kind, field.kinds) : '';
    throw new PEError(`${name}.kind`, `${name}.kind must be one of ${field.kinds.join(', ')}${field.rule ? ` (${field.rule})` : ''}, got ${describe(kind)}${hint}`,
      { expected: { type: 'enum', nullable: false, values: [...field.kinds] }, ...given(kind) });
  }
  const inherited = field.inherit?.(kind, root, SCHEMA[kind]) ?? {};
  for (const [key, v] of Object.entries(inherited)) {
    if (own(value, key) && value[key] !== undefined && value[key] !== v) {
      throw new PEError(`${name}.${key}`, `${name}.${key} follows the enclosing spec (${key} ${describe(v)}): leave it out, got ${describe(value[key])}`);
    }
  }
  // Object.fromEntries and spreads define own properties, so a "__proto__" key stays a (rejected) field.
  const merged = Object.fromEntries([...Object.entries(field.defaults?.(kind, root) ?? {}),
    ...Object.entries(value).filter(([, v]) => v !== undefined)]);
  let full;
  try {
    full = normalizeSpec({ ...merged, ...inherited });
  } catch (e) {
    if (!(e instanceof PEError)) throw e;
    if (own(inherited, e.param)) throw new PEError(e.param, `${e.message} (for ${name} "${kind}")`, e);
    const message = e.message.startsWith(e.param) ? `${name}.${e.message}` : `${name} (${kind}): ${e.message}`;
    throw new PEError(`${name}.${e.param}`, message, e);
  }
  const out = {};
  for (const [key, v] of Object.entries(full)) if (!own(inherited, key)) out[key] = v;
  return out;
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

// The kind of a spec, checked against `schemas` (SCHEMA, or another table such as the Arena's):
// { kind, schema }. A table may name a kind that a spec without one has (`implicitKind`).
function checkKind(spec, schemas = SCHEMA, implicitKind = undefined) {
  if (spec === null || typeof spec !== 'object' || Array.isArray(spec)) {
    const example = implicitKind === undefined ? '{ kind: "sinusoidal", length: 128, dim: 64 }' : `{ kind: "${implicitKind}" }`;
    throw new PEError('spec', `a spec must be a plain object like ${example}, got ${describe(spec)}`);
  }
  const kinds = Object.keys(schemas);
  if (!own(spec, 'kind') && implicitKind === undefined) throw new PEError('kind', `kind is required: one of ${kinds.join(', ')}`);
  const kind = own(spec, 'kind') ? spec.kind : implicitKind;
  if (typeof kind !== 'string' || !own(schemas, kind)) {
    const hint = typeof kind === 'string' ? suggestion(kind, kinds) : '';
    const allowed = kinds.length === 1 ? `"${kinds[0]}"` : `one of ${kinds.join(', ')}`;
    throw new PEError('kind', `kind must be ${allowed}, got ${describe(kind)}${hint}`);
  }
  return { kind, schema: schemas[kind] };
}

/** The full spec of a kind with every default filled in (a fresh object each call). */
export function defaults(kind) {
  const { schema } = checkKind({ kind });
  const spec = { kind };
  for (const [name, field] of Object.entries(schema.fields)) spec[name] = field.default;
  return spec;
}

/** Most items a list in a spec may have before it is read (the schema's longest list has 256). */
const MAX_SNAPSHOT_ITEMS = 65536;
const MAX_SNAPSHOT_DEPTH = 32;

/**
 * A plain-data copy of a spec, each property read exactly once, before anything is checked: a
 * getter or a Proxy cannot validate as one thing and compute as another, a throwing getter or a
 * revoked Proxy becomes a PEError naming the field, and a sparse list has undefined holes that
 * validation then names ('segments[2]'). Keys stay own properties ("__proto__" included, so it
 * is refused as an unknown field, never followed).
 */
export function snapshot(value, path = '', depth = 0) {
  if (value === null || typeof value !== 'object') return value;
  const where = path || 'spec';
  if (depth > MAX_SNAPSHOT_DEPTH) {
    const top = where.split(/[.[]/)[0];
    throw new PEError(top, `${top} is nested more than ${MAX_SNAPSHOT_DEPTH} levels deep (does it contain itself?)`);
  }
  const read = (get, at) => {
    try {
      return get();
    } catch (e) {
      throw new PEError(at, `${at} could not be read: ${e?.message ?? String(e)}`);
    }
  };
  if (read(() => Array.isArray(value), where)) {
    const n = read(() => value.length, where);
    if (!(n <= MAX_SNAPSHOT_ITEMS)) throw new PEError(where, `${where} has ${n} items, more than any field allows`);
    const out = new Array(n);
    for (let i = 0; i < n; i++) {
      const at = `${path}[${i}]`;
      out[i] = snapshot(read(() => value[i], at), at, depth + 1);
    }
    return out;
  }
  if (ArrayBuffer.isView(value)) return value; // not spec data: refused by the field's type check
  const out = {};
  for (const key of read(() => Object.keys(value), where)) {
    const at = path ? `${path}.${key}` : key;
    const v = snapshot(read(() => value[key], at), at, depth + 1);
    Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/**
 * Checks a spec against the schema and returns a new, complete spec (defaults filled in for the
 * optional fields). Throws PEError naming the first offending field. Never mutates its input,
 * and reads each of its properties once (snapshot).
 *
 * `schemas` is the table of kinds (SCHEMA, the kinds of pe.compute, unless given: the Arena's
 * trainer passes web/api/schema/arena.js's, with implicitKind 'arena' for a spec that leaves kind
 * out). A kind without `shape` has no output size to check here.
 */
export function normalizeSpec(input, { schemas = SCHEMA, implicitKind } = {}) {
  const spec = snapshot(input);
  const { kind, schema } = checkKind(spec, schemas, implicitKind);
  const names = Object.keys(schema.fields);
  for (const key of Object.keys(spec)) {
    if (key !== 'kind' && !own(schema.fields, key)) {
      throw new PEError(key, `unknown field "${key}" for kind "${kind}"${suggestion(key, names)}; its fields are ${names.join(', ')}`);
    }
  }
  const out = { kind };
  // Fields are checked in schema order, so a bound that depends on an earlier field sees it valid.
  for (const [name, field] of Object.entries(schema.fields)) {
    if (!own(spec, name) || spec[name] === undefined) {
      if (field.required) throw new PEError(name, `${name} is required: ${allowedText(field, out)}`, { expected: expectedOf(field, out) });
      out[name] = field.defaultFrom !== undefined ? out[field.defaultFrom] : field.default;
      continue;
    }
    out[name] = checkField(name, field, spec[name], out);
  }
  // Rules that tie fields together (e.g. dim % 4 == 0 for one layout): { param, message } or null.
  const broken = schema.check?.(out);
  if (broken) throw new PEError(broken.param, broken.message);
  if (schema.shape === undefined) return out;
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

// web/pe.d.ts against the schema: every kind has its spec interface in the `Spec` union, naming
// exactly the schema's fields, and every value an enum field allows is in its type; the nested
// objects (rope_scaling, the recipe, M-RoPE's segments, attention's encoding) likewise. tsc checks
// that the types are consistent with themselves; this checks that they describe the schema.
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { SCHEMA, KINDS } from '../../web/api/schema/index.js';
import { ENCODING_KINDS } from '../../web/api/schema/attention.js';

const DTS = readFileSync(new URL('../../web/pe.d.ts', import.meta.url), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');

/** The body of `export interface Name { … }` (one level of braces deep). */
function interfaceBody(name) {
  const m = new RegExp(`export interface ${name}(?: extends [^{]+)? \\{`).exec(DTS);
  if (!m) return null;
  let depth = 1;
  let i = m.index + m[0].length;
  const start = i;
  for (; i < DTS.length && depth; i++) depth += DTS[i] === '{' ? 1 : DTS[i] === '}' ? -1 : 0;
  return DTS.slice(start, i - 1);
}

/** The right-hand side of `export type Name = …;`. */
const typeAlias = (name) => new RegExp(`export type ${name} =([\\s\\S]*?);\\n(?!\\s*\\|)`).exec(DTS)?.[1] ?? null;

/** The members written without `?` (required), of an object members() returned. */
const REQUIRED = new WeakMap();

/** { field: type text } of an interface body's top-level members. */
function members(body) {
  const out = {};
  let depth = 0;
  let line = '';
  for (const ch of body) {
    if (ch === '{' || ch === '(' || ch === '<') depth++;
    if (ch === '}' || ch === ')' || ch === '>') depth--;
    if ((ch === ';' || ch === '\n') && depth === 0) {
      const m = /^\s*(\w+)(\??):\s*([\s\S]+)$/.exec(line);
      if (m) {
        out[m[1]] = m[3].trim();
        if (!m[2]) REQUIRED.set(out, [...(REQUIRED.get(out) ?? []), m[1]]);
      }
      line = '';
    } else line += ch;
  }
  return out;
}

/** A type text with its named aliases (RopeType, RecipeName, …) written out, one level deep. */
const expand = (text) => text.replace(/\b[A-Z]\w+\b/g, (name) => typeAlias(name) ?? interfaceBody(name) ?? name);

/** The interface whose `kind` is the kind's literal. */
function specInterface(kind) {
  const re = /export interface (\w+Spec) \{/g;
  for (const m of DTS.matchAll(re)) {
    const body = interfaceBody(m[1]);
    if (members(body).kind === `'${kind}'`) return { name: m[1], fields: members(body) };
  }
  return null;
}

// Nothing the schema accepts may be missing from the types: a gap would have to be listed here
// (and is checked to be one), and today there is none.
const KNOWN_GAPS = [];
const gap = (path) => KNOWN_GAPS.includes(path);

/** Checks one field set against a descriptor map: same names, enum values in the types. */
function expectFields(where, typeFields, schemaFields, { required: checkRequired = false } = {}) {
  const typed = Object.keys(typeFields).filter((f) => f !== 'kind');
  expect(typed.filter((f) => !(f in schemaFields)), `${where}: fields the schema does not have`).toEqual([]);
  expect(Object.keys(schemaFields).filter((f) => !typed.includes(f) && !gap(`${where}.${f}`)), `${where}: schema fields missing`).toEqual([]);
  // A kind's field the schema requires is required in its interface too, and only those.
  if (checkRequired) {
    const required = (REQUIRED.get(typeFields) ?? []).filter((f) => f !== 'kind');
    expect(required.sort(), `${where}: required fields`).toEqual(Object.keys(schemaFields).filter((f) => schemaFields[f].required).sort());
  }
  for (const [name, field] of Object.entries(schemaFields)) {
    if (field.type !== 'enum') continue;
    if (!(name in typeFields)) continue;
    const type = expand(typeFields[name]);
    for (const v of field.values) expect(type, `${where}.${name} allows '${v}'`).toContain(`'${v}'`);
  }
}

describe('web/pe.d.ts describes the schema', () => {
  const union = typeAlias('Spec') ?? '';

  it.each(KINDS)('%s: an interface in the Spec union with exactly the schema fields', (kind) => {
    const found = specInterface(kind);
    expect(found, `an interface with kind: '${kind}'`).toBeTruthy();
    expect(union.split('|').map((s) => s.trim()), 'listed in Spec').toContain(found.name);
    expectFields(kind, found.fields, SCHEMA[kind].fields, { required: true });
  });

  it('rope_scaling, the recipe and M-RoPE segments name their schema fields', () => {
    expectFields('rope.rope_scaling', members(interfaceBody('RopeScaling')), SCHEMA.rope.fields.rope_scaling.fields);
    expectFields('rope_precision.recipe', members(interfaceBody('Recipe')), SCHEMA.rope_precision.fields.recipe.fields);
    const segments = typeAlias('MropeSegment');
    for (const name of Object.keys(SCHEMA.mrope.fields.segments.item.fields)) expect(segments, `MropeSegment.${name}`).toMatch(new RegExp(`\\b${name}\\??:`));
    for (const type of SCHEMA.mrope.fields.segments.item.fields.type.values) expect(segments).toContain(`'${type}'`);
    for (const name of Object.keys(SCHEMA.rope_precision.fields.recipe.presets)) expect(typeAlias('RecipeName')).toContain(`'${name}'`);
  });

  it("attention's encoding accepts every kind the schema lets it take", () => {
    const encoding = typeAlias('EncodingSpec');
    for (const kind of ENCODING_KINDS) {
      if (!gap(`attention.encoding.${kind}`)) expect(encoding, `EncodingSpec includes ${kind}`).toContain(`${specInterface(kind).name},`);
    }
  });

  it('every known gap is still one (remove the entry once pe.d.ts covers it)', () => {
    const typedScaling = Object.keys(members(interfaceBody('RopeScaling')));
    const encoding = typeAlias('EncodingSpec');
    for (const path of KNOWN_GAPS) {
      const [kind, field, sub] = path.split('.');
      if (kind === 'attention') expect(encoding, path).not.toContain(`${specInterface(sub).name},`);
      else if (field === 'rope_scaling') expect(typedScaling, path).not.toContain(sub);
      else throw new Error(`no check for the gap ${path}`);
    }
  });
});

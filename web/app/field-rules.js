// What the schema's descriptors say about a field, without the DOM: whether a field is optional,
// whether a sub-field applies to its object's current value, the value an object starts with, and
// a typed list of numbers.
import { copyJSON } from '../model/json.js';

export const isOptional = (desc) => desc.default === null && !desc.required;

export const subFieldsOf = (desc) => desc.fields ?? desc.properties ?? {};

/**
 * Whether sub-field `name` applies to the current value of its object: its own `when`, or the
 * object's `variants` (a discriminator value → { required, optional } lists of sub-fields).
 */
export function fieldVisible(name, desc, parent, object, spec) {
  const w = desc.when;
  if (typeof w === 'function') return !!w(object ?? {}, spec);
  if (w) {
    return Object.entries(w).every(([k, allowed]) =>
      (Array.isArray(allowed) ? allowed.includes(object?.[k]) : object?.[k] === allowed));
  }
  const disc = parent?.discriminator;
  if (disc && parent.variants && object) {
    if (name === disc) return true;
    const variant = parent.variants[object[disc]];
    if (variant) return [...(variant.required ?? []), ...(variant.optional ?? [])].includes(name);
  }
  return true;
}

/**
 * The value an object field takes when switched on, or when its discriminator becomes `type`:
 * the schema's example for that type if it has one, else the sub-fields' defaults; either way
 * with the defaults of every other sub-field that applies, and nothing that does not.
 */
export function objectDefault(desc, spec, type) {
  const fields = subFieldsOf(desc);
  const disc = desc.discriminator;
  const chosen = type ?? (disc ? fields[disc]?.default : undefined);
  let obj = disc && desc.examples?.[chosen] ? copyJSON(desc.examples[chosen]) : null;
  if (!obj) {
    obj = {};
    if (disc && chosen !== undefined) obj[disc] = chosen;
  }
  for (const [name, sub] of Object.entries(fields)) {
    if (obj[name] === undefined && sub.default !== null && sub.default !== undefined) obj[name] = copyJSON(sub.default);
  }
  for (const [name, sub] of Object.entries(fields)) {
    if (!fieldVisible(name, sub, desc, obj, spec)) delete obj[name];
  }
  return obj;
}

/** A list of numbers typed as text ("16, 24, 24", brackets allowed): { value } or { bad: the first bad item }. */
export function parseNumberList(text, isInt) {
  const parts = text.replace(/^\s*\[|\]\s*$/g, '').split(/[\s,;]+/).filter(Boolean);
  const out = [];
  for (const p of parts) {
    const n = Number(p);
    if (!Number.isFinite(n) || (isInt && !Number.isInteger(n))) return { bad: p };
    out.push(n);
  }
  return { value: out };
}

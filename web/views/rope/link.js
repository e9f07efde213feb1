// A permalink for a spec of any kind, written here because views sit below web/share (whose
// encoder, share/permalink.js, is the reference: tests/models.test.js decodes these links with
// it). The format is the one documented there: #v1/<kind>?<field>=<value>&…, values in its
// URL-safe JSON (numbers, !t !f !n, bare words or 'quoted', (k:v,…) objects, !(…) lists).
const IDENT = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

function value(v) {
  if (v === null) return '!n';
  if (v === true) return '!t';
  if (v === false) return '!f';
  if (typeof v === 'number') return String(Object.is(v, -0) ? 0 : v).replace('e+', 'e');
  if (typeof v === 'string') return IDENT.test(v) ? v : `'${v.replace(/!/g, '!!').replace(/'/g, "!'")}'`;
  if (Array.isArray(v)) return `!(${v.map(value).join(',')})`;
  return `(${Object.entries(v).filter(([, x]) => x !== undefined).map(([k, x]) => `${k}:${value(x)}`).join(',')})`;
}

const escape = (text) => encodeURIComponent(text).replace(/%2C/g, ',').replace(/%3A/g, ':');

/** '#v1/<kind>?…' holding every field of a (normalized) spec that is not null; lang adds ~lang. */
export function specLink(spec, lang = 'en') {
  const parts = Object.entries(spec)
    .filter(([k, v]) => k !== 'kind' && v !== null && v !== undefined)
    .map(([k, v]) => `${k}=${escape(value(v))}`);
  if (lang !== 'en') parts.push(`~lang=${lang}`);
  return `#v1/${spec.kind}${parts.length ? `?${parts.join('&')}` : ''}`;
}

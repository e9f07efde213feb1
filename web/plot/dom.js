// A tiny DOM builder: h('p', { class: 'help', text: '…' }, child, …). Attributes set to null,
// undefined or false are left out; true sets an empty attribute; `on` takes { event: handler }.

export function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v == null || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else if (k === 'on') for (const [ev, fn] of Object.entries(v)) e.addEventListener(ev, fn);
    else if (v === true) e.setAttribute(k, '');
    else e.setAttribute(k, String(v));
  }
  for (const c of children.flat()) if (c != null && c !== false) e.append(c);
  return e;
}

/** An id unique within the page, with a readable prefix. */
let counter = 0;
export function uid(prefix) {
  counter += 1;
  return `${prefix}-${counter}`;
}

/** The value of a CSS custom property on the root element (colours of the current theme). */
export function cssVar(name, fallback = '') {
  const v = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return v || fallback;
}

// Formulas for the Learn path as MathML (typeset by the browser itself: offline, no fonts or
// scripts to load). A formula is written as nested calls: row(mi('p'), mo('+'), mn(1)).
const NS = 'http://www.w3.org/1998/Math/MathML';

function node(tag, children, attrs = {}) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  for (const c of children) el.append(typeof c === 'string' ? c : c);
  return el;
}

export const mi = (x, attrs) => node('mi', [String(x)], attrs);
export const mn = (x) => node('mn', [String(x)]);
export const mo = (x) => node('mo', [String(x)]);
export const row = (...c) => node('mrow', c);
export const sup = (base, exp) => node('msup', [base, exp]);
export const sub = (base, index) => node('msub', [base, index]);
export const subsup = (base, index, exp) => node('msubsup', [base, index, exp]);
export const frac = (a, b) => node('mfrac', [a, b]);
export const sqrt = (...c) => node('msqrt', c);
export const paren = (...c) => row(mo('('), ...c, mo(')'));
export const under = (base, below) => node('munder', [base, below]);
export const matrix = (rows) => row(mo('['), node('mtable', rows.map((r) => node('mtr', r.map((c) => node('mtd', [c]))))), mo(']'));
/** A function name (sin, cos) with the thin space that follows it. */
export const fn = (name) => row(mi(name, { mathvariant: 'normal' }), node('mspace', [], { width: '0.17em' }));

/** A display formula with a text alternative (read by screen readers). */
export function math(label, ...children) {
  return node('math', [row(...children)], { display: 'block', 'aria-label': label, class: 'learn-math' });
}

// --- the formulas the steps show ----------------------------------------------------------------

const w = (i) => sub(mi('ω'), mi(i));
const PE = (...arg) => row(mi('PE'), paren(...arg));

export const FORMULAS = {
  sinusoids: () => math('PE(p, 2i) = sin(p·ω_i), PE(p, 2i+1) = cos(p·ω_i), ω_i = base^(−2i/d)',
    PE(mi('p'), mo(','), mn(2), mi('i')), mo('='), fn('sin'), paren(mi('p'), w('i')), mo(','), mspace(),
    PE(mi('p'), mo(','), mn(2), mi('i'), mo('+'), mn(1)), mo('='), fn('cos'), paren(mi('p'), w('i')), mo(','), mspace(),
    w('i'), mo('='), sup(fn('base'), row(mo('−'), frac(row(mn(2), mi('i')), mi('d'))))),
  shift: () => math('PE(p+k) = M_k PE(p), each pair rotated by k ω_i',
    PE(mi('p'), mo('+'), mi('k')), mo('='), sub(mi('M'), mi('k')), PE(mi('p')), mo(','), mspace(),
    matrix([[row(fn('sin'), paren(paren(mi('p'), mo('+'), mi('k')), w('i')))], [row(fn('cos'), paren(paren(mi('p'), mo('+'), mi('k')), w('i')))]]),
    mo('='),
    matrix([[row(fn('cos'), mi('k'), w('i')), row(fn('sin'), mi('k'), w('i'))], [row(mo('−'), fn('sin'), mi('k'), w('i')), row(fn('cos'), mi('k'), w('i'))]]),
    matrix([[row(fn('sin'), mi('p'), w('i'))], [row(fn('cos'), mi('p'), w('i'))]])),
  dot: () => math('PE(p)·PE(p+k) = sum over i of cos(k ω_i)',
    PE(mi('p')), mo('·'), PE(mi('p'), mo('+'), mi('k')), mo('='), under(mo('∑'), mi('i')), fn('cos'), paren(mi('k'), w('i'))),
  relative: () => math('s(i, j) = q_i·k_j / sqrt(d) + b(j − i); ALiBi: b = −m (i − j)',
    mi('s'), paren(mi('i'), mo(','), mi('j')), mo('='), frac(row(sub(mi('q'), mi('i')), mo('·'), sub(mi('k'), mi('j'))), sqrt(mi('d'))),
    mo('+'), mi('b'), paren(mi('j'), mo('−'), mi('i')), mo(','), mspace(), fn('ALiBi'), mo(':'), mi('b'), mo('='), mo('−'), mi('m'), paren(mi('i'), mo('−'), mi('j'))),
  rope: () => math('R(m θ) q · R(n θ) k = q · R((n − m) θ) k',
    row(mi('R'), paren(mi('m'), mi('θ')), mi('q')), mo('·'), row(mi('R'), paren(mi('n'), mi('θ')), mi('k')), mo('='),
    mi('q'), mo('·'), mi('R'), paren(paren(mi('n'), mo('−'), mi('m')), mi('θ')), mi('k'), mo(','), mspace(),
    mi('R'), paren(mi('φ')), mo('='), matrix([[row(fn('cos'), mi('φ')), row(mo('−'), fn('sin'), mi('φ'))], [row(fn('sin'), mi('φ')), row(fn('cos'), mi('φ'))]])),
  decay: () => math('s(δ) = (2/d) sum over i of cos(δ θ_i)',
    mi('s'), paren(mi('δ')), mo('='), frac(mn(2), mi('d')), under(mo('∑'), mi('i')), fn('cos'), paren(mi('δ'), sub(mi('θ'), mi('i')))),
};

function mspace() {
  return node('mspace', [], { width: '1em' });
}

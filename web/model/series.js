// Which rows or columns the line plot shows by default, and parsing the user's list.

/** Defaults per output class: { mode: 'cols' | 'rows', list }. */
export function defaultSeries(info) {
  const { rows, cols } = info;
  const pick = (list, n) => [...new Set(list.filter((d) => d >= 0 && d < n))];
  switch (info.class) {
    case 'table': {
      // Three sin/cos pairs (interleaved layout) with short, medium and long wavelengths.
      if (cols <= 6) return { mode: 'cols', list: pick([0, 1, 2, 3, 4, 5], cols) };
      const classic = pick([0, 1, 8, 9, 24, 25], cols);
      return { mode: 'cols', list: classic.length >= 4 ? classic : pick([0, 1, Math.floor(cols / 2), cols - 1], cols) };
    }
    case 'angles':
      return { mode: 'cols', list: pick([0, Math.floor(cols / 8), Math.floor(cols / 4), Math.floor(cols / 2), cols - 1], cols) };
    case 'pairwise':
      return { mode: 'rows', list: pick([Math.floor(rows / 2), rows - 1], rows) };
    case 'ids':
      return { mode: 'rows', list: pick([0, 1, 2], rows) };
    default:
      return { mode: 'cols', list: pick([0, 1, 2, 3], cols) };
  }
}

/** Parse "0, 1, 6-9" into indices: { list, bad } (bad: the first token that is not one). */
export function parseList(text) {
  const list = [];
  for (const tok of text.replace(/\s*([-–:])\s*/g, '$1').split(/[\s,;]+/).filter(Boolean)) {
    const m = /^(\d+)(?:[-–:](\d+))?$/.exec(tok);
    if (!m) return { list, bad: tok };
    const a = Number(m[1]);
    const b = m[2] === undefined ? a : Number(m[2]);
    const [lo, hi] = a <= b ? [a, b] : [b, a];
    for (let d = lo; d <= hi && list.length < 10000; d++) if (!list.includes(d)) list.push(d);
  }
  return { list, bad: null };
}

/** The series toggled: added when absent, removed when present. */
export function toggleSeries(series, index) {
  const list = series.list.includes(index) ? series.list.filter((d) => d !== index) : [...series.list, index];
  return { ...series, list };
}

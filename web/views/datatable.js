// The text alternative of a chart: a collapsed <details> holding a table of (a sample of) the
// plotted values. The table is built only while open, so closed tables cost nothing per redraw.
//
//   const table = new DataTable(container, { t, summary: 'Data table' });
//   table.set(() => ({ caption, columns: ['position', 'dim 0'], rows: [[0, '0.5'], …], note }));
import { h } from '../plot/dom.js';

/** Up to `count` indices spread evenly over [0, n), always including the first and the last. */
export function spread(n, count) {
  if (n <= count) return Array.from({ length: n }, (_, i) => i);
  const out = [];
  for (let i = 0; i < count; i++) out.push(Math.round((i * (n - 1)) / (count - 1)));
  return [...new Set(out)];
}

export class DataTable {
  constructor(root, { summary }) {
    this.details = h('details', { class: 'data-table' }, h('summary', { text: summary }));
    this.body = h('div', { class: 'table-scroll', tabindex: 0 });
    this.note = h('p', { class: 'table-note' });
    this.details.append(this.body, this.note);
    this.builder = null;
    this.details.addEventListener('toggle', () => this.render());
    root.append(this.details);
  }

  set(builder) {
    this.builder = builder;
    if (this.details.open) this.render();
  }

  render() {
    if (!this.details.open || !this.builder) return;
    const { caption, columns, rows, note } = this.builder();
    const table = h('table', {},
      h('caption', { text: caption }),
      h('thead', {}, h('tr', {}, columns.map((c, i) => h('th', { scope: 'col', text: String(c), class: i ? null : 'row-head' })))),
      h('tbody', {}, rows.map((r) => h('tr', {}, r.map((cell, i) => (i === 0
        ? h('th', { scope: 'row', text: String(cell) })
        : h('td', { text: String(cell) })))))));
    this.body.replaceChildren(table);
    this.body.setAttribute('aria-label', caption);
    this.note.textContent = note || '';
    this.note.hidden = !note;
  }
}

// The M-RoPE builder (mrope): compose a prompt from text runs, images and videos with buttons, and
// see the three position ids (t, h, w) of every token as a table and a chart, and which rotary
// frequencies read which id (mrope_section).
//
// The builder edits the kind's `segments` (and `tokens_per_second`) through ctx.setSpec, so the
// parameters panel, the URL and every other view follow. Its own list is the last one it set or
// the last spec that computed; a change made elsewhere (the JSON box, Reset) replaces it.
// The ids are the result's data ([3, N], transformers' get_rope_index); the spans (where each
// segment starts, the id it starts from) come from math.js's segmentSpans.
import { h, uid, cssVar } from '../../plot/dom.js';
import { both } from '../../i18n/index.js';
import { formatInt, formatMs, formatValue, niceTicks } from '../../plot/format.js';
import mropeSchema, { PE_MROPE_MAX_SEGMENTS } from '../../api/schema/mrope.js';
import { segmentSpans } from './math.js';
import { ensureVisionStyles } from './style.js';
import { sameJSON } from '../../model/json.js';

const WINDOW = 96; // tokens per page of the id table
const AXES = ['t', 'h', 'w'];
const VISUAL_COLORS = 4; // mb-v0 … mb-v3 in vision.css

// A segment's fields with their ranges, as the API checks them.
const SEGMENT_FIELDS = mropeSchema.mrope.fields.segments.item.fields;
/** A segment as the kernel reads it (defaults filled in), for comparing lists. */
const canon = (s) => (s.type === 'text' ? { type: 'text', length: s.length }
  : s.type === 'image' ? { type: 'image', t: s.t, h: s.h, w: s.w }
    : { type: 'video', t: s.t, h: s.h, w: s.w, second_per_grid_t: s.second_per_grid_t ?? 1 });
const sameList = (a, b) => sameJSON(a.map(canon), b.map(canon));

/** What is wrong with one field of a segment (as the API would say it), or ''. */
function fieldProblem(t, seg, name, merge) {
  const v = seg[name];
  const { min, max, exclusiveMin } = SEGMENT_FIELDS[name];
  const inRange = Number.isFinite(v) && (exclusiveMin ? v > min : v >= min) && v <= max;
  if (name === 'second_per_grid_t') return inRange ? '' : t('vision.mb.badSeconds');
  const label = t(`vision.mb.field.${name}`);
  if (!Number.isInteger(v) || !inRange) return t('vision.mb.badInt', label, formatInt(max));
  if ((name === 'h' || name === 'w') && v % merge !== 0) return t('vision.mb.badMerge', label, merge);
  return '';
}

export default {
  id: 'mrope-builder',
  kinds: ['mrope'],
  title: both('vision.mb.title'),
  explain: both('vision.mb.explain'),

  mount(el, ctx) {
    const { t } = ctx;
    ensureVisionStyles().then(() => {
      // The segment tints come from vision.css: draw again with them.
      probeFills = {};
      if (state) drawChart();
    });
    const id = uid('mb');
    let state = null;
    let working = null; // the builder's segment list
    let merge = 2;
    let spans = [];
    let first = 0; // first token of the table's page
    let cursor = null; // the chart's token under the pointer or keyboard

    // --- the segment list and the add buttons
    const list = h('ol', { class: 'mb-list', 'aria-label': t('vision.mb.listLabel') });
    const addBox = h('div', { class: 'mb-add', role: 'group', 'aria-label': t('vision.mb.addLabel') });
    const addButtons = {};
    for (const type of ['text', 'image', 'video']) {
      addButtons[type] = h('button', { type: 'button', class: 'button mb-add-button', id: `${id}-add-${type}`, text: t(`vision.mb.add.${type}`), on: { click: () => add(type) } });
      addBox.append(addButtons[type]);
    }
    const tpsCheck = h('input', { type: 'checkbox', id: `${id}-tps-on` });
    const tpsInput = h('input', { type: 'number', id: `${id}-tps`, min: 0.1, step: 'any', value: 2, 'aria-label': t('vision.mb.tps') });
    tpsCheck.addEventListener('input', () => ctx.setSpec({ tokens_per_second: tpsCheck.checked ? (tpsInput.valueAsNumber || 2) : null }));
    tpsInput.addEventListener('input', () => {
      if (tpsCheck.checked && tpsInput.valueAsNumber > 0) ctx.setSpec({ tokens_per_second: tpsInput.valueAsNumber });
    });
    const tpsBox = h('div', { class: 'mb-tps' },
      h('div', { class: 'mb-tps-row' }, h('label', { class: 'mb-tps-label' }, tpsCheck, t('vision.mb.tpsOn')), tpsInput),
      h('p', { class: 'help', text: t('vision.mb.tpsHelp') }));
    const summary = h('p', { class: 'mb-summary', role: 'status' });
    // Which transformers version computed the ids (the spec's convention), and what differs here.
    const version = h('p', { class: 'help mb-version' });
    el.append(h('div', { class: 'mb-editor' }, list, addBox, tpsBox), summary, version);

    // --- the id table, a page of WINDOW tokens at a time
    const pageText = h('span', { class: 'mb-page-text' });
    const prev = h('button', { type: 'button', class: 'button', text: t('vision.mb.prev'), on: { click: () => showFrom(first - WINDOW) } });
    const next = h('button', { type: 'button', class: 'button', text: t('vision.mb.next'), on: { click: () => showFrom(first + WINDOW) } });
    const pager = h('div', { class: 'mb-pager' }, prev, pageText, next);
    const tableScroll = h('div', { class: 'mb-table-scroll', tabindex: 0, role: 'region', 'aria-label': t('vision.mb.tableTitle') });
    el.append(h('h4', { class: 'vs-multi-title', text: t('vision.mb.tableTitle') }),
      h('p', { class: 'help', text: t('vision.mb.tableHelp') }), pager, tableScroll);

    // --- the chart
    const legend = h('p', { class: 'mb-legend', 'aria-hidden': 'true' },
      AXES.map((a, i) => h('span', { class: `mb-key mb-key-${a}` }, h('span', { class: `mb-key-line mb-line-${i}` }), t(`vision.mb.axis.${a}`))));
    const chartCanvas = h('canvas', { class: 'mb-chart-canvas', 'aria-hidden': 'true' });
    const chart = h('div', { class: 'mb-chart', tabindex: 0, role: 'application', 'aria-roledescription': t('lines.roledescription') }, chartCanvas);
    const chartReadout = h('p', { class: 'vs-readout', 'aria-live': 'polite' });
    el.append(h('h4', { class: 'vs-multi-title', text: t('vision.mb.chartTitle') }), legend, chart, chartReadout);

    // --- the frequency bands
    const bands = h('div', { class: 'mb-bands' });
    const bandNote = h('p', { class: 'help' });
    el.append(h('h4', { class: 'vs-multi-title', text: t('vision.mb.bandsTitle') }), bands, bandNote);
    const stats = h('p', { class: 'view-stats mb-stats' });
    el.append(stats);

    // -----------------------------------------------------------------------------------------
    // Editing

    function commit() {
      ctx.setSpec({ segments: structuredClone(working) });
    }

    function defaultSegment(type) {
      const side = (n) => merge * Math.max(1, Math.round(n / merge));
      if (type === 'text') return { type, length: 8 };
      if (type === 'image') return { type, t: 1, h: side(8), w: side(8) };
      return { type, t: 4, h: side(4), w: side(4), second_per_grid_t: 1 };
    }

    function add(type) {
      if (!working || working.length >= PE_MROPE_MAX_SEGMENTS) return;
      working.push(defaultSegment(type));
      renderList();
      commit();
      list.lastElementChild?.querySelector('input')?.focus();
    }

    function move(i, by) {
      const j = i + by;
      if (j < 0 || j >= working.length) return;
      [working[i], working[j]] = [working[j], working[i]];
      renderList();
      commit();
      // Keep the focus on the same button of the moved segment (or the other one at an end).
      const row = list.children[j];
      const again = row?.querySelector(by < 0 ? '.mb-up' : '.mb-down');
      (again && !again.disabled ? again : row?.querySelector(by < 0 ? '.mb-down' : '.mb-up'))?.focus();
    }

    function remove(i) {
      if (working.length <= 1) return;
      working.splice(i, 1);
      renderList();
      commit();
      const row = list.children[Math.min(i, working.length - 1)];
      (row?.querySelector('.mb-remove') ?? addButtons.text).focus();
    }

    /** Names like "Image 2": numbered within each type. */
    function names() {
      const count = { text: 0, image: 0, video: 0 };
      let visual = 0;
      return working.map((s) => {
        count[s.type] += 1;
        const color = s.type === 'text' ? 'mb-text' : `mb-v${visual++ % VISUAL_COLORS}`;
        return { name: t(`vision.mb.name.${s.type}`, count[s.type]), color };
      });
    }

    function tokensOf(s) {
      return s.type === 'text' ? s.length : s.t * Math.floor(s.h / merge) * Math.floor(s.w / merge);
    }

    function renderList() {
      const labels = names();
      const rows = working.map((seg, i) => {
        const { name, color } = labels[i];
        const error = h('p', { class: 'field-error mb-error', role: 'status' });
        error.hidden = true;
        const tokens = h('button', { type: 'button', class: 'mb-tokens', title: t('vision.mb.showInTable'), on: { click: () => showToken(i) } });
        const fields = seg.type === 'text' ? ['length'] : seg.type === 'image' ? ['t', 'h', 'w'] : ['t', 'h', 'w', 'second_per_grid_t'];
        const inputs = fields.map((f) => {
          const fid = `${id}-s${i}-${f}`;
          const input = h('input', {
            id: fid, type: 'number', class: `mb-in mb-in-${f}`, value: seg[f] ?? 1, inputmode: f === 'second_per_grid_t' ? 'decimal' : 'numeric',
            min: f === 'h' || f === 'w' ? merge : f === 'second_per_grid_t' ? 0.1 : 1,
            step: f === 'h' || f === 'w' ? merge : f === 'second_per_grid_t' ? 'any' : 1,
            'aria-describedby': `${id}-s${i}-err`, title: f === 'second_per_grid_t' ? t('vision.mb.secondsTitle') : null,
          });
          input.addEventListener('input', () => {
            seg[f] = input.value.trim() === '' ? NaN : Number(input.value);
            const problems = fields.map((g) => fieldProblem(t, seg, g, merge)).filter(Boolean);
            input.toggleAttribute('aria-invalid', !!fieldProblem(t, seg, f, merge));
            error.textContent = problems.join(' ');
            error.hidden = !problems.length;
            tokens.textContent = problems.length ? '' : t('vision.mb.tokens', formatInt(tokensOf(seg)));
            commit();
          });
          return h('span', { class: 'mb-field' }, h('label', { for: fid, text: t(`vision.mb.field.${f}`) }), input);
        });
        error.id = `${id}-s${i}-err`;
        const btn = (cls, text, label, fn, disabled) => h('button', {
          type: 'button', class: `mb-icon ${cls}`, text, 'aria-label': label, title: label, disabled, on: { click: fn },
        });
        const li = h('li', { class: `mb-seg ${color}`, 'data-type': seg.type },
          h('span', { class: 'mb-name', text: name }),
          h('span', { class: 'mb-fields' }, inputs),
          tokens,
          h('span', { class: 'mb-actions' },
            btn('mb-up', '↑', t('vision.mb.up', name), () => move(i, -1), i === 0),
            btn('mb-down', '↓', t('vision.mb.down', name), () => move(i, 1), i === working.length - 1),
            btn('mb-remove', '×', t('vision.mb.remove', name), () => remove(i), working.length <= 1)),
          error);
        tokens.textContent = t('vision.mb.tokens', formatInt(tokensOf(seg)));
        return li;
      });
      list.replaceChildren(...rows);
      for (const b of Object.values(addButtons)) b.disabled = working.length >= PE_MROPE_MAX_SEGMENTS;
    }

    // -----------------------------------------------------------------------------------------
    // The table

    function showToken(i) {
      const s = spans[i];
      if (!s) return;
      showFrom(s.start);
      tableScroll.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
    }

    /** Show the page of the table that starts at token k. */
    function showFrom(k) {
      const n = state.result.shape[1];
      first = Math.max(0, Math.min(k, n - 1));
      renderTable();
      tableScroll.scrollLeft = 0;
    }

    function spanLabel(s, i, labels) {
      const name = labels[i]?.name ?? '';
      if (!s.count) return name;
      if (i === 0) return t('vision.mb.from', name, formatInt(s.firstId));
      // 5.x: after an image or video the next id is its first id + max(h, w)/merge, not max + 1.
      const before = spans[i - 1];
      if (before?.seg.type !== 'text' && before?.count && s.firstId !== s.prevMax + 1) {
        const side = Math.max(Math.floor(before.seg.h / merge), Math.floor(before.seg.w / merge));
        return t('vision.mb.after5', name, formatInt(s.firstId), formatInt(before.firstId), formatInt(side));
      }
      if (s.seg.type === 'text') {
        const after = spans[i - 1]?.seg.type !== 'text';
        return t(after ? 'vision.mb.resumes' : 'vision.mb.continues', name, formatInt(s.firstId), formatInt(s.prevMax));
      }
      return t('vision.mb.offset', name, formatInt(s.firstId), formatInt(s.prevMax));
    }

    function renderTable() {
      const { result } = state;
      const n = result.shape[1];
      const ids = result.data;
      const last = Math.min(n, first + WINDOW);
      const labels = state.labels;
      // Which segment each token of the page is in.
      const segAt = new Int32Array(last - first);
      let si = 0;
      for (let k = first; k < last; k++) {
        while (si < spans.length - 1 && k >= spans[si].start + spans[si].count) si++;
        segAt[k - first] = si;
      }
      const band = h('tr', { class: 'mb-band' }, h('th', { scope: 'row', text: t('vision.mb.segment') }));
      for (let k = first; k < last;) {
        const s = segAt[k - first];
        let e = k;
        while (e < last && segAt[e - first] === s) e++;
        const starts = spans[s].start === k;
        band.append(h('th', {
          scope: 'colgroup', colspan: e - k, class: `${labels[s]?.color ?? ''}${starts ? ' mb-start' : ''}`,
          text: starts ? spanLabel(spans[s], s, labels) : t('vision.mb.cont', labels[s]?.name ?? ''),
        }));
        k = e;
      }
      const head = h('tr', {}, h('th', { scope: 'row', text: t('vision.mb.token') }));
      const body = AXES.map((a) => h('tr', { class: `mb-row-${a}` }, h('th', { scope: 'row', text: t(`vision.mb.axis.${a}`) })));
      for (let k = first; k < last; k++) {
        const s = segAt[k - first];
        const cls = `${labels[s]?.color ?? ''}${spans[s].start === k ? ' mb-start' : ''}`;
        head.append(h('th', { scope: 'col', class: cls, text: String(k) }));
        for (let a = 0; a < 3; a++) body[a].append(h('td', { class: cls, text: String(ids[a * n + k]) }));
      }
      tableScroll.replaceChildren(h('table', { class: 'mb-ids' },
        h('caption', { class: 'sr-only', text: t('vision.mb.caption', formatInt(first), formatInt(last - 1), formatInt(n)) }),
        h('thead', {}, band, head), h('tbody', {}, body)));
      pager.hidden = n <= WINDOW;
      pageText.textContent = t('vision.mb.page', formatInt(first), formatInt(last - 1), formatInt(n));
      prev.disabled = first === 0;
      next.disabled = last >= n;
    }

    // -----------------------------------------------------------------------------------------
    // The chart: t, h, w ids against the token index, over the segments' colours

    const pad = { l: 44, r: 10, t: 8, b: 30 };
    function drawChart() {
      if (!state) return;
      const { result } = state;
      const n = result.shape[1];
      const ids = result.data;
      // Sizes and theme colours are read once (then on resize / theme change): reading them
      // after the table's DOM changes would force a layout of the whole page.
      chartSize ??= { w: chart.clientWidth || 600, h: chart.clientHeight || 220 };
      theme ??= {
        font: getComputedStyle(chart).fontFamily, muted: cssVar('--muted', '#566074'), grid: cssVar('--grid', 'rgba(0,0,0,0.09)'),
        fg: cssVar('--fg', '#1a2030'), series: [0, 1, 2].map((a) => cssVar(`--series-${a}`, ['#0072b2', '#e69f00', '#009e73'][a])),
      };
      const { w: cssW, h: cssH } = chartSize;
      const dpr = Math.min(window.devicePixelRatio || 1, 3);
      const bw = Math.round(cssW * dpr);
      const bh = Math.round(cssH * dpr);
      if (chartCanvas.width !== bw || chartCanvas.height !== bh) {
        chartCanvas.width = bw;
        chartCanvas.height = bh;
      }
      const c = chartCanvas.getContext('2d');
      c.setTransform(dpr, 0, 0, dpr, 0, 0);
      c.clearRect(0, 0, cssW, cssH);
      let maxId = 0;
      for (let i = 0; i < ids.length; i++) if (ids[i] > maxId) maxId = ids[i];
      const pw = cssW - pad.l - pad.r;
      const ph = cssH - pad.t - pad.b;
      const xOf = (k) => pad.l + (n <= 1 ? pw / 2 : (k / (n - 1)) * pw);
      const top = Math.max(1, maxId) * 1.05; // a little headroom above the largest id
      const yOf = (v) => pad.t + ph - (maxId > 0 ? (v / top) * ph : ph / 2);
      const { font, muted, grid } = theme;
      // Segment bands
      const labels = state.labels;
      spans.forEach((s, i) => {
        if (!s.count) return;
        const x0 = n <= 1 ? pad.l : xOf(s.start - 0.5);
        const x1 = n <= 1 ? pad.l + pw : xOf(s.start + s.count - 0.5);
        c.fillStyle = segmentFill(labels[i]?.color);
        c.fillRect(Math.max(pad.l, x0), pad.t, Math.min(pad.l + pw, x1) - Math.max(pad.l, x0), ph);
      });
      // Axes and ticks
      c.strokeStyle = grid;
      c.fillStyle = muted;
      c.lineWidth = 1;
      c.font = `11px ${font}`;
      c.textAlign = 'right';
      c.textBaseline = 'middle';
      for (const v of niceTicks(0, Math.max(1, maxId), Math.max(2, Math.floor(ph / 36)))) {
        const y = Math.round(yOf(v)) + 0.5;
        c.beginPath();
        c.moveTo(pad.l, y);
        c.lineTo(pad.l + pw, y);
        c.stroke();
        c.fillText(formatInt(v), pad.l - 6, y);
      }
      c.textAlign = 'center';
      c.textBaseline = 'top';
      for (const k of niceTicks(0, Math.max(1, n - 1), Math.max(2, Math.floor(pw / 70)))) {
        if (k > n - 1) continue;
        c.fillText(formatInt(k), xOf(k), pad.t + ph + 5);
      }
      c.fillText(t('vision.mb.token'), pad.l + pw / 2, pad.t + ph + 17);
      c.save();
      c.translate(11, pad.t + ph / 2);
      c.rotate(-Math.PI / 2);
      c.textBaseline = 'middle';
      c.fillText(t('vision.mb.id'), 0, 0);
      c.restore();
      // Lines: w under h under t, each its own width and dash, so equal ids (text) stay visible.
      const style = [
        { w: 3, dash: [] }, // t
        { w: 2, dash: [6, 3] }, // h
        { w: 1.5, dash: [2, 2] }, // w
      ];
      for (const a of [2, 1, 0]) {
        c.strokeStyle = theme.series[a];
        c.lineWidth = style[a].w;
        c.setLineDash(style[a].dash);
        c.beginPath();
        const row = a * n;
        if (n <= pw) {
          for (let k = 0; k < n; k++) {
            const x = xOf(k);
            const y = yOf(ids[row + k]);
            if (k === 0) c.moveTo(x, y);
            else c.lineTo(x, y);
          }
          if (n === 1) c.lineTo(xOf(0) + 1, yOf(ids[row]));
        } else {
          // More tokens than pixels: each pixel column draws its range of ids.
          const cols = Math.max(1, Math.floor(pw));
          for (let p = 0; p < cols; p++) {
            const k0 = Math.floor((p * n) / cols);
            const k1 = Math.max(k0 + 1, Math.floor(((p + 1) * n) / cols));
            let lo = Infinity;
            let hi = -Infinity;
            for (let k = k0; k < k1; k++) {
              const v = ids[row + k];
              if (v < lo) lo = v;
              if (v > hi) hi = v;
            }
            const x = pad.l + p + 0.5;
            if (p === 0) c.moveTo(x, yOf(ids[row + k0]));
            c.lineTo(x, yOf(lo));
            c.lineTo(x, yOf(hi));
          }
        }
        c.stroke();
      }
      c.setLineDash([]);
      if (cursor !== null && cursor < n) {
        const x = Math.round(xOf(cursor)) + 0.5;
        c.strokeStyle = theme.fg;
        c.lineWidth = 1;
        c.beginPath();
        c.moveTo(x, pad.t);
        c.lineTo(x, pad.t + ph);
        c.stroke();
      }
      chart.setAttribute('aria-label', t('vision.mb.chartAria', formatInt(n), formatInt(maxId)));
    }

    function segmentFill(color) {
      // The segment tints of vision.css, as canvas colours.
      const probe = probeFills[color];
      if (probe) return probe;
      const span = h('span', { class: `mb-probe ${color ?? ''}` });
      el.append(span);
      const fill = getComputedStyle(span).backgroundColor;
      span.remove();
      probeFills[color] = fill;
      return fill;
    }
    let probeFills = {};

    function tokenAtX(clientX) {
      const n = state.result.shape[1];
      const r = chartCanvas.getBoundingClientRect();
      const pw = r.width - pad.l - pad.r;
      const f = (clientX - r.left - pad.l) / pw;
      if (!(f >= -0.02 && f <= 1.02)) return null;
      return Math.min(n - 1, Math.max(0, Math.round(f * (n - 1))));
    }

    function setCursor(k) {
      cursor = k;
      drawChart();
      if (k === null) {
        chartReadout.textContent = t('vision.mb.chartHint');
        return;
      }
      const n = state.result.shape[1];
      const ids = state.result.data;
      let s = 0;
      while (s < spans.length - 1 && k >= spans[s].start + spans[s].count) s++;
      chartReadout.textContent = t('vision.mb.readout', formatInt(k), state.labels[s]?.name ?? '', ids[k], ids[n + k], ids[2 * n + k]);
    }
    chart.addEventListener('pointermove', (e) => state && setCursor(tokenAtX(e.clientX)));
    chart.addEventListener('pointerleave', () => state && document.activeElement !== chart && setCursor(null));
    chart.addEventListener('keydown', (e) => {
      if (!state || e.altKey || e.ctrlKey || e.metaKey) return;
      const n = state.result.shape[1];
      const k = cursor ?? 0;
      const step = e.shiftKey ? 10 : 1;
      const go = { ArrowLeft: k - step, ArrowRight: k + step, Home: 0, End: n - 1 }[e.key];
      if (go === undefined) return;
      e.preventDefault();
      setCursor(Math.min(n - 1, Math.max(0, go)));
    });
    chart.addEventListener('focus', () => state && cursor === null && setCursor(0));
    let chartSize = null;
    let theme = null;
    const resize = new ResizeObserver((entries) => {
      const box = entries[entries.length - 1].contentRect;
      const w = Math.round(box.width);
      const hh = Math.round(box.height);
      if (chartSize && chartSize.w === w && chartSize.h === hh) return;
      chartSize = w > 0 ? { w, h: hh } : null;
      if (state) drawChart();
    });
    resize.observe(chart);

    // -----------------------------------------------------------------------------------------
    // The frequency bands

    function renderBands() {
      const { spec } = state;
      const pairs = spec.dim / 2;
      const sec = spec.mrope_section;
      const wave = (i) => formatValue(2 * Math.PI * spec.base ** ((2 * i) / spec.dim));
      let start = 0;
      const blocks = [];
      const lines = [];
      sec.forEach((count, a) => {
        if (!count) return;
        const from = start;
        const to = start + count - 1;
        start += count;
        const block = h('div', { class: `mb-band-block mb-band-${AXES[a]}`, title: t('vision.mb.bandTitle', AXES[a], from, to) },
          h('span', { text: `${AXES[a]} · ${count}` }));
        block.style.flexGrow = String(count);
        blocks.push(block);
        lines.push(h('li', { text: t('vision.mb.bandLine', t(`vision.mb.axis.${AXES[a]}`), formatInt(count), formatInt(from), formatInt(to), wave(from), wave(to)) }));
      });
      bands.replaceChildren(h('div', { class: 'mb-band-bar', 'aria-hidden': 'true' }, blocks),
        h('div', { class: 'mb-band-ends', 'aria-hidden': 'true' },
          h('span', { text: t('vision.mb.fast') }), h('span', { text: t('vision.mb.slow', formatInt(pairs)) })),
        h('ul', { class: 'mb-band-list' }, lines));
      bandNote.textContent = t('vision.mb.bandsNote');
    }

    // -----------------------------------------------------------------------------------------

    /** The version sentence: derived from the spec that computed the ids. */
    function renderVersion(spec) {
      const conv = spec.convention ?? '4.49';
      const parts = [t('vision.mb.version', t(`vision.mb.ver.${conv}`))];
      // A fractional second_per_grid_t only matters with tokens_per_second and more than one frame.
      const cut = spec.tokens_per_second === null ? null
        : spec.segments.find((s) => s.type === 'video' && s.t > 1 && !Number.isInteger(s.second_per_grid_t ?? 1));
      if (cut && conv === '4.49') parts.push(t('vision.mb.verCut', formatValue(cut.second_per_grid_t), formatInt(Math.trunc(cut.second_per_grid_t))));
      if (cut && conv !== '4.49') parts.push(t('vision.mb.verCutHere', formatValue(cut.second_per_grid_t), formatInt(Math.trunc(cut.second_per_grid_t))));
      if (conv === '5.x' && spec.segments.slice(0, -1).some((s) => s.type !== 'text')) parts.push(t('vision.mb.verResume'));
      version.textContent = parts.join(' ');
      version.dataset.convention = conv;
    }

    function render() {
      const t0 = performance.now();
      const { spec, result } = state;
      const n = result.shape[1];
      spans = segmentSpans(spec.segments, spec.spatial_merge_size, result.data, n);
      state.labels = names();
      let maxId = -1;
      for (let i = 0; i < result.data.length; i++) if (result.data[i] > maxId) maxId = result.data[i];
      summary.textContent = t('vision.mb.summary', formatInt(spec.segments.length), formatInt(n), formatInt(maxId + 1));
      renderVersion(spec);
      if (first >= n) first = Math.max(0, n - WINDOW);
      renderTable();
      drawChart();
      renderBands();
      if (cursor !== null && cursor >= n) cursor = null;
      stats.textContent = t('vision.mb.stats', formatMs(performance.now() - t0));
      el.dataset.draws = String(Number(el.dataset.draws || 0) + 1);
    }

    return {
      update(next) {
        el.classList.toggle('stale', !!next.stale);
        if (next.changed.has('theme')) {
          probeFills = {};
          theme = null;
          if (state) drawChart();
        }
        if (!next.changed.has('result')) return;
        state = { ...next };
        const { spec } = next;
        const mergeChanged = spec.spatial_merge_size !== merge;
        merge = spec.spatial_merge_size;
        if (!working || mergeChanged || !sameList(working, spec.segments)) {
          working = structuredClone(spec.segments);
          renderList();
        }
        tpsCheck.checked = spec.tokens_per_second !== null;
        if (spec.tokens_per_second !== null && document.activeElement !== tpsInput) tpsInput.value = String(spec.tokens_per_second);
        tpsInput.disabled = spec.tokens_per_second === null;
        render();
      },
      destroy() {
        resize.disconnect();
      },
    };
  },
};

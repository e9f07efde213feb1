// One frequency pair of channels as a point on the unit circle: at position p RoPE turns the pair
// (cos, sin) by the angle p·θᵢ from the angle table. A position slider, steps, and play/pause
// (off when the system asks for reduced motion); a trail of the previous positions; with
// rope_scaling, a hollow point where the pair would be without it.
import { h, uid } from '../../plot/dom.js';
import { both } from '../../i18n/index.js';
import { formatInt, formatValue } from '../../plot/format.js';
import { DataTable, spread } from '../datatable.js';
import { ensureRopeStyles, ropeType, unscaled, formatLength, isAxialSpec } from './common.js';

const SVG = 'http://www.w3.org/2000/svg';
const TRAIL = 16;
const SPEEDS = [1, 4, 16, 64, 256];
const TWO_PI = 2 * Math.PI;

/** Three decimals with a real minus sign (and no −0.000). */
const fixed3 = (v) => (Math.abs(v) < 5e-4 ? '0.000' : v.toFixed(3).replace('-', '\u2212'));

/** Shows or hides an SVG element (they have no `hidden` property). */
const show = (e, on) => e.setAttribute('display', on ? 'inline' : 'none');

function svg(tag, attrs = {}) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

/** The channels of frequency pair i in a layout. */
export function channelsOf(spec, i) {
  const rotary = Math.trunc(spec.dim * spec.partial_rotary_factor);
  return spec.layout === 'interleaved' ? [2 * i, 2 * i + 1] : [i, i + rotary / 2];
}

/** The pair whose wavelength is closest to `target` positions (a pleasant one to watch turn). */
function pleasantPair(invFreq, target = 24) {
  let best = 0;
  for (let i = 0; i < invFreq.length; i++) {
    if (Math.abs(Math.log(TWO_PI / invFreq[i] / target)) < Math.abs(Math.log(TWO_PI / invFreq[best] / target))) best = i;
  }
  return best;
}

export default {
  id: 'rope-pair',
  kinds: ['rope'],
  title: both('rope.pair.title'),
  explain: both('rope.pair.explain'),

  mount(el, ctx) {
    ensureRopeStyles();
    const { t, pe } = ctx;
    const id = uid('rpair');
    let state = null;
    let pair = null; // chosen by the user, or null until the first result picks one
    let pos = 0;
    let plainFreq = null;
    let playing = false;
    let raf = 0;
    let last = 0;
    let acc = 0;

    // --- controls
    const slider = (name, label) => {
      const num = h('input', { type: 'number', id: `${id}-${name}`, min: 0, step: 1 });
      const range = h('input', { type: 'range', id: `${id}-${name}-range`, min: 0, step: 1, 'aria-label': t('rope.pair.sliderOf', label) });
      const wrap = h('div', { class: 'tool-field rope-slider' }, h('label', { for: num.id, text: label }), num, range);
      return { num, range, wrap };
    };
    const pairCtl = slider('pair', t('rope.pair.pair'));
    const posCtl = slider('pos', t('rope.pair.position'));
    const back = h('button', { type: 'button', class: 'button', 'aria-label': t('rope.pair.back'), title: t('rope.pair.back'), text: '◀' });
    const play = h('button', { type: 'button', class: 'button rope-play', 'aria-pressed': 'false', text: t('rope.pair.play') });
    const fwd = h('button', { type: 'button', class: 'button', 'aria-label': t('rope.pair.forward'), title: t('rope.pair.forward'), text: '▶' });
    const speed = h('select', { id: `${id}-speed` }, SPEEDS.map((v) => h('option', { value: v, text: t('rope.pair.speedOption', v) })));
    speed.value = '4';
    const motionNote = h('p', { class: 'help' });
    el.append(
      h('div', { class: 'view-toolbar' }, pairCtl.wrap, posCtl.wrap),
      h('div', { class: 'view-toolbar' }, h('div', { class: 'rope-buttons', role: 'group', 'aria-label': t('rope.pair.playback') }, back, play, fwd),
        h('div', { class: 'tool-field' }, h('label', { for: speed.id, text: t('rope.pair.speed') }), speed)),
      motionNote);

    // --- the circle
    const pic = svg('svg', { viewBox: '-1.45 -1.45 2.9 2.9', class: 'rope-circle-svg', role: 'img' });
    pic.append(
      svg('circle', { cx: 0, cy: 0, r: 1, class: 'rope-ring' }),
      svg('line', { x1: -1.25, y1: 0, x2: 1.25, y2: 0, class: 'rope-axis' }),
      svg('line', { x1: 0, y1: -1.25, x2: 0, y2: 1.25, class: 'rope-axis' }));
    const labelA = svg('text', { x: 1.42, y: -0.06, class: 'rope-svg-label', 'text-anchor': 'end' });
    const labelB = svg('text', { x: 0.06, y: -1.3, class: 'rope-svg-label' });
    const trail = svg('g', { class: 'rope-trail' });
    const dots = Array.from({ length: TRAIL }, (_, j) => svg('circle', { r: 0.045, 'fill-opacity': (0.55 * (1 - j / TRAIL)).toFixed(3) }));
    trail.append(...dots);
    const arc = svg('path', { class: 'rope-arc' });
    const ghostHand = svg('line', { x1: 0, y1: 0, class: 'rope-ghost-hand' });
    const ghost = svg('circle', { r: 0.075, class: 'rope-ghost' });
    const hand = svg('line', { x1: 0, y1: 0, class: 'rope-hand' });
    const dot = svg('circle', { r: 0.085, class: 'rope-point' });
    pic.append(labelA, labelB, trail, arc, ghostHand, ghost, hand, dot);
    const readout = h('div', { class: 'rope-readout', 'aria-live': 'off' });
    const axialNote = h('p', { class: 'help' });
    el.append(h('div', { class: 'rope-pair-row' }, h('div', { class: 'rope-circle-box' }, pic), readout), axialNote);
    const table = new DataTable(el, { summary: t('table.summary') });

    // --- behaviour
    const reduce = matchMedia('(prefers-reduced-motion: reduce)');
    function motionPolicy() {
      play.disabled = reduce.matches;
      speed.disabled = reduce.matches;
      motionNote.textContent = reduce.matches ? t('rope.pair.reduced') : t('rope.pair.keys');
      if (reduce.matches) stop();
    }
    reduce.addEventListener('change', motionPolicy);

    const pairs = () => state.info.cols;
    const length = () => state.info.rows;
    function setPair(v) {
      if (!state || !Number.isInteger(v)) return;
      pair = Math.min(Math.max(v, 0), pairs() - 1);
      draw();
      setTable();
    }
    function setPos(v) {
      if (!state || !Number.isInteger(v)) return;
      pos = ((v % length()) + length()) % length();
      draw();
    }
    pairCtl.num.addEventListener('input', () => setPair(Number(pairCtl.num.value)));
    pairCtl.range.addEventListener('input', () => setPair(Number(pairCtl.range.value)));
    posCtl.num.addEventListener('input', () => setPos(Number(posCtl.num.value)));
    posCtl.range.addEventListener('input', () => setPos(Number(posCtl.range.value)));
    back.addEventListener('click', () => setPos(pos - 1));
    fwd.addEventListener('click', () => setPos(pos + 1));
    play.addEventListener('click', () => (playing ? stop() : start()));

    function tick(now) {
      const dt = Math.min(0.25, (now - last) / 1000);
      last = now;
      acc += dt * Number(speed.value);
      if (acc >= 1) {
        const k = Math.floor(acc);
        acc -= k;
        setPos(pos + k);
      }
      raf = requestAnimationFrame(tick);
    }
    function start() {
      if (playing || reduce.matches || !state) return;
      playing = true;
      play.setAttribute('aria-pressed', 'true');
      play.textContent = t('rope.pair.pause');
      last = performance.now();
      acc = 0;
      raf = requestAnimationFrame(tick);
    }
    function stop() {
      playing = false;
      cancelAnimationFrame(raf);
      play.setAttribute('aria-pressed', 'false');
      play.textContent = t('rope.pair.play');
    }

    const xy = (a, r = 1) => [r * Math.cos(a), -r * Math.sin(a)]; // SVG's y points down

    function draw() {
      const { spec, result } = state;
      const n = pairs();
      const data = result.data;
      const angle = (p) => data[p * n + pair];
      const a = angle(pos);
      const [x, y] = xy(a);
      dot.setAttribute('cx', x);
      dot.setAttribute('cy', y);
      hand.setAttribute('x2', x);
      hand.setAttribute('y2', y);
      for (let j = 0; j < TRAIL; j++) {
        const p = pos - 1 - j;
        show(dots[j], p >= 0);
        if (p < 0) continue;
        const [tx, ty] = xy(angle(p));
        dots[j].setAttribute('cx', tx);
        dots[j].setAttribute('cy', ty);
      }
      // The angle modulo 2π as an arc near the centre, counter-clockwise from the first channel's axis.
      const w = ((a % TWO_PI) + TWO_PI) % TWO_PI;
      const [ax, ay] = xy(w, 0.28);
      arc.setAttribute('d', w < 1e-9 ? '' : `M 0.28 0 A 0.28 0.28 0 ${w > Math.PI ? 1 : 0} 0 ${ax} ${ay}`);
      const scaled = plainFreq !== null;
      show(ghost, scaled);
      show(ghostHand, scaled);
      let ghostAngle = null;
      if (scaled) {
        ghostAngle = pos * plainFreq[pair];
        const [gx, gy] = xy(ghostAngle);
        ghost.setAttribute('cx', gx);
        ghost.setAttribute('cy', gy);
        ghostHand.setAttribute('x2', gx);
        ghostHand.setAttribute('y2', gy);
      }
      const [ca, cb] = channelsOf(spec, pair);
      labelA.textContent = t('rope.pair.channel', ca);
      labelB.textContent = t('rope.pair.channel', cb);
      const theta = result.inv_freq[pair];
      const turns = a / TWO_PI;
      const deg = (w * 180) / Math.PI;
      const facts = {
        pair, pos, a: formatValue(a), turns: formatValue(turns), deg: deg.toFixed(1), cos: fixed3(Math.cos(a)), sin: fixed3(Math.sin(a)),
      };
      pic.setAttribute('aria-label', t('rope.pair.aria', facts));
      const rows = [
        [t('rope.pair.channels'), t('rope.pair.channelsValue', ca, cb, spec.layout)],
        [t('rope.pair.theta'), t('rope.pair.thetaValue', formatValue(theta), formatLength(TWO_PI / theta))],
        [t('rope.pair.angle'), t('rope.pair.angleValue', facts)],
        [t('rope.pair.point'), `(${facts.cos}, ${facts.sin})`],
      ];
      if (scaled) rows.push([t('rope.pair.ghost'), t('rope.pair.ghostValue', formatValue(ghostAngle), formatValue(ghostAngle / TWO_PI))]);
      if (result.attention_factor !== 1) rows.push([t('rope.pair.af'), t('rope.pair.afValue', formatValue(result.attention_factor))]);
      readout.replaceChildren(h('dl', {}, rows.flatMap(([k, v]) => [h('dt', { text: k }), h('dd', { text: v })])));
      if (document.activeElement !== pairCtl.num) pairCtl.num.value = String(pair);
      pairCtl.range.value = String(pair);
      if (document.activeElement !== posCtl.num) posCtl.num.value = String(pos);
      posCtl.range.value = String(pos);
      el.dataset.drawn = String(Number(el.dataset.drawn || 0) + 1);
    }

    function sync() {
      const { spec, result } = state;
      const n = pairs();
      if (pair === null) {
        // Start a third of a turn in, so the first picture already shows a turned point and its trail.
        pair = pleasantPair(result.inv_freq);
        pos = Math.round((TWO_PI / result.inv_freq[pair]) / 3);
      }
      pair = Math.min(pair, n - 1);
      pos = Math.min(pos, length() - 1);
      for (const c of [pairCtl, posCtl]) {
        const max = c === pairCtl ? n - 1 : length() - 1;
        c.num.max = String(max);
        c.range.max = String(max);
      }
      plainFreq = ropeType(spec) !== 'default' ? pe.compute({ ...unscaled(spec), length: 1 }).inv_freq : null;
      axialNote.hidden = !isAxialSpec(spec);
      axialNote.textContent = isAxialSpec(spec) ? t('rope.pair.axial') : '';
      setTable();
    }

    function setTable() {
      table.set(() => {
        const idx = spread(length(), 24);
        return {
          caption: t('rope.pair.caption', pair),
          columns: [t('axis.position'), t('axis.angle'), t('rope.pair.turnsCol'), 'cos', 'sin'],
          rows: idx.map((p) => {
            const a = state.result.data[p * pairs() + pair];
            return [formatInt(p), formatValue(a), formatValue(a / TWO_PI), formatValue(Math.cos(a)), formatValue(Math.sin(a))];
          }),
          note: idx.length < length() ? t('table.sampledRows', idx.length, length()) : '',
        };
      });
    }

    motionPolicy();
    return {
      update(next) {
        state = next;
        pic.classList.toggle('stale', !!next.stale);
        if (next.changed.has('result')) {
          const t0 = performance.now();
          sync();
          draw();
          el.dataset.ms = (performance.now() - t0).toFixed(2);
        }
      },
      destroy() {
        stop();
        reduce.removeEventListener('change', motionPolicy);
      },
    };
  },
};

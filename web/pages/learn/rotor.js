// The RoPE step's motion: one query's rotated pairs drawn as arrows on a circle while the position
// scrubs (a slider, or Play). The arrows are the kernel's own numbers: row p of pe.applyRope's
// output, pair i being channels (i, i + d/2) (the default `half` layout). Pair 0 turns by 1 rad a
// position; the last pair by base^(−(d−2)/d) rad, so it barely moves: the picture of why the
// pairs together tell near and far positions apart. Nothing moves by itself (prefers-reduced-motion
// or not): Play starts it, and it stops at the last position.
import { h, uid } from '../../plot/dom.js';
import { formatInt } from '../../plot/format.js';
import { ensureStyles } from '../../views/common.js';

const SIZE = 220;
const COLORS = ['#1f77b4', '#d95f02', '#7570b3'];

/**
 * Mounts the rotor in `box`. t: the translator; pairs: the pair indices to draw (≤ 3). Returns
 * { set(rotated, length, dim) — the applyRope output [length, dim] —, highlight({ pair } | null),
 * destroy() }.
 */
export function mountRotor(box, { t, pairs }) {
  ensureStyles(new URL('./rotor.css', import.meta.url));
  const id = uid('learn-rot');
  const canvas = h('canvas', { width: SIZE * 2, height: SIZE * 2, class: 'learn-rotor', role: 'img' });
  canvas.style.width = `${SIZE}px`;
  canvas.style.height = `${SIZE}px`;
  const pos = h('input', { id, type: 'range', min: 0, max: 1, step: 1, value: 0 });
  const out = h('output', { for: id, class: 'learn-value', text: '0' });
  const play = h('button', { type: 'button', class: 'button', text: t('learn.rope.play') });
  const legend = h('p', { class: 'learn-rotor-legend' });
  box.append(h('figure', { class: 'learn-rotor-figure' }, canvas,
    h('figcaption', {}, h('p', { class: 'learn-rotor-title', text: t('learn.rope.rotorTitle') }), h('div', { class: 'learn-control' }, h('label', { for: id, text: t('learn.control.p') }), pos, out, play), legend)));

  let data = null;
  let L = 0;
  let D = 0;
  let frame = 0;
  let last = 0;
  let marked = null;   // the pair highlighted (a linked number in the sentence), or null

  function draw() {
    const p = Number(pos.value);
    out.textContent = formatInt(p);
    box.dataset.position = String(p);
    const ctx = canvas.getContext('2d');
    const s = canvas.width / 2;
    const fg = getComputedStyle(box).color || '#222';
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    ctx.strokeStyle = fg;
    ctx.globalAlpha = 0.35;
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.arc(s, s, s * 0.82, 0, 2 * Math.PI);
    ctx.moveTo(s * 0.1, s);
    ctx.lineTo(s * 1.9, s);
    ctx.moveTo(s, s * 0.1);
    ctx.lineTo(s, s * 1.9);
    ctx.stroke();
    ctx.globalAlpha = 1;
    if (!data) return;
    const half = D / 2;
    // Every pair scaled by the largest pair length, so lengths compare (rotation keeps them).
    let r = 0;
    for (const i of pairs) r = Math.max(r, Math.hypot(data[i], data[i + half]));
    const angles = [];
    pairs.forEach((i, k) => {
      const x = data[p * D + i];
      const y = data[p * D + i + half];
      const ex = s + (x / r) * s * 0.82;
      const ey = s - (y / r) * s * 0.82;
      // A highlighted pair: the others faded, a ring around its tip.
      ctx.globalAlpha = marked === null || marked === i ? 1 : 0.25;
      if (marked === i) {
        ctx.strokeStyle = fg;
        ctx.lineWidth = 3;
        ctx.beginPath();
        ctx.arc(ex, ey, 17, 0, 2 * Math.PI);
        ctx.stroke();
      }
      ctx.strokeStyle = COLORS[k];
      ctx.fillStyle = COLORS[k];
      ctx.lineWidth = 5;
      ctx.beginPath();
      ctx.moveTo(s, s);
      ctx.lineTo(ex, ey);
      ctx.stroke();
      ctx.beginPath();
      ctx.arc(ex, ey, 9, 0, 2 * Math.PI);
      ctx.fill();
      // The angle turned since position 0, from the kernel's numbers (mod 2π, in degrees).
      const a0 = Math.atan2(data[i + half], data[i]);
      const a = Math.atan2(y, x);
      angles.push([i, (((a - a0) * 180) / Math.PI + 720) % 360]);
    });
    ctx.globalAlpha = 1;
    legend.replaceChildren(...angles.map(([i, deg]) => h('span', { class: 'learn-rotor-key' },
      h('span', { class: 'learn-rotor-swatch' }), t('learn.rope.rotorPair', { i, deg: Math.round(deg) }))));
    legend.querySelectorAll('.learn-rotor-swatch').forEach((el, k) => { el.style.background = COLORS[k]; });
    const turns = angles.map(([i, deg]) => t('learn.rope.rotorPair', { i, deg: Math.round(deg) })).join(', ');
    canvas.setAttribute('aria-label', t('learn.rope.rotorAria', { p, turns }));
  }

  function stop() {
    cancelAnimationFrame(frame);
    frame = 0;
    play.textContent = t('learn.rope.play');
    box.dataset.playing = 'false';
  }
  function tick(now) {
    // About six positions a second: slow enough to follow the fast pair's turn.
    if (now - last >= 160) {
      last = now;
      const p = Number(pos.value) + 1;
      if (p > L - 1) {
        stop();
        return;
      }
      pos.value = String(p);
      draw();
    }
    frame = requestAnimationFrame(tick);
  }
  play.addEventListener('click', () => {
    if (frame) {
      stop();
      return;
    }
    if (Number(pos.value) >= L - 1) pos.value = '0';
    play.textContent = t('learn.rope.pause');
    box.dataset.playing = 'true';
    last = 0;
    frame = requestAnimationFrame(tick);
  });
  pos.addEventListener('input', () => {
    stop();
    draw();
  });

  return {
    set(rotated, length, dim) {
      data = rotated;
      L = length;
      D = dim;
      pos.max = String(L - 1);
      if (Number(pos.value) > L - 1) pos.value = String(L - 1);
      draw();
    },
    /** Highlights pair `shape.pair` (one of `pairs`), or none for null. */
    highlight(shape) {
      marked = shape && pairs.includes(shape.pair) ? shape.pair : null;
      if (marked === null) delete box.dataset.markedPair;
      else box.dataset.markedPair = String(marked);
      draw();
    },
    destroy: stop,
  };
}

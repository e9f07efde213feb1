// A sentence as the content (one token per word, Korean and English alike) and a shuffle
// button: the permutation lesson, measured. After a shuffle the view computes the sentence in its
// original order too, puts the shuffled result's rows and columns back in that order, and shows
// both with their largest difference: 0 (to float32 rounding) without a positional encoding and
// without the causal mask, since attention then sees a bag of words; clearly not 0 with one.
import { h, uid } from '../../plot/dom.js';
import { splitWords } from '../../api/schema/attention.js';
import { cellAt, drawPlane, ensureAttentionStyles, headMean, weightText } from './common.js';

const EXAMPLE = 'the cat sat on the mat 고양이가 매트 위에 앉았다 and the dog barked';

/** A random permutation of 0..n−1 that moves something when n > 1 (Fisher–Yates). */
function shuffle(n) {
  const p = Array.from({ length: n }, (_, i) => i);
  if (n < 2) return p;
  do {
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [p[i], p[j]] = [p[j], p[i]];
    }
  } while (p.every((v, i) => v === i));
  return p;
}

/** The weights of `result` with rows and columns put back: out[h, perm[a], perm[b]] = w[h, a, b]. */
function unshuffle(result, perm) {
  const [H, n] = result.shape;
  const out = new Float32Array(result.data.length);
  for (let k = 0; k < H; k++)
    for (let a = 0; a < n; a++)
      for (let b = 0; b < n; b++) out[(k * n + perm[a]) * n + perm[b]] = result.data[(k * n + a) * n + b];
  return out;
}

export default {
  id: 'attention-sentence',
  kinds: ['attention'],
  title: { en: 'A sentence, shuffled', ko: '문장 섞기' },
  explain: {
    en: 'Type a sentence (one token per word; Korean and English both work) and use it as the content. Shuffle its words: without a positional encoding (and without the causal mask) attention only sees which words are there, so the pattern moves with the words and, put back in the original order, is the same to the last digit. With an encoding it changes. The causal mask alone already tells the model the order.',
    ko: '문장을 입력하고 (단어 하나가 토큰 하나, 한국어와 영어 모두 가능) 내용으로 쓰세요. 단어를 섞어 보세요. 위치 인코딩이 없고 인과 마스크도 없으면 어텐션은 어떤 단어가 있는지만 보므로, 패턴이 단어를 따라 움직이고 원래 순서로 되돌리면 마지막 자리까지 같습니다. 인코딩이 있으면 달라집니다. 인과 마스크만으로도 순서가 드러납니다.',
  },

  mount(el, ctx) {
    ensureAttentionStyles();
    const { t } = ctx;
    const id = uid('attn-sent');
    let state = null;
    // The sentence in its own order and the shuffle applied to it: current word p is original[perm[p]].
    let original = null;
    let perm = null;
    let savedEncoding = { kind: 'rope' };

    const text = h('textarea', { id: `${id}-text`, rows: 2, spellcheck: 'false' });
    text.value = EXAMPLE;
    const use = h('button', { type: 'button', class: 'button', text: t('attention.sentence.use') });
    const shuffleButton = h('button', { type: 'button', class: 'button', text: t('attention.sentence.shuffle') });
    const restore = h('button', { type: 'button', class: 'button', text: t('attention.sentence.restore') });
    const noPos = h('input', { id: `${id}-nopos`, type: 'checkbox' });
    const noCausal = h('input', { id: `${id}-nocausal`, type: 'checkbox' });
    const words = h('ol', { class: 'attn-words', 'aria-label': t('attention.sentence.words') });
    const verdict = h('p', { class: 'attn-note', 'aria-live': 'polite' });
    const leftCanvas = h('canvas', { role: 'img', tabindex: 0 });
    const rightCanvas = h('canvas', { role: 'img', tabindex: 0 });
    const leftCap = h('figcaption');
    const rightCap = h('figcaption');
    const readout = h('p', { class: 'attn-readout', 'aria-live': 'polite' });
    const pair = h('div', { class: 'attn-pair', hidden: true },
      h('figure', { class: 'attn-tile' }, leftCanvas, leftCap),
      h('figure', { class: 'attn-tile' }, rightCanvas, rightCap));
    el.append(
      h('div', { class: 'attn-sentence' }, h('label', { for: text.id, text: t('attention.sentence.label') }), text),
      h('div', { class: 'attn-buttons' }, use, shuffleButton, restore),
      h('div', { class: 'attn-buttons' },
        h('div', { class: 'field-row field-check' }, noPos, h('label', { for: noPos.id, text: t('attention.sentence.noPos') })),
        h('div', { class: 'field-row field-check' }, noCausal, h('label', { for: noCausal.id, text: t('attention.sentence.noCausal') }))),
      words, verdict, pair, readout,
    );

    const apply = (list, p) => {
      original = list;
      perm = p;
      const current = p.map((i) => list[i]);
      ctx.setSpec({ content: 'tokens', tokens: current.join(' '), length: current.length });
    };
    use.addEventListener('click', () => {
      const list = splitWords(text.value);
      if (list.length) apply(list, list.map((_, i) => i));
    });
    shuffleButton.addEventListener('click', () => {
      const list = original ?? splitWords(text.value);
      if (list.length) apply(list, shuffle(list.length));
    });
    restore.addEventListener('click', () => {
      if (original) apply(original, original.map((_, i) => i));
    });
    noPos.addEventListener('input', () => {
      if (noPos.checked) {
        if (state?.spec.encoding) savedEncoding = state.spec.encoding;
        ctx.setSpec({ encoding: null });
      } else ctx.setSpec({ encoding: savedEncoding });
    });
    noCausal.addEventListener('input', () => ctx.setSpec({ causal: !noCausal.checked }));

    // Rows and columns of the two pictures are in the original order.
    const hover = (canvas, which) => canvas.addEventListener('pointermove', (e) => {
      if (!pair.hidden && state?.compare) {
        const n = original.length;
        const cell = cellAt(canvas, n, e);
        if (!cell) return;
        const v = state.compare[which][cell.row * n + cell.col];
        readout.textContent = t('attention.sentence.readout', {
          query: `${cell.row} “${original[cell.row]}”`, key: `${cell.col} “${original[cell.col]}”`, weight: weightText(v),
        });
      }
    });
    hover(leftCanvas, 'left');
    hover(rightCanvas, 'right');

    function draw() {
      el.dataset.drawn = String(Number(el.dataset.drawn || 0) + 1);
      delete el.dataset.diff;
      const { result, spec } = state;
      noPos.checked = spec.encoding === null;
      noCausal.checked = !spec.causal;
      const tokens = result.tokens ?? null;
      // A sentence typed into the parameters (not through this view) starts a new original.
      if (tokens && (!original || !perm || tokens.length !== perm.length || tokens.some((w, p) => w !== original[perm[p]]))) {
        original = tokens;
        perm = tokens.map((_, i) => i);
        text.value = tokens.join(' ');
      }
      if (!tokens) {
        words.replaceChildren();
        verdict.textContent = t('attention.sentence.start');
        pair.hidden = true;
        state.compare = null;
        return;
      }
      words.replaceChildren(...tokens.map((w, p) => h('li', {}, w, h('small', { text: perm[p] === p ? '' : `${perm[p]}→${p}` }))));
      const moved = perm.some((v, i) => v !== i);
      if (!moved) {
        verdict.textContent = t('attention.sentence.inOrder');
        pair.hidden = true;
        state.compare = null;
        return;
      }
      // The same spec with the words in their original order, and this result put back in it.
      let base;
      try {
        base = ctx.pe.compute({ ...spec, tokens: original.join(' ') });
      } catch {
        pair.hidden = true;
        return;
      }
      const back = unshuffle(result, perm);
      let diff = 0;
      for (let i = 0; i < back.length; i++) diff = Math.max(diff, Math.abs(back[i] - base.data[i]));
      const n = original.length;
      const backResult = { shape: result.shape, data: back };
      const left = headMean(base);
      const right = headMean(backResult);
      state.compare = { left, right };
      let vmax = 0;
      for (const v of [left, right]) for (let i = 0; i < v.length; i++) if (v[i] > vmax) vmax = v[i];
      const opts = { map: state.shared.colormap ?? 'viridis', scale: state.shared.attnScale ?? 'sqrt', vmax };
      drawPlane(leftCanvas, ctx.colorize, left, n, opts);
      drawPlane(rightCanvas, ctx.colorize, right, n, opts);
      leftCap.textContent = t('attention.sentence.left');
      rightCap.textContent = t('attention.sentence.right');
      leftCanvas.setAttribute('aria-label', t('attention.sentence.leftAria', n));
      rightCanvas.setAttribute('aria-label', t('attention.sentence.rightAria', n));
      pair.hidden = false;
      el.dataset.diff = String(diff);
      const same = diff < 1e-6;
      verdict.className = `attn-note ${same ? 'attn-ok' : 'attn-warn'}`;
      verdict.textContent = t(same ? 'attention.sentence.same' : 'attention.sentence.differs', {
        diff: diff.toExponential(2), encoding: spec.encoding?.kind ?? null, causal: spec.causal,
      });
      readout.textContent = '';
    }

    return {
      update(next) {
        state = { ...next, compare: state?.compare ?? null };
        if (next.changed.has('result') || next.changed.has('shared:colormap') || next.changed.has('shared:attnScale')) draw();
      },
      destroy() {},
    };
  },
};

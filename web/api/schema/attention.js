// Schema of the `attention` kind (field descriptors: web/api/schema/index.js; the nested `encoding` spec
// and the `tokens` text: web/api/spec.js). The C side has the same limits in c/attention.h.
//
// Definitions (also in c/attention_inputs.c, reproduced by tests/fixtures/ref_attention.py):
//   scores  s[h, i, j] = q[h, i]·k[h, j] / √dim (+ b[h, j − i] for bias encodings), −∞ for j > i
//           when causal; weights = softmax over j (max subtracted); a row with every entry masked
//           is all zeros (it cannot happen through this schema: the diagonal is never masked).
//   content G(s, p, c) is the `learned` generator's N(0, 1) entry (p, c) (SplitMix64 + Box–Muller,
//           c/absolute.c) for the 64-bit seed s; S(t) = seed + t·2^32.
//     random  q[h, i, c] = G(S(1), h·2^20 + i, c) + T[i, c],  k[h, i, c] = G(S(2), h·2^20 + i, c) + T[i, c]
//     tokens  words = the text split at whitespace (splitWords); x_i = e(word_i) + T[i] with
//             e(w)[c] = G(fnv1a64(UTF-8 bytes of w) + seed mod 2^64, 0, c); q[h, i] = W_q[h]·x_i,
//             k[h, i] = W_k[h]·x_i, W_q[h][r, c] = G(S(4), h·2^20 + r, c)/√dim, W_k with S(5)
//     none    q_i = k_i = T[i] (additive), the all-ones vector before rotation (rope, mrope), the
//             zero vector for bias encodings and for no encoding (then every score is the bias)
//   with T the additive encoding's table (0 for the others). Every G value is rounded to float32.
//   encoding  additive (sinusoidal, sinusoidal2d/3d, integer, binary, learned): T.
//             rope: q and k rotated by the exact cos/sin of p·inv_freq times attention_factor
//             (pe.applyRope's rotation: with a YaRN factor the scores carry it squared).
//             mrope: rotated (half pairing) by cos/sin of its float32 angles.
//             alibi: b = −m_h·|i − j| (its slopes), t5: b = T5[h, bucket(j − i)], shaw:
//             b = S[h, clip(j − i, −k, k) + k], with T5[h, n] = S[h, n] = float32(G(S(3), h, n));
//             distance: b = b(|i − j|), one plane for all heads.
//             null: no positional encoding (the permutation lesson).
import { PE_MAX_BIAS_LENGTH } from './relative.js';
import { segmentTokens } from './mrope.js';
import { PE_MAX_SEED } from './absolute.js';

export const PE_MAX_ATTENTION_LENGTH = PE_MAX_BIAS_LENGTH;   // 8192
export const PE_MAX_ATTENTION_DIM = 512;
export const PE_MAX_ATTENTION_HEADS = 64;
export const PE_MAX_ATTENTION_QK = 2 ** 24;                 // heads·length·dim
export const PE_MAX_TOKENS_TEXT = 200000;                    // characters of `tokens`
export const PE_ATTENTION_WINDOW = 16;                       // local_mass: keys with |i − j| < 16

/** How each encoding kind enters attention. */
export const ENCODING_CLASS = {
  sinusoidal: 'additive',
  sinusoidal2d: 'additive',
  sinusoidal3d: 'additive',
  integer: 'additive',
  binary: 'additive',
  learned: 'additive',
  rope: 'rotary',
  mrope: 'rotary',
  alibi: 'bias',
  t5: 'bias',
  shaw: 'bias',
  distance: 'bias',
};
export const ENCODING_KINDS = Object.keys(ENCODING_CLASS);

// ECMAScript's \s, spelled out so that other languages can split the same way
// (tests/fixtures/ref_attention.py does; the code export writes its source into the snippet).
export const WHITESPACE = /[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+/u;

/** The words of a `tokens` text: maximal runs of non-whitespace characters, in order. */
export function splitWords(text) {
  return typeof text === 'string' ? text.split(WHITESPACE).filter((w) => w.length > 0) : [];
}

/** M-RoPE's default band split for a head of `dim`: t, h, w in the ratio 16 : 24 : 24 of Qwen2-VL. */
export function mropeSection(dim) {
  const pairs = Math.floor(dim / 2);
  const side = Math.floor((3 * pairs) / 8);
  return [pairs - 2 * side, side, side];
}

/** Largest head count for a length and dim (both outputs and q/k within their limits). */
export function maxHeads(length, dim) {
  const byOutput = Math.floor(2 ** 26 / (length * length));
  const byQk = Math.floor(PE_MAX_ATTENTION_QK / (length * dim));
  return Math.max(1, Math.min(PE_MAX_ATTENTION_HEADS, byOutput, byQk));
}

export default {
  attention: {
    group: 'attention',
    label: { en: 'Attention patterns', ko: '어텐션 패턴' },
    help: {
      en: 'softmax(q·kᵀ/√dim) with a positional encoding applied the way it enters a transformer: added to the embeddings, rotating q and k, or biasing the scores. Each row shows how one query spreads its attention over the keys, and sums to 1.',
      ko: '위치 인코딩을 트랜스포머에서처럼 적용한 softmax(q·kᵀ/√dim): 임베딩에 더하거나, q와 k를 회전하거나, 점수에 바이어스를 더합니다. 각 행은 쿼리 하나가 키들에 어텐션을 어떻게 나누는지 보여 주며, 합은 1입니다.',
    },
    view: { class: 'pairwise' },
    fields: {
      length: {
        type: 'int', required: true, default: 64, min: 1, max: PE_MAX_ATTENTION_LENGTH,
        label: { en: 'Length (tokens)', ko: '길이 (토큰 수)' },
        help: {
          en: 'Number of tokens: one row per query, one column per key. With content "tokens" it must equal the number of words.',
          ko: '토큰 수: 쿼리마다 한 행, 키마다 한 열. content가 "tokens"이면 단어 수와 같아야 합니다.',
        },
        // What a form sets this field to when another field changes: with content "tokens",
        // the number of words of the text (when it is a valid length), so typing a sentence
        // never leaves the page refusing it for its length.
        follows: (s) => {
          if (s.content !== 'tokens') return undefined;
          const n = splitWords(s.tokens).length;
          return n >= 1 && n <= PE_MAX_ATTENTION_LENGTH ? n : undefined;
        },
      },
      dim: {
        type: 'int', default: 64, min: 1, max: PE_MAX_ATTENTION_DIM,
        label: { en: 'Head dimension', ko: '헤드 차원' },
        help: {
          en: 'Width of q and k in one head; scores are divided by √dim. The encoding uses the same dim.',
          ko: '헤드 하나의 q, k 폭. 점수는 √dim으로 나눕니다. 인코딩도 같은 dim을 씁니다.',
        },
      },
      heads: {
        type: 'int', default: 1, min: 1, max: (s) => maxHeads(s.length, s.dim),
        rule: 'heads·length² ≤ 2^26 and heads·length·dim ≤ 2^24',
        label: { en: 'Heads', ko: '헤드 수' },
        help: {
          en: 'Independent heads: own random q/k or projections, own ALiBi slope or T5/Shaw bias row.',
          ko: '서로 독립인 헤드: 각자의 무작위 q/k나 투영, ALiBi 기울기, T5/Shaw 바이어스 행.',
        },
      },
      causal: {
        type: 'bool', default: true,
        label: { en: 'Causal mask', ko: '인과 마스크' },
        help: {
          en: 'A decoder: query i sees keys j ≤ i only (never computed above the diagonal). Also the default mode of alibi and distance, and T5\'s direction.',
          ko: '디코더: 쿼리 i는 j ≤ i인 키만 봅니다 (대각선 위는 계산하지 않음). alibi, distance의 기본 모드와 T5의 방향도 따릅니다.',
        },
      },
      encoding: {
        type: 'spec', nullable: true, kinds: ENCODING_KINDS,
        // { kind: 'rope' } with rope's defaults, as normalization makes it (a fresh object each time).
        get default() {
          return { kind: 'rope', base: 10000, layout: 'half', partial_rotary_factor: 1, rope_scaling: null, max_position_embeddings: null, grid_height: null, grid_width: null };
        },
        rule: 'or null for no positional encoding',
        // length, dim (and alibi's heads) come from the attention spec.
        inherit(kind, root, schema) {
          const out = {};
          for (const key of ['length', 'dim', 'heads']) if (schema.fields[key]) out[key] = root[key];
          return out;
        },
        defaults(kind, root) {
          switch (kind) {
            case 'alibi':
            case 'distance':
              return { mode: root.causal ? 'causal' : 'symmetric' };
            case 't5':
              return { bidirectional: !root.causal };
            case 'mrope':
              return { segments: [{ type: 'text', length: root.length }], mrope_section: mropeSection(root.dim) };
            default:
              return {};
          }
        },
        label: { en: 'Positional encoding', ko: '위치 인코딩' },
        help: {
          en: 'A spec of any encoding kind without length and dim (they follow the attention): e.g. { "kind": "rope", "base": 10000 }, { "kind": "alibi" }, { "kind": "sinusoidal" }; null for none.',
          ko: 'length와 dim을 뺀 인코딩 spec (어텐션을 따름): 예 { "kind": "rope", "base": 10000 }, { "kind": "alibi" }, { "kind": "sinusoidal" }. 없으면 null.',
        },
      },
      content: {
        type: 'enum', default: 'random', values: ['random', 'tokens', 'none'],
        label: { en: 'Content', ko: '내용' },
        help: {
          en: 'random: seeded Gaussian q and k. tokens: one vector per word of the text (same word, same vector), projected per head. none: positions alone.',
          ko: 'random: seed로 정한 가우시안 q, k. tokens: 텍스트의 단어마다 벡터 하나 (같은 단어는 같은 벡터), 헤드마다 투영. none: 위치만.',
        },
      },
      tokens: {
        type: 'string', nullable: true, default: null, maxLength: PE_MAX_TOKENS_TEXT, multiline: true,
        label: { en: 'Text', ko: '텍스트' },
        help: {
          en: 'For content "tokens": one token per whitespace-separated word (Korean and English alike); length must equal the number of words. Ignored otherwise.',
          ko: 'content가 "tokens"일 때: 공백으로 나눈 단어 하나가 토큰 하나 (한국어, 영어 모두). length는 단어 수와 같아야 합니다. 그 밖에는 쓰지 않습니다.',
        },
      },
      seed: {
        type: 'int', default: 0, min: 0, max: PE_MAX_SEED,
        label: { en: 'Seed', ko: '시드' },
        help: {
          en: 'Seeds the random q/k, the word vectors and projections, and the T5/Shaw bias tables.',
          ko: '무작위 q/k, 단어 벡터와 투영, T5/Shaw 바이어스 표의 시드.',
        },
      },
    },
    shape: (s) => [s.heads, s.length, s.length],
    check(s) {
      if (s.content === 'tokens') {
        const words = splitWords(s.tokens);
        if (words.length === 0) {
          return { param: 'tokens', message: `tokens must be a text with at least one word when content is "tokens", got ${s.tokens === null ? 'null' : 'no words'}` };
        }
        if (words.length !== s.length) {
          const shown = words.length > 6 ? `${words.slice(0, 6).join(' ')} …` : words.join(' ');
          return { param: 'length', message: `length must equal the number of words in tokens (${words.length}: ${shown}), got ${s.length}` };
        }
      }
      const e = s.encoding;
      if (e?.kind === 'mrope') {
        const n = e.segments.reduce((total, seg) => total + segmentTokens(seg, e.spatial_merge_size), 0);
        if (n !== s.length) {
          return { param: 'encoding.segments', message: `encoding.segments must make length = ${s.length} tokens, got ${n}` };
        }
      }
      if (e?.kind === 'sinusoidal2d' || e?.kind === 'sinusoidal3d') {
        const n = e.height * e.width * (e.kind === 'sinusoidal3d' ? e.depth : 1);
        if (n !== s.length) {
          const sides = e.kind === 'sinusoidal3d' ? 'depth · height · width' : 'height · width';
          return { param: e.kind === 'sinusoidal3d' ? 'encoding.depth' : 'encoding.height', message: `encoding ${sides} must equal length ${s.length} (one token per grid cell), got ${n}` };
        }
      }
      return null;
    },
  },
};

// The Arena page's findings (web/pages/arena/findings.js) on constructed results: every sentence
// says in how many seeds it holds; a contrast only where the seeds' ranges do not overlap; the
// known causes of a run that did not fit (the position-free encoder, symmetric ALiBi in the
// encoder); RoPE scaling's effect only at 2× and only beyond the spread; a paper's ranking
// checked pair by pair; in English and Korean. Also the settings' URL form and the runs of an
// experiment (experiment.js). No WebAssembly, no DOM.
import { describe, it, expect } from 'vitest';
import { translator } from '../web/i18n/index.js';
import {
  DEFAULTS, evalLengths, interval95, readSettings, runsOf, settingsParams, trainerSpec,
} from '../web/pages/arena/experiment.js';
import { FIT, findings, knownCause, paperCheck } from '../web/pages/arena/findings.js';
import { PRESETS, paperFor, presetOf } from '../web/pages/arena/presets.js';
import '../web/pages/arena/strings.js';

const en = translator('en');
const ko = translator('ko');
const L = 16;
const LENGTHS = evalLengths(L, 'kback'); // 8, 12, 16, 24, 32, 64

/**
 * Runs of constructed results: spec[enc] = { [length]: [token accuracy per seed] } (lengths not
 * given: 1 below and at L, 0.5 above); exact match = token accuracy² (any number that follows it);
 * scaled[length]: rope's scaled evaluation per seed.
 */
function makeJobs(spec, { seeds = 3, scaled = null } = {}) {
  const jobs = [];
  for (let k = 0; k < seeds; k++) {
    for (const [enc, at] of Object.entries(spec)) {
      const ev = (table) => LENGTHS.map((length) => {
        const v = table[length]?.[k] ?? (length <= L ? 1 : 0.5);
        return { length, token_accuracy: v, accuracy: v * v, loss: 1 - v };
      });
      jobs.push({ id: `${enc}#${k}`, enc, seed: k, evals: ev(at), scaledEvals: enc === 'rope' && scaled ? ev(scaled) : [] });
    }
  }
  return jobs;
}
const settingsOf = (o = {}) => ({ ...DEFAULTS, enc: DEFAULTS.enc.slice(), len: L, min: 8, seeds: 3, ...o });

describe('findings over seeds', () => {
  it('says "in k of n seeds" (or "over n seeds") in every sentence, in both languages', () => {
    const jobs = makeJobs({ rope: { 32: [0.9, 0.95, 0.97] }, t5: { 32: [0.2, 0.3, 0.25] }, sinusoidal: { 16: [1, 0.5, 0.95] } });
    const s = settingsOf({ enc: ['sinusoidal', 't5', 'rope'] });
    const e = findings(jobs, s, en);
    const k = findings(jobs, s, ko);
    expect(e.length).toBeGreaterThanOrEqual(4);
    expect(k).toHaveLength(e.length);
    for (const x of e) expect(x).toMatch(/\d of 3 seeds|over 3 seeds|all 3 seeds/);
    for (const x of k) expect(x).toMatch(/시드 3개/);
    expect(e.join('\n')).toMatch(/sinusoidal did not fit k-back in 1 of 3 seeds at 1000 steps/);
    expect(k.join('\n')).toMatch(/사인파는 1000스텝 안에 시드 3개 중 1개에서 k칸 전을 배우지 못했습니다/);
  });

  it('contrasts two encodings only where every seed of one is above every seed of the other', () => {
    const s = settingsOf({ enc: ['t5', 'rope'] });
    const apart = findings(makeJobs({ rope: { 32: [0.9, 0.95, 0.97] }, t5: { 32: [0.2, 0.3, 0.89] } }), s, en).join('\n');
    expect(apart).toMatch(/In all 3 seeds, rope keeps at least 0\.90 of the tokens at 2× while t5 gets at most 0\.89/);
    expect(apart).toMatch(/rope 0\.94 \[0\.90–0\.97\] > t5 0\.46 \[0\.20–0\.89\]/);
    // One seed of t5 above the lowest seed of rope: the ranges overlap, so no contrast and no "better".
    const jobs = makeJobs({ rope: { 32: [0.6, 0.95, 0.97] }, t5: { 32: [0.2, 0.3, 0.7] } });
    for (const [t, overlap, contrast] of [[en, /the seeds disagree/, /keeps at least/], [ko, /시드마다 결과가 엇갈립니다/, /이상을 맞히지만/]]) {
      const words = findings(jobs, s, t).join('\n');
      expect(words).toMatch(overlap);
      expect(words).not.toMatch(contrast);
      expect(words).toMatch(/RoPE 0\.84 \[0\.60–0\.97\] ≈ T5 0\.40 \[0\.20–0\.70\]|rope 0\.84 \[0\.60–0\.97\] ≈ t5 0\.40 \[0\.20–0\.70\]/);
      expect(words).not.toMatch(/\d\]? > /);
    }
  });

  it('names no encoding best where its seeds overlap another\'s, and says which overlap', () => {
    const s = settingsOf({ enc: ['sinusoidal', 't5', 'rope'] });
    const words = findings(makeJobs({ rope: { 32: [0.9, 0.95, 0.97] }, t5: { 32: [0.8, 0.92, 0.85] }, sinusoidal: { 32: [0.1, 0.2, 0.3] } }), s, en).join('\n');
    expect(words).toMatch(/rope 0\.94 \[0\.90–0\.97\] ≈ t5 0\.86 \[0\.80–0\.92\] > sinusoidal 0\.20 \[0\.10–0\.30\]/);
    expect(words).toMatch(/t5 overlaps with rope: the seeds do not tell them apart/);
  });

  it('gives the position-free encoder\'s cause: it cannot learn an order-dependent task, by symmetry', () => {
    const fail = { 16: [0.18, 0.17, 0.18] };
    for (const task of ['reverse', 'kback', 'sort']) {
      expect(knownCause('none', settingsOf({ task, causal: false }))).toBe('perm');
      const e = findings(makeJobs({ none: fail, rope: {} }), settingsOf({ task, causal: false, enc: ['none', 'rope'] }), en).join('\n');
      expect(e).toMatch(/none did not fit .* in 3 of 3 seeds .*and cannot at any budget: an encoder without positions/);
      expect(e).not.toMatch(/more steps or another learning rate/);
      const k = findings(makeJobs({ none: fail, rope: {} }), settingsOf({ task, causal: false, enc: ['none', 'rope'] }), ko).join('\n');
      expect(k).toMatch(/위치 없음은 시드 3개 중 3개에서 .*스텝을 얼마나 주어도 배울 수 없습니다/);
    }
    // copy is learnable without positions, and a decoder has order from its mask: no known cause there.
    expect(knownCause('none', settingsOf({ task: 'copy', causal: false }))).toBe(null);
    expect(knownCause('none', settingsOf({ task: 'sort', causal: true }))).toBe(null);
    const dec = findings(makeJobs({ none: fail }), settingsOf({ task: 'sort', causal: true, enc: ['none'] }), en).join('\n');
    expect(dec).toMatch(/none did not fit sort in 3 of 3 seeds at 1000 steps .*more steps or another learning rate may change that/);
  });

  it('gives symmetric ALiBi\'s cause in the encoder on k-back only', () => {
    const jobs = makeJobs({ alibi: { 16: [0.27, 0.95, 0.3] } });
    const e = findings(jobs, settingsOf({ task: 'kback', causal: false, enc: ['alibi'] }), en).join('\n');
    expect(e).toMatch(/alibi did not fit k-back in 2 of 3 seeds .*: in an encoder its bias −m·\|i − j\| is the same two places back and two ahead/);
    const k = findings(jobs, settingsOf({ task: 'kback', causal: false, enc: ['alibi'] }), ko).join('\n');
    expect(k).toMatch(/ALiBi는 시드 3개 중 2개에서 k칸 전을 배우지 못했습니다.*방향 정보가 없습니다/);
    expect(knownCause('alibi', settingsOf({ task: 'kback', causal: true }))).toBe(null);
    expect(knownCause('alibi', settingsOf({ task: 'reverse', causal: false }))).toBe(null);
  });

  it('shows a fit at 1× that fails at a shorter length', () => {
    const words = findings(makeJobs({ learned: { 8: [0.5, 1, 0.4] } }), settingsOf({ enc: ['learned'] }), en).join('\n');
    expect(words).toMatch(/learned fits the training length but gets fewer than 90 % of the tokens right at 8 symbols in 2 of 3 seeds/);
  });

  it('claims a scaling gain only at 2× and only beyond the seeds\' spread, never the best of many lengths', () => {
    const s = settingsOf({ task: 'copy', causal: true, enc: ['rope'], scaling: 'linear' });
    const plain = { 32: [0.1, 0.3, 0.2], 64: [0.05, 0.05, 0.05] };
    // Far better at 4×, within the spread at 2×: no gain.
    const within = findings(makeJobs({ rope: plain }, { scaled: { 32: [0.25, 0.28, 0.35], 64: [0.9, 0.95, 0.9] } }), s, en).join('\n');
    expect(within).toMatch(/linear \(PI\) scaling at evaluation gets 0\.29 \[0\.25–0\.35\] of the tokens right against 0\.20 \[0\.10–0\.30\] without \(higher in 2 of 3 seeds\): within the seeds' spread, so no effect is shown/);
    expect(within).not.toMatch(/beyond the seeds' spread/);
    const gain = findings(makeJobs({ rope: plain }, { scaled: { 32: [0.9, 0.95, 0.96] } }), s, en).join('\n');
    expect(gain).toMatch(/higher in 3 of 3 seeds, beyond the seeds' spread/);
    const loss = findings(makeJobs({ rope: { 32: [0.9, 0.95, 0.96] } }, { scaled: { 32: [0.1, 0.2, 0.05] } }), s, ko).join('\n');
    expect(loss).toMatch(/시드 3개 중 3개에서 더 낮고 시드 편차를 넘어서므로, 여기서는 스케일링이 해가 됩니다/);
  });

  it('says nothing until every seed of an encoding is evaluated at the training length', () => {
    const jobs = makeJobs({ rope: {} }).slice(0, 2);
    expect(findings(jobs, settingsOf({ enc: ['rope'] }), en)).toEqual([]);
  });

  it('reports exact match beside token accuracy', () => {
    const words = findings(makeJobs({ rope: { 32: [0.9, 0.95, 0.97] }, t5: { 32: [0.2, 0.3, 0.25] } }), settingsOf({ enc: ['t5', 'rope'] }), en).join('\n');
    expect(words).toMatch(/Exact match there, mean \[min–max\]: rope 1\.00, t5 1\.00/);
    expect(words).toMatch(/In exact match \(whole sequences right, the papers' measure\) at 2×, over 3 seeds: rope 0\.88 \[0\.81–0\.94\] > t5 0\.06 \[0\.04–0\.09\]/);
  });
});

describe('a paper\'s ranking against the measured one', () => {
  const paper = paperFor({ task: 'sort', causal: true });
  const s = settingsOf({ task: 'sort', causal: true, enc: ['none', 't5', 'rope'] });
  it('agrees, disagrees or cannot tell, pair by pair, beyond the seeds\' spread', () => {
    expect(paper.order[0]).toEqual(['none', 't5']);
    const agree = paperCheck(makeJobs({ none: { 32: [0.7, 0.8, 0.75] }, t5: { 32: [0.6, 0.7, 0.65] }, rope: { 32: [0.3, 0.4, 0.35] } }), s, paper, en);
    expect(agree[0]).toMatch(/The paper's ranking beyond the training length: none ≈ t5 > rope\./);
    expect(agree[1]).toMatch(/All 2 of the paper's ordered pairs hold here beyond the spread of all 3 seeds: the measured ranking agrees/);
    const reversed = paperCheck(makeJobs({ none: { 32: [0.1, 0.2, 0.15] }, t5: { 32: [0.6, 0.7, 0.65] }, rope: { 32: [0.3, 0.4, 0.35] } }), s, paper, en);
    expect(reversed[1]).toMatch(/disagrees with the paper: 1 of its 2 ordered pairs is reversed beyond the spread of all 3 seeds \(rope > none\); 1 holds \(t5 > rope\)/);
    // English agreement with one, and with two seeds ("both", not "all 2").
    const two = (p) => ({ n: 2, total: 2, reversed: [], agrees: [], unresolved: [], ...p });
    expect(en('arena.paper.verdict.partly', two({ agrees: ['t5 > rope'], unresolved: ['none > t5'] })))
      .toMatch(/1 holds here beyond the spread of both seeds \(t5 > rope\) and 1 is not resolved/);
    expect(en('arena.find.allKeep', { min: '0.90', unit: 'tokens', n: 2 })).toMatch(/in both seeds\.$/);
    const overlap = paperCheck(makeJobs({ none: { 32: [0.3, 0.8, 0.5] }, t5: { 32: [0.3, 0.7, 0.5] }, rope: { 32: [0.3, 0.6, 0.5] } }), s, paper, ko);
    expect(overlap[1]).toMatch(/가려지는 쌍은 없습니다.*일치한다고도, 어긋난다고도 할 수 없습니다/);
  });
});

describe('the experiment\'s settings', () => {
  it('round-trips the range of training lengths and the seeds through the URL', () => {
    const s = { ...DEFAULTS, enc: ['t5', 'rope'], min: 4, seeds: 5, seed: 7 };
    const back = readSettings(new URLSearchParams(settingsParams(s)));
    expect(back.bad).toEqual([]);
    expect(back.settings).toEqual(s);
    expect(trainerSpec(s, 'rope', 9)).toMatchObject({ train_length: 16, train_length_min: 4, seed: 9, encoding: { kind: 'rope' } });
    // A link from before ranges (len, no min) trains at one length, as it did; min above len is refused.
    expect(readSettings(new URLSearchParams('task=copy&len=12')).settings.min).toBe(12);
    expect(readSettings(new URLSearchParams('len=12&min=13')).bad).toEqual(['min']);
    expect(readSettings(new URLSearchParams('seeds=0')).bad).toEqual(['seeds']);
  });

  it('runs every encoding with seeds base, base + 1, …, keyed by id', () => {
    const runs = runsOf({ ...DEFAULTS, enc: ['none', 'rope'], seed: 5, seeds: 2 });
    expect(runs.map((r) => r.id)).toEqual(['none#5', 'rope#5', 'none#6', 'rope#6']);
  });

  it('evaluates below and above the training length, and states what 256 examples can tell', () => {
    expect(evalLengths(16, 'copy')).toEqual([8, 12, 16, 24, 32, 64]);
    expect(evalLengths(4, 'kback')).toEqual([3, 4, 6, 8, 16]);
    expect(interval95(256, 0.5)).toBeCloseTo(0.061, 3);
  });

  it('knows its presets, and a preset\'s settings are valid URL settings', () => {
    for (const p of PRESETS) {
      const back = readSettings(new URLSearchParams(settingsParams(p.settings)));
      expect(back.bad).toEqual([]);
      expect(presetOf(back.settings)?.id).toBe(p.id);
    }
    expect(FIT).toBe(0.9);
  });
});

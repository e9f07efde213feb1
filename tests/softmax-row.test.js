// The word-order demo's softmax stages (web/views/attention/softmax-row.js): from a row of softmax
// weights, the scores minus their largest, their exponentials and the weights again, exactly as
// softmax computes them from scores it never saw; a masked key has no score.
//   npx vitest run tests/softmax-row.test.js
import { describe, it, expect } from 'vitest';
import { softmaxStages } from '../web/views/attention/softmax-row.js';

const softmax = (s) => {
  const m = Math.max(...s);
  const e = s.map((v) => Math.exp(v - m));
  const z = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / z);
};

describe('softmaxStages', () => {
  it('recovers the scores minus their largest from the weights, and the weights from them', () => {
    const scores = [0.3, -1.2, 2.5, 2.0];
    const st = softmaxStages(softmax(scores));
    scores.forEach((s, j) => expect(st.scores[j]).toBeCloseTo(s - 2.5, 12));
    expect(Math.max(...st.exps)).toBe(1);
    st.exps.forEach((v, j) => expect(v).toBeCloseTo(Math.exp(scores[j] - 2.5), 12));
    expect(st.sum).toBeCloseTo(scores.reduce((a, s) => a + Math.exp(s - 2.5), 0), 12);
    softmax(scores).forEach((w, j) => expect(st.weights[j]).toBeCloseTo(w, 15));
  });

  it('leaves a masked key (weight 0) without a score', () => {
    const st = softmaxStages(Float32Array.from([0.25, 0.75, 0, 0]));
    expect(st.masked).toEqual([false, false, true, true]);
    expect(st.scores[2]).toBe(-Infinity);
    expect(st.scores[0]).toBeCloseTo(Math.log(1 / 3), 7);
    expect(st.weights[2]).toBe(0);
    expect(st.weights[0] + st.weights[1]).toBeCloseTo(1, 15);
  });
});

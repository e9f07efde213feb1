// Self-check questions on code (issue 30): short "what is the shape", "what does this print" and
// "how many parameters" questions on the nn.Module form of "Copy as code" (web/share/codegen/),
// answered in a text box and checked as the learner types. Every expected answer is computed here
// through the API (pe.compute, and the code export's own self-check line), never typed in.
// DOM-free: ./exercises-ui.js draws them, ./exercise-strings.js has the words (learn.quiz.*),
// tests/learn-exercises.test.js runs the questions' code in PyTorch and checks its output here.
//
// A question: { id, code (Python, shown as is), kind ('shape' | 'values' | 'count' | 'check'),
// expect: what the check compares with, args: the numbers its explanation cites }.
import { selfCheck, TOLERANCE } from '../../share/codegen.js';

/** Decimals a printed float must carry to count as "what it prints" (PyTorch prints 4). */
export const DIGITS = 4;

/** The sinusoidal table of the step as the module form builds it: d_model 64, max_len 128. */
const SIN = { kind: 'sinusoidal', length: 128, dim: 64, base: 10000 };

function sinusoidQuestions(pe) {
  const r = pe.compute(SIN);
  const [rows, cols] = r.shape;
  const p = 5;
  const from = 2;
  const values = Array.from(r.data.subarray(p * cols + from, p * cols + from + 3));
  const check = selfCheck(r, TOLERANCE.sinusoidal);
  const [cr, cc] = check.index;
  const i = Math.floor(cc / 2);
  const make = `pos_enc = SinusoidalPositionalEncoding(d_model=${cols}, max_len=${rows})`;
  return [
    { id: 'sinShape', kind: 'shape', code: `${make}\nprint(pos_enc.pe.shape)`, expect: [1, rows, cols], args: { shape: `1, ${rows}, ${cols}`, rows, cols } },
    { id: 'sinValues', kind: 'values', code: `${make}\nprint(pos_enc.pe[0, ${p}, ${from}:${from + 3}])`, expect: values,
      args: { values: values.map((v) => v.toFixed(DIGITS)).join(', '), p, cols: `${from}, ${from + 1}, ${from + 2}`, d: cols } },
    { id: 'sinParams', kind: 'count', code: `${make}\nprint(sum(map(torch.numel, pos_enc.parameters())))`, expect: 0, args: { count: rows * cols, rows, cols } },
    { id: 'sinCheck', kind: 'check', code: `${make}\npe = pos_enc.pe[0]\n${check.print}`, expect: { shape: [rows, cols], value: r.data[cr * cols + cc], digits: check.digits },
      args: { expected: check.expected, row: cr, col: cc, fn: cc % 2 ? 'cos' : 'sin', i } },
  ];
}

function learnedQuestions(pe) {
  // BERT-base's position table: 512 positions of 768 channels, one trainable row each.
  const table = pe.compute({ kind: 'learned', length: 512, dim: 768, std: 0.02 });
  const [rows, cols] = table.shape;
  const look = pe.compute({ kind: 'learned', length: 100, dim: cols }).shape;
  return [
    { id: 'embParams', kind: 'count', code: `pos_emb = nn.Embedding(${rows}, ${cols})\nprint(sum(map(torch.numel, pos_emb.parameters())))`, expect: table.data.length,
      args: { count: table.data.length.toLocaleString('en-US'), rows, cols } },
    { id: 'embShape', kind: 'shape', code: `pos_emb = nn.Embedding(${rows}, ${cols})\nprint(pos_emb(torch.arange(${look[0]})).shape)`, expect: look,
      args: { shape: look.join(', '), n: look[0], rows, cols } },
  ];
}

const QUESTIONS = { sinusoids: sinusoidQuestions, learned: learnedQuestions };

/** The code questions of a step (none for most steps), computed with `pe`. */
export function questionsOf(stepId, pe) {
  return QUESTIONS[stepId]?.(pe) ?? [];
}

/** Whether a step has code questions. */
export const hasQuestions = (stepId) => Object.hasOwn(QUESTIONS, stepId);

/** The numbers written in an answer: torch.Size, tensor( … ), brackets and a Unicode minus allowed. */
function numbersIn(text) {
  const plain = text.toLowerCase().replace(/[\u2212\u2013]/g, '-').replace(/torch\.size|tensor|dtype=[\w.]+/g, ' ');
  return plain.match(/-?\d+(?:\.\d+)?(?:e[-+]?\d+)?/g) ?? [];
}
const decimals = (s) => (/\.(\d+)/.exec(s.split('e')[0])?.[1].length ?? 0);

/** Printed floats against the values: 'right' (each to its last digit), 'digits' (right but too few decimals) or 'wrong'. */
function floats(tokens, values, digits = DIGITS) {
  if (tokens.length !== values.length) return 'wrong';
  let short = false;
  for (const [k, s] of tokens.entries()) {
    const d = decimals(s);
    // Rounded or cut at its last digit, as a reader copies a printout.
    if (Math.abs(Number(s) - values[k]) > 10 ** -d + 1e-9) return 'wrong';
    if (d < digits) short = true;
  }
  return short ? 'digits' : 'right';
}

/** A whole number, with thousands separators or as a product (512 × 768). */
function count(text) {
  const s = text.replace(/[\s,_']/g, '').toLowerCase();
  if (!/^\d+([*×x]\d+)*$/.test(s)) return NaN;
  return s.split(/[*×x]/).reduce((a, b) => a * Number(b), 1);
}

/**
 * How an answer stands: 'empty', 'right', 'digits' (the right values with too few decimals) or
 * 'wrong'. Reasonable spellings count: torch.Size([1, 128, 64]), (1, 128, 64), 1 x 128 x 64;
 * tensor([-0.5711, …]); 393,216 or 512 * 768.
 */
export function checkAnswer(q, text) {
  if (!text.trim()) return 'empty';
  const tokens = numbersIn(text);
  const ints = (xs, want) => xs.length === want.length && xs.every((s, k) => !s.includes('.') && Number(s) === want[k]);
  if (q.kind === 'shape') return ints(tokens, q.expect) ? 'right' : 'wrong';
  if (q.kind === 'values') return floats(tokens, q.expect);
  if (q.kind === 'count') return count(text) === q.expect ? 'right' : 'wrong';
  // 'check': the shape tuple, then the one entry to the line's decimals.
  const n = q.expect.shape.length;
  if (!ints(tokens.slice(0, n), q.expect.shape)) return 'wrong';
  return floats(tokens.slice(n), [q.expect.value], q.expect.digits);
}

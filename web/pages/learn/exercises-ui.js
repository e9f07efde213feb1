// The exercises on the page (./exercises.js, ./exercises-code.js): under a step's "Try this", a
// polite live line that says when the learner has reached the state the question asks for, with
// what to notice in the numbers on screen, and a "Show the answer" disclosure (<details>, so Enter
// and Space open it); after it, for the steps that have them, questions on the exported code,
// checked as the learner types. The aside carries data-exercise = 'waiting' | 'done' and each
// question data-verdict (tests/browser/learn-exercises.test.js reads them).
import { h, uid } from '../../plot/dom.js';
import { EXERCISES } from './exercises.js';
import { questionsOf, checkAnswer, DIGITS } from './exercises-code.js';
import './exercise-strings.js';

/** States kept per visit (a slider dragged end to end sends a few hundred); the first is kept too. */
const MAX_HISTORY = 400;
/** Quiet time before the line is worked out and spoken: a drag is announced once, where it stops. */
const SETTLE_MS = 200;

/** The value of the step's control labelled `label` (a log slider's exact value from its number box). */
function controlValue(controls, label) {
  for (const el of controls.querySelectorAll('.learn-control')) {
    if (el.querySelector('label')?.textContent !== label) continue;
    const input = el.querySelector('input.learn-number') ?? el.querySelector('input, select');
    return input.tagName === 'SELECT' ? input.value : Number(input.value);
  }
  return NaN;
}

/** A disclosure whose text is written when it opens (`text()`, the state at that moment). */
function reveal(t, text) {
  const body = h('p', { class: 'learn-ex-answer' });
  const box = h('details', { class: 'learn-ex-reveal' }, h('summary', { text: t('learn.ex.show') }), body);
  box.addEventListener('toggle', () => {
    if (box.open) body.textContent = text();
  });
  return box;
}

/**
 * The exercise of step `id` in its "Try this" aside, or null when the step has none. Returns
 * { update(kind, spec, view), destroy() }: update is called with every env.explore of the step.
 */
export function mountExercise(aside, { id, t, pe, controls }) {
  const ex = EXERCISES[id];
  if (!ex) return null;
  const history = [];
  const status = h('p', { class: 'learn-ex-status', role: 'status' }, h('span', { class: 'learn-ex-wait', text: t('learn.ex.waiting') }));
  const say = (h0) => t(`learn.ex.${id}.done`, ex.facts(pe, h0));
  aside.append(status, reveal(t, () => {
    try {
      return `${t('learn.ex.answer')} ${say(ex.target(history))}`;
    } catch (err) {
      return t('learn.failed', err?.message ?? String(err));
    }
  }));
  aside.dataset.exercise = 'waiting';
  let shown = '';
  let timer = null;

  function check() {
    timer = null;
    let text;
    try {
      if (!ex.goal(history)) return;
      text = say(history);
    } catch (err) {
      console.warn(err);   // an exercise that cannot compute leaves the step as it was
      return;
    }
    if (text === shown) return;
    shown = text;
    status.replaceChildren(
      h('span', { class: 'learn-ex-mark', 'aria-hidden': 'true', text: '✓' }), ' ',
      h('strong', { text: t('learn.ex.reached') }), ' ',
      h('span', { class: 'learn-ex-text', text }));
    aside.dataset.exercise = 'done';
  }

  return {
    update(kind, spec, view) {
      const state = { kind, spec, view: view ?? {} };
      if (ex.reads) state.controls = Object.fromEntries(Object.entries(ex.reads).map(([k, key]) => [k, controlValue(controls, t(key))]));
      history.push(state);
      if (history.length > MAX_HISTORY) history.splice(1, 1);
      clearTimeout(timer);
      timer = setTimeout(check, SETTLE_MS);
    },
    destroy() {
      clearTimeout(timer);
    },
  };
}

/** One code question: the code, its question as the input's label, a live verdict, the answer. */
function question(q, t) {
  const id = uid('learn-q');
  const input = h('input', {
    id, type: 'text', class: 'learn-q-input', autocomplete: 'off', autocapitalize: 'off', spellcheck: 'false', 'aria-describedby': `${id}-status`,
  });
  const status = h('p', { id: `${id}-status`, class: 'learn-q-status', role: 'status' });
  const item = h('li', { class: 'learn-q', 'data-question': q.id, 'data-verdict': 'empty' },
    h('pre', { class: 'learn-q-code', tabindex: 0, translate: 'no', 'aria-label': t('learn.quiz.code') }, h('code', { text: q.code })),
    h('p', { class: 'learn-q-row' }, h('label', { for: id, text: t(`learn.quiz.${q.id}.ask`) }), ' ', input),
    status,
    reveal(t, () => t(`learn.quiz.${q.id}.why`, q.args)));
  // Right answers are said as they are typed; a wrong one only once the learner is done (Enter, or
  // leaving the box), so a half-typed answer is not called wrong.
  function show(verdict) {
    item.dataset.verdict = verdict;
    if (verdict === 'right') {
      status.replaceChildren(h('span', { class: 'learn-ex-mark', 'aria-hidden': 'true', text: '✓' }), ' ',
        h('strong', { text: t('learn.quiz.right') }), ' ', t(`learn.quiz.${q.id}.why`, q.args));
    } else if (verdict === 'wrong') {
      status.replaceChildren(h('span', { class: 'learn-q-mark', 'aria-hidden': 'true', text: '✗' }), ' ',
        h('strong', { text: t('learn.quiz.wrong') }), ' ', t(`learn.quiz.${q.id}.hint`));
    } else if (verdict === 'digits') {
      status.replaceChildren(h('strong', { text: t('learn.quiz.digits', DIGITS) }));
    } else {
      status.replaceChildren();
    }
  }
  input.addEventListener('input', () => {
    const verdict = checkAnswer(q, input.value);
    if (verdict === 'right' || verdict === 'empty' || item.dataset.verdict === 'right') show(verdict === 'right' || verdict === 'empty' ? verdict : 'typing');
  });
  const settle = () => show(checkAnswer(q, input.value));
  input.addEventListener('change', settle);
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') settle();
  });
  return item;
}

/** The code questions of step `id` as a section, or null when it has none. */
export function quizFor(id, { t, pe }) {
  let questions = [];
  try {
    questions = questionsOf(id, pe);
  } catch (err) {
    console.warn(err);
  }
  if (!questions.length) return null;
  const title = uid('learn-quiz');
  return h('section', { class: 'learn-quiz', 'aria-labelledby': title, 'data-quiz': id },
    h('h3', { id: title, text: t('learn.quiz.title') }),
    h('p', { class: 'learn-quiz-intro', text: t(`learn.quiz.intro.${id}`) }),
    h('ol', { class: 'learn-quiz-list' }, ...questions.map((q) => question(q, t))));
}

// The Arena's fine-tuning runner (web/pages/arena/finetune-run.js) with the page's worker code
// (worker.js handle) behind stand-in workers, in Node:
//   1. a pause holds every seed after the message in hand (no message is sent while paused, and
//      the wall time stops), and a resumed run gives the same numbers as one never paused;
//   2. a cancel while paused ends the run: nothing more is sent, the finished seeds stay.
// The card pauses its run when the learner leaves the Arena and resumes it on return
// (finetune-view.js); tests/browser/arena-finetune.test.js runs the card in Chromium.
import { describe, it, expect, beforeAll } from 'vitest';
import { createPE } from '../web/api/pe.js';
import { FinetuneRunner } from '../web/pages/arena/finetune-run.js';
import { FT_DEFAULTS } from '../web/pages/arena/finetune.js';
import { handle } from '../web/pages/arena/worker.js';

const SETTINGS = { ...FT_DEFAULTS, steps: 30, ftSteps: 10, seeds: 2 }; // small: the numbers need not be learned, only equal
const turns = (n) => new Promise((r) => {
  const step = (k) => (k ? setTimeout(() => step(k - 1)) : r());
  step(n);
});

describe('the fine-tuning runner', () => {
  let pe;
  beforeAll(async () => {
    pe = await createPE();
  });

  /** A runner whose workers answer with worker.js on the next turn; `sent` logs every message. */
  function makeRunner() {
    const sent = [];
    const updates = [];
    const worker = () => {
      const w = {
        onmessage: null,
        postMessage(msg) {
          sent.push(msg.op);
          setTimeout(() => {
            const out = handle(msg, pe);
            if (out !== null) w.onmessage({ data: { op: msg.op, id: msg.id, ...out } });
          });
        },
        terminate() {},
      };
      return w;
    };
    const runner = new FinetuneRunner({ concurrency: 2, makeWorker: worker, onUpdate: (what) => updates.push(what) });
    const finished = () => new Promise((resolve) => {
      const poll = () => (['done', 'error', 'cancelled'].includes(runner.state) ? resolve() : setTimeout(poll, 5));
      poll();
    });
    return { runner, sent, updates, finished };
  }
  const numbers = (runs) => runs.map(({ seed, at1, at2, after1, done }) => ({ seed, at1, at2, after1, done }));

  it('a pause sends nothing more and stops the clock; resumed, the numbers are those of a run never paused', async () => {
    const straight = makeRunner();
    straight.runner.start(SETTINGS);
    await straight.finished();
    expect(straight.runner.state).toBe('done');

    const paused = makeRunner();
    paused.runner.start(SETTINGS);
    while (!paused.updates.includes('progress')) await turns(1);
    paused.runner.pause();
    expect(paused.runner.state).toBe('paused');
    await turns(3); // the messages in hand are answered
    const count = paused.sent.length;
    const wall = paused.runner.elapsed();
    await turns(40);
    expect(paused.sent.length, 'messages sent while paused').toBe(count);
    expect(paused.runner.elapsed()).toBe(wall);
    expect(paused.runner.runs.some((r) => r.done)).toBe(false);
    paused.runner.resume();
    expect(paused.runner.state).toBe('running');
    await paused.finished();
    expect(paused.runner.state).toBe('done');
    expect(paused.sent.length).toBe(straight.sent.length);
    expect(numbers(paused.runner.runs)).toEqual(numbers(straight.runner.runs));
    expect(paused.runner.runs.every((r) => r.done && r.steps === r.total)).toBe(true);
  });

  it('a cancel while paused ends the run and sends nothing more', async () => {
    const r = makeRunner();
    r.runner.start(SETTINGS);
    while (!r.updates.includes('progress')) await turns(1);
    r.runner.pause();
    await turns(3);
    const count = r.sent.length;
    r.runner.cancel();
    expect(r.runner.state).toBe('cancelled');
    await turns(40);
    expect(r.sent.length).toBe(count);
    expect(r.runner.state).toBe('cancelled');
    r.runner.resume(); // nothing to resume
    expect(r.runner.state).toBe('cancelled');
  });
});

// Runs the Arena's fine-tuning experiment (finetune.js) in Web Workers (worker.js, one WebAssembly
// instance each): one seed at a time per worker, at most `concurrency` workers. A seed's run, all
// in its worker (the fine-tunes continue its trainer there):
//   pretrain `steps` at L (in chunks) → evaluate at L and at 2L, unscaled and with each scaling at
//   evaluation only → t.finetune twice (PI, none) → `ftSteps` each → evaluate both at 2L and at L.
// onUpdate(what) after every answer; runs[k] = { seed, steps, total, at1, at2, after1, done, error }.
//
//   const r = new FinetuneRunner({ concurrency, makeWorker, onUpdate });
//   r.start(settings); r.pause(); r.resume(); r.cancel(); r.elapsed();
//   r.state: idle | running | paused | done | cancelled | error
// A pause (the learner left the Arena) holds every worker after the message it has in hand, as the
// main experiment's runner does; resume() continues from there.
import { EVAL_SCALINGS, FT_SAMPLES, baseSpec, evalScaling, finetuneOptions } from './finetune.js';

const CHUNK = 25; // steps per message: a cancel waits for at most one of them

const pick = ({ accuracy, token_accuracy, loss }) => ({ accuracy, token_accuracy, loss });

export class FinetuneRunner {
  constructor({ concurrency, makeWorker, onUpdate }) {
    this.concurrency = Math.max(1, concurrency | 0);
    this.makeWorker = makeWorker;
    this.onUpdate = onUpdate;
    this.workers = [];
    this.runs = [];
    this.settings = null;
    this.state = 'idle';
    this.error = null;
    this.t0 = 0;
    this.wallMs = 0;
    this.generation = 0;
    this.wake = []; // resolvers of the seeds' loops held by a pause
  }

  start(settings) {
    this.cancel();
    this.generation += 1;
    const gen = this.generation;
    this.settings = settings;
    this.state = 'running';
    this.error = null;
    this.t0 = performance.now();
    this.wallMs = 0;
    this.runs = Array.from({ length: settings.seeds }, (_, k) => ({
      seed: settings.seed + k, steps: 0, total: settings.steps + 2 * settings.ftSteps, at1: null, at2: {}, after1: {}, done: false,
    }));
    const queue = this.runs.slice();
    const loops = [];
    for (let k = 0; k < Math.min(this.concurrency, queue.length); k++) {
      const w = this._worker();
      loops.push((async () => {
        while (queue.length && gen === this.generation) await this._runSeed(w, queue.shift(), gen);
      })());
    }
    Promise.all(loops).then(() => {
      if (gen !== this.generation) return;
      if (this.state === 'running') this.wallMs += performance.now() - this.t0;
      this.state = 'done';
      this._terminate();
      this.onUpdate('done');
    }, (err) => {
      if (gen !== this.generation) return;
      if (this.state === 'running') this.wallMs += performance.now() - this.t0;
      this.state = 'error';
      this.error = String(err?.message ?? err);
      this._terminate();
      this.onUpdate('error');
    });
    this.onUpdate('state');
  }

  /** Stops every run (the workers are terminated); the finished seeds stay. */
  cancel() {
    if (this.state !== 'running' && this.state !== 'paused') return;
    this.generation += 1;
    if (this.state === 'running') this.wallMs += performance.now() - this.t0;
    this.state = 'cancelled';
    this._terminate();
    this._release();
    this.onUpdate('state');
  }

  /** Holds every seed after the message its worker has in hand (nothing is lost; resume() continues). */
  pause() {
    if (this.state !== 'running') return;
    this.wallMs += performance.now() - this.t0;
    this.state = 'paused';
    this.onUpdate('state');
  }

  resume() {
    if (this.state !== 'paused') return;
    this.state = 'running';
    this.t0 = performance.now();
    this._release();
    this.onUpdate('state');
  }

  /** Wall time of the runs so far (ms), pauses excluded. */
  elapsed() {
    return this.wallMs + (this.state === 'running' ? performance.now() - this.t0 : 0);
  }

  /** Waits while paused; false when the run was cancelled or replaced meanwhile. */
  async _gate(gen) {
    while (this.state === 'paused' && gen === this.generation) await new Promise((r) => this.wake.push(r));
    return gen === this.generation;
  }

  _release() {
    const wake = this.wake;
    this.wake = [];
    for (const r of wake) r();
  }

  _terminate() {
    for (const w of this.workers) w.worker.terminate();
    this.workers = [];
  }

  _worker() {
    const worker = this.makeWorker();
    const w = { worker, pending: null };
    worker.onmessage = (e) => {
      const p = w.pending;
      w.pending = null;
      if (!p) return;
      if (e.data.error) p.reject(new Error(e.data.error));
      else p.resolve(e.data);
    };
    worker.onerror = (e) => {
      const p = w.pending;
      w.pending = null;
      p?.reject(new Error(e.message || 'worker failed'));
    };
    this.workers.push(w);
    return w;
  }

  /**
   * One message and its answer ('free' has none: posted only), sent once no pause holds it; a run
   * cancelled or replaced meanwhile sends nothing and ends its seed (a rejection its loop ignores).
   */
  async _call(w, msg, gen) {
    if (!await this._gate(gen)) throw new Error('cancelled');
    if (msg.op === 'free') {
      w.worker.postMessage(msg);
      return Promise.resolve(null);
    }
    return new Promise((resolve, reject) => {
      w.pending = { resolve, reject };
      w.worker.postMessage(msg);
    });
  }

  async _train(w, run, id, steps, gen) {
    for (let done = 0; done < steps && gen === this.generation;) {
      const n = Math.min(CHUNK, steps - done);
      const r = await this._call(w, { op: 'step', id, n, table: false }, gen);
      done += r.losses.length;
      run.steps += r.losses.length;
      this.onUpdate('progress');
    }
  }

  async _runSeed(w, run, gen) {
    const s = this.settings;
    const L = s.len;
    const L2 = 2 * L;
    const ids = { base: `base#${run.seed}`, ftPI: `pi#${run.seed}`, ftPlain: `plain#${run.seed}` };
    const evaluate = async (id, length, scaling) => pick(await this._call(w, { op: 'eval', id, length, samples: FT_SAMPLES, seed: run.seed, scaling }, gen));
    await this._call(w, { op: 'init', id: ids.base, spec: baseSpec(s, run.seed) }, gen);
    await this._train(w, run, ids.base, s.steps, gen);
    if (gen !== this.generation) return;
    run.at1 = await evaluate(ids.base, L, null);
    run.at2.none = await evaluate(ids.base, L2, null);
    for (const type of EVAL_SCALINGS) run.at2[type] = await evaluate(ids.base, L2, evalScaling(s, type));
    this.onUpdate('eval');
    for (const c of ['ftPI', 'ftPlain']) {
      await this._call(w, { op: 'finetune', id: ids[c], from: ids.base, options: finetuneOptions(s, c === 'ftPI') }, gen);
    }
    await this._call(w, { op: 'free', id: ids.base }, gen);
    for (const c of ['ftPI', 'ftPlain']) {
      await this._train(w, run, ids[c], s.ftSteps, gen);
      if (gen !== this.generation) return;
      // null: the trained scaling (PI for ftPI), at 2L and back at L
      run.at2[c] = await evaluate(ids[c], L2, null);
      run.after1[c] = await evaluate(ids[c], L, null);
      await this._call(w, { op: 'free', id: ids[c] }, gen);
    }
    run.done = true;
    this.onUpdate('eval');
  }
}

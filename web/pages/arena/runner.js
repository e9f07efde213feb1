// The Arena's runs: one trainer per encoding and seed (a job, keyed by its id "enc#seed"), each in
// a Web Worker (worker.js) with its own WebAssembly instance. At most `concurrency` workers
// (navigator.hardwareConcurrency) exist; a worker trains one job at a time, from its first step
// to its last evaluation, and the jobs beyond the pool wait in a queue. A trainer stays in its worker when its run ends, so
// a stopped run resumes there and its attention maps are computed there.
//
// Steps go to the worker in chunks sized to take about CHUNK_MS (at most MAX_CHUNK steps), so
// Stop takes effect quickly and the main thread never waits. Losses do not depend on how the
// steps are chunked (the engine draws its batches from one seeded stream).
//
//   const r = new Runner({ concurrency, onUpdate(job, what), makeWorker });
//   r.start(settings); r.stop(); r.resume(); r.reset(); r.attention(enc, length, seed) → Promise
import { EVAL_SAMPLES, evalLengths, runsOf, scalingAt, trainerSpec } from './experiment.js';

const CHUNK_MS = 150;
const MAX_CHUNK = 25;
const FIRST_CHUNK = 5;
const TABLE_EVERY_MS = 1000; // the learned table: at most one copy a second while it trains

/** A job: one encoding's run with one seed. state: queued → training → evaluating → done; stopped; error. */
function newJob({ id, enc, seed }, settings) {
  return {
    id,
    enc,
    seed,
    spec: trainerSpec(settings, enc, seed),
    state: 'queued',
    worker: null, // index into the pool, once started
    started: false,
    losses: new Float32Array(settings.steps),
    steps: 0,
    target: settings.steps,
    msPerStep: null,
    trainMs: 0, // worker time in t.step
    evalMs: 0, // worker time in t.evaluate
    table: null,
    tableAt: 0,
    evals: [], // [{ length, accuracy, token_accuracy, loss }] in length order
    scaledEvals: [], // rope with evaluation-time scaling
    pendingEvals: [], // [{ length, scaled }]
    evalsPlanned: false,
    stopping: false, // stopped with a message out: its answer is kept, nothing more is sent
    error: null,
    busy: false, // a message is out
  };
}

export class Runner {
  /**
   * @param {{ concurrency: number, onUpdate: (job: object|null, what: string) => void, makeWorker: () => Worker }} o
   */
  constructor({ concurrency, onUpdate, makeWorker }) {
    this.concurrency = Math.max(1, concurrency | 0);
    this.onUpdate = onUpdate;
    this.makeWorker = makeWorker;
    this.pool = []; // [{ worker, job: the job training on it, or null }]
    this.jobs = [];
    this.settings = null;
    this.running = false;
    this.attentionReq = 0;
    this.waiting = new Map(); // req → { resolve, reject }
    this.t0 = 0;
    this.wallMs = 0; // time spent running (stops excluded)
  }

  /** Starts a new experiment (the previous one is dropped). */
  start(settings) {
    this.reset();
    this.settings = settings;
    this.jobs = runsOf(settings).map((run) => newJob(run, settings));
    this.resume();
  }

  get finished() {
    return this.jobs.length > 0 && this.jobs.every((j) => j.state === 'done' || j.state === 'error');
  }

  get idle() {
    return !this.running;
  }

  /** Stops every run after the message each worker has in hand. */
  stop() {
    if (!this.running) return;
    this.running = false;
    this.wallMs += performance.now() - this.t0;
    // A run with a message out is stopped at once; the answer still counts when it comes back
    // (its steps were taken), and nothing more is sent.
    for (const j of this.jobs) {
      if (j.state === 'training' || j.state === 'evaluating') {
        j.state = 'stopped';
        j.stopping = j.busy;
        const p = this.pool[j.worker];
        if (!j.busy && p?.job === j) p.job = null;
      }
    }
    this.onUpdate(null, 'state');
  }

  /** Continues the stopped runs and starts the queued ones. */
  resume() {
    if (this.running || this.finished || !this.jobs.length) return;
    this.running = true;
    this.t0 = performance.now();
    for (const j of this.jobs) j.stopping = false;
    this._schedule();
    this.onUpdate(null, 'state');
  }

  /** Drops everything: workers terminated, jobs forgotten. */
  reset() {
    this.running = false;
    for (const p of this.pool) p.worker.terminate();
    this.pool = [];
    this.jobs = [];
    this.wallMs = 0;
    for (const w of this.waiting.values()) w.reject(new Error('reset'));
    this.waiting.clear();
  }

  /** Wall time of the runs so far (ms), pauses excluded. */
  elapsed() {
    return this.wallMs + (this.running ? performance.now() - this.t0 : 0);
  }

  /** The attention maps of one example for a trained (or stopped) encoding: its run with the first seed. */
  attention(enc, length, seed) {
    const job = this.jobs.find((j) => j.enc === enc && j.seed === this.settings.seed);
    if (!job || job.worker === null) return Promise.reject(new Error('not started'));
    this.attentionReq += 1;
    const req = this.attentionReq;
    const scaling = enc === 'rope' ? scalingAt(this.settings, length) : null;
    return new Promise((resolve, reject) => {
      this.waiting.set(req, { resolve, reject });
      this.pool[job.worker].worker.postMessage({ op: 'attention', id: job.id, req, length, seed, scaling });
    });
  }

  // --- scheduling ------------------------------------------------------------------------------

  _schedule() {
    if (!this.running) return;
    // Stopped runs go back to their own worker (their trainer is there); new ones to any free worker.
    for (const j of this.jobs) {
      if (j.state !== 'stopped' && j.state !== 'queued') continue;
      if (j.started) {
        const p = this.pool[j.worker];
        if (p.job === null) this._run(j, j.worker);
        continue;
      }
      let w = this.pool.findIndex((p) => p.job === null);
      if (w < 0 && this.pool.length < this.concurrency) w = this._spawn();
      if (w < 0) continue;
      this._run(j, w);
    }
    if (this.finished) this._finish();
  }

  _spawn() {
    const worker = this.makeWorker();
    const index = this.pool.length;
    worker.onmessage = (e) => this._message(index, e.data);
    worker.onerror = (e) => {
      const p = this.pool[index];
      if (p?.job) this._fail(p.job, e.message || 'worker failed');
    };
    this.pool.push({ worker, job: null });
    return index;
  }

  _run(job, w) {
    this.pool[w].job = job;
    job.worker = w;
    if (!job.started) {
      job.started = true;
      job.state = 'training';
      this._post(job, { op: 'init', id: job.id, spec: job.spec });
    } else {
      job.state = job.steps < job.target ? 'training' : 'evaluating';
      this._next(job);
    }
    this.onUpdate(job, 'state');
  }

  _post(job, msg) {
    job.busy = true;
    this.pool[job.worker].worker.postMessage(msg);
  }

  /** The next message of a run: a chunk of steps, an evaluation, or the end. */
  _next(job) {
    if (!this.running || job.stopping) {
      job.stopping = false;
      job.state = 'stopped';
      this._release(job);
      this.onUpdate(job, 'state');
      return;
    }
    if (job.steps < job.target) {
      job.state = 'training';
      const per = job.msPerStep;
      const n = Math.min(job.target - job.steps, per === null ? FIRST_CHUNK : Math.max(1, Math.min(MAX_CHUNK, Math.round(CHUNK_MS / per))));
      const now = performance.now();
      // The learned table of the first seed's run is shown while it trains.
      const table = job.enc === 'learned' && job.seed === this.settings.seed && (now - job.tableAt >= TABLE_EVERY_MS || job.steps + n >= job.target);
      if (table) job.tableAt = now;
      this._post(job, { op: 'step', id: job.id, n, table });
      return;
    }
    job.state = 'evaluating';
    if (!job.evalsPlanned) {
      job.evalsPlanned = true;
      const lengths = evalLengths(this.settings.len, this.settings.task);
      job.pendingEvals = lengths.map((length) => ({ length, scaled: false }));
      if (job.enc === 'rope' && this.settings.scaling !== 'none') {
        job.pendingEvals.push(...lengths.map((length) => ({ length, scaled: true })));
      }
      this.onUpdate(job, 'state');
    }
    const e = job.pendingEvals[0];
    if (e) {
      this._post(job, {
        op: 'eval', id: job.id, length: e.length, samples: EVAL_SAMPLES, seed: job.seed,
        scaling: e.scaled ? scalingAt(this.settings, e.length) : null,
      });
      return;
    }
    job.state = 'done';
    this._release(job);
    this.onUpdate(job, 'state');
  }

  _release(job) {
    const p = this.pool[job.worker];
    if (p && p.job === job) p.job = null;
    this._schedule();
  }

  _finish() {
    if (!this.running) return;
    this.running = false;
    this.wallMs += performance.now() - this.t0;
    this.onUpdate(null, 'finished');
  }

  _fail(job, message) {
    job.busy = false;
    job.error = message;
    job.state = 'error';
    this._release(job);
    this.onUpdate(job, 'state');
  }

  _message(w, m) {
    if (m.op === 'attention') {
      const waiter = this.waiting.get(m.req);
      this.waiting.delete(m.req);
      if (!waiter) return;
      if (m.error) waiter.reject(new Error(m.error));
      else waiter.resolve(m);
      return;
    }
    const job = this.jobs.find((j) => j.id === m.id && j.worker === w);
    if (!job) return;
    if (m.error) {
      this._fail(job, m.error);
      return;
    }
    job.busy = false;
    switch (m.op) {
      case 'init':
        job.params = m.params;
        // Only the first seed's learned table is shown (the step messages send no other).
        if (job.seed === this.settings.seed) {
          job.table = m.table;
          if (m.table) this.onUpdate(job, 'table');
        }
        break;
      case 'step': {
        job.losses.set(m.losses, job.steps);
        job.steps += m.losses.length;
        job.trainMs += m.ms;
        job.msPerStep = job.trainMs / job.steps;
        if (m.table) job.table = m.table;
        this.onUpdate(job, 'losses');
        if (m.table) this.onUpdate(job, 'table');
        break;
      }
      case 'eval': {
        job.pendingEvals.shift();
        job.evalMs += m.ms;
        const list = m.scaled ? job.scaledEvals : job.evals;
        list.push({ length: m.length, accuracy: m.accuracy, token_accuracy: m.token_accuracy, loss: m.loss });
        this.onUpdate(job, 'eval');
        break;
      }
      default:
        break;
    }
    this._next(job);
  }
}

// One Arena worker: its own instance of the WebAssembly API (web/api/pe.js) and the trainers the
// page gives it (web/pages/arena/runner.js). Messages are handled one at a time, in order; each
// is small (a chunk of steps, one evaluation length), so a Stop on the page takes effect after
// at most one of them.
//
//   { op: 'init', id, spec }                          → { op, id, sequenceLength, table, params }
//   { op: 'step', id, n, table }                      → { op, id, losses, ms, steps, table? }
//   { op: 'eval', id, length, samples, seed, scaling } → { op, id, length, scaled, accuracy, token_accuracy, loss, ms }
//   { op: 'attention', id, req, length, seed, scaling } → { op, id, req, data, shape, tokens }
//   { op: 'finetune', id, from, options }               → { op, id, sequenceLength, steps } (t.finetune of trainer `from`)
//   { op: 'free', id }
// A failure answers { op, id, req?, error, param }.
let pe = null;
const trainers = new Map();

function table(t) {
  const tab = t.positionTable();
  return tab ? { data: tab.data, shape: tab.shape } : null;
}

/**
 * What the model learns, counted from its tensors: { position, total } parameters, position
 * being the learned table (wpe, max length × d_model) and T5's bias table (buckets × heads).
 * Sinusoidal, RoPE, ALiBi and none learn nothing for positions: 0.
 */
function paramCounts(t) {
  let position = 0;
  let total = 0;
  for (const x of t.tensors()) {
    const n = x.shape.reduce((a, b) => a * b, 1);
    total += n;
    if (/(^|\.)(wpe|t5)$/.test(x.name)) position += n;
  }
  return { position, total };
}

/** One message to a trainer of `trainers` on the API `pe`: its answer (null: none). Exported for scripts/arena-finetune.js. */
export function handle(msg, pe) {
  const t = trainers.get(msg.id);
  switch (msg.op) {
    case 'init': {
      trainers.get(msg.id)?.free();
      const tr = pe.trainer(msg.spec);
      trainers.set(msg.id, tr);
      return { sequenceLength: tr.sequenceLength, table: table(tr), params: paramCounts(tr) };
    }
    case 'step': {
      const t0 = performance.now();
      const losses = t.step(msg.n);
      const ms = performance.now() - t0;
      return { losses, ms, steps: t.steps, table: msg.table ? table(t) : null };
    }
    case 'eval': {
      const t0 = performance.now();
      const r = t.evaluate(msg.length, { samples: msg.samples, seed: msg.seed, rope_scaling: msg.scaling });
      return { length: msg.length, scaled: !!msg.scaling, ...r, ms: performance.now() - t0 };
    }
    case 'attention': {
      const r = t.attention(msg.length, { seed: msg.seed, rope_scaling: msg.scaling });
      return { req: msg.req, length: msg.length, data: r.data, shape: r.shape, tokens: r.tokens };
    }
    case 'finetune': {
      trainers.get(msg.id)?.free();
      const tr = trainers.get(msg.from).finetune(msg.options);
      trainers.set(msg.id, tr);
      return { sequenceLength: tr.sequenceLength, steps: tr.steps };
    }
    case 'free':
      t?.free();
      trainers.delete(msg.id);
      return null;
    default:
      throw new Error(`unknown op ${msg.op}`);
  }
}

if (typeof self !== 'undefined') self.onmessage = async (e) => {
  const msg = e.data;
  try {
    pe ??= import('../../api/pe.js').then((m) => m.createPE());
    const out = handle(msg, await pe);
    if (out === null) return;
    const transfer = [out.losses?.buffer, out.data?.buffer, out.table?.data?.buffer].filter(Boolean);
    self.postMessage({ op: msg.op, id: msg.id, ...out }, transfer);
  } catch (err) {
    self.postMessage({ op: msg.op, id: msg.id, req: msg.req, error: String(err?.message ?? err), param: err?.param ?? null });
  }
};

// Cosine similarity of every pair of rows, off the main thread (web/views/absolute/similarity.js).
// Messages: { id, slot, rows, cols, data: Float32Array } or, for a reference table, { id, slot,
// rows, cols, spec } (computed here with the WebAssembly API, so a 1024 × 768 random table costs
// the page nothing) → { id, slot, sim: Float32Array rows², rows, ms }. The work runs in slices of
// about 25 ms; between slices a newer request for the same slot replaces an older one, so
// dragging a slider never queues stale work.
import { finishSimilarity, similarityRows, unitRows } from '../../model/similarity.js';

const SLICE_MS = 25;
const latest = {};
let pe = null;

self.onmessage = async (e) => {
  const req = e.data;
  latest[req.slot] = req.id;
  const t0 = performance.now();
  let data = req.data;
  if (!data) {
    try {
      pe ??= import('../../api/pe.js').then((m) => m.createPE());
      data = (await pe).compute(req.spec).data;
    } catch (err) {
      self.postMessage({ id: req.id, slot: req.slot, error: String(err?.message ?? err) });
      return;
    }
    if (latest[req.slot] !== req.id) return;
  }
  const u = unitRows(data, req.rows, req.cols);
  const sim = new Float32Array(req.rows * req.rows);
  let i = 0;
  const step = () => {
    if (latest[req.slot] !== req.id) return;
    const s0 = performance.now();
    while (i < req.rows && performance.now() - s0 < SLICE_MS) {
      const i1 = Math.min(req.rows, i + 8);
      similarityRows(u, req.rows, req.cols, sim, i, i1);
      i = i1;
    }
    if (i < req.rows) {
      setTimeout(step, 0);
      return;
    }
    finishSimilarity(sim, req.rows);
    self.postMessage({ id: req.id, slot: req.slot, sim, rows: req.rows, ms: performance.now() - t0 }, [sim.buffer]);
  };
  step();
};

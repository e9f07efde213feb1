// Computes the properties view's numbers off the main thread, so dragging a slider never waits
// for them. Messages: { id, data: Float32Array, rows, cols } → replies { id, part, value, ms }
// for 'consistency', 'pairwise' and 'linear' in turn, each as soon as it is ready. Each part
// runs in its own task, so a newer request that arrives meanwhile replaces the rest.
import { consistency, linearRelation, pairwise } from './properties-math.js';

const PARTS = [
  ['consistency', consistency],
  ['pairwise', pairwise],
  ['linear', linearRelation],
];

let latest = 0;

self.onmessage = (e) => {
  latest = e.data.id;
  setTimeout(() => run(e.data, 0), 0);
};

function run(request, i) {
  if (request.id !== latest || i >= PARTS.length) return;
  const [part, fn] = PARTS[i];
  const t0 = performance.now();
  const value = fn(request.data, request.rows, request.cols);
  self.postMessage({ id: request.id, part, value, ms: performance.now() - t0 });
  setTimeout(() => run(request, i + 1), 0);
}

// The compute loop: every change recomputes with the WebAssembly API on the next animation frame
// (at most once a frame; there is no compute button) and hands the result to the views. A spec
// that does not compute shows its error (web/app/errors.js) and the views keep the last good
// result. Views may set the view state, fields of the spec, or a result of their own (a trained
// table from a file) through the actions here. Timings go out as events (web/app/events.js).
import { SCHEMA } from '../api/pe.js';
import { outputInfo } from '../model/output.js';
import { sameJSON } from '../model/json.js';
import { clearErrors, showError } from './errors.js';
import { emit } from './events.js';
import { app, currentState, layoutKey } from './state.js';
import { scheduleUrl } from './url.js';
import { mountViews, updateViews } from './view-host.js';

/** Outputs of at least this many values are computed into the shown result's array (reusable). */
const REUSE_MIN = 1 << 18;

/** What views may ask of the explorer (their ctx). */
export const viewActions = { setShared, showResult, clearResult, setSpec };

let plotted = false; // the first plot has happened (<html data-state="ready">)

/** A change to the working spec: computes now, or on the next frame if this one already computed. */
export function schedule() {
  // The first input waiting for a compute: what "input → painted frame" is timed from.
  app.inputAt ??= performance.now();
  if (app.frame) return; // a compute is already waiting for the next frame: it takes these values
  // At most one compute per frame: the first change since the last frame computes at once (so the
  // frame about to be painted shows it: a key press, typing or a change that arrives between
  // frames is not held back a frame); later ones within the same frame share one compute at the
  // next frame (the newest values win).
  if (!app.frameBusy && !app.computing) {
    compute();
    return;
  }
  app.frame = requestAnimationFrame(() => {
    app.frame = 0;
    compute();
  });
}

/** Forgets a compute waiting for the next frame (the kind or the page changes). */
export function cancelScheduled() {
  cancelAnimationFrame(app.frame);
  app.frame = 0;
}

/** Marks that a compute ran in this frame (until the next animation frame). */
function markFrameBusy() {
  if (app.frameBusy) return;
  app.frameBusy = true;
  requestAnimationFrame(() => {
    app.frameBusy = false;
  });
}

/** The display state shared by the views changes (a view's ctx.setShared). */
function setShared(patch) {
  const kind = app.kind;
  const prev = app.shared[kind];
  const changed = new Set(['shared']);
  for (const [k, v] of Object.entries(patch)) if (!sameJSON(prev[k], v)) changed.add(`shared:${k}`);
  if (changed.size === 1) return;
  app.shared[kind] = { ...prev, ...patch };
  if (app.good[kind]) updateViews(currentState({ changed, stale: app.stale }));
  scheduleUrl();
}

/**
 * Set fields of the current kind's parameters from a view (e.g. the M-RoPE builder's segments):
 * the controls show the new values and the page recomputes on the next frame, as if typed. For
 * views (ctx).
 */
function setSpec(patch) {
  app.specs[app.kind] = { ...app.specs[app.kind], ...patch };
  app.controls.setValues(app.specs[app.kind]);
  app.lastEdited = Object.keys(patch)[0] ?? null;
  schedule();
}

/**
 * Show `result` (shaped like compute's, e.g. pe.loadMatrix's trained table) instead of computing
 * the kind's spec, until clearResult(). `label` says where it came from. For views (ctx).
 */
function showResult(result, label) {
  const [rows, cols] = result.shape;
  const spec = { ...app.pe.defaults(app.kind), ...(result.spec ?? {}) };
  if ('length' in spec) spec.length = rows;
  if ('dim' in spec) spec.dim = cols;
  app.loaded[app.kind] = { result: { ...result, spec }, label };
  compute();
}

export function clearResult() {
  if (!app.loaded[app.kind]) return;
  delete app.loaded[app.kind];
  compute();
}

function markLoaded(loaded) {
  const ui = app.loadedUi;
  ui.note.hidden = !loaded;
  ui.text.textContent = loaded ? app.t('app.loadedNote', loaded.label) : '';
  // The parameters do not describe a loaded table: out of reach until it is put away.
  ui.fields.inert = !!loaded;
  ui.fields.classList.toggle('is-inert', !!loaded);
  ui.reset.disabled = !!loaded;
}

export function compute() {
  if (!app.pe) return; // the kernels are still compiling: app.js computes once they are in
  app.computing = true;
  try {
    computeNow();
  } finally {
    app.computing = false;
  }
}

/**
 * The array the next compute of `kind` may write its output into: the shown result's own data,
 * when it came from pe.compute (never a loaded file's table) and is large. A large output then
 * costs one copy into memory the page already has, not a new allocation with its page faults and
 * garbage (a slider drag at 2000 × 1600 copies 12.8 MB a frame). The shown result is replaced
 * by the new one in the same call; a compute that throws leaves the array as it was, so the last
 * good result stays intact. Views that cache by array identity key on the result instead.
 */
function reusable(kind) {
  const good = app.good[kind];
  return good?.computed && good.result.data.length >= REUSE_MIN ? good.result.data : null;
}

function computeNow() {
  markFrameBusy();
  if (app.frame) {
    // A change that waited for a frame is taken by this compute.
    cancelScheduled();
  }
  const kind = app.kind;
  const schema = SCHEMA[kind];
  const spec = app.specs[kind];
  app.controls.updateBounds(spec);
  scheduleUrl();
  const t0 = performance.now();
  const inputAt = app.inputAt ?? t0;
  app.inputAt = null;
  const loaded = app.loaded[kind];
  markLoaded(loaded);
  let result;
  try {
    if (loaded) result = loaded.result;
    else {
      const reuse = reusable(kind);
      result = app.pe.compute(spec, { reuse });
      if (reuse && result.data === reuse) emit('reuse', {});
    }
  } catch (err) {
    if (!app.views.length) {
      // Nothing computed yet for this kind: mount the views for its default shape, blank.
      const d = app.pe.compute(app.pe.defaults(kind));
      mountViews(outputInfo(kind, schema, d.shape), viewActions);
    }
    showError(err);
    return;
  }
  const computeMs = performance.now() - t0;
  if (!plotted) performance.mark('pe:computed');
  clearErrors();
  app.stale = false;
  const info = outputInfo(kind, schema, result.shape);
  if (app.mountedKey !== layoutKey(info)) mountViews(info, viewActions);
  if (!plotted) performance.mark('pe:views-mounted');
  const shared = app.shared[kind];
  if ((shared.head ?? 0) >= info.slices) shared.head = 0;
  app.good[kind] = { spec: result.spec, result, info, timing: { computeMs, inputAt }, computed: !loaded };
  if (!loaded) app.linkSpec[kind] = result.spec;
  updateViews(currentState({ changed: new Set(['result']) }));
  emit('render', { t0, computeMs, inputAt });
  if (!plotted) {
    plotted = true;
    document.documentElement.dataset.state = 'ready';
  }
}

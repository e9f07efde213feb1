// What the explorer reports as it works, for observers that are no part of its job (the
// diagnostics of web/app/diagnostics.js): `on(type, listener)`, `emit(type, detail)`, synchronous.
//   render       { t0, computeMs, inputAt }   a compute and the views' update have just ended
//   view-update  { id, ms }                   one view's update ended
//   reuse        {}                           a compute wrote into the shown result's array
const listeners = new Map();

export function on(type, listener) {
  if (!listeners.has(type)) listeners.set(type, []);
  listeners.get(type).push(listener);
}

export function emit(type, detail) {
  for (const listener of listeners.get(type) ?? []) listener(detail);
}

// The explorer's state, shared by the modules of web/app/ (one object, read and written in place):
// the language, the chosen kind, the working and last good spec of each kind, the view state, the
// mounted views and the page shown instead of the explorer.
import { SCHEMA } from '../api/pe.js';
import { translator } from '../i18n/index.js';

export const app = {
  pe: null,
  lang: 'en',
  t: translator('en'),
  kind: null,
  specs: {}, // the user's working spec per kind (may be invalid)
  good: {}, // the last spec that computed, and its result, per kind
  loaded: {}, // a result a view supplied instead of computing (a trained table from a file), per kind
  shared: {}, // display state shared by the views, per kind
  unfolded: {}, // the advanced views the reader opened, per kind (a Set of view ids)
  views: [], // [{ view, handle, section }]
  mountedKey: null,
  controls: null,
  lastEdited: null,
  stale: false, // the spec on screen no longer computes (the views show the last good result, dimmed)
  frame: 0, // a compute waiting for the next animation frame
  frameBusy: false, // a compute ran in this frame (the next change waits for the next frame)
  computing: false,
  inputAt: null, // the first input waiting for a compute (what "input → painted frame" is timed from)
  urlTimer: 0,
  linkSpec: {}, // the last spec computed from the parameters, per kind (what a link holds)
  embed: null, // ?embed: null, or which views to show ('all' | 'heatmap' | 'lines')
  page: null, // the page shown instead of the explorer (web/app/pages.js): { id, route, handle, token }
  // The chosen kind's boxes (web/app/explorer.js): views, contents, errors, the loaded-table note.
  viewsBox: null,
  tocBox: null,
  generalError: null,
  loadedUi: null,
  fitControls: null,
};

/** The view state a kind starts with before any link or view sets it. */
export const SHARED_START = { colormap: 'viridis', head: 0 };

/** The catalogue section of a kind: its schema's `group` (its family's name everywhere). */
export const groupOf = (kind) => SCHEMA[kind].group ?? 'other';

/** The state handed to the views: the current kind's last good result and view state, plus `extra`. */
export function currentState(extra) {
  const good = app.good[app.kind];
  return {
    spec: good.spec,
    result: good.result,
    info: good.info,
    shared: app.shared[app.kind],
    stale: false,
    timing: good.timing,
    ...extra,
  };
}

/** A key of an output's view layout: the views are mounted again when it changes. */
export const layoutKey = (info) => `${info.kind}:${info.class}:${info.rank}:${info.slices}`;

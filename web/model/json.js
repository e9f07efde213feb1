// Specs and view state are plain JSON-like data: what a link writes and a form reads. These are
// the one test of "the same" and the one copy for such values, used by the page, the views and
// the links alike.

/** Whether two JSON-like values are the same as JSON (what a link writes). */
export const sameJSON = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/**
 * A deep copy of a JSON-like value as JSON carries it (undefined stays undefined): keys holding
 * undefined are left out, and NaN and ±Infinity become null, as in a link or a form's value.
 */
export const copyJSON = (v) => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)));

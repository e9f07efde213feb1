// What a spec that does not compute shows: its PEError at the field it names (and where the user
// is typing, when a limit comes from another field), else under the parameters; the views keep
// the last good result, marked stale.
import { PEError, SCHEMA } from '../api/pe.js';
import { app, currentState } from './state.js';
import { updateViews } from './view-host.js';

export function clearErrors() {
  app.controls.clearErrors();
  app.generalError.hidden = true;
}

export function showError(err) {
  const { t } = app;
  clearErrors();
  const isPE = err instanceof PEError || err?.name === 'PEError';
  const msg = err?.message ?? String(err);
  const fieldLabel = (param) => {
    const f = SCHEMA[app.kind].fields[String(param).split('.')[0]];
    return f ? t.tr(f.label) || param : param;
  };
  const text = (param) => (app.lang === 'en' ? msg : `${t('app.fieldError', fieldLabel(param))} ${msg}`);
  let shown = false;
  if (isPE && err.param) {
    shown = app.controls.showError(err.param, text(err.param));
    // A limit set by another field (e.g. the output size) also shows where the user is typing.
    if (shown && app.lastEdited && app.lastEdited.split('.')[0] !== String(err.param).split('.')[0]) {
      app.controls.showError(app.lastEdited, text(err.param));
    }
  }
  if (!shown) {
    app.generalError.textContent = isPE ? text(err.param ?? '') : t('app.otherError', msg);
    app.generalError.hidden = false;
    if (!isPE) console.warn(err);
  }
  app.stale = true;
  if (app.good[app.kind] && app.views.length) {
    updateViews(currentState({ stale: true, changed: new Set(['stale']) }));
  }
}

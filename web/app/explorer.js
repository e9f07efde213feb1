// The chosen kind in the explorer: its heading and help, the copy-link button, the contents of its
// views, its parameters (controls generated from its schema, web/app/controls.js) with the reset
// button, the loaded-table note and the general error line, and the box its views mount in.
import { defaults, SCHEMA } from '../api/pe.js';
import { h } from '../plot/dom.js';
import { copyLinkButton } from '../share/page.js';
import { markCatalogue } from './catalogue.js';
import { cancelScheduled, clearResult, compute, schedule } from './compute.js';
import { buildControls } from './controls.js';
import { app, groupOf, SHARED_START } from './state.js';
import { currentLink } from './url.js';
import { destroyViews } from './view-host.js';

/**
 * Shows `kind` (with `spec`, else its working spec or defaults) and computes it (once the kernels
 * are in: app.js builds the first kind's parameters while they compile, then computes).
 */
export function showKind(kind, spec, { focus = false } = {}) {
  const { t } = app;
  destroyViews();
  cancelScheduled();
  app.kind = kind;
  if (spec) app.specs[kind] = spec;
  app.specs[kind] ??= defaults(kind); // pure JS: the kernels may still be compiling
  app.shared[kind] ??= { ...SHARED_START };
  app.lastEdited = null;
  markCatalogue();
  const schema = SCHEMA[kind];
  const main = document.getElementById('main');
  main.dataset.kind = kind;
  const group = groupOf(kind);

  const heading = h('h2', { id: 'kind-title', tabindex: -1, text: t.tr(schema.label) || kind });
  const head = h('div', { class: 'kind-head' },
    h('p', { class: 'kind-group', text: t(`group.${group}`) }),
    heading,
    h('p', { class: 'kind-help', text: t.tr(schema.help) }),
    copyLinkButton({ t, embed: !!app.embed, link: currentLink }));
  app.tocBox = h('nav', { class: 'kind-toc', 'aria-label': t('app.tocTitle') });
  app.tocBox.hidden = !!app.embed;
  head.append(app.tocBox);

  performance.mark('pe:kind-head');
  const controlsBox = parametersBox(kind);
  performance.mark('pe:controls');
  const viewsBox = h('div', { class: 'views', id: 'views' });
  main.replaceChildren(head, h('div', { class: 'kind-body' }, controlsBox, viewsBox));
  app.viewsBox = viewsBox;
  app.fitControls = () => controlsBox.classList.toggle('is-sticky', controlsBox.offsetHeight + 32 <= window.innerHeight);
  new ResizeObserver(() => app.fitControls()).observe(controlsBox);
  if (focus) heading.focus({ preventScroll: false });
  compute();
}

/** The parameters' box of `kind`: the loaded-table note, the fields, the general error, reset. */
function parametersBox(kind) {
  const { t } = app;
  const paramsTitle = h('h3', { id: 'params-title', class: 'box-title', text: t('app.parameters') });
  const fieldsBox = h('div');
  const generalError = h('p', { class: 'field-error general-error', id: 'general-error', role: 'status' });
  generalError.hidden = true;
  const reset = h('button', {
    type: 'button', class: 'button', text: t('app.reset'),
    on: {
      click: () => {
        app.specs[kind] = defaults(kind);
        app.controls.setValues(app.specs[kind]);
        schedule();
      },
    },
  });
  const loadedText = h('p', { class: 'loaded-text' });
  const loadedNote = h('div', { class: 'loaded-note', role: 'status' }, loadedText,
    h('button', { type: 'button', class: 'button', text: t('app.unload'), on: { click: () => clearResult() } }));
  loadedNote.hidden = true;
  const controlsBox = h('section', { class: 'controls box', 'aria-labelledby': 'params-title' },
    paramsTitle, loadedNote, fieldsBox, generalError, h('div', { class: 'controls-actions' }, reset));
  app.loadedUi = { note: loadedNote, text: loadedText, fields: fieldsBox, reset };
  app.controls = buildControls(fieldsBox, {
    fields: SCHEMA[kind].fields,
    spec: app.specs[kind],
    t,
    idPrefix: `f-${kind}`,
    schemas: SCHEMA,
    onChange: (values, path) => {
      app.specs[kind] = values;
      app.lastEdited = path;
      schedule();
    },
  });
  app.generalError = generalError;
  return controlsBox;
}

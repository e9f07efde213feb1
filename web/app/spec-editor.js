// The editor of a `spec` field: a nested spec of another kind (the attention's `encoding`), with
// a select of its kind, that kind's own controls and a JSON box for the whole value. Part of
// buildControls (web/app/controls.js); `form` is the form it belongs to.
import { h } from '../plot/dom.js';

/**
 * A nested spec of another kind (the attention's `encoding`): a select of the kind ("none" when
 * nullable), that kind's own controls built from its schema (the fields it inherits from the
 * enclosing spec, e.g. length and dim, are left out), and a JSON toggle for the whole value.
 * Fills control.set, control.box and control.nested (the inner handle, for errors and bounds).
 */
export function specEditor(form, control, { path, name, desc, id, labelText, describedBy, getParent, setValue }) {
  const { t, tr, schemas, compact } = form;
  // The JSON box keeps the field's own id (what links and tests address); the editor is beside it.
  const box = h('fieldset', { class: 'subfields spec-editor', id: `${id}-editor`, 'aria-describedby': describedBy });
  box.append(h('legend', { text: labelText }));
  const nullable = desc.nullable ?? desc.default === null;
  const kid = `${id}-kind`;
  const select = h('select', { id: kid, name: `${path}.kind` });
  if (nullable) select.append(h('option', { value: '', text: t('controls.none') }));
  for (const k of desc.kinds ?? Object.keys(schemas)) {
    if (schemas[k]) select.append(h('option', { value: k, text: tr(schemas[k].label) || k }));
  }
  const jsonToggle = h('button', { type: 'button', class: 'button spec-json-toggle', 'aria-pressed': 'false', 'aria-controls': id, text: t('controls.json') });
  box.append(h('label', { for: kid, class: 'sub-label', text: t('controls.specKind') }),
    h('div', { class: 'field-row' }, select, jsonToggle));
  const inner = h('div', { class: 'subfield-list spec-fields' });
  const jsonText = h('textarea', { id, name: path, rows: 4, spellcheck: 'false', class: 'json', 'aria-label': t('controls.jsonOf', labelText) });
  const jsonError = h('p', { class: 'field-error', role: 'status' });
  const jsonWrap = h('div', { class: 'spec-json' }, jsonText, jsonError);
  jsonWrap.hidden = true;
  jsonError.hidden = true;
  box.append(inner, jsonWrap);
  const current = () => getParent()?.[name];
  let builtKind = null;
  let nested = null;
  /** The kind's own fields, less those that follow the enclosing spec. */
  const ownFields = (kind) => {
    const schema = schemas[kind];
    const inherited = Object.keys(desc.inherit?.(kind, form.values(), schema) ?? {});
    return Object.fromEntries(Object.entries(schema.fields).filter(([k]) => k !== 'kind' && !inherited.includes(k)));
  };
  const build = (v) => {
    const kind = v?.kind && schemas[v.kind] ? v.kind : null;
    if (kind === builtKind && nested) {
      nested.setValues(v);
      return;
    }
    builtKind = kind;
    inner.replaceChildren();
    nested = null;
    if (!kind) return;
    nested = form.build(inner, {
      fields: ownFields(kind), spec: v, t, idPrefix: id, compact, schemas,
      onChange: (inner2, subPath) => {
        setValue({ kind, ...inner2 });
        showJson(current());
        form.emit(`${path}.${subPath}`);
      },
    });
    control.nested = nested;
  };
  control.nested = null;
  /** The JSON box follows every change, except while it is being typed in. */
  const showJson = (v) => {
    if (document.activeElement !== jsonText) jsonText.value = JSON.stringify(v ?? null);
  };
  select.addEventListener('input', () => {
    const kind = select.value || null;
    setValue(kind ? { kind, ...(desc.defaults?.(kind, form.values()) ?? {}) } : null);
    build(current());
    control.nested = nested;
    showJson(current());
    form.emit(`${path}.kind`);
  });
  jsonText.addEventListener('input', () => {
    let v;
    try {
      v = jsonText.value.trim() === '' ? null : JSON.parse(jsonText.value);
    } catch {
      jsonError.textContent = t('controls.jsonInvalid');
      jsonError.hidden = false;
      return;
    }
    jsonError.hidden = true;
    setValue(v);
    form.emit(path);
  });
  jsonToggle.addEventListener('click', () => {
    const json = jsonToggle.getAttribute('aria-pressed') !== 'true';
    jsonToggle.setAttribute('aria-pressed', String(json));
    if (json) jsonText.value = JSON.stringify(current() ?? null);
    else control.set(current());
    jsonWrap.hidden = !json;
    inner.hidden = json;
    select.disabled = json;
  });
  control.set = (v) => {
    select.value = v?.kind && schemas[v.kind] ? v.kind : (nullable ? '' : select.value);
    build(v);
    control.nested = nested;
    showJson(v);
  };
  control.box = box;
  return select;
}

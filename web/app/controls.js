// Controls generated from the spec schema (web/api/schema/index.js): one place holds each field's name,
// type, range, default, label and help; this module turns a kind's `fields` into labelled,
// keyboard-operable inputs and reports every change at once (there is no compute button).
//
//   const c = buildControls(container, { fields: SCHEMA.sinusoidal.fields, spec, t, idPrefix, onChange });
//   onChange(values, path)        values: the whole working spec (a fresh object), path: 'dim' or
//                                 'rope_scaling.factor'
//   c.showError('dim', message)   puts the message under that field (true if a field took it)
//   c.clearErrors(); c.setValues(spec); c.updateBounds(spec); c.values()
//
// Field types understood (descriptor keys as in web/api/schema/index.js):
//   int, number  a number box, plus a slider when min and max are finite (logarithmic when the
//                range spans three decades); a field whose default is null is optional: an empty
//                box leaves it out (the kernel's "auto")
//   enum         a select (values; optional valueLabels: { value: { en, ko } })
//   bool         a checkbox
//   object       a group of sub-fields (`fields`), each with the same descriptors. default null
//                (or nullable: true) makes it optional: a switch turns it on and off (null).
//                With `discriminator` (the name of an enum sub-field, e.g. rope_type), that
//                sub-field's select is the switch ("none" = null) and picking a value starts from
//                `examples[value]` (else the sub-fields' defaults); `variants[value]` = { required,
//                optional } lists which sub-fields show for it. A sub-field's own `when`
//                ({ other_sub_field: [allowed values] } or (object, spec) => boolean) also works.
//                Sub-fields that do not apply are left out of the value.
//   list         of numbers: a text box of comma-separated numbers (item: { type: 'int' | 'number' });
//                of objects: the JSON box
//   string       a text box (multiline: true for a text area)
//   spec         a nested spec of another kind (opts.schemas gives the kinds): a select of its
//                `kinds` ("none" when nullable) and that kind's own controls, less the fields
//                `inherit` takes from the enclosing spec; a JSON toggle shows the whole value.
//                Without opts.schemas, the JSON box.
//   anything else  a text box holding JSON

import { h } from '../plot/dom.js';
import { copyJSON } from '../model/json.js';
import { makeField } from './fields.js';

// The descriptor helpers and slider scales live in their own modules; this one still exports them.
export { fieldVisible, objectDefault } from './field-rules.js';
export { SLIDER_STEPS, sliderScale } from './slider-scale.js';

/**
 * Builds the controls of `fields` into `container`. Returns the handle described at the top.
 * opts: { fields, spec, t (translator), idPrefix, onChange(values, path), compact, schemas }
 */
export function buildControls(container, { fields, spec, t, idPrefix, onChange, compact = false, schemas = null }) {
  // The working spec: the controls write into it, and every change hands out a copy of it as JSON
  // (copyJSON: a number box that holds no number reads null there).
  let values = copyJSON(spec) ?? {};
  const controls = new Map(); // path → control
  const form = {
    t, tr: t.tr, compact, schemas, idPrefix, controls,
    values: () => values,
    emit: (path) => {
      follow(path);
      onChange(copyJSON(values), path);
    },
    build: buildControls,
  };

  const list = h('div', { class: 'field-list' });
  for (const [name, desc] of Object.entries(fields)) {
    const c = makeField(form, name, name, desc, () => values, (v) => {
      if (v === undefined) delete values[name];
      else values[name] = v;
    });
    list.append(c.wrap);
  }
  container.append(list);

  // Fields whose schema says they follow others (attention's length follows the words of its
  // text): set them, and their controls, after any change to another field.
  function follow(path) {
    for (const [name, desc] of Object.entries(fields)) {
      if (typeof desc.follows !== 'function' || path === name) continue;
      const v = desc.follows(values);
      if (v === undefined || v === values[name]) continue;
      values[name] = v;
      controls.get(name)?.set(v);
    }
  }

  function setValues(spec2) {
    values = copyJSON(spec2) ?? {};
    for (const [name] of Object.entries(fields)) controls.get(name).set(values[name]);
  }
  setValues(values);

  return {
    values: () => copyJSON(values),
    setValues,
    /** Shows msg at the field `param` names: 'a.b', 'a', or a sub-field's bare name. */
    showError(param, msg) {
      if (!param) return false;
      // A nested spec's own field ('encoding.base') shows at that field of its editor.
      const dot = String(param).indexOf('.');
      if (dot > 0) {
        const owner = controls.get(param.slice(0, dot));
        if (owner?.nested?.showError(param.slice(dot + 1), msg)) return true;
      }
      let c = controls.get(param);
      if (!c && param.includes('.')) c = controls.get(param.split('.')[0]);
      if (!c) {
        const matches = [...controls.keys()].filter((p) => p.endsWith(`.${param}`));
        if (matches.length === 1) c = controls.get(matches[0]);
      }
      if (!c) return false;
      c.setError(msg);
      // Make sure a hidden sub-field's message is seen: show it on its object instead.
      if (c.wrap.hidden && param.includes('.')) controls.get(param.split('.')[0])?.setError(msg);
      return true;
    },
    clearErrors() {
      for (const c of controls.values()) {
        c.setError(null);
        c.nested?.clearErrors();
      }
    },
    updateBounds(s) {
      for (const c of controls.values()) {
        c.updateBounds(s);
        if (c.nested && s?.[c.path] && typeof s[c.path] === 'object') c.nested.updateBounds({ ...s, ...s[c.path] });
      }
    },
    control: (path) => controls.get(path),
    paths: () => [...controls.keys()],
  };
}

// The field controls of buildControls (web/app/controls.js), one builder per field type: each takes
// the field (its form, path, descriptor, ids, label, wrapper, control, and how to read and write its
// value) and returns { input, set(value), extra }. `form`: { t, tr, compact, schemas, idPrefix,
// controls (path → control), values() (the whole working spec), emit(path), build (buildControls) }.
import { h } from '../plot/dom.js';
import { fieldVisible, isOptional, objectDefault, parseNumberList, subFieldsOf } from './field-rules.js';
import { SLIDER_STEPS, sliderScale } from './slider-scale.js';
import { specEditor } from './spec-editor.js';

const BUILDERS = {
  enum: enumField,
  bool: boolField,
  int: numberField,
  number: numberField,
  object: objectField,
  spec: specField,
  list: listField,
  string: stringField,
  named: namedField,
};

/**
 * The control of one field at `path` (its label, input, help and error line): `getParent()` is the
 * object holding it, `setValue(v)` writes it (undefined leaves it out). Registered in form.controls.
 */
export function makeField(form, path, name, desc, getParent, setValue) {
  const { tr, compact, idPrefix } = form;
  const id = `${idPrefix}-${path.replace(/\./g, '-')}`;
  const helpId = `${id}-help`;
  const errId = `${id}-error`;
  const labelText = tr(desc.label) || name;
  const wrap = h('div', { class: `field field-${desc.type ?? 'json'}`, 'data-field': path });
  const helpText = tr(desc.help);
  const help = helpText && !compact ? h('p', { class: 'help', id: helpId, text: helpText }) : null;
  const error = h('p', { class: 'field-error', id: errId, role: 'status' });
  error.hidden = true;
  const describedBy = [help ? helpId : null, errId].filter(Boolean).join(' ');
  const control = { path, wrap, desc };
  const f = { form, path, name, desc, id, labelText, describedBy, wrap, control, getParent, setValue };
  const { input, set, extra = null } = (BUILDERS[desc.type] ?? jsonField)(f);
  if (help) wrap.append(help);
  wrap.append(error);
  Object.assign(control, {
    input,
    extra,
    set,
    setError(msg) {
      // Cleared on every compute: no DOM write (and no style work) when nothing changes.
      if ((msg || '') === error.textContent && error.hidden === !msg) return;
      error.textContent = msg || '';
      error.hidden = !msg;
      wrap.classList.toggle('invalid', !!msg);
      if (input && input.setAttribute) {
        if (msg) input.setAttribute('aria-invalid', 'true');
        else input.removeAttribute('aria-invalid');
      }
    },
    updateBounds(s) {
      if (typeof desc.max === 'function' && input?.type === 'number') {
        try {
          const m = desc.max(s);
          if (Number.isFinite(m)) input.max = String(m);
        } catch { /* the spec is not valid enough to say */ }
      }
    },
  });
  form.controls.set(path, control);
  return control;
}

/** A JSON text box: the fallback for values no other control fits. */
function jsonField(f) {
  const { form, path, id, labelText, describedBy, wrap, control, setValue } = f;
  const box = h('textarea', { id, name: path, rows: 2, spellcheck: 'false', class: 'json', 'aria-describedby': describedBy });
  box.addEventListener('input', () => {
    let v;
    try {
      v = box.value.trim() === '' ? null : JSON.parse(box.value);
    } catch {
      control.setError(form.t('controls.jsonInvalid'));
      return;
    }
    control.setError(null);
    setValue(v);
    form.emit(path);
  });
  const set = (v) => { box.value = v === undefined || v === null ? '' : JSON.stringify(v); };
  wrap.append(h('label', { for: id, text: labelText }), h('div', { class: 'field-row' }, box));
  return { input: box, set };
}

/** enum: a select of the values (their valueLabels). */
function enumField(f) {
  const { form, path, desc, id, labelText, describedBy, wrap, setValue } = f;
  const input = h('select', { id, name: path, 'aria-describedby': describedBy });
  for (const v of desc.values) {
    input.append(h('option', { value: String(v), text: form.tr(desc.valueLabels?.[v]) || String(v) }));
  }
  input.addEventListener('input', () => {
    const raw = input.value;
    const v = desc.values.find((x) => String(x) === raw) ?? raw;
    setValue(v);
    form.emit(path);
  });
  const set = (v) => { input.value = String(v ?? desc.default ?? ''); };
  wrap.append(h('label', { for: id, text: labelText }), h('div', { class: 'field-row' }, input));
  return { input, set };
}

/** bool: a checkbox. */
function boolField(f) {
  const { form, path, desc, id, labelText, describedBy, wrap, setValue } = f;
  const input = h('input', { id, name: path, type: 'checkbox', 'aria-describedby': describedBy });
  input.addEventListener('input', () => {
    setValue(input.checked);
    form.emit(path);
  });
  const set = (v) => { input.checked = !!(v ?? desc.default); };
  wrap.append(h('div', { class: 'field-row field-check' }, input, h('label', { for: id, text: labelText })));
  return { input, set };
}

/** int and number: a number box, and a slider when the range is finite (web/app/slider-scale.js). */
function numberField(f) {
  const { form, path, desc, id, labelText, describedBy, wrap, control, setValue } = f;
  const { t } = form;
  const isInt = desc.type === 'int';
  const optional = isOptional(desc);
  const input = h('input', {
    id, name: path, type: 'number', inputmode: isInt ? 'numeric' : 'decimal', step: isInt ? 1 : 'any',
    'aria-describedby': describedBy, placeholder: optional ? t('controls.auto') : null,
  });
  if (typeof desc.min === 'number' && Number.isFinite(desc.min)) input.min = String(desc.min);
  if (typeof desc.max === 'number' && Number.isFinite(desc.max)) input.max = String(desc.max);
  const scale = sliderScale(desc);
  let slider = null;
  const row = h('div', { class: 'field-row' }, input);
  if (scale) {
    slider = h('input', {
      type: 'range', min: 0, max: SLIDER_STEPS, step: 1, class: scale.log ? 'log' : null,
      'aria-label': scale.log ? t('controls.logSlider', labelText) : t('controls.slider', labelText),
    });
    slider.addEventListener('input', () => {
      const v = scale.fromPos(Number(slider.value));
      input.value = String(v);
      slider.setAttribute('aria-valuetext', String(v));
      setValue(v);
      form.emit(path);
    });
    row.append(slider);
  }
  input.addEventListener('input', () => {
    let v = input.value.trim() === '' ? (optional ? undefined : NaN) : input.valueAsNumber;
    if (v !== undefined && Number.isNaN(v) && input.value.trim() !== '') v = Number(input.value);
    if (slider && Number.isFinite(v)) {
      slider.value = String(scale.toPos(v));
      slider.setAttribute('aria-valuetext', String(v));
    }
    setValue(v);
    form.emit(path);
  });
  const set = (v) => {
    // A field left out shows the default the kernel will use (blank for "auto").
    if (v === undefined && desc.default !== null && desc.default !== undefined && path.includes('.')) v = desc.default;
    input.value = v === undefined || v === null || Number.isNaN(v) ? '' : String(v);
    if (slider) {
      const sv = Number.isFinite(v) ? v : desc.default;
      if (Number.isFinite(sv)) {
        slider.value = String(scale.toPos(sv));
        slider.setAttribute('aria-valuetext', String(sv));
      }
    }
  };
  control.slider = slider;
  wrap.append(h('label', { for: id, text: labelText }), row);
  return { input, set };
}

/** object: a group of sub-fields, switched on and off (a checkbox, or its discriminator's select). */
function objectField(f) {
  const { form, path, name, desc, id, labelText, describedBy, wrap, control, getParent, setValue } = f;
  const { t, tr, compact } = form;
  const subFields = subFieldsOf(desc);
  const nullable = desc.nullable ?? desc.default === null;
  const disc = desc.discriminator && subFields[desc.discriminator]?.type === 'enum' ? desc.discriminator : null;
  const box = h('fieldset', { class: 'subfields', id, 'aria-describedby': describedBy });
  box.append(h('legend', { text: labelText }));
  let head = null; // the switch: a checkbox, or (with a discriminator) a select with "none"
  const obj = () => getParent()?.[name];
  if (disc) {
    // One select picks the variant, or none (null) when the object is optional.
    const sub = subFields[disc];
    const sid = `${id}-${disc}`;
    head = h('select', { id: sid, name: `${path}.${disc}` });
    if (nullable) head.append(h('option', { value: '', text: t('controls.none') }));
    for (const v of sub.values) head.append(h('option', { value: String(v), text: tr(sub.valueLabels?.[v]) || String(v) }));
    head.addEventListener('input', () => {
      const type = sub.values.find((v) => String(v) === head.value);
      setValue(type === undefined ? null : objectDefault(desc, form.values(), type));
      set(obj());
      form.emit(`${path}.${disc}`);
    });
    box.append(h('label', { for: sid, class: 'sub-label', text: tr(sub.label) || disc }), h('div', { class: 'field-row' }, head));
    const subHelp = tr(sub.help);
    if (subHelp && !compact) box.append(h('p', { class: 'help', text: subHelp }));
  } else if (nullable) {
    const tid = `${id}--enabled`;
    head = h('input', { id: tid, type: 'checkbox', name: `${path}.enabled` });
    head.addEventListener('input', () => {
      setValue(head.checked ? objectDefault(desc, form.values()) : null);
      set(obj());
      form.emit(path);
    });
    box.append(h('div', { class: 'field-row field-check' }, head,
      h('label', { for: tid, text: t('controls.enable', labelText) })));
  }
  const inner = h('div', { class: 'subfield-list' });
  box.append(inner);
  const subControls = [];
  for (const [subName, sub] of Object.entries(subFields)) {
    if (subName === disc) continue;
    const sc = makeField(form, `${path}.${subName}`, subName, sub, obj, (v) => {
      const o = obj() ?? {};
      if (v === undefined) delete o[subName];
      else o[subName] = v;
      getParent()[name] = o;
      refresh(); // a `when` may depend on this sub-field
    });
    subControls.push({ name: subName, sub, sc });
    inner.append(sc.wrap);
  }
  const refresh = () => {
    const o = obj();
    const on = o !== null && o !== undefined;
    if (head?.type === 'checkbox') head.checked = on;
    else if (head) head.value = on ? String(o[disc] ?? '') : '';
    inner.hidden = !on || !subControls.length;
    for (const { name: sn, sub, sc } of subControls) {
      const visible = on && fieldVisible(sn, sub, desc, o, form.values());
      sc.wrap.hidden = !visible;
      if (on && !visible) delete o[sn];
    }
  };
  const set = (v) => {
    for (const { name: sn, sc } of subControls) sc.set(v?.[sn]);
    refresh();
  };
  control.subControls = subControls;
  wrap.append(box);
  return { input: head ?? subControls[0]?.sc.input ?? box, set, extra: box };
}

/**
 * named (e.g. rope_precision's recipe): a select of the presets and "custom", and under "custom"
 * one select per sub-field. The value is a preset's name or the object of the sub-fields.
 */
function namedField(f) {
  const { form, path, name, desc, id, labelText, describedBy, wrap, getParent, setValue } = f;
  const { t, tr, compact } = form;
  const CUSTOM = '';
  const presets = Object.keys(desc.presets);
  const input = h('select', { id, name: path, 'aria-describedby': describedBy });
  for (const v of presets) input.append(h('option', { value: v, text: tr(desc.valueLabels?.[v]) || v }));
  input.append(h('option', { value: CUSTOM, text: t('controls.custom') }));
  const box = h('div', { class: 'subfield-list' });
  const obj = () => getParent()?.[name];
  const subControls = Object.entries(desc.fields).map(([subName, sub]) => {
    const sc = makeField(form, `${path}.${subName}`, subName, sub, () => (typeof obj() === 'object' ? obj() : null), (v) => {
      const o = obj();
      setValue({ ...(typeof o === 'object' && o !== null ? o : desc.presets[o ?? desc.default]), [subName]: v });
    });
    box.append(sc.wrap);
    return { subName, sc };
  });
  const show = (v) => {
    const custom = typeof v === 'object' && v !== null;
    input.value = custom ? CUSTOM : String(v ?? desc.default);
    box.hidden = !custom;
    // Under "custom" the sub-selects start from the preset that was chosen before.
    const from = custom ? v : desc.presets[v ?? desc.default];
    for (const { subName, sc } of subControls) sc.set(from?.[subName]);
  };
  input.addEventListener('input', () => {
    if (input.value === CUSTOM) {
      const from = obj() ?? desc.default;
      setValue({ ...(typeof from === 'string' ? desc.presets[from] : from) });
    } else setValue(input.value);
    show(obj());
    form.emit(path);
  });
  if (compact) box.classList.add('compact');
  wrap.append(h('label', { for: id, text: labelText }), h('div', { class: 'field-row' }, input), box);
  return { input, set: show, extra: box };
}

/** spec: a nested spec of another kind (web/app/spec-editor.js), or the JSON box without schemas. */
function specField(f) {
  const { form, path, name, desc, id, labelText, describedBy, wrap, control, getParent, setValue } = f;
  if (!form.schemas) return jsonField(f);
  const input = specEditor(form, control, { path, name, desc, id, labelText, describedBy, getParent, setValue });
  wrap.append(control.box);
  return { input, set: control.set, extra: control.box };
}

/** list: of numbers, a text box of comma-separated numbers; of objects, the JSON box. */
function listField(f) {
  const { form, path, desc, id, labelText, describedBy, wrap, control, setValue } = f;
  // A list of numbers (M-RoPE's mrope_section) is typed as "16, 24, 24"; a list of objects
  // (segments) keeps the JSON box below, and has its own editor in its family's view.
  if (!['int', 'number'].includes(desc.item?.type)) return jsonField(f);
  const isInt = desc.item.type === 'int';
  const input = h('input', { id, name: path, type: 'text', autocomplete: 'off', spellcheck: 'false', 'aria-describedby': describedBy });
  input.addEventListener('input', () => {
    const r = parseNumberList(input.value, isInt);
    if (r.bad !== undefined) {
      control.setError(form.t('controls.listInvalid', r.bad));
      return;
    }
    control.setError(null);
    setValue(r.value);
    form.emit(path);
  });
  const set = (v) => { input.value = Array.isArray(v) ? v.join(', ') : ''; };
  wrap.append(h('label', { for: id, text: labelText }), h('div', { class: 'field-row' }, input));
  return { input, set };
}

/** string: a text box (a text area when multiline). */
function stringField(f) {
  const { form, path, desc, id, labelText, describedBy, wrap, setValue } = f;
  const input = desc.multiline
    ? h('textarea', { id, name: path, rows: 3, spellcheck: 'false', 'aria-describedby': describedBy })
    : h('input', { id, name: path, type: 'text', autocomplete: 'off', 'aria-describedby': describedBy });
  input.addEventListener('input', () => {
    setValue(input.value === '' && isOptional(desc) ? null : input.value);
    form.emit(path);
  });
  const set = (v) => { input.value = v ?? ''; };
  wrap.append(h('label', { for: id, text: labelText }), h('div', { class: 'field-row' }, input));
  return { input, set };
}

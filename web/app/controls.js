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

// ---------------------------------------------------------------------------------------------
// Slider scales derived from a field's range

function roundSig(v, digits) {
  if (v === 0 || !Number.isFinite(v)) return v;
  const p = 10 ** (digits - Math.ceil(Math.log10(Math.abs(v))));
  return Math.round(v * p) / p;
}

/** Snap to a round value (1, 2, 2.5, 5 × 10^k; powers of two for integers) within `tol`. */
function snapRound(v, isInt, tol) {
  if (!(v > 0)) return v;
  const k = Math.floor(Math.log10(v));
  const cands = [];
  for (const e of [k, k + 1]) for (const m of [1, 2, 2.5, 5]) cands.push(m * 10 ** e);
  if (isInt) cands.push(2 ** Math.round(Math.log2(v)));
  let best = v;
  let err = tol;
  for (const c of cands) {
    const e = Math.abs(c - v) / v;
    if (e < err) {
      err = e;
      best = c;
    }
  }
  return best;
}

export const SLIDER_STEPS = 1000;

/** Slider position [0, SLIDER_STEPS] ↔ value, or null when the field has no fixed finite range. */
export function sliderScale(desc) {
  if (desc.type !== 'int' && desc.type !== 'number') return null;
  const { min, max } = desc;
  if (typeof min !== 'number' || typeof max !== 'number' || !Number.isFinite(min) || !Number.isFinite(max)) return null;
  if (!(max > min)) return null;
  const isInt = desc.type === 'int';
  if (min >= 0 && max / Math.max(min, 1) >= 1000) {
    const shift = min > 0 ? 0 : 1;
    let lo = Math.log10(min + shift);
    const hi = Math.log10(max + shift);
    if (desc.exclusiveMin) lo += (hi - lo) / SLIDER_STEPS;
    return {
      log: true,
      toPos: (v) => ((Math.log10(Math.max(v + shift, 1e-300)) - lo) / (hi - lo)) * SLIDER_STEPS,
      fromPos: (p) => {
        let v = 10 ** (lo + (p / SLIDER_STEPS) * (hi - lo)) - shift;
        if (isInt) {
          v = Math.round(v);
          if (v >= 100) v = snapRound(v, true, 0.02);
        } else {
          v = snapRound(roundSig(v, 3), false, 0.03);
        }
        v = Math.min(max, Math.max(min, v));
        if (desc.exclusiveMin && v <= min) v = roundSig(10 ** lo - shift, 3);
        return v;
      },
    };
  }
  return {
    log: false,
    toPos: (v) => ((v - min) / (max - min)) * SLIDER_STEPS,
    fromPos: (p) => {
      let v = min + (p / SLIDER_STEPS) * (max - min);
      v = isInt ? Math.round(v) : roundSig(v, 3);
      return Math.min(max, Math.max(min, v));
    },
  };
}

// ---------------------------------------------------------------------------------------------

const clone = (v) => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)));
const isOptional = (desc) => desc.default === null && !desc.required;

const subFieldsOf = (desc) => desc.fields ?? desc.properties ?? {};

/**
 * Whether sub-field `name` applies to the current value of its object: its own `when`, or the
 * object's `variants` (a discriminator value → { required, optional } lists of sub-fields).
 */
export function fieldVisible(name, desc, parent, object, spec) {
  const w = desc.when;
  if (typeof w === 'function') return !!w(object ?? {}, spec);
  if (w) {
    return Object.entries(w).every(([k, allowed]) =>
      (Array.isArray(allowed) ? allowed.includes(object?.[k]) : object?.[k] === allowed));
  }
  const disc = parent?.discriminator;
  if (disc && parent.variants && object) {
    if (name === disc) return true;
    const variant = parent.variants[object[disc]];
    if (variant) return [...(variant.required ?? []), ...(variant.optional ?? [])].includes(name);
  }
  return true;
}

/**
 * The value an object field takes when switched on, or when its discriminator becomes `type`:
 * the schema's example for that type if it has one, else the sub-fields' defaults; either way
 * with the defaults of every other sub-field that applies, and nothing that does not.
 */
export function objectDefault(desc, spec, type) {
  const fields = subFieldsOf(desc);
  const disc = desc.discriminator;
  const chosen = type ?? (disc ? fields[disc]?.default : undefined);
  let obj = disc && desc.examples?.[chosen] ? clone(desc.examples[chosen]) : null;
  if (!obj) {
    obj = {};
    if (disc && chosen !== undefined) obj[disc] = chosen;
  }
  for (const [name, sub] of Object.entries(fields)) {
    if (obj[name] === undefined && sub.default !== null && sub.default !== undefined) obj[name] = clone(sub.default);
  }
  for (const [name, sub] of Object.entries(fields)) {
    if (!fieldVisible(name, sub, desc, obj, spec)) delete obj[name];
  }
  return obj;
}

function parseNumberList(text, isInt) {
  const parts = text.replace(/^\s*\[|\]\s*$/g, '').split(/[\s,;]+/).filter(Boolean);
  const out = [];
  for (const p of parts) {
    const n = Number(p);
    if (!Number.isFinite(n) || (isInt && !Number.isInteger(n))) return { bad: p };
    out.push(n);
  }
  return { value: out };
}

/**
 * Builds the controls of `fields` into `container`. Returns the handle described at the top.
 * opts: { fields, spec, t (translator), idPrefix, onChange(values, path), compact }
 */
export function buildControls(container, { fields, spec, t, idPrefix, onChange, compact = false, schemas = null }) {
  let values = clone(spec) ?? {};
  const controls = new Map(); // path → control
  const tr = t.tr;

  function emit(path) {
    onChange(clone(values), path);
  }

  /**
   * A nested spec of another kind (the attention's `encoding`): a select of the kind ("none" when
   * nullable), that kind's own controls built from its schema (the fields it inherits from the
   * enclosing spec, e.g. length and dim, are left out), and a JSON toggle for the whole value.
   * Fills control.set, control.box and control.nested (the inner handle, for errors and bounds).
   */
  function specEditor(control, { path, name, desc, id, labelText, describedBy, getParent, setValue }) {
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
      const inherited = Object.keys(desc.inherit?.(kind, values, schema) ?? {});
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
      nested = buildControls(inner, {
        fields: ownFields(kind), spec: v, t, idPrefix: id, compact, schemas,
        onChange: (inner2, subPath) => {
          setValue({ kind, ...inner2 });
          showJson(current());
          emit(`${path}.${subPath}`);
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
      setValue(kind ? { kind, ...(desc.defaults?.(kind, values) ?? {}) } : null);
      build(current());
      control.nested = nested;
      showJson(current());
      emit(`${path}.kind`);
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
      emit(path);
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

  function makeField(path, name, desc, getParent, setValue) {
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
    let input;
    let set; // (value) → show value
    let extra = null; // a nested container (objects)
    const control = { path, wrap, desc };
    /** A JSON text box: the fallback for values no other control fits. */
    const jsonBox = () => {
      const box = h('textarea', { id, name: path, rows: 2, spellcheck: 'false', class: 'json', 'aria-describedby': describedBy });
      box.addEventListener('input', () => {
        let v;
        try {
          v = box.value.trim() === '' ? null : JSON.parse(box.value);
        } catch {
          control.setError(t('controls.jsonInvalid'));
          return;
        }
        control.setError(null);
        setValue(v);
        emit(path);
      });
      set = (v) => { box.value = v === undefined || v === null ? '' : JSON.stringify(v); };
      wrap.append(h('label', { for: id, text: labelText }), h('div', { class: 'field-row' }, box));
      return box;
    };

    switch (desc.type) {
      case 'enum': {
        input = h('select', { id, name: path, 'aria-describedby': describedBy });
        for (const v of desc.values) {
          input.append(h('option', { value: String(v), text: tr(desc.valueLabels?.[v]) || String(v) }));
        }
        input.addEventListener('input', () => {
          const raw = input.value;
          const v = desc.values.find((x) => String(x) === raw) ?? raw;
          setValue(v);
          emit(path);
        });
        set = (v) => { input.value = String(v ?? desc.default ?? ''); };
        wrap.append(h('label', { for: id, text: labelText }), h('div', { class: 'field-row' }, input));
        break;
      }
      case 'bool': {
        input = h('input', { id, name: path, type: 'checkbox', 'aria-describedby': describedBy });
        input.addEventListener('input', () => {
          setValue(input.checked);
          emit(path);
        });
        set = (v) => { input.checked = !!(v ?? desc.default); };
        wrap.append(h('div', { class: 'field-row field-check' }, input, h('label', { for: id, text: labelText })));
        break;
      }
      case 'int':
      case 'number': {
        const isInt = desc.type === 'int';
        const optional = isOptional(desc);
        input = h('input', {
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
            emit(path);
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
          emit(path);
        });
        set = (v) => {
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
        break;
      }
      case 'object': {
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
            setValue(type === undefined ? null : objectDefault(desc, values, type));
            set(obj());
            emit(`${path}.${disc}`);
          });
          box.append(h('label', { for: sid, class: 'sub-label', text: tr(sub.label) || disc }), h('div', { class: 'field-row' }, head));
          const subHelp = tr(sub.help);
          if (subHelp && !compact) box.append(h('p', { class: 'help', text: subHelp }));
        } else if (nullable) {
          const tid = `${id}--enabled`;
          head = h('input', { id: tid, type: 'checkbox', name: `${path}.enabled` });
          head.addEventListener('input', () => {
            setValue(head.checked ? objectDefault(desc, values) : null);
            set(obj());
            emit(path);
          });
          box.append(h('div', { class: 'field-row field-check' }, head,
            h('label', { for: tid, text: t('controls.enable', labelText) })));
        }
        const inner = h('div', { class: 'subfield-list' });
        box.append(inner);
        const subControls = [];
        for (const [subName, sub] of Object.entries(subFields)) {
          if (subName === disc) continue;
          const sc = makeField(`${path}.${subName}`, subName, sub, obj, (v) => {
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
            const visible = on && fieldVisible(sn, sub, desc, o, values);
            sc.wrap.hidden = !visible;
            if (on && !visible) delete o[sn];
          }
        };
        set = (v) => {
          for (const { name: sn, sc } of subControls) sc.set(v?.[sn]);
          refresh();
        };
        control.subControls = subControls;
        input = head ?? subControls[0]?.sc.input ?? box;
        wrap.append(box);
        extra = box;
        break;
      }
      case 'spec': {
        if (!schemas) {
          input = jsonBox();
          break;
        }
        input = specEditor(control, { path, name, desc, id, labelText, describedBy, getParent, setValue });
        set = control.set;
        extra = control.box;
        wrap.append(control.box);
        break;
      }
      case 'list': {
        // A list of numbers (M-RoPE's mrope_section) is typed as "16, 24, 24"; a list of objects
        // (segments) keeps the JSON box below, and has its own editor in its family's view.
        if (!['int', 'number'].includes(desc.item?.type)) {
          input = jsonBox();
          break;
        }
        const isInt = desc.item.type === 'int';
        input = h('input', { id, name: path, type: 'text', autocomplete: 'off', spellcheck: 'false', 'aria-describedby': describedBy });
        input.addEventListener('input', () => {
          const r = parseNumberList(input.value, isInt);
          if (r.bad !== undefined) {
            control.setError(t('controls.listInvalid', r.bad));
            return;
          }
          control.setError(null);
          setValue(r.value);
          emit(path);
        });
        set = (v) => { input.value = Array.isArray(v) ? v.join(', ') : ''; };
        wrap.append(h('label', { for: id, text: labelText }), h('div', { class: 'field-row' }, input));
        break;
      }
      case 'string': {
        input = desc.multiline
          ? h('textarea', { id, name: path, rows: 3, spellcheck: 'false', 'aria-describedby': describedBy })
          : h('input', { id, name: path, type: 'text', autocomplete: 'off', 'aria-describedby': describedBy });
        input.addEventListener('input', () => {
          setValue(input.value === '' && isOptional(desc) ? null : input.value);
          emit(path);
        });
        set = (v) => { input.value = v ?? ''; };
        wrap.append(h('label', { for: id, text: labelText }), h('div', { class: 'field-row' }, input));
        break;
      }
      default:
        input = jsonBox();
    }
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
    controls.set(path, control);
    return control;
  }

  const list = h('div', { class: 'field-list' });
  for (const [name, desc] of Object.entries(fields)) {
    const c = makeField(name, name, desc, () => values, (v) => {
      if (v === undefined) delete values[name];
      else values[name] = v;
    });
    list.append(c.wrap);
  }
  container.append(list);

  function setValues(spec2) {
    values = clone(spec2) ?? {};
    for (const [name] of Object.entries(fields)) controls.get(name).set(values[name]);
  }
  setValues(values);

  return {
    values: () => clone(values),
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

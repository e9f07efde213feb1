// The spec schema: the one place where every kind's fields, types, defaults, ranges and help
// text live. The JS API validates against it, the page builds its controls from it, and later
// the URL, the web component and code export read it too. One file per encoding family in
// web/api/schema/, merged here.
//
// A kind:  { group, label {en, ko}, help {en, ko}, fields: { name: descriptor }, shape(spec) }
// A field descriptor:
//   type     'int' | 'number' | 'enum' | 'bool' | 'object' (a nested object with its own
//            fields, selected by a discriminator sub-field: see checkObject in web/api/spec.js)
//            | 'list' | 'string' (maxLength) | 'spec' (a nested spec of another kind, validated
//            by that kind's schema: see checkNestedSpec in web/api/spec.js) | 'named' (the name
//            of one of `presets`, kept as the name, or an object giving every one of its
//            `fields`, e.g. rope_precision's recipe: see checkNamed in web/api/spec.js)
//   nullable true when null is allowed (and means "not set")
//   rule     a few words appended to the allowed range in messages ("at most beta_fast")
//   default  the value `defaults(kind)` fills in (for required fields: the explorer's start value)
//   required true when `compute` refuses a spec that leaves the field out
//   min, max inclusive bounds ('int', 'number'); either may be a function of the (validated
//            earlier) fields of the spec; no max means no upper bound
//   exclusiveMin true when min itself is not allowed
//   values   allowed strings ('enum')
//   presets  { name: object } ('named'); valueLabels: { value: { en, ko } } names values or presets
//   label, help   short UI texts ({ en, ko })
import sinusoidal from './sinusoidal.js';
import vision from './vision.js';
import mrope from './mrope.js';
import rope from './rope.js';
import precision from './precision.js';
import absolute from './absolute.js';
import relative from './relative.js';
import attention from './attention.js';

export { PE_MAX_ELEMENTS, PE_MAX_POSITION, PE_MAX_LENGTH, PE_MAX_DIM } from './limits.js';

export const SCHEMA = {
  ...sinusoidal,
  ...vision,
  ...mrope,
  ...rope,
  ...precision,
  ...absolute,
  ...relative,
  ...attention,
};

export const KINDS = Object.keys(SCHEMA);

// Slider scales derived from a number field's range: linear, or logarithmic when the range spans
// three decades; slider positions snap to round values (1, 2, 2.5, 5 × 10^k; powers of two for
// integers).

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

// Exports of the current tensor and figure:
//
//   toNpy(data, shape)       → Uint8Array, NPY format v1.0, dtype '<f4', C order (numpy.load)
//   toCsv(data, shape, note) → string: one line per row of the last axis (leading axes flattened,
//                              in C order), a '# …' first line (numpy.loadtxt and pandas skip it),
//                              values as the shortest decimal that reads back as the same float32
//                              (inf, -inf, nan as NumPy writes them)
//   fileStem(spec)           → a file name for a spec: "rope-dim64-length256"
//   download(blob, name)     → saves a file (browser)
//   copyText(text)           → Promise<boolean>: the clipboard, with a fallback (browser)
//   canvasBlob(canvas) / svgToPng(svgText, w, h, scale) → PNG blobs (browser)
// The DOM-free functions run in Node too (tests/codegen.test.js reads the .npy with NumPy).

/** The NPY v1.0 header for a little-endian float32 C-order array of `shape`. */
export function npyHeader(shape) {
  const dims = shape.map((d) => String(d));
  const tuple = dims.length === 1 ? `(${dims[0]},)` : `(${dims.join(', ')})`;
  let dict = `{'descr': '<f4', 'fortran_order': False, 'shape': ${tuple}, }`;
  // magic (6) + version (2) + header length (2) + dict + padding + '\n' ≡ 0 (mod 64)
  const total = 10 + dict.length + 1;
  dict += ' '.repeat((64 - (total % 64)) % 64) + '\n';
  const out = new Uint8Array(10 + dict.length);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0], 0); // \x93NUMPY, version 1.0
  out[8] = dict.length & 0xff;
  out[9] = dict.length >> 8;
  for (let i = 0; i < dict.length; i++) out[10 + i] = dict.charCodeAt(i);
  return out;
}

/** data (Float32Array, row-major) of `shape` as the bytes of a .npy file. */
export function toNpy(data, shape) {
  const count = shape.reduce((a, b) => a * b, 1);
  if (count !== data.length) throw new Error(`toNpy: shape [${shape}] has ${count} values, data has ${data.length}`);
  const head = npyHeader(shape);
  const out = new Uint8Array(head.length + data.length * 4);
  out.set(head, 0);
  const view = new DataView(out.buffer, head.length);
  for (let i = 0; i < data.length; i++) view.setFloat32(i * 4, data[i], true);
  return out;
}

/** The shortest decimal that reads back as the same float32 (NumPy's spelling of inf and nan). */
export function csvNumber(v) {
  if (Number.isInteger(v) && Math.abs(v) < 1e15) return Object.is(v, -0) ? '-0' : String(v);
  if (v !== v) return 'nan';
  if (v === Infinity) return 'inf';
  if (v === -Infinity) return '-inf';
  for (let p = 6; p <= 9; p++) {
    const x = Number(v.toPrecision(p));
    if (Math.fround(x) === v) return String(x).replace('e+', 'e');
  }
  return String(v);
}

/** The tensor as CSV text: rows of the last axis, leading axes flattened in C order. */
export function toCsv(data, shape, note = '') {
  const cols = shape.length ? shape[shape.length - 1] : data.length;
  const rows = cols ? data.length / cols : 0;
  const parts = [`# shape ${shape.join('x')}${note ? `; ${note.replace(/[\r\n]+/g, ' ')}` : ''}\n`];
  for (let r = 0; r < rows; r++) {
    const line = new Array(cols);
    for (let c = 0; c < cols; c++) line[c] = csvNumber(data[r * cols + c]);
    parts.push(`${line.join(',')}\n`);
  }
  return parts.join('');
}

/** A short file name for a spec: kind and the fields that differ from the defaults. */
export function fileStem(spec, defaults = {}) {
  const bits = [spec.kind];
  for (const [k, v] of Object.entries(spec)) {
    if (k === 'kind' || v === null || typeof v === 'object' || JSON.stringify(v) === JSON.stringify(defaults[k])) continue;
    bits.push(`${k.replace(/_/g, '')}${String(v)}`);
    if (bits.length > 5) break;
  }
  return bits.join('-').replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80);
}

// ---------------------------------------------------------------------------------------------
// Browser helpers

/** Saves `blob` as a file called `name` (an <a download> click on a blob: URL). */
export function download(blob, name) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Copies text to the clipboard: the async Clipboard API, else a selected textarea. */
export async function copyText(text) {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch { /* not allowed here: fall back */ }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.className = 'sr-only';
  document.body.append(area);
  area.select();
  let ok = false;
  try {
    ok = document.execCommand('copy');
  } catch {
    ok = false;
  }
  area.remove();
  return ok;
}

/** A canvas as a PNG blob. */
export function canvasBlob(canvas) {
  return new Promise((resolve, reject) => {
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('could not encode the PNG'))), 'image/png');
  });
}

/** SVG text rendered to a PNG blob (width × height CSS pixels, times scale). */
export async function svgToPng(svgText, width, height, scale = 2) {
  const url = URL.createObjectURL(new Blob([svgText], { type: 'image/svg+xml' }));
  try {
    const img = new Image();
    img.width = width;
    img.height = height;
    await new Promise((resolve, reject) => {
      img.onload = resolve;
      img.onerror = () => reject(new Error('could not draw the SVG'));
      img.src = url;
    });
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(width * scale);
    canvas.height = Math.round(height * scale);
    const ctx = canvas.getContext('2d');
    ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
    return canvasBlob(canvas);
  } finally {
    URL.revokeObjectURL(url);
  }
}

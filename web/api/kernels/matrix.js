// pe.loadMatrix(bytes, { name }): a user's 2-D table from a .npy or .safetensors file, read by the
// C parsers in c/npy.c and c/safetensors.c behind c/matrix.c (every length, offset and value is
// validated there).
//
// Only the header and the chosen table's bytes are copied into WebAssembly memory, never a whole
// checkpoint: the header is parsed from the first 64 KiB (or as much more as it needs, up to the
// 100 MB safetensors limit), then the table's byte range is converted to float32.
//
// The result is shaped like compute's, so the views take it directly:
//   { data: Float32Array [rows·cols], shape: [rows, cols], dtype: 'float32' | 'float64' |
//     'float16' | 'bfloat16', format: 'npy' | 'safetensors', name (safetensors), kind: 'learned' }
// There is no `spec`: a loaded table cannot be recomputed from one.
import { PEError, describe } from '../spec.js';

export const MATRIX_ERROR = 300;   // PE_ERR_MATRIX
export const NEED_MORE = 301;      // PE_MATRIX_NEED_MORE
// Entries of the info array (c/matrix.h, PE_MI_*).
export const MI = {
  FORMAT: 0, DTYPE: 1, BIG_ENDIAN: 2, FORTRAN: 3, ROWS: 4, COLS: 5, BEGIN: 6, END: 7, NEED: 8,
  TENSORS: 9, ERROR_FIELD: 11, NAMES: 14, COUNT: 16,
};
export const ERROR_FIELD_NAME = 2;
export const DTYPES = { 1: 'float32', 2: 'float64', 3: 'float16', 4: 'bfloat16' };
export const FORMATS = { 1: 'npy', 2: 'safetensors' };
const FIRST_READ = 65536;
const MESSAGE_BYTES = 512;
const NAME_LIST_BYTES = 65536;
const NAMES_SHOWN = 20;
const OPTIONS = ['name'];

const PARSE_ARGS = ['info', 'message', 'message_cap', 'bytes', 'size', 'file_size', 'name', 'name_len'];
const NAMES_ARGS = ['names', 'capacity', 'info', 'message', 'message_cap', 'bytes', 'size', 'file_size'];
const CONVERT_ARGS = ['data', 'info', 'message', 'message_cap', 'bytes', 'size', 'dtype', 'big_endian', 'fortran', 'rows', 'cols'];

const decoder = new TextDecoder();
const cString = (bytes) => {
  const end = bytes.indexOf(0);
  return decoder.decode(end < 0 ? bytes : bytes.subarray(0, end));
};

function asBytes(bytes) {
  try {
    if (bytes instanceof ArrayBuffer || (typeof SharedArrayBuffer === 'function' && bytes instanceof SharedArrayBuffer)) {
      return new Uint8Array(bytes);
    }
    if (ArrayBuffer.isView(bytes)) return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  } catch (e) {
    // A buffer transferred to a worker (detached) can no longer be viewed.
    throw new PEError('bytes', `bytes could not be read (${e?.message ?? e}): was the buffer transferred to a worker?`);
  }
  throw new PEError('bytes', `bytes must be an ArrayBuffer or a typed array (a Uint8Array, a Node Buffer…) holding a .npy or .safetensors file, got ${describe(bytes)}`);
}

function checkOptions(options) {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object' || Array.isArray(options)) {
    throw new PEError('options', `options must be an object like { name: "wpe.weight" }, got ${describe(options)}`);
  }
  for (const key of Object.keys(options)) {
    if (!OPTIONS.includes(key)) throw new PEError(key, `unknown option "${key}" for loadMatrix; its options are ${OPTIONS.join(', ')}`);
  }
  if (options.name !== undefined && typeof options.name !== 'string') {
    throw new PEError('name', `name must be a string, the name of a tensor in a .safetensors file (e.g. "wpe.weight"), got ${describe(options.name)}`);
  }
  return options;
}

// Runs one C call whose status is reported, not thrown, so its message and info come back.
function call(context, args, io, fn) {
  const k = context(args);
  let status = 0;
  const out = k.run(io, (p) => {
    status = fn(k.wasm, p);
    return 0;
  });
  if (status !== 0 && status !== MATRIX_ERROR && status !== NEED_MORE) {
    throw new PEError('bytes', `loadMatrix: unexpected kernel status ${status}`);   // a bug, not the file
  }
  return { status, ...out };
}

const messageIo = { info: { count: MI.COUNT, type: Float64Array }, message: { count: MESSAGE_BYTES, type: Uint8Array } };

function parse(context, head, fileSize, name) {
  return call(context, PARSE_ARGS, { inputs: { head, name: name ?? new Uint8Array(0) }, outputs: messageIo },
    (w, p) => w.pe_matrix_parse(p.info, p.message, MESSAGE_BYTES, p.head, head.length, fileSize, p.name, name ? name.length : -1));
}

/** The tensor names of a safetensors file whose header lies within `head`. */
function tensorNames(context, head, fileSize) {
  const r = call(context, NAMES_ARGS,
    { inputs: { head }, outputs: { ...messageIo, names: { count: NAME_LIST_BYTES, type: Uint8Array } } },
    (w, p) => w.pe_matrix_names(p.names, NAME_LIST_BYTES, p.info, p.message, MESSAGE_BYTES, p.head, head.length, fileSize));
  if (r.status !== 0) return { names: [], total: 0 };
  const names = [];
  let start = 0;
  for (let k = 0; k < r.info[MI.NAMES]; k++) {
    const end = r.names.indexOf(0, start);
    names.push(decoder.decode(r.names.subarray(start, end)));
    start = end + 1;
  }
  return { names, total: r.info[MI.TENSORS] };
}

/**
 * Reads a 2-D float table from a .npy (v1/v2/v3, float32/float64/float16, either byte order, C or
 * Fortran order) or .safetensors file (F32/F64/F16/BF16; options.name picks the tensor, optional
 * when the file holds one). Throws PEError: param 'bytes' for a bad file, 'name' for a missing or
 * unknown tensor name (the message lists the names; error.names holds them).
 */
export function loadMatrix(context, bytes, options) {
  const input = asBytes(bytes);
  const { name } = checkOptions(options);
  const nameBytes = name === undefined ? null : new TextEncoder().encode(name);

  let head = input.subarray(0, Math.min(input.length, FIRST_READ));
  let r = parse(context, head, input.length, nameBytes);
  for (let tries = 0; r.status === NEED_MORE && tries < 3; tries++) {
    const need = r.info[MI.NEED];
    if (!(need > head.length && need <= input.length)) break;
    head = input.subarray(0, need);
    r = parse(context, head, input.length, nameBytes);
  }
  if (r.status === NEED_MORE) throw new PEError('bytes', 'loadMatrix: the header could not be read');
  if (r.status !== 0) {
    const message = cString(r.message);
    if (r.info[MI.ERROR_FIELD] !== ERROR_FIELD_NAME) throw new PEError('bytes', message);
    const { names, total } = tensorNames(context, head, input.length);
    const shown = names.slice(0, NAMES_SHOWN).map((n) => JSON.stringify(n)).join(', ');
    const more = total > NAMES_SHOWN ? ` (and ${total - NAMES_SHOWN} more)` : '';
    const error = new PEError('name', `${message}; its tensors are ${shown}${more}`);
    error.names = names;
    throw error;
  }

  const info = r.info;
  const rows = info[MI.ROWS];
  const cols = info[MI.COLS];
  const values = input.subarray(info[MI.BEGIN], info[MI.END]);
  const c = call(context, CONVERT_ARGS, { inputs: { values }, outputs: { ...messageIo, data: rows * cols } },
    (w, p) => w.pe_matrix_convert(p.data, p.info, p.message, MESSAGE_BYTES, p.values, values.length,
      info[MI.DTYPE], info[MI.BIG_ENDIAN], info[MI.FORTRAN], rows, cols));
  if (c.status !== 0) throw new PEError('bytes', cString(c.message));

  const format = FORMATS[info[MI.FORMAT]];
  const result = { data: c.data, shape: [rows, cols], dtype: DTYPES[info[MI.DTYPE]], format, kind: 'learned' };
  if (format === 'safetensors') result.name = name ?? tensorNames(context, head, input.length).names[0];
  return result;
}

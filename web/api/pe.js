// PE Lab's JS API: a thin layer over the WebAssembly kernels (see docs/reference.md).
//
//   import { createPE } from '../web/pe.js';
//   const pe = await createPE();                       // { simd: 'auto' | true | false }
//   const { data, shape } = pe.compute({ kind: 'sinusoidal', length: 128, dim: 64 });
//   pe.release(data);      // done with it: the next output of its size is copied into its memory
//
// The same module runs in browsers and in Node >= 20. The .wasm files are bare modules
// (Emscripten STANDALONE_WASM) loaded here: no generated JS glue, so no __dirname or ESM issues.
import { PEError, defaults, describe, normalizeSpec, shapeOf, snapshot } from './spec.js';
import { SCHEMA, KINDS, PE_MAX_ELEMENTS } from './schema/index.js';
import { KERNELS } from './kernels/index.js';

export { PEError, SCHEMA, KINDS, PE_MAX_ELEMENTS, defaults };

// The smallest module that uses a SIMD instruction (i32.const 0; i8x16.splat): engines that
// validate it run the SIMD build.
const SIMD_PROBE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,   // magic, version 1
  0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b,         // type section: () -> v128
  0x03, 0x02, 0x01, 0x00,                           // function section: one function of type 0
  0x0a, 0x08, 0x01, 0x06, 0x00, 0x41, 0x00, 0xfd, 0x0f, 0x0b,   // code: i32.const 0, i8x16.splat
]);

/** True when this engine supports WebAssembly 128-bit SIMD. */
export function simdSupported() {
  try {
    return WebAssembly.validate(SIMD_PROBE);
  } catch {
    return false;
  }
}

const isNode = typeof process === 'object' && process !== null && typeof process.versions?.node === 'string'
  && typeof window === 'undefined';

async function loadBytes(url) {
  if (isNode && url.protocol === 'file:') {
    const { readFile } = await import('node:fs/promises');
    return readFile(url);
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`PE Lab: could not load ${url} (HTTP ${response.status})`);
  return response.arrayBuffer();
}

async function instantiate(source) {
  const imports = {
    env: {
      // The heap grew: nothing to do, every read makes fresh views of memory.buffer.
      emscripten_notify_memory_growth() {},
    },
  };
  let instance;
  if (source instanceof URL && !(isNode && source.protocol === 'file:') && typeof WebAssembly.instantiateStreaming === 'function') {
    // In a browser: compile while the bytes arrive (and let the browser keep the compiled
    // module for the next visit); the bytes are fetched again only if the server sent them
    // with another MIME type than application/wasm, which streaming refuses.
    const response = await fetch(source);
    if (!response.ok) throw new Error(`PE Lab: could not load ${source} (HTTP ${response.status})`);
    try {
      ({ instance } = await WebAssembly.instantiateStreaming(response, imports));
    } catch (err) {
      if (!(err instanceof TypeError)) throw err;
      ({ instance } = await WebAssembly.instantiate(await loadBytes(source), imports));
    }
  } else if (source instanceof WebAssembly.Module) {
    // Compiled already (the page starts the compile from index.html: web/app/wasm-start.js).
    instance = await WebAssembly.instantiate(source, imports);
  } else {
    const bytes = source instanceof URL ? await loadBytes(source) : source;
    ({ instance } = await WebAssembly.instantiate(bytes, imports));
  }
  const exports = instance.exports;
  if (typeof exports._initialize === 'function') exports._initialize();   // static constructors
  return exports;
}

/**
 * Loads the kernels. options.simd: 'auto' (default: SIMD when the engine validates it), true
 * (require SIMD) or false (force the scalar build). options.wasm: bytes (ArrayBuffer/Uint8Array),
 * a compiled WebAssembly.Module, or a URL of the module to load instead of the default file next
 * to this script.
 */
export async function createPE(options = {}) {
  const { simd = 'auto', wasm } = options;
  if (simd !== 'auto' && simd !== true && simd !== false) {
    throw new PEError('simd', `simd must be "auto", true or false, got ${String(simd)}`);
  }
  const supported = simdSupported();
  if (simd === true && !supported) {
    throw new PEError('simd', 'simd: true was requested but this engine does not support WebAssembly SIMD');
  }
  const useSimd = simd === 'auto' ? supported : simd;
  const source = wasm ?? new URL(useSimd ? '../wasm/pe_simd.wasm' : '../wasm/pe_scalar.wasm', import.meta.url);
  return new PE(await instantiate(source));
}

// pe.release keeps the memory of released arrays of at least POOL_MIN_BYTES for the next outputs
// of the same size: at most POOL_MAX_BUFFERS of them and POOL_MAX_BYTES in all, oldest dropped first.
const POOL_MIN_BYTES = 2 ** 16;
const POOL_MAX_BUFFERS = 16;
const POOL_MAX_BYTES = 2 ** 28;

class PE {
  #w;
  // Released memory (ArrayBuffers, oldest first) and the arrays lent out that release may take back.
  #pool = [];
  #lent = new WeakSet();

  constructor(exports) {
    this.#w = exports;
    /** True when the loaded build runs SIMD kernels. */
    this.simd = exports.pe_simd_enabled() === 1;
  }

  /** The full spec of a kind with every default filled in. */
  defaults(kind) {
    return defaults(kind);
  }

  /** Validates a spec and fills in its defaults, without computing it. */
  normalize(spec) {
    return normalizeSpec(spec);
  }

  /**
   * Computes a spec. Returns { data: Float32Array (a copy), shape: number[], spec, ...extras }
   * where spec is the normalized spec that was computed. Throws PEError on bad input; the module
   * stays usable. The arrays are the caller's: nothing changes them until the caller gives them
   * back with pe.release(result), whose memory the next output of the same size is copied into.
   *
   * options.reuse: a Float32Array the caller no longer needs (say, the previous result's data).
   * When its length is the output's, the values are copied into it and it is returned as `data`
   * (still a copy, in the caller's array): a large output then costs one copy instead of a new
   * allocation, its page faults and its garbage. Otherwise `data` is a new array and `reuse` is
   * left as it was; it is also left as it was when compute throws.
   *
   * options.borrow: true returns `data` without any copy: a view into the module's WebAssembly
   * memory, where the kernel wrote it, and `borrowed: true` beside it. The one exception to "the
   * arrays are the caller's": the view is valid only until the next call of any method of this
   * module, which may overwrite it, or grow the memory and so leave it empty (length 0). Copy
   * what must outlive that (data.slice()). Not with reuse; release takes the result's other arrays.
   */
  compute(spec, options) {
    const s = normalizeSpec(spec);
    const { reuse, borrow } = this.#computeOptions(options);
    const binding = KERNELS[s.kind];
    // The previous result's resident table (below) makes room for this one's output; this
    // output's buffer is then kept resident for pe.heatmap (never more than one: no extra memory).
    KERNELS.heatmap.release(this.#w);
    const result = binding.compute(this.#context(binding.args, { keep: 'data', reuse, borrow }), s);
    return { ...result, shape: shapeOf(s), spec: s, ...(borrow ? { borrowed: true } : {}) };
  }

  /**
   * Gives back the arrays of a result this module returned (compute, applyRope, ropeTables,
   * ropeView, relativeProfile, precisionSweep, loadMatrix, colorize), or one such array: their
   * memory is kept (up to POOL_MAX_BYTES, oldest dropped first) and the next output of the same
   * byte length is copied into it instead of into new memory, which the system must first map and
   * zero (at 12.8 MB that costs more than computing the table). The given arrays, and every view
   * of their buffers (subarrays included), are detached at once: they read as empty from then on,
   * so a released result can never show a later result's values. Arrays the caller made itself
   * (options.reuse) are left alone. Throws PEError (param 'result') when the argument holds no
   * array of this module that is still the caller's: released already, from another module, not
   * a result.
   */
  release(result) {
    const arrays = ArrayBuffer.isView(result) ? [result]
      : result !== null && typeof result === 'object' ? Object.values(result).filter((v) => ArrayBuffer.isView(v)) : [];
    const mine = arrays.filter((a) => this.#lent.has(a));
    if (mine.length === 0) {
      throw new PEError('result', `release needs a result of this module (or one of its arrays) that was not released yet, got ${ArrayBuffer.isView(result) ? `a ${result.constructor.name} of ${result.length} values that ${result.byteLength === 0 ? 'is empty (released already?)' : 'this module did not return, or returned and took back'}` : describe(result)}`);
    }
    for (const array of mine) {
      this.#lent.delete(array);
      const buffer = array.buffer;
      if (buffer.byteLength === 0) continue;   // detached already (transferred away, or a second view of one buffer)
      // Transferring moves the memory to a new ArrayBuffer and detaches the old one with every view.
      const moved = structuredClone(buffer, { transfer: [buffer] });
      if (moved.byteLength >= POOL_MIN_BYTES) this.#pool.push(moved);
    }
    let bytes = this.#pool.reduce((sum, b) => sum + b.byteLength, 0);
    while (this.#pool.length > POOL_MAX_BUFFERS || bytes > POOL_MAX_BYTES) bytes -= this.#pool.shift().byteLength;
  }

  /** A new array of `view`'s type holding its values, in released memory of that size if there is some. */
  #lend(view) {
    const i = view.byteLength >= POOL_MIN_BYTES ? this.#pool.findLastIndex((b) => b.byteLength === view.byteLength) : -1;
    let out;
    if (i >= 0) {
      out = new view.constructor(this.#pool.splice(i, 1)[0]);
      out.set(view);
    } else out = view.slice();
    this.#lent.add(out);
    return out;
  }

  #computeOptions(options) {
    if (options === undefined || options === null) return { reuse: null, borrow: false };
    if (typeof options !== 'object') throw new PEError('options', `options must be an object, got ${typeof options}`);
    // read once, as every other options object (a getter that throws becomes a PEError)
    const { reuse = null, borrow = false } = snapshot(options, 'options');
    if (borrow !== true && borrow !== false) throw new PEError('borrow', `borrow must be true or false, got ${describe(borrow)}`);
    if (reuse === null) return { reuse: null, borrow };
    if (!(reuse instanceof Float32Array)) throw new PEError('reuse', 'reuse must be a Float32Array (or null)');
    if (reuse.buffer === this.#w.memory.buffer) throw new PEError('reuse', 'reuse must not be a view into the module\'s WebAssembly memory');
    if (borrow) throw new PEError('borrow', 'borrow and reuse exclude each other: borrow copies nothing, reuse copies into the given array');
    return { reuse, borrow };
  }

  /**
   * Colours values through a colour map in C (web/api/kernels/colormap.js, c/colormap.c):
   * colorize(values, { map: 'viridis' | 'cividis' | 'diverging', vmin, vmax, special })
   * → Uint8ClampedArray of RGBA pixels, ready for ImageData. Throws PEError on bad options.
   */
  colorize(values, options) {
    const binding = KERNELS.colorize;
    return binding.compute(this.#context(binding.args), values, snapshot(options, 'options'));
  }

  /**
   * A heatmap's pixels in C (web/api/kernels/heatmap.js, c/heatmap.c): the window { x0, x1, y0, y1 }
   * (in cells; default the whole table) of the row-major [rows, cols] table (from offset) resampled
   * to width × height pixels (the cell under each pixel when magnified, a tent-weighted mean when
   * minified, so fine detail cannot alias into false patterns) and coloured as colorize colours:
   * heatmap(table, { rows, cols, offset, window, width, height, map, vmin, vmax, special })
   * → Uint8ClampedArray RGBA (a copy). The last table stays in WebAssembly memory for redraws:
   * recognised by identity, so never change a drawn array in place. Throws PEError.
   */
  heatmap(table, options) {
    const binding = KERNELS.heatmap;
    return binding.compute(this.#context(binding.args), table, snapshot(options, 'options'));
  }

  /**
   * The finite range and the non-finite kinds of a table's values, in C (SIMD):
   * heatmapRange(values, { offset, count }) → { lo, hi, negInf, posInf, nan, finite }
   * (lo and hi NaN when no value is finite). Throws PEError.
   */
  heatmapRange(values, options) {
    const binding = KERNELS.heatmap;
    return binding.range(this.#context(binding.args), values, snapshot(options, 'options'));
  }

  /**
   * Reads a trained 2-D table from a .npy or .safetensors file (bytes: ArrayBuffer or typed
   * array; options.name picks a safetensors tensor such as GPT-2's "wpe.weight"). Returns
   * { data, shape: [rows, cols], dtype, format, name?, kind: 'learned' }, which the views take
   * like a computed result. Parsed in C (c/npy.c, c/safetensors.c, web/api/kernels/matrix.js); a bad file throws a
   * PEError saying what is wrong (param 'bytes', or 'name' with the file's tensor names).
   */
  loadMatrix(bytes, options) {
    return KERNELS.learned.loadMatrix((args) => this.#context(args), bytes, snapshot(options, 'options'));
  }

  /**
   * Applies rotary position embedding to x (kind `rope`; web/api/kernels/rope.js, c/rope.c): x is a
   * Float32Array, row-major [length, dim] or [heads, length, dim]; options.heads states the head
   * count, otherwise it is x.length / (length·dim). The first rotary_dim channels of every row
   * are rotated by p·inv_freq (cos and sin times attention_factor), the rest copied. Returns
   * { data, shape, spec, inv_freq, attention_factor }; x is never modified. Throws PEError.
   */
  applyRope(x, spec, options) {
    return KERNELS.rope.apply(this.#context(KERNELS.rope.applyArgs), x, snapshot(spec), snapshot(options, 'options'));
  }

  /**
   * A caller's learned position table (a ViT pos_embed, e.g. from loadMatrix) with its grid
   * resized as the learned2d kind does (docs/reference.md#learned2d): `table` is a Float32Array of
   * [cls_token + height·width, dim]; spec gives height, width, dim, cls_token (default true),
   * resize_height and resize_width. Returns { data, shape, spec }; `table` is not modified.
   * Throws PEError (param 'table' for a table of the wrong size).
   */
  resizeTable(table, spec) {
    return KERNELS.learned2d.resize(this.#context(KERNELS.learned2d.resizeArgs), table, snapshot(spec));
  }

  /**
   * The exact cos and sin tables of a rope spec, [length, rotary_dim/2] each (without the
   * attention factor, which is returned beside them): { cos, sin, shape, spec, inv_freq,
   * attention_factor }. Throws PEError.
   */
  ropeTables(spec) {
    return KERNELS.rope.tables(this.#context(KERNELS.rope.args), snapshot(spec));
  }

  /**
   * What a view draws of a rope spec in place of its angle table, computed in C from the kernel's
   * float64 angles (web/api/kernels/rope.js, c/rope_view.c): ropeView(spec, { transform: 'cos' |
   * 'sin' | 'wrapped' }) → { data: Float32Array [length, rotary_dim/2], shape, spec, transform }.
   * cos and sin are ropeTables' values; wrapped is p·θ_i mod 2π in [0, 2π]. `data` stays in
   * WebAssembly memory for pe.heatmap, as a computed result does. Throws PEError.
   */
  ropeView(spec, options) {
    const { transform = 'cos' } = snapshot(options ?? {}, 'options');
    const binding = KERNELS.rope;
    // As compute: the resident table makes room, and this output becomes the resident one.
    KERNELS.heatmap.release(this.#w);
    return binding.view(this.#context(binding.viewArgs, { keep: 'data' }), snapshot(spec), transform);
  }

  /**
   * The profile of a relative kind (alibi, t5, shaw, distance): its value at every relative
   * position r = j − i = −(length − 1) … length − 1, in C (c/relative.c), exactly the entries its
   * table holds, without the length² table: { data, shape: [2·length − 1] (alibi: [heads,
   * 2·length − 1]), r0: −(length − 1), spec, slopes? }. Throws PEError.
   */
  relativeProfile(spec) {
    const s = normalizeSpec(spec);
    const binding = KERNELS[s.kind];
    if (!binding.profile) throw new PEError('kind', `relativeProfile needs kind "alibi", "t5", "shaw" or "distance", got "${s.kind}"`);
    const result = binding.profile(this.#context(binding.args), s);
    const width = 2 * s.length - 1;
    return { ...result, shape: s.kind === 'alibi' ? [s.heads, width] : [width], r0: -(s.length - 1), spec: s };
  }

  /**
   * The precision lab's sweep (kind `rope_precision`; web/api/kernels/precision.js, c/precision.c):
   * of compute's result only row_error (the largest angle error of each row) and the collisions,
   * the same numbers bit for bit, without the [length, rotary_dim/2] error, cos and sin tables,
   * so 2^20 positions take a fraction of the time and memory: { row_error, shape: [length],
   * collisions, first_collision, spec }. Throws PEError.
   */
  precisionSweep(spec) {
    // The kind first: a spec of another kind would otherwise be refused for that kind's fields.
    const raw = snapshot(spec);
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      throw new PEError('spec', `precisionSweep needs a spec object of kind "rope_precision" (kind may be left out), got ${describe(raw)}`);
    }
    if (Object.hasOwn(raw, 'kind') && raw.kind !== 'rope_precision') {
      throw new PEError('kind', `precisionSweep needs kind "rope_precision" (the only kind it sweeps; kind may be left out), got ${describe(raw.kind)}`);
    }
    const s = normalizeSpec({ kind: 'rope_precision', ...raw });
    const binding = KERNELS.rope_precision;
    const result = binding.sweep(this.#context(binding.sweepArgs), s);
    return { ...result, shape: [s.length], spec: s };
  }

  /**
   * A tiny transformer trained in WebAssembly (docs/reference.md#arena; web/api/kernels/arena.js,
   * c/arena.h): { step(n), evaluate(length, options), positionTable(), attention(length, options),
   * free(), … }. Throws PEError on a bad spec.
   */
  trainer(spec) {
    return KERNELS.arena.createTrainer({ wasm: this.#w, run: (io, call, args) => this.#run(io, call, args) }, spec);
  }

  /**
   * For tests of the C guards only: runs a kind's kernel on a spec that skipped JS validation
   * (defaults still filled in), so a bad value reaches C and comes back as a status.
   */
  _computeUnvalidated(spec) {
    const s = { ...defaults(spec.kind), ...spec };
    const binding = KERNELS[s.kind];
    return binding.compute(this.#context(binding.args), s);
  }

  // out.keep, out.reuse and out.borrow apply to the output named `keep` of the binding's own runs;
  // the other outputs of those runs are lent (pe.release can take them back; #lend) unless
  // out.lend is false. A binding that computes another kind first (attention's encoding table)
  // does that through `inner`, which keeps, reuses, borrows and lends nothing: its arrays never
  // reach the caller.
  #context(args, out = {}) {
    const o = { keep: null, reuse: null, borrow: false, lend: true, ...out };
    const context = { wasm: this.#w, run: (io, call) => this.#run(io, call, args, o) };
    context.inner = o.keep || o.lend ? this.#context(args, { lend: false }) : context;
    return context;
  }

  // Allocates io.inputs (typed arrays, copied in) and io.outputs ({ name: count } floats, or
  // { name: { count, type } }) in WASM memory, runs call({ name: ptr }), copies every output
  // out and frees everything, also when the call fails. A non-zero status becomes a PEError
  // naming args[k - 1] for PE_ERR_ARG(k).
  // keep: the name of a Float32Array output whose buffer is handed to the heatmap path instead of
  // freed (pe.compute's `data`; web/api/kernels/heatmap.js adopt); reuse: a caller's Float32Array
  // that output is copied into when the lengths match (pe.compute's options.reuse); borrow: that
  // output is returned as the view of that buffer, uncopied (options.borrow); lend: every other
  // output is copied out by #lend (into released memory when there is some).
  #run(io, call, args, { keep = null, reuse = null, borrow = false, lend = false } = {}) {
    const w = this.#w;
    const ptrs = {};
    const outputs = Object.entries(io.outputs ?? {}).map(([name, o]) =>
      (typeof o === 'number' ? { name, count: o, type: Float32Array } : { name, type: Float32Array, ...o }));
    try {
      for (const [name, array] of Object.entries(io.inputs ?? {})) {
        ptrs[name] = this.#alloc(array.byteLength, name);
        new Uint8Array(w.memory.buffer, ptrs[name], array.byteLength)
          .set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
      }
      for (const { name, count, type } of outputs) {
        if (count > PE_MAX_ELEMENTS) throw new PEError(args[1] ?? 'kind', `output of ${count} values exceeds PE_MAX_ELEMENTS (${PE_MAX_ELEMENTS})`);
        ptrs[name] = this.#alloc(count * type.BYTES_PER_ELEMENT, args[1] ?? name);
      }
      const status = call(ptrs);
      if (status !== 0) this.#throwStatus(status, args);
      // memory.buffer may have been replaced by growth during the call: view it afresh.
      const result = {};
      for (const { name, count, type } of outputs) {
        const view = new type(w.memory.buffer, ptrs[name], count);
        if (name === keep && reuse && reuse.length === count && type === Float32Array) {
          reuse.set(view);
          result[name] = reuse;
        } else if (name === keep && borrow && type === Float32Array) {
          result[name] = view;   // stays valid while adopted below, until the next call
        } else result[name] = lend ? this.#lend(view) : view.slice();
      }
      const kept = keep && outputs.find((o) => o.name === keep && o.type === Float32Array);
      if (kept) {
        KERNELS.heatmap.adopt(w, result[keep], ptrs[keep], kept.count * 4);
        delete ptrs[keep];
      }
      return result;
    } finally {
      for (const ptr of Object.values(ptrs)) w.free(ptr);
    }
  }

  #alloc(bytes, param) {
    const ptr = this.#w.malloc(Math.max(bytes, 1));
    if (ptr === 0) {
      throw new PEError(param, `not enough memory for ${(bytes / 2 ** 20).toFixed(1)} MiB (${param})`);
    }
    return ptr;
  }

  #throwStatus(status, args) {
    const message = this.#cString(this.#w.pe_status_message(status));
    const index = status - 100;
    const param = index >= 1 && index <= args.length ? args[index - 1] : (args[1] ?? 'kind');
    throw new PEError(param, `${param}: ${message} (kernel status ${status})`);
  }

  #cString(ptr) {
    const heap = new Uint8Array(this.#w.memory.buffer);
    let end = ptr;
    while (heap[end] !== 0) end++;
    return new TextDecoder().decode(heap.subarray(ptr, end));
  }

  /** Bytes of WASM memory (for tests: the heap must not grow on bad input). */
  get memoryBytes() {
    return this.#w.memory.buffer.byteLength;
  }
}

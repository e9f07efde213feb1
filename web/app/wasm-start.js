// Starts compiling the kernels (the SIMD build, which every engine the page targets runs) as soon
// as index.html is parsed, while the page's bundle (web/dist/app.js) is still arriving and being
// parsed: the compile streams the bytes off the main thread, and app.js instantiates the compiled
// module (globalThis.__peLabWasm, a promise of a WebAssembly.Module) instead of starting the fetch
// itself. An engine without SIMD rejects the compile; app.js then loads the scalar build as before.
// Loaded by index.html only (not bundled: it must not wait for the bundle); the offline single file
// carries its modules inline instead.
const url = new URL('../wasm/pe_simd.wasm', import.meta.url);
if (typeof WebAssembly === 'object' && typeof WebAssembly.compileStreaming === 'function') {
  const early = WebAssembly.compileStreaming(fetch(url));
  early.catch(() => {});   // a refusal is handled by app.js (it loads the module itself)
  globalThis.__peLabWasm = early;
}

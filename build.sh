#!/usr/bin/env bash
# Builds PE Lab: the C kernels into two WebAssembly modules (SIMD and scalar) and the page bundle.
#
#   bash build.sh            build what is out of date
#   bash build.sh --force    rebuild everything
#
# On a fresh Debian machine it first runs scripts/setup.sh start, which installs what is missing
# (Emscripten from Debian's `emscripten` package, the npm dependencies with `npm ci`).
set -euo pipefail
cd "$(dirname "$0")"

force=0
[ "${1:-}" = "--force" ] && force=1

say() { printf 'build.sh: %s\n' "$*"; }
die() { printf 'build.sh: error: %s\n' "$*" >&2; exit 1; }

# --- tools ---------------------------------------------------------------------------------------
command -v node >/dev/null 2>&1 || die "Node.js >= 20 is required (node not found)"
# scripts/setup.sh is the one installer (Emscripten from Debian, npm dependencies); it is quick when
# everything is there, so build.sh works on its own on a fresh machine too.
if ! command -v emcc >/dev/null 2>&1 || [ ! -f node_modules/.package-lock.json ] \
   || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  bash scripts/setup.sh start || die "could not install what the build needs (see above)"
fi
# Debian's emcc runs JS helpers that need acorn from Debian's node modules.
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
say "$(emcc --version 2>/dev/null | head -n 1)"

# --- WebAssembly ---------------------------------------------------------------------------------
SOURCES=(c/*.c)
# Kernels are exported by PE_API (c/pe.h); only the allocator is listed here.
EXPORTS=_malloc,_free

COMMON_FLAGS=(
  -O3 -Ic -std=c11 -Wall -Wextra -Werror
  -ffp-contract=off            # no fused multiply-add: native tests and both builds agree bit for bit
  --no-entry                   # a library: no main()
  -sSTANDALONE_WASM            # a bare .wasm with no JS glue; web/pe.js is the loader (works in Node and browsers)
  -sMALLOC=emmalloc            # small allocator: the JS API allocates outputs in WASM memory
  -sALLOW_MEMORY_GROWTH=1      # outputs up to PE_MAX_ELEMENTS floats grow the heap on demand
  -sMAXIMUM_MEMORY=4GB
  -sEXPORTED_FUNCTIONS=$EXPORTS
)
SIMD_FLAGS=(-msimd128)         # 128-bit SIMD kernels (wasm_simd128.h)
SCALAR_FLAGS=(-mno-simd128)    # same sources, scalar reference path, for engines without SIMD

mkdir -p web/wasm
needs_build() {   # output, inputs...
  local out=$1; shift
  [ "$force" = 1 ] && return 0
  [ -f "$out" ] || return 0
  local f
  for f in "$@" c/*.h build.sh; do [ "$f" -nt "$out" ] && return 0; done
  return 1
}

compile() {   # output, flags...: written to a temporary name first, so a reader never sees half a module
  local out=$1; shift
  say "compiling $out"
  emcc "${COMMON_FLAGS[@]}" "$@" "${SOURCES[@]}" -o "$out.tmp.wasm"
  mv -f "$out.tmp.wasm" "$out"
}
needs_build web/wasm/pe_simd.wasm "${SOURCES[@]}" && compile web/wasm/pe_simd.wasm "${SIMD_FLAGS[@]}"
needs_build web/wasm/pe_scalar.wasm "${SOURCES[@]}" && compile web/wasm/pe_scalar.wasm "${SCALAR_FLAGS[@]}"

# --- page bundle ---------------------------------------------------------------------------------
if [ -f scripts/bundle.js ]; then
  node scripts/bundle.js
fi
say "done: $(du -b web/wasm/pe_simd.wasm | cut -f1) B SIMD, $(du -b web/wasm/pe_scalar.wasm | cut -f1) B scalar"

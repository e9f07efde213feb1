#!/usr/bin/env bash
# Builds PE Lab: the C kernels into two WebAssembly modules (SIMD and scalar) and the page bundle.
#
#   bash build.sh            build what is out of date
#   bash build.sh --force    rebuild everything
#
# On a fresh Debian machine it installs what is missing: Emscripten from Debian's `emscripten`
# package (as root, or through sudo) and the npm dependencies with `npm ci`.
set -euo pipefail
cd "$(dirname "$0")"

force=0
[ "${1:-}" = "--force" ] && force=1

say() { printf 'build.sh: %s\n' "$*"; }
die() { printf 'build.sh: error: %s\n' "$*" >&2; exit 1; }

apt_install() {
  local packages=("$@")
  if ! command -v apt-get >/dev/null 2>&1; then
    die "missing ${packages[*]}; this is not a Debian-like system, install Emscripten (emcc) by hand"
  fi
  local sudo=""
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null 2>&1 || die "missing ${packages[*]}; run: sudo apt-get install ${packages[*]}"
    sudo="sudo"
  fi
  say "installing ${packages[*]} with apt-get"
  $sudo apt-get update -qq || true
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${packages[@]}" >/dev/null \
    || die "apt-get install ${packages[*]} failed; run it by hand and retry"
}

# --- tools ---------------------------------------------------------------------------------------
command -v node >/dev/null 2>&1 || die "Node.js >= 20 is required (node not found)"
node_major=$(node -p 'process.versions.node.split(".")[0]')
[ "$node_major" -ge 20 ] || die "Node.js >= 20 is required, found $(node --version)"

command -v emcc >/dev/null 2>&1 || apt_install emscripten
command -v emcc >/dev/null 2>&1 || die "emcc not found after installing; run: apt-get install emscripten"
# Debian's emcc runs JS helpers that need acorn from Debian's node modules.
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
say "$(emcc --version 2>/dev/null | head -n 1)"

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "installing npm dependencies (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error || die "npm ci failed; check your network access to the npm registry"
fi

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

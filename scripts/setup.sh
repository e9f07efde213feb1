#!/usr/bin/env bash
# The one installer of PE Lab: checks each tool a command needs and installs only what is missing
# (Debian's packages with apt-get, the npm dependencies with npm ci). Idempotent: on a machine that
# has everything it prints one line and changes nothing.
#
#   bash scripts/setup.sh start    what `npm start` and `npm run build` need
#   bash scripts/setup.sh test     what `npm test` needs (start's tools too)
#   bash scripts/setup.sh bench    what `npm run bench` needs (start's tools too)
#   bash scripts/setup.sh ci       test + bench (what .ci/run needs)
#   bash scripts/setup.sh --list test    only print what is missing, install nothing
#
# Tool → Debian package, and who needs it:
#   node ≥ 20 ................. (not installed here: the README's only prerequisite)   all
#   emcc ...................... emscripten        C → WebAssembly                   all
#   npm dependencies .......... npm ci            esbuild, Chart.js, Vitest, Playwright core
#   gcc + libc headers ........ gcc libc6-dev     native C tests                    test
#   SIMDe headers ............. libsimde-dev      native tests use wasm SIMD on x86 test
#   clang + libFuzzer ......... clang libclang-rt-14-dev   fuzz-corpus replay        test
#   clang-format .............. clang-format      the lint layer (C style)          test
#   Chromium .................. chromium          browser tests and page benches    test, bench
#   NumPy, PyTorch ............ python3-numpy python3-torch   fixtures, anchors     test, bench
#   Korean fonts .............. fonts-noto-cjk    Korean text in screenshots        test, bench
#   matplotlib ................ python3-matplotlib  the tutorial's picture (anchor)  bench
#   venv + pip ................ python3-venv      the Python package's test install test
#   setuptools, wheel ......... python3-setuptools python3-wheel   builds python/ (no PyPI)   test
#   IPython kernel ............ python3-ipykernel  runs the example notebook        test
#   nbconvert, nbformat ....... jupyter-nbconvert python3-nbformat   notebook → HTML   test
set -euo pipefail
cd "$(dirname "$0")/.."

list_only=0
if [ "${1:-}" = "--list" ]; then list_only=1; shift; fi
profile=${1:-start}
case "$profile" in start | build | test | bench | ci) ;; *)
  echo "usage: bash scripts/setup.sh [--list] start|test|bench|ci" >&2
  exit 2
  ;;
esac

say() { printf 'setup: %s\n' "$*"; }
die() {
  printf 'setup: error: %s\n' "$*" >&2
  exit 1
}

# --- Node (the one prerequisite) ------------------------------------------------------------------
command -v node >/dev/null 2>&1 || die "Node.js >= 20 is required (node not found); on Debian 12: see nodejs.org or NodeSource"
node_major=$(node -p 'process.versions.node.split(".")[0]')
[ "$node_major" -ge 20 ] || die "Node.js >= 20 is required, found $(node --version)"

# --- which Debian packages are missing --------------------------------------------------------------
need=()
want() { # package... : add the packages unless already listed
  local p
  for p in "$@"; do
    case " ${need[*]:-} " in *" $p "*) ;; *) need+=("$p") ;; esac
  done
}
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }

check_build() {
  command -v emcc >/dev/null 2>&1 || want emscripten
}
check_test() {
  { command -v gcc >/dev/null 2>&1 && [ -f /usr/include/stdio.h ]; } || want gcc libc6-dev
  [ -f /usr/include/simde/wasm/simd128.h ] || want libsimde-dev
  command -v clang >/dev/null 2>&1 || want clang
  command -v clang-format >/dev/null 2>&1 || want clang-format   # the lint layer (scripts/format.sh --check)
  # libFuzzer's runtime ships in libclang-rt-<version>-dev, the version of the installed clang.
  if ! compgen -G '/usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a' >/dev/null; then
    want libclang-rt-14-dev
  fi
  check_browser_python
  # The Python package (python/) and its example notebook (docs/notebook.ipynb).
  have_pkg python3-venv || want python3-venv   # the test's fresh environment
  /usr/bin/python3 -m pip --version >/dev/null 2>&1 || want python3-pip   # installs into it
  /usr/bin/python3 -c 'import setuptools' >/dev/null 2>&1 || want python3-setuptools
  /usr/bin/python3 -c 'import wheel' >/dev/null 2>&1 || want python3-wheel
  /usr/bin/python3 -c 'import ipykernel' >/dev/null 2>&1 || want python3-ipykernel
  command -v jupyter-nbconvert >/dev/null 2>&1 || want jupyter-nbconvert
  /usr/bin/python3 -c 'import nbformat' >/dev/null 2>&1 || want python3-nbformat
}
check_browser_python() {
  [ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ] || want chromium
  /usr/bin/python3 -c 'import numpy' >/dev/null 2>&1 || want python3-numpy
  /usr/bin/python3 -c 'import torch' >/dev/null 2>&1 || want python3-torch
  have_pkg fonts-noto-cjk || want fonts-noto-cjk
}

check_build
case "$profile" in
  test) check_test ;;
  bench)
    check_browser_python
    /usr/bin/python3 -c 'import matplotlib' >/dev/null 2>&1 || want python3-matplotlib
    ;;
  ci) check_test ;;
esac

if [ "$list_only" = 1 ]; then
  echo "${need[*]:-}"
  exit 0
fi

# --- install the missing packages ------------------------------------------------------------------
if [ ${#need[@]} -gt 0 ]; then
  command -v apt-get >/dev/null 2>&1 \
    || die "missing Debian packages: ${need[*]}. This is not a Debian-like system (no apt-get): install their equivalents by hand, then run again."
  sudo=()
  if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
      sudo=(sudo -n)
    else
      die "missing Debian packages: ${need[*]}. Installing them needs root; run: sudo apt-get install ${need[*]}"
    fi
  fi
  say "installing with apt-get: ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  # The package lists of a fresh machine are empty: update once before the first install.
  "${sudo[@]}" apt-get update -qq </dev/null || say "apt-get update failed; trying the install with the lists there are"
  "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${need[@]}" </dev/null >/dev/null \
    || die "apt-get install ${need[*]} failed; run it by hand to see why, then run again"
  say "installed: ${need[*]}"
fi

# --- npm dependencies ------------------------------------------------------------------------------
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "installing npm dependencies (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error </dev/null \
    || die "npm ci failed; check your access to the npm registry, then run again"
fi

say "ready for '$profile'$([ ${#need[@]} -gt 0 ] && printf ' (installed %s)' "${need[*]}" || printf ': nothing to install')"

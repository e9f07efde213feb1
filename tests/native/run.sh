#!/usr/bin/env bash
# Native C tests: the kernels built with gcc, SIMD through SIMDe's wasm_simd128 implementation,
# under AddressSanitizer and UndefinedBehaviorSanitizer. Usage: bash tests/native/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ ! -f /usr/include/simde/wasm/simd128.h ]; then
  echo "tests/native: SIMDe is missing; install it with: apt-get install libsimde-dev" >&2
  exit 1
fi

out=build/native
mkdir -p "$out"
# -ffp-contract=off: no fused multiply-add, so native results match WebAssembly's bit for bit.
# -msse4.2: SIMDe then maps wasm ops to SSE instructions (its generic fallback multiplies
# signed lanes, which UBSan rightly reports, while wasm i32x4.mul wraps by definition).
CFLAGS=(-std=c11 -O1 -g -Wall -Wextra -Werror -ffp-contract=off -msse4.2
        -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
        -DPE_NATIVE_SIMDE -Ic -Itests/native)
SOURCES=(c/*.c)

# Each c/*.c is compiled once (not once per test), on every core, then each test is linked.
# Objects and tests are kept between runs and rebuilt only when what they are made of changed
# (tests/native/objcache.sh).
. tests/native/objcache.sh
line="gcc ${CFLAGS[*]}"
cached_objects "$out/obj" "$line" "${SOURCES[@]}"
kernels=("${OBJECTS[@]}")
tests=(tests/native/test_*.c)
cached_objects "$out/obj-tests" "$line" "${tests[@]}"
test_objects=("${OBJECTS[@]}")
for i in "${!tests[@]}"; do
  cached_link "$out/$(basename "${tests[$i]}" .c)" "$line" "${test_objects[$i]}" "${kernels[@]}" -lm
done

# The suites run on every core at once, each into its own log, printed in order when all are done;
# the slowest (arena, sinusoidal, precision under the sanitizers) start first.
logs="$out/logs"
rm -rf "$logs"
mkdir -p "$logs"
names=()
for test in "${tests[@]}"; do names+=("$(basename "$test" .c)"); done
printf '%s\n' "${names[@]}" | awk '{ print (/arena|sinusoidal|precision/ ? 0 : 1), $0 }' | sort -s -k1,1n | cut -d' ' -f2 \
  | xargs -P "$(nproc 2>/dev/null || echo 2)" -I{} sh -c '"$1/$2" >"$3/$2.log" 2>&1; echo $? >"$3/$2.rc"' _ "$out" {} "$logs" || true
status=0
for name in "${names[@]}"; do
  echo "== $name"
  cat "$logs/$name.log"
  if [ "$(cat "$logs/$name.rc" 2>/dev/null)" != 0 ]; then status=1; fi
done
exit $status

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

status=0
for test in "${tests[@]}"; do
  name=$(basename "$test" .c)
  echo "== $name"
  if ! "$out/$name"; then status=1; fi
done
exit $status

#!/usr/bin/env bash
# libFuzzer harnesses of the C kernels under AddressSanitizer and UndefinedBehaviorSanitizer.
#
#   bash tests/fuzz/run.sh [SECONDS]     fuzz each harness for SECONDS (default 60)
#   bash tests/fuzz/run.sh --replay      run the committed corpora once, no mutation (-runs=0):
#                                        deterministic, a few seconds, for the normal test run
#   FUZZ_HARNESSES="fuzz_matrix" bash tests/fuzz/run.sh 300    only some harnesses
#   FUZZ_KEEP_CORPUS=/tmp/grown bash tests/fuzz/run.sh 600       keep the grown corpora there
#   bash tests/fuzz/run.sh --coverage /tmp/grown                   line coverage of c/ by a corpus
#
# Each harness is built with clang from tests/fuzz/<harness>.c and every c/*.c (the defines of
# tests/native/run.sh: SIMD through SIMDe), then run on a temporary copy of its corpus
# (tests/fuzz/corpus/<harness>/), so the committed corpus never grows. Per harness the script
# prints the executions, exec/s, coverage (edges, features, corpus size) and whether anything was
# found. Crashes, leaks, sanitizer reports, timeouts and broken invariants ("FINDING") make it exit
# non-zero; the input is kept under tests/fuzz/findings/ (git-ignored), the log beside it.
# Reproduce one with: build/fuzz/<harness> tests/fuzz/findings/<file>
# Without clang, --replay falls back to gcc and tests/fuzz/replay.c (same checks, no libFuzzer).
set -euo pipefail
cd "$(dirname "$0")/../.."

replay=0
coverage=
seconds=60
case "${1:-}" in
  --replay) replay=1 ;;
  --coverage) coverage=${2:-tests/fuzz/corpus} ;;
  '') ;;
  *[!0-9]*) echo "usage: bash tests/fuzz/run.sh [SECONDS | --replay | --coverage [CORPUS_ROOT]]" >&2; exit 2 ;;
  *) seconds=$1 ;;
esac
harnesses=(${FUZZ_HARNESSES:-fuzz_matrix fuzz_kernels fuzz_arena})

# --coverage: line and branch coverage of c/ by a corpus (CORPUS_ROOT/<harness>/, by default the
# committed one; e.g. a FUZZ_KEEP_CORPUS directory after a long run), with clang's source-based
# coverage and tests/fuzz/replay.c.
if [ -n "$coverage" ]; then
  out=build/fuzz-coverage
  mkdir -p "$out"
  for h in "${harnesses[@]}"; do
    clang -std=c11 -O1 -g -ffp-contract=off -msse4.2 -fprofile-instr-generate -fcoverage-mapping \
      -DPE_NATIVE_SIMDE -Ic -Itests/fuzz "tests/fuzz/$h.c" tests/fuzz/replay.c c/*.c -lm -o "$out/$h"
    LLVM_PROFILE_FILE="$out/$h.profraw" "$out/$h" "$coverage/$h" >/dev/null
    llvm-profdata merge -sparse "$out/$h.profraw" -o "$out/$h.profdata"
    echo "== $h over $coverage/$h"
    case "$h" in
      fuzz_matrix) files=(c/matrix.c c/npy.c c/safetensors.c) ;;
      fuzz_arena) files=(c/arena_model.c c/arena_train.c c/arena_tasks.c) ;;
      *) files=($(ls c/*.c c/*.h | grep -v -e matrix -e npy -e safetensors -e attention -e arena)) ;;
    esac
    llvm-cov report "$out/$h" -instr-profile="$out/$h.profdata" "${files[@]}" 2>/dev/null | grep -v -e '^Files which' -e '  0  *0  *- '
  done
  exit 0
fi

if [ ! -f /usr/include/simde/wasm/simd128.h ]; then
  echo "tests/fuzz: SIMDe is missing; install it with: apt-get install libsimde-dev" >&2
  exit 1
fi

# clang with libFuzzer and the sanitizer runtimes (Debian: clang and libclang-rt-<version>-dev).
CC=${FUZZ_CC:-clang}
have_libfuzzer() {
  command -v "$CC" >/dev/null 2>&1 || return 1
  local probe
  probe=$(mktemp -d)
  printf '#include <stdint.h>\n#include <stddef.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' >"$probe/p.c"
  "$CC" -fsanitize=fuzzer,address,undefined "$probe/p.c" -o "$probe/p" >/dev/null 2>&1
  local ok=$?
  rm -rf "$probe"
  return $ok
}

out=build/fuzz
findings=tests/fuzz/findings
mkdir -p "$out"
# As tests/native/run.sh: no fused multiply-add (native results match WebAssembly bit for bit),
# -msse4.2 so SIMDe maps wasm ops to SSE (its generic fallback multiplies signed lanes).
FLAGS=(-std=c11 -O1 -g -Wall -Wextra -ffp-contract=off -msse4.2
       -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
       -DPE_NATIVE_SIMDE -Ic -Itests/fuzz)
SOURCES=(c/*.c)
# c/*.c compiled once for all harnesses (on every core), each harness then linked against them.
# Kept between runs, recompiled only when a source, a header or a flag changed (tests/native/objcache.sh);
# OBJECTS lists them.
. tests/native/objcache.sh
compile_sources() {   # compiler, object directory, extra flags...
  local cc=$1 dir=$2
  shift 2
  cached_objects "$dir" "$cc ${FLAGS[*]} $*" "${SOURCES[@]}"
}

if ! have_libfuzzer; then
  if [ "$replay" = 1 ] && command -v gcc >/dev/null 2>&1; then
    echo "tests/fuzz: clang with libFuzzer not found; replaying the corpora with gcc (tests/fuzz/replay.c)"
    status=0
    compile_sources gcc "$out/obj-gcc"
    for h in "${harnesses[@]}"; do
      gcc "${FLAGS[@]}" "tests/fuzz/$h.c" tests/fuzz/replay.c "${OBJECTS[@]}" -lm -o "$out/$h-replay"
      echo "== $h"
      if ! "$out/$h-replay" "tests/fuzz/corpus/$h"; then status=1; fi
    done
    exit $status
  fi
  echo "tests/fuzz: clang with libFuzzer is missing; install it with:" >&2
  echo "  apt-get install clang libclang-rt-14-dev libsimde-dev     (Debian 12; as root)" >&2
  exit 1
fi

max_len() { case "$1" in fuzz_matrix) echo 16384 ;; fuzz_arena) echo 128 ;; *) echo 512 ;; esac; }
# fuzz_kernels: value profiles (comparison operands as features) find the range ends, but the
# entropic schedule's bookkeeping of the many features they make took ~70% of the time; the
# classic schedule runs ~3× more inputs per second for the same coverage.
extra_args() { case "$1" in fuzz_kernels) echo -entropic=0 ;; *) ;; esac; }

status=0
summary=()
compile_sources "$CC" "$out/obj" -fsanitize=fuzzer-no-link
kernels=("${OBJECTS[@]}")
for h in "${harnesses[@]}"; do
  cached_objects "$out/obj-$h" "$CC ${FLAGS[*]} -fsanitize=fuzzer" "tests/fuzz/$h.c"
  cached_link "$out/$h" "$CC ${FLAGS[*]} -fsanitize=fuzzer" "${OBJECTS[@]}" "${kernels[@]}" -lm
  # The working corpus on tmpfs when there is one: libFuzzer writes every new input as a file.
  if [ -d /dev/shm ] && [ -w /dev/shm ]; then work=$(mktemp -d -p /dev/shm pe-fuzz.XXXXXX); else work=$(mktemp -d); fi
  trap 'rm -rf "$work"' EXIT
  cp -r "tests/fuzz/corpus/$h" "$work/corpus"
  mkdir -p "$work/artifacts"
  args=(-artifact_prefix="$work/artifacts/" -print_final_stats=1 -timeout=30 -rss_limit_mb=4096
        -max_len="$(max_len "$h")")
  [ "$h" = fuzz_matrix ] && args+=(-dict=tests/fuzz/matrix.dict)
  if [ "$replay" = 1 ]; then
    args+=(-runs=0)
    echo "== $h: replaying $(ls "$work/corpus" | wc -l) corpus inputs"
  else
    args+=(-max_total_time="$seconds" -use_value_profile=1 $(extra_args "$h"))
    echo "== $h: fuzzing for ${seconds}s"
  fi
  log="$work/log"
  rc=0
  "$out/$h" "${args[@]}" "$work/corpus" >"$log" 2>&1 || rc=$?

  # libFuzzer's final statistics and last status line.
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  added=$(sed -n 's/^stat::new_units_added: *//p' "$log" | tail -1)
  rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log" | tail -1)
  inited=$(sed -n 's/^#[0-9]*[[:space:]]*INITED cov: \([0-9]*\) ft: \([0-9]*\).*/\1 edges, \2 features/p' "$log" | tail -1)
  final=$(sed -n 's/^#[0-9]*[[:space:]].*\(cov: [0-9]* ft: [0-9]* corp: [0-9]*\/[^ ]*\).*/\1/p' "$log" | tail -1)
  found=$(grep -aE 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:|FINDING|SUMMARY: ' "$log" | head -5 || true)
  artifacts=$(ls "$work/artifacts")
  line="$h: ${runs:-?} executions, ${rate:-?} exec/s, ${added:-0} new inputs, peak RSS ${rss:-?} MB; coverage at start: ${inited:-?}; at end: ${final:-?}"
  if [ "$rc" -ne 0 ] || [ -n "$found" ] || [ -n "$artifacts" ]; then
    status=1
    mkdir -p "$findings"
    for a in $artifacts; do cp "$work/artifacts/$a" "$findings/$h-$a"; done
    stamp=$(date +%Y%m%d-%H%M%S)
    cp "$log" "$findings/$h-$stamp.log"
    echo "$line"
    echo "  FOUND (exit $rc): inputs and log in $findings/ ($h-$stamp.log)"
    sed 's/^/  | /' <<<"$found"
    grep -aE -A12 'ERROR: |FINDING|runtime error:' "$log" | head -40 | sed 's/^/  | /'
    summary+=("$h: FOUND")
  else
    echo "$line"
    echo "  nothing found"
    summary+=("$h: clean")
  fi
  if [ -n "${FUZZ_KEEP_CORPUS:-}" ]; then   # keep the grown corpus (coverage reports, longer runs)
    mkdir -p "$FUZZ_KEEP_CORPUS/$h"
    cp "$work/corpus/"* "$FUZZ_KEEP_CORPUS/$h/" 2>/dev/null || true
  fi
  rm -rf "$work"
  trap - EXIT
done
echo "== fuzz summary: ${summary[*]}"
exit $status

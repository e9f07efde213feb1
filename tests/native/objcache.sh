# Sourced by tests/native/run.sh and tests/fuzz/run.sh: compiles C sources into objects kept
# between runs, each under the SHA-256 of the compiler's version, the command line and the
# preprocessed source (what ccache calls preprocessor mode), so any change to a source, a header
# it includes (c/*.h, SIMDe, libc) or a flag compiles it again, and nothing else is recompiled.
# Preprocessing costs a twentieth of a sanitizer build. PE_TEST_NO_CACHE=1 compiles everything.
#
#   cached_objects DIR "CC FLAGS..." SOURCE...   compiles into DIR (on every core); sets OBJECTS
#                                                to the object of each source, in order
#   cached_link OUT "CC FLAGS..." INPUT...       links OUT (INPUT: sources, objects, -l…) unless
#                                                the same inputs were linked into it before

cached_objects() {
  local dir=$1 line=$2
  shift 2
  mkdir -p "$dir"
  [ -n "${PE_TEST_NO_CACHE:-}" ] && rm -f "$dir"/*.o
  local tool
  tool=$(${line%% *} --version 2>&1 | head -n 1)
  OBJECTS=()
  local src key todo=()
  for src in "$@"; do
    # -E drops -c/-o; the flags stay in the key through $line.
    key=$( { printf '%s\n%s\n' "$tool" "$line"; $line -E "$src"; } | sha256sum | cut -c1-20)
    OBJECTS+=("$dir/$(basename "$src" .c)-$key.o")
    [ -f "${OBJECTS[-1]}" ] || todo+=("$src:${OBJECTS[-1]}")
  done
  if [ ${#todo[@]} -gt 0 ]; then
    export PE_CC_LINE="$line"
    # Each object is written under a temporary name and renamed, so a killed run leaves no half file.
    printf '%s\n' "${todo[@]}" | xargs -P "$(nproc 2>/dev/null || echo 2)" -I{} sh -c \
      'src=${1%%:*}; obj=${1#*:}; $PE_CC_LINE -c "$src" -o "$obj.tmp.$$" && mv -f "$obj.tmp.$$" "$obj"' _ {}
  fi
  # Objects of older versions of a source: drop them, so the directory does not grow.
  local keep o
  keep=" ${OBJECTS[*]} "
  for o in "$dir"/*.o; do
    [ -e "$o" ] || continue
    case "$keep" in *" $o "*) ;; *) rm -f "$o" ;; esac
  done
  local missing=0
  for o in "${OBJECTS[@]}"; do [ -f "$o" ] || missing=1; done
  return $missing
}

cached_link() {
  local out=$1 line=$2
  shift 2
  local key f
  key=$( { printf '%s\n' "$line" "$@"; for f in "$@"; do if [ -f "$f" ]; then sha256sum "$f"; fi; done; } | sha256sum | cut -c1-20)
  if [ -z "${PE_TEST_NO_CACHE:-}" ] && [ -x "$out" ] && [ "$(cat "$out.key" 2>/dev/null)" = "$key" ]; then
    return 0
  fi
  rm -f "$out.key"
  $line "$@" -o "$out.tmp.$$" && mv -f "$out.tmp.$$" "$out" && printf '%s\n' "$key" >"$out.key"
}

#!/usr/bin/env bash
# Formats the C sources with clang-format and the repository's .clang-format.
#
#   bash scripts/format.sh                  reformat c/, tests/native/ and tests/fuzz/ (*.c, *.h) in place
#   bash scripts/format.sh --check          change nothing; list the files that would change, exit 1 if any
#   bash scripts/format.sh [--check] FILE…  only these files
#
# The style is clang-format 14's (Debian 12: apt-get install clang-format); other versions may
# format a few constructs differently. CLANG_FORMAT=/path/to/clang-format picks another binary.
set -euo pipefail
cd "$(dirname "$0")/.."

check=0
if [ "${1:-}" = "--check" ]; then
  check=1
  shift
fi
case "${1:-}" in
  -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  -*) echo "usage: bash scripts/format.sh [--check] [FILE...]" >&2; exit 2 ;;
esac

CLANG_FORMAT=${CLANG_FORMAT:-clang-format}
if ! command -v "$CLANG_FORMAT" >/dev/null 2>&1; then
  echo "scripts/format.sh: $CLANG_FORMAT not found; install it with: apt-get install clang-format" >&2
  exit 1
fi
version=$("$CLANG_FORMAT" --version | sed -n 's/.*version \([0-9][0-9]*\).*/\1/p' | head -n 1)
if [ "$version" != 14 ]; then
  echo "scripts/format.sh: note: clang-format ${version:-?} (the style is written for 14)" >&2
fi

if [ $# -gt 0 ]; then
  files=("$@")
else
  shopt -s nullglob
  files=(c/*.c c/*.h tests/native/*.c tests/native/*.h tests/fuzz/*.c tests/fuzz/*.h)
fi

if [ "$check" = 0 ]; then
  "$CLANG_FORMAT" -i --style=file "${files[@]}"
  echo "scripts/format.sh: formatted ${#files[@]} files"
  exit 0
fi

changed=()
for f in "${files[@]}"; do
  if ! "$CLANG_FORMAT" --dry-run -Werror --style=file "$f" >/dev/null 2>&1; then changed+=("$f"); fi
done
if [ ${#changed[@]} -gt 0 ]; then
  echo "scripts/format.sh: ${#changed[@]} of ${#files[@]} files are not formatted (bash scripts/format.sh fixes them):"
  printf '  %s\n' "${changed[@]}"
  exit 1
fi
echo "scripts/format.sh: ${#files[@]} files formatted"

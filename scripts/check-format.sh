#!/bin/sh
# Checks that every C and C++ file in the repository is formatted as
# .clang-format (LLVM style) says, with Debian's clang-format-22; `make test`
# runs it first. With --fix it formats them instead.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
format=${CLANG_FORMAT:-clang-format-22}
if ! command -v "$format" >/dev/null 2>&1; then
  echo "check-format: $format not found (make deps installs it)" >&2
  exit 1
fi
cd "$root"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  files=$(git ls-files '*.c' '*.h' '*.cpp')
else
  files=$(find include lib runtime tools unittests bench examples test \
    \( -name '*.c' -o -name '*.h' -o -name '*.cpp' \) | sort)
fi
if [ "${1:-}" = --fix ]; then
  # shellcheck disable=SC2086
  "$format" -i $files
  exit 0
fi
# shellcheck disable=SC2086
if ! "$format" --dry-run --Werror $files; then
  echo "check-format: run scripts/check-format.sh --fix" >&2
  exit 1
fi
echo "check-format: $(echo "$files" | wc -l) files formatted"

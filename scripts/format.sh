#!/usr/bin/env bash
# Formats the C++ sources with the repository's .clang-format (clang-format 14,
# Debian's), or with --check only says which files differ (the clang_format
# test runs that; CI runs the tests).
# Usage: scripts/format.sh [--check]
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null || { echo "format: clang-format not found (scripts/setup.sh test installs it)" >&2; exit 2; }
mapfile -t files < <(git ls-files '*.cpp' '*.h' 2>/dev/null || find analysis protocol server tests -name '*.cpp' -o -name '*.h')
if [ "${1:-}" = --check ]; then
  if ! clang-format --dry-run --Werror "${files[@]}" 2>/tmp/msprobe-format.$$; then
    grep -o '^[^:]*:[0-9]*:[0-9]*: error' /tmp/msprobe-format.$$ | cut -d: -f1 | sort -u | sed 's/^/format: not formatted: /'
    rm -f /tmp/msprobe-format.$$
    echo "format: run scripts/format.sh" >&2
    exit 1
  fi
  rm -f /tmp/msprobe-format.$$
  echo "format: ${#files[@]} files formatted"
  exit 0
fi
clang-format -i "${files[@]}"

#!/usr/bin/env bash
# clang-tidy 14 with the repository's .clang-tidy over the C++ sources of
# analysis/, protocol/, server/ and tests/, using a build's
# compile_commands.json (every CMake build here writes one). Any finding fails
# (WarningsAsErrors). The whole tree takes about 15 CPU-minutes (7-8 minutes on
# 2 idle cores), too long for the test suite: run it before a merge, or on the
# files a change touches:
#   scripts/clang-tidy.sh build '/server/handlers/(hover|text_sync)\.cpp$'
# Usage: scripts/clang-tidy.sh [BUILD_DIR] [FILE_REGEX]   (default: build, every source)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
files=${2:-/(analysis|protocol|server|tests)/.*\.cpp$}
runner=$(command -v run-clang-tidy-14 || command -v run-clang-tidy || true)
if [ -z "$runner" ]; then
  echo "clang-tidy.sh: run-clang-tidy-14 not found (Debian: apt-get install clang-tidy-14)" >&2
  exit 2
fi
if [ ! -f "$build/compile_commands.json" ]; then
  echo "clang-tidy.sh: no $build/compile_commands.json: configure that build first" >&2
  exit 2
fi
# -quiet drops the per-file banners; the findings and the failing files remain.
exec "$runner" -p "$build" -j"$(nproc)" -quiet "$files"

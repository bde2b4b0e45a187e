#!/usr/bin/env bash
# The whole test suite under AddressSanitizer + UndefinedBehaviorSanitizer
# (clang, build-asan/), then each fuzz target for a short time.
# Usage: scripts/sanitize.sh [FUZZ_SECONDS]   (default 20 per target; 0 skips fuzzing)
set -euo pipefail
cd "$(dirname "$0")/.."
fuzz_seconds=${1:-20}
scripts/setup.sh test >/dev/null
CC=clang CXX=clang++ cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DMSPROBE_LSP_SANITIZE=ON -DMSPROBE_LSP_FUZZ=ON >/dev/null
cmake --build build-asan -j"$(nproc)"
# Sanitized code runs a few times slower; no test measures time (their waits
# only guard against a hang), so nothing needs stretching here.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
ctest --test-dir build-asan --output-on-failure -j"$(nproc)"
if [ "$fuzz_seconds" -gt 0 ]; then
  scripts/fuzz.sh "$fuzz_seconds"
fi

#!/usr/bin/env bash
# Installs everything the tests need, builds, and runs the whole test suite:
# unit tests, rule fixtures, LSP transcripts, CLI tests, the editor end-to-end
# tests (Neovim, VS Code) and the fuzz corpora (ctest), then the same suite
# under ASan + UBSan with each fuzz target run briefly (scripts/sanitize.sh).
# MSPROBE_SKIP_SANITIZE=1 skips the sanitizer pass (a quicker local loop);
# MSPROBE_FUZZ_SECONDS (default 20) is the fuzzing time per target.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh test
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)"
ctest --test-dir build --output-on-failure -j"$(nproc)"
if [ "${MSPROBE_SKIP_SANITIZE:-0}" != 1 ]; then
  echo
  echo "== the suite again under AddressSanitizer + UndefinedBehaviorSanitizer, then the fuzzers"
  scripts/sanitize.sh "${MSPROBE_FUZZ_SECONDS:-20}"
fi

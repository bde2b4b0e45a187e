#!/usr/bin/env bash
# Installs everything the tests need, builds, and runs the whole test suite:
# unit tests, rule fixtures, LSP transcripts and CLI tests (ctest), then the
# editor end-to-end tests.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh test
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)"
ctest --test-dir build --output-on-failure -j"$(nproc)"

#!/usr/bin/env bash
# The main job: install the build dependencies, build msprobe-lsp, and run it
# on the example training script shipped in examples/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)"
echo
echo "== msprobe-lsp check examples/ =="
set +e
build/server/msprobe-lsp check examples/
rc=$?
set -e
# Findings are the point of the run: exit 1 (an error-severity finding) is not a failure here.
[ $rc -le 1 ] || exit $rc

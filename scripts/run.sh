#!/usr/bin/env bash
# The main job: install what building needs, build the msprobe-lsp binary (only
# that target: the tests are scripts/test.sh's business), and show what it does
# on the example training script in examples/: the findings, what the engine
# sees in the script, the change `enable` proposes as the diff a user would
# review, and a generated config.json for a short first run.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)" --target msprobe-lsp

bin=build/server/msprobe-lsp
example=examples/train.py
show() {
  echo
  echo "== msprobe-lsp $*"
}

show check examples/
set +e
"$bin" check examples/
rc=$?
set -e
# Findings are the point of the run: exit 1 (an error-severity finding) is not a failure here.
[ $rc -le 1 ] || exit $rc

show explain "$example"
"$bin" explain "$example"

show enable "$example" --diff
"$bin" enable "$example" --diff

show config --step 0,1 --dump-path ./dump_path
"$bin" config --step 0,1 --dump-path ./dump_path

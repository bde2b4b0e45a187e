#!/usr/bin/env bash
# Runs the libFuzzer targets (tests/fuzz) for SECONDS each (default 600), built
# with clang, ASan and UBSan in build-asan/. New inputs go to
# build-asan/fuzz-corpus/<target>; a crash stops the run, is saved under
# build-asan/fuzz-artifacts/ and makes this script fail: copy it to
# tests/fuzz/regressions/<target>/ so it replays in every test run.
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]   targets: frame_reader server analysis incremental
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(frame_reader server analysis incremental)

scripts/setup.sh test >/dev/null
if [ ! -f build-asan/CMakeCache.txt ]; then
  CC=clang CXX=clang++ cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DMSPROBE_LSP_SANITIZE=ON -DMSPROBE_LSP_FUZZ=ON >/dev/null
fi
cmake --build build-asan -j"$(nproc)" --target $(printf 'fuzz_%s ' "${targets[@]}")

seeds_analysis=(tests/corpus/scripts tests/rules/fixtures tests/config/fixtures)
status=0
for t in "${targets[@]}"; do
  corpus=build-asan/fuzz-corpus/$t
  mkdir -p "$corpus" build-asan/fuzz-artifacts
  dirs=("$corpus")
  for d in "tests/fuzz/corpus/$t" "tests/fuzz/regressions/$t"; do [ -d "$d" ] && dirs+=("$d"); done
  if [ "$t" = analysis ]; then dirs+=("${seeds_analysis[@]}"); fi
  dict=()
  [ -f "tests/fuzz/$t.dict" ] && dict=(-dict="tests/fuzz/$t.dict")
  echo "== fuzz_$t for ${seconds} s (corpus: ${dirs[*]})"
  start=$(date +%s)
  if build-asan/tests/fuzz/fuzz_$t -max_total_time="$seconds" -timeout=30 -rss_limit_mb=4096 -print_final_stats=1 \
      -artifact_prefix="build-asan/fuzz-artifacts/$t-" "${dict[@]}" "${dirs[@]}" > "build-asan/fuzz-$t.log" 2>&1; then
    grep -E "^stat::(number_of_executed_units|peak_rss_mb)|^Done" "build-asan/fuzz-$t.log" | tr '\n' ' '
    echo "($(( $(date +%s) - start )) s, corpus $(ls "$corpus" | wc -l) new inputs)"
  else
    status=1
    echo "fuzz_$t FAILED; the end of its log (build-asan/fuzz-$t.log):"
    tail -40 "build-asan/fuzz-$t.log"
  fi
done
exit $status

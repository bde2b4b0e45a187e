#!/usr/bin/env bash
# Benchmarks (issue #8): builds Release with the bench tool, installs the peer
# servers if missing (pyright from npm, pinned, in its own folder; Debian's
# python3-pylsp), generates the scripts, runs every measure and writes
# docs/benchmarks.md. Not part of the default test run.
#
# Usage: scripts/bench.sh [--quick] [--no-peers] [--no-build]
#   --quick     fewer runs (a smoke test of the harness, figures not for the docs)
#   --no-peers  skip pyright and pylsp
# Environment: BENCH_JOBS (build parallelism, default 2), BENCH_OUT (inputs and
# results, default $TMPDIR/msprobe-lsp-bench: outside this repository, so that
# no input is part of a project it indexes), BENCH_BUILD (the Release build tree, default build-bench), BENCH_INSTR_LINES (scripts counted under
# callgrind, default "1000").
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)

PYRIGHT_VERSION=1.1.414
RUNS=9 CHANGES=5 RSS_RUNS=3 PARSE_ITERS=0 CHECK_RUNS=5 PEER_RUNS=9 PEER_BIG_RUNS=3
quick=0 peers=1 build=1
for a in "$@"; do
  case "$a" in
    --quick) quick=1 ;;
    --no-peers) peers=0 ;;
    --no-build) build=0 ;;
    *) echo "usage: scripts/bench.sh [--quick] [--no-peers] [--no-build]" >&2; exit 2 ;;
  esac
done
if [ $quick = 1 ]; then RUNS=3 CHANGES=3 RSS_RUNS=1 PARSE_ITERS=5 CHECK_RUNS=1 PEER_RUNS=2 PEER_BIG_RUNS=1; fi

# Its own Release build tree, so the test build (RelWithDebInfo, build/) is left alone.
BUILD=${BENCH_BUILD:-$ROOT/build-bench}
# Outside the repository: inside it, the server and `check` would take the
# whole repository (bench inputs included) for the inputs' project.
OUT=${BENCH_OUT:-${TMPDIR:-/tmp}/msprobe-lsp-bench}
PEERS=$ROOT/build/bench-peers
mkdir -p "$OUT" "$PEERS"

if [ $build = 1 ]; then
  scripts/setup.sh build
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DMSPROBE_LSP_BENCH=ON -DMSPROBE_LSP_BUILD_TESTS=OFF >/dev/null
  cmake --build "$BUILD" -j"${BENCH_JOBS:-2}"
fi
LSP=$BUILD/server/msprobe-lsp
PARSE_BENCH=$BUILD/tests/bench/parse_bench

# --- peers -------------------------------------------------------------------
PYRIGHT_JS=$PEERS/pyright/node_modules/pyright/langserver.index.js
if [ $peers = 1 ]; then
  if [ ! -f "$PYRIGHT_JS" ] || [ "$(node -p "require('$PEERS/pyright/node_modules/pyright/package.json').version")" != "$PYRIGHT_VERSION" ]; then
    echo "bench: installing pyright@$PYRIGHT_VERSION into $PEERS/pyright"
    mkdir -p "$PEERS/pyright"
    # Its own prefix: basedpyright (if ever added) declares the same bin names.
    npm install --silent --no-audit --no-fund --prefix "$PEERS/pyright" "pyright@$PYRIGHT_VERSION"
  fi
fi
# Debian packages: pylsp and the pyflakes it lints with; valgrind for the
# load-independent instruction counts.
apt_pkgs=(valgrind)
[ $peers = 1 ] && apt_pkgs+=(python3-pylsp python3-pyflakes)
missing=()
for p in "${apt_pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "bench: installing ${missing[*]} (Debian)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# --- inputs ------------------------------------------------------------------
FILES=$OUT/files
if [ ! -f "$FILES/train_50000.py" ]; then
  python3 tests/bench/gen_scripts.py sizes "$FILES"
fi
if [ ! -d "$OUT/docs100" ]; then
  for k in $(seq 1 100); do
    mkdir -p "$OUT/docs100"
    python3 tests/bench/gen_scripts.py one 1000 --seed "$k" > "$OUT/docs100/doc_$(printf %03d "$k").py"
  done
fi
if [ ! -d "$OUT/tree" ]; then
  python3 tests/bench/gen_scripts.py tree "$OUT/tree" --files 1000
fi

if [ ! -d "$OUT/project2000" ]; then
  python3 tests/bench/gen_project.py 2000 "$OUT/project2000"
  python3 tests/bench/gen_project.py 1000 "$OUT/project1000"
fi

RESULTS=$OUT/results.jsonl
: > "$RESULTS"
note() { echo "bench: $* (load $(cut -d' ' -f1-3 /proc/loadavg))"; }

# --- floor: raw parse vs analysis (C++ tool) ----------------------------------
note "parse floor"
iters_arg=()
[ "$PARSE_ITERS" != 0 ] && iters_arg=(--iterations "$PARSE_ITERS" --min-ms 0)
for clock in --cpu ""; do
  "$PARSE_BENCH" --json $clock "${iters_arg[@]}" "$FILES"/train_{100,1000,10000,50000}.py >> "$RESULTS"
done
if [ $quick = 0 ] && command -v valgrind >/dev/null 2>&1; then
  note "instruction counts (callgrind)"
  # Parse, analysis and one edit at 1k and 10k lines by default (about 5
  # minutes; BENCH_INSTR_LINES=1000 takes 30 s).
  for n in ${BENCH_INSTR_LINES:-1000 10000}; do
    python3 tests/bench/instr_bench.py --parse-bench "$PARSE_BENCH" --out "$RESULTS" "$FILES/train_$n.py" >/dev/null
  done
fi

# --- msprobe-lsp latency -------------------------------------------------------
B=tests/bench/lsp_bench.py
note "msprobe-lsp latency"
python3 $B --server msprobe --name msprobe-lsp --runs $RUNS --changes $CHANGES --out "$RESULTS" \
  --file "$FILES/train_100.py" --file "$FILES/train_1000.py" --file "$FILES/train_10000.py" \
  --file "$FILES/train_50000.py" -- "$LSP" >/dev/null
note "msprobe-lsp latency, default debounce"
python3 $B --server msprobe --name "msprobe-lsp (debounce default)" --debounce -1 --runs $RUNS --changes 3 \
  --requests 0 --out "$RESULTS" --file "$FILES/train_1000.py" -- "$LSP" >/dev/null
note "msprobe-lsp peak RSS"
python3 $B --server msprobe --name msprobe-lsp --rss "$OUT"/docs100/*.py --rss-runs $RSS_RUNS --out "$RESULTS" \
  -- "$LSP" >/dev/null

# --- peers, same files, same run -------------------------------------------------
if [ $peers = 1 ]; then
  PYLSP_CMD=(/usr/bin/python3 /usr/bin/pylsp)
  note "pyright"
  python3 $B --server pyright --name "pyright $PYRIGHT_VERSION" --runs $PEER_RUNS --changes 3 --out "$RESULTS" \
    --file "$FILES/train_100.py" --file "$FILES/train_1000.py" -- node "$PYRIGHT_JS" --stdio >/dev/null
  python3 $B --server pyright --name "pyright $PYRIGHT_VERSION" --runs $PEER_BIG_RUNS --changes 2 --out "$RESULTS" \
    --file "$FILES/train_10000.py" -- node "$PYRIGHT_JS" --stdio >/dev/null
  note "pylsp"
  python3 $B --server pylsp --name "pylsp $(dpkg-query -W -f='${Version}' python3-pylsp)" --runs $PEER_RUNS \
    --changes 3 --out "$RESULTS" --file "$FILES/train_100.py" --file "$FILES/train_1000.py" -- "${PYLSP_CMD[@]}" >/dev/null
  python3 $B --server pylsp --name "pylsp $(dpkg-query -W -f='${Version}' python3-pylsp)" --runs $PEER_BIG_RUNS \
    --changes 2 --out "$RESULTS" --file "$FILES/train_10000.py" -- "${PYLSP_CMD[@]}" >/dev/null
fi

# --- check throughput -------------------------------------------------------------
note "check throughput"
python3 tests/bench/check_bench.py --lsp "$LSP" --tree "$OUT/tree" --runs $CHECK_RUNS --out "$RESULTS"

# --- project index ------------------------------------------------------------------
note "project index"
python3 tests/bench/project_index_bench.py --bench "$BUILD/tests/bench/project_bench" --lsp "$LSP" \
  --big "$OUT/project2000" --mid "$OUT/project1000" --runs $CHECK_RUNS --out "$RESULTS" >/dev/null

# --- report ---------------------------------------------------------------------
mkdir -p docs
python3 tests/bench/report.py "$RESULTS" --lsp "$LSP" --pyright-js "$PYRIGHT_JS" \
  --notes tests/bench/profile-notes.md > docs/benchmarks.md
note "wrote docs/benchmarks.md"

#!/usr/bin/env bash
# Installs what building and testing msprobe-lsp needs on Debian bookworm
# (run as root). Idempotent: packages already present are not reinstalled.
# Usage: scripts/setup.sh [build|test]   (default: test, which is a superset)
set -euo pipefail
what=${1:-test}

build_pkgs=(cmake ninja-build g++ pkg-config ccache nlohmann-json3-dev libasio-dev libspdlog-dev libfmt-dev catch2 python3)
test_pkgs=(neovim emacs-nox elpa-eglot python3-torch clang libclang-rt-14-dev clang-format)  # clang: the ASan/UBSan build and libFuzzer

pkgs=("${build_pkgs[@]}")
[ "$what" = test ] && pkgs+=("${test_pkgs[@]}")
command -v npm >/dev/null 2>&1 || pkgs+=(nodejs npm)

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

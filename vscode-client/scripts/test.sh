#!/bin/sh
# The extension's unit tests (node's test runner): wizard logic, settings
# mapping, server lookup, status bar text, the manifest, and the checked-in
# JSON Schema against `msprobe-lsp schema`. Installs the npm dependencies
# (npm ci, offline-capable from the npm cache) when they are missing.
# Env: MSPROBE_LSP (the server binary; default ../build/server/msprobe-lsp).
set -eu
cd "$(dirname "$0")/.."
if [ ! -d node_modules/typescript ] || [ ! -d node_modules/vscode-languageclient ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
exec npm test --silent

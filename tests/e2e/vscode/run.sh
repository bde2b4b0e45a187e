#!/bin/sh
# Real-VS-Code end-to-end test: installs code-server (cached in build/e2e-cache), installs the
# npm dependencies, packages the extension (.vsix) and runs run.js against the server binary.
# Usage: tests/e2e/vscode/run.sh            (from anywhere; exit code = test result)
# Env: MSPROBE_LSP (default build/server/msprobe-lsp), E2E_BOOT_ONLY=1 (no server needed:
#      only checks that VS Code starts and the extension activates), E2E_SKIP_NPM_CI=1 (reuse
#      the installed node_modules), plus run.js's own variables.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
CLIENT=$ROOT/vscode-client
CACHE=$ROOT/build/e2e-cache
MSPROBE_LSP=${MSPROBE_LSP:-$ROOT/build/server/msprobe-lsp}
export MSPROBE_LSP

phase() { echo "== e2e/vscode: $*"; }
now() { date +%s; }
t_start=$(now)

if [ "${E2E_BOOT_ONLY:-0}" != 1 ] && [ ! -x "$MSPROBE_LSP" ]; then
  echo "e2e/vscode: server binary $MSPROBE_LSP not found; build it (cmake --build build) or set MSPROBE_LSP," >&2
  echo "            or run with E2E_BOOT_ONLY=1 to check only that VS Code boots and the extension activates." >&2
  exit 2
fi

phase "code-server (scripts/setup-code-server.sh)"
t=$(now)
sh "$ROOT/scripts/setup-code-server.sh" "$CACHE/code-server"
t_setup=$(( $(now) - t ))

t=$(now)
if [ "${E2E_SKIP_NPM_CI:-0}" = 1 ] && [ -d "$HERE/node_modules/playwright-core" ] && [ -d "$CLIENT/node_modules/@vscode/vsce" ]; then
  phase "npm ci skipped (E2E_SKIP_NPM_CI=1)"
else
  phase "npm ci (tests/e2e/vscode)"
  (cd "$HERE" && npm ci --no-audit --no-fund --loglevel=error)
  phase "npm ci (vscode-client)"
  (cd "$CLIENT" && npm ci --no-audit --no-fund --loglevel=error)
fi
t_npm=$(( $(now) - t ))

phase "package the extension"
t=$(now)
rm -f "$CLIENT"/msprobe-lsp-*.vsix
(cd "$CLIENT" && npm run --silent package)
VSIX=$(ls "$CLIENT"/msprobe-lsp-*.vsix)
t_package=$(( $(now) - t ))

phase "run.js"
t=$(now)
status=0
CODE_SERVER="$CACHE/code-server/package" node "$HERE/run.js" "$VSIX" || status=$?
t_run=$(( $(now) - t ))

echo "== e2e/vscode: timings (s): setup-code-server $t_setup, npm ci $t_npm, package $t_package, run.js $t_run, total $(( $(now) - t_start ))"
exit $status

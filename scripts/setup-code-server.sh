#!/bin/sh
# Installs code-server 4.100.3 (VS Code 1.100.3, the last release for Node 20) from the npm
# registry into DEST, for the real-VS-Code end-to-end test (tests/e2e/vscode). Uses Debian's
# ripgrep instead of @vscode/ripgrep's download, which this machine cannot reach.
# Usage: scripts/setup-code-server.sh [DEST]   (default: build/e2e-cache/code-server)
# Idempotent: does nothing when DEST/package/out/node/entry.js exists. The install is staged in
# DEST/.staging and moved into place only when complete, so a failed run is never taken as done.
set -eu

VERSION=4.100.3
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DEST=${1:-$ROOT/build/e2e-cache/code-server}

if [ -f "$DEST/package/out/node/entry.js" ]; then
  echo "setup-code-server: code-server already installed in $DEST"
  exit 0
fi

# ripgrep and the gssapi headers (for the kerberos native module) are needed by the install,
# chromium by the e2e test that drives the UI.
missing=""
command -v rg >/dev/null 2>&1 || missing="$missing ripgrep"
[ -f /usr/include/gssapi/gssapi.h ] || missing="$missing libkrb5-dev"
[ -x /usr/bin/chromium ] || missing="$missing chromium"
if [ -n "$missing" ]; then
  echo "setup-code-server: installing Debian packages:$missing"
  if [ "$(id -u)" != 0 ]; then
    echo "setup-code-server: need root to apt-get install$missing" >&2
    exit 1
  fi
  apt-get update -qq
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
RG=$(command -v rg)

start=$(date +%s)
rm -rf "$DEST/package" "$DEST/.staging"
mkdir -p "$DEST/.staging"
cd "$DEST/.staging"
echo "setup-code-server: fetching code-server@$VERSION"
npm pack "code-server@$VERSION" --silent >/dev/null
tar -xzf "code-server-$VERSION.tgz"
rm "code-server-$VERSION.tgz"
cd package

export npm_config_nodedir=/usr npm_config_dangerously_allow_all_scripts=true npm_config_yes=true
echo "setup-code-server: installing code-server's dependencies"
npm install --omit=dev --no-audit --no-fund --ignore-scripts >/dev/null
npm rebuild argon2 >/dev/null

echo "setup-code-server: installing VS Code's dependencies"
cd lib/vscode
npm install --omit=dev --no-audit --no-fund --ignore-scripts >/dev/null
# Skip @vscode/ripgrep's download from GitHub: use Debian's rg.
mkdir -p node_modules/@vscode/ripgrep/bin
ln -sf "$RG" node_modules/@vscode/ripgrep/bin/rg
echo "setup-code-server: building native modules (node-gyp, headers from /usr/include/node)"
npm rebuild >/dev/null
ln -sfn node_modules node_modules.asar
(cd bin/remote-cli && ln -sfn code-linux.sh code-server)
(cd bin/helpers && ln -sfn browser-linux.sh browser.sh)
echo "setup-code-server: installing the built-in extensions' dependencies"
(cd extensions && npm install --omit=dev --no-audit --no-fund >/dev/null)

cd "$DEST"
if ! node .staging/package/out/node/entry.js --version >/dev/null 2>&1; then
  echo "setup-code-server: installed, but 'node out/node/entry.js --version' fails in $DEST/.staging/package" >&2
  exit 1
fi
mv .staging/package package
rmdir .staging
echo "setup-code-server: code-server $(node package/out/node/entry.js --version | head -1) ready in $DEST ($(( $(date +%s) - start )) s)"

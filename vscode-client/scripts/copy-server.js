#!/usr/bin/env node
// Package step: ships the built server inside the .vsix at server/linux-x64/msprobe-lsp when
// ${MSPROBE_LSP:-../build/server/msprobe-lsp} exists. Optional: without it the extension uses
// msprobe.server.path or msprobe-lsp on PATH. A stale copy is removed so it is never shipped.
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const source = process.env.MSPROBE_LSP || path.resolve(root, '..', 'build', 'server', 'msprobe-lsp');
const destDir = path.join(root, 'server', 'linux-x64');
const dest = path.join(destDir, 'msprobe-lsp');

fs.rmSync(dest, { force: true });
if (process.platform !== 'linux' || process.arch !== 'x64') {
  console.log(`copy-server: building on ${process.platform}-${process.arch}; no linux-x64 server is bundled.`);
  process.exit(0);
}
if (!fs.existsSync(source)) {
  console.log(`copy-server: ${source} not found; the .vsix will use msprobe.server.path or msprobe-lsp on PATH.`);
  process.exit(0);
}
fs.mkdirSync(destDir, { recursive: true });
fs.copyFileSync(source, dest);
fs.chmodSync(dest, 0o755);
// Debug info is most of a RelWithDebInfo binary; the shipped copy does not need it.
try {
  execFileSync('strip', ['--strip-debug', dest], { stdio: 'ignore' });
} catch {
  // No binutils: ship it as built.
}
// What the server looks for beside itself: the rule reference the diagnostics link to, the
// msProbe reference its docs link to, and the runner of `msprobe-lsp verify`.
const shipped = [
  path.resolve(root, '..', 'docs', 'rules.md'),
  path.resolve(root, '..', 'docs', 'msprobe-reference.md'),
  path.resolve(root, '..', 'server', 'python', 'msprobe_verify_runner.py'),
];
const copied = [];
for (const file of shipped) {
  const target = path.join(destDir, path.basename(file));
  fs.rmSync(target, { force: true });
  if (fs.existsSync(file)) {
    fs.copyFileSync(file, target);
    copied.push(path.basename(file));
  }
}
console.log(`copy-server: bundled ${source} (${fs.statSync(dest).size} bytes) as server/linux-x64/msprobe-lsp` +
  (copied.length ? `, with ${copied.join(', ')} beside it` : ''));

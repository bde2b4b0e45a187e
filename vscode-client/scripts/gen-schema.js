#!/usr/bin/env node
// Regenerates schemas/msprobe-config.schema.json from the server's own field metadata:
//   ${MSPROBE_LSP:-../build/server/msprobe-lsp} schema > schemas/msprobe-config.schema.json
// test/schema.test.ts fails when the checked-in file differs from this output.
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const binary = process.env.MSPROBE_LSP || path.resolve(root, '..', 'build', 'server', 'msprobe-lsp');
const out = path.join(root, 'schemas', 'msprobe-config.schema.json');

if (!fs.existsSync(binary)) {
  console.error(`gen-schema: ${binary} does not exist. Build the server first (cmake --build build) or set MSPROBE_LSP.`);
  process.exit(1);
}
let text;
try {
  text = execFileSync(binary, ['schema'], { encoding: 'utf8', timeout: 20000 });
} catch (e) {
  console.error(`gen-schema: \`${binary} schema\` failed: ${e.message}`);
  process.exit(1);
}
try {
  JSON.parse(text);
} catch (e) {
  console.error(`gen-schema: \`${binary} schema\` did not print JSON: ${e.message}`);
  process.exit(1);
}
if (!text.endsWith('\n')) text += '\n';
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, text);
console.log(`gen-schema: wrote ${path.relative(process.cwd(), out)} (${text.length} bytes) from ${binary}`);

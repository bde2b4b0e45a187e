// Checks on package.json that break the extension at run time when wrong.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const SERVER_COMMANDS = [
  'msprobe.generateConfig', 'msprobe.enableDump', 'msprobe.disableDump', 'msprobe.removeDump',
  'msprobe.checkDump', 'msprobe.showInfo', 'msprobe.vllmAscendFlags',
];

describe('package.json', () => {
  it('never contributes a command id the server registers (vscode-languageclient would fail to start)', () => {
    const ids: string[] = manifest.contributes.commands.map((c: { command: string }) => c.command);
    for (const id of ids) {
      assert.ok(!SERVER_COMMANDS.includes(id), id);
      assert.ok(id.startsWith('msprobe.client.'), id);
    }
    assert.deepEqual(ids.sort(), [
      'msprobe.client.disableDump', 'msprobe.client.enableDump', 'msprobe.client.generateConfig',
      'msprobe.client.restartServer', 'msprobe.client.runVerification', 'msprobe.client.showInfo',
    ]);
  });
  it('keeps @types/vscode within engines.vscode (vsce refuses otherwise)', () => {
    assert.equal(manifest.engines.vscode, '^1.91.0');
    assert.equal(manifest.devDependencies['@types/vscode'], '~1.91.0');
  });
  it('activates on Python and config.json, and validates config.json with the schema', () => {
    assert.ok(manifest.activationEvents.includes('onLanguage:python'));
    assert.ok(manifest.activationEvents.some((e: string) => e.includes('config.json')));
    const v = manifest.contributes.jsonValidation[0];
    assert.equal(v.fileMatch, '**/config.json');
    assert.ok(fs.existsSync(path.join(ROOT, v.url)));
  });
  it('has what vsce package needs offline', () => {
    assert.equal(manifest.license, 'MIT');
    assert.ok(manifest.repository);
    assert.ok(fs.existsSync(path.join(ROOT, 'LICENSE')));
    assert.ok(fs.existsSync(path.join(ROOT, 'README.md')));
  });
  it('has editor context menu entries for Python files only', () => {
    for (const m of manifest.contributes.menus['editor/context']) assert.equal(m.when, 'editorLangId == python');
  });
});

// Unit tests of how the server binary is found (setting, bundled copy, PATH).
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import * as l from '../src/serverLocator';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'msprobe-locator-'));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

function makeBin(p: string, mode = 0o755): string {
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, '#!/bin/sh\n');
  fs.chmodSync(p, mode);
  return p;
}

describe('locateServer', () => {
  const ext = path.join(tmp, 'ext');
  const binDir = path.join(tmp, 'bin');
  const onPath = makeBin(path.join(binDir, 'msprobe-lsp'));
  const custom = makeBin(path.join(tmp, 'custom', 'msprobe-lsp'));

  it('uses the setting first', () => {
    assert.deepEqual(l.locateServer({ settingPath: custom, extensionPath: ext, envPath: binDir }), {
      found: true, command: custom, source: 'setting',
    });
  });
  it('expands ${workspaceFolder} and relative paths in the setting', () => {
    const r = l.locateServer({ settingPath: '${workspaceFolder}/custom/msprobe-lsp', extensionPath: ext, workspaceFolder: tmp, envPath: '' });
    assert.equal(r.found && r.command, custom);
    const r2 = l.locateServer({ settingPath: 'custom/msprobe-lsp', extensionPath: ext, workspaceFolder: tmp, envPath: '' });
    assert.equal(r2.found && r2.command, custom);
  });
  it('looks a bare name in the setting up on PATH', () => {
    const r = l.locateServer({ settingPath: 'msprobe-lsp', extensionPath: ext, envPath: binDir });
    assert.equal(r.found && r.command, onPath);
  });
  it('reports a setting that points nowhere, without falling back', () => {
    const r = l.locateServer({ settingPath: '/nope/msprobe-lsp', extensionPath: ext, envPath: binDir });
    assert.equal(r.found, false);
    if (!r.found) assert.match(r.message, /msprobe\.server\.path/);
  });
  it('prefers the bundled binary over PATH and restores a lost exec bit', () => {
    const bundled = makeBin(l.bundledServerPath(ext, 'linux', 'x64'), 0o644);
    const r = l.locateServer({ settingPath: '', extensionPath: ext, envPath: binDir, platform: 'linux', arch: 'x64' });
    assert.deepEqual(r, { found: true, command: bundled, source: 'bundled' });
    assert.ok(l.isExecutableFile(bundled));
  });
  it('falls back to PATH', () => {
    const r = l.locateServer({ settingPath: '', extensionPath: path.join(tmp, 'empty'), envPath: `/nonexistent${path.delimiter}${binDir}` });
    assert.deepEqual(r, { found: true, command: onPath, source: 'PATH' });
  });
  it('explains the fix when nothing is found', () => {
    const r = l.locateServer({ settingPath: '', extensionPath: path.join(tmp, 'empty'), envPath: '/nonexistent' });
    assert.equal(r.found, false);
    if (!r.found) {
      assert.match(r.message, /not found/);
      assert.match(r.message, /msprobe\.server\.path/);
      assert.match(r.message, /PATH/);
      assert.equal(r.tried.length, 2);
    }
  });
  it('ignores directories and non-executables on PATH', () => {
    fs.mkdirSync(path.join(tmp, 'dirbin', 'msprobe-lsp'), { recursive: true });
    makeBin(path.join(tmp, 'noexec', 'msprobe-lsp'), 0o644);
    assert.equal(l.findOnPath('msprobe-lsp', [path.join(tmp, 'dirbin'), path.join(tmp, 'noexec')].join(path.delimiter)), undefined);
  });
});

// Unit tests of the settings mapping, checked against the contributions in package.json.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import * as s from '../src/settings';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const props: Record<string, { default: unknown; description?: string; markdownDescription?: string }> =
  manifest.contributes.configuration.properties;

describe('settings vs package.json', () => {
  it('contributes exactly the keys settings.ts knows, with the same defaults and a description', () => {
    const contributed = Object.keys(props).map((k) => k.replace(/^msprobe\./, '')).sort();
    assert.deepEqual(contributed, [...s.SETTING_KEYS].sort());
    for (const key of s.SETTING_KEYS) {
      const p = props[`msprobe.${key}`];
      assert.deepEqual(p.default, s.SETTING_DEFAULTS[key], `default of msprobe.${key}`);
      assert.ok((p.description ?? p.markdownDescription ?? '').length > 20, `description of msprobe.${key}`);
    }
  });
});

describe('readSettings', () => {
  it('gives the defaults when nothing is set', () => {
    assert.deepEqual(s.readSettings(() => undefined), { ...s.SETTING_DEFAULTS });
  });
  it('keeps good values and normalises codes', () => {
    const values: Record<string, unknown> = {
      'server.path': ' /opt/msprobe-lsp ',
      'server.args': ['--log', 'debug'],
      'trace.server': 'verbose',
      torchVersion: '2.7.1',
      msprobeVersion: '26.0.0',
      debounceMs: 300.4,
      disabledRules: ['msp206'],
      severityOverrides: { msp101: 'Warning', MSP201: 'fatal', MSP202: 'hint' },
      showSyntaxErrors: false,
      probeEnvironment: false,
      parseTimeoutMs: 5000.6,
      configGlobs: ['**/msprobe*.json'],
    };
    const r = s.readSettings((k) => values[k]);
    assert.equal(r['server.path'], '/opt/msprobe-lsp');
    assert.deepEqual(r['server.args'], ['--log', 'debug']);
    assert.equal(r['trace.server'], 'verbose');
    assert.equal(r.debounceMs, 300);
    assert.deepEqual(r.disabledRules, ['MSP206']);
    assert.deepEqual(r.severityOverrides, { MSP101: 'warning', MSP202: 'hint' });
    assert.equal(r.showSyntaxErrors, false);
    assert.deepEqual(r.configGlobs, ['**/msprobe*.json']);
    assert.equal(r.probeEnvironment, false);
    assert.equal(r.parseTimeoutMs, 5001);
    assert.equal(r.configPath, './config.json');
  });
  it('clamps parseTimeoutMs to the range the server accepts', () => {
    const at = (v: unknown) => s.readSettings((k) => (k === 'parseTimeoutMs' ? v : undefined)).parseTimeoutMs;
    assert.equal(at(1), s.PARSE_TIMEOUT_RANGE.min);
    assert.equal(at(10), 10);
    assert.equal(at(60000), 60000);
    assert.equal(at(1e9), s.PARSE_TIMEOUT_RANGE.max);
    assert.equal(at(Number.NaN), s.SETTING_DEFAULTS.parseTimeoutMs);
  });
  it('falls back to defaults on wrong types', () => {
    const values: Record<string, unknown> = {
      'server.args': 'x',
      'trace.server': 'loud',
      debounceMs: -1,
      disabledRules: [1],
      severityOverrides: [],
      showSyntaxErrors: 'yes',
      pythonPath: '  ',
      probeEnvironment: 'no',
      parseTimeoutMs: '2000',
    };
    const r = s.readSettings((k) => values[k]);
    assert.deepEqual(r, { ...s.SETTING_DEFAULTS });
  });
});

describe('initializationOptions', () => {
  it('nests dotted keys like VS Code does for the msprobe section', () => {
    const opts = s.initializationOptions({ ...s.SETTING_DEFAULTS, 'server.path': '/x', torchVersion: '2.6.0' });
    const st = opts.settings as Record<string, any>;
    assert.equal(st.server.path, '/x');
    assert.deepEqual(st.server.args, []);
    assert.equal(st.trace.server, 'off');
    assert.equal(st.torchVersion, '2.6.0');
    assert.equal(st.debounceMs, 150);
    assert.equal(st['server.path'], undefined);
    assert.deepEqual(Object.keys(st).sort(), [
      'configGlobs', 'configPath', 'debounceMs', 'disabledRules', 'docsBaseUrl', 'index', 'msprobeVersion', 'parseTimeoutMs',
      'probeEnvironment', 'pythonPath', 'server', 'severityOverrides', 'showSyntaxErrors', 'torchVersion',
      'trace',
    ]);
    assert.equal(st.probeEnvironment, true);
    assert.equal(st.parseTimeoutMs, 1500);
    assert.deepEqual(st.index, { enabled: true, maxFiles: 5000 });
  });

  it('keeps the index settings in range', () => {
    const read = (v: Record<string, unknown>) => s.readSettings((k) => v[k]);
    assert.equal(read({ 'index.enabled': false })['index.enabled'], false);
    assert.equal(read({ 'index.enabled': 'no' })['index.enabled'], true);
    assert.equal(read({ 'index.maxFiles': 200 })['index.maxFiles'], 200);
    assert.equal(read({ 'index.maxFiles': 0 })['index.maxFiles'], 5000);
    assert.equal(read({ 'index.maxFiles': 2.5 })['index.maxFiles'], 5000);
  });
});

describe('versions', () => {
  it('classifies msProbe generations', () => {
    assert.equal(s.msprobeGeneration(''), '26.x');
    assert.equal(s.msprobeGeneration('26.0.0'), '26.x');
    assert.equal(s.msprobeGeneration('8.3.3'), '8.x');
    assert.equal(s.msprobeGeneration('1.0.4'), '8.x');
  });
  it('accepts version strings', () => {
    for (const v of ['', '2.7', '2.7.1', '2.7.1+cpu', '26.0.0rc1']) assert.ok(s.isVersionString(v), v);
    for (const v of ['latest', 'v2']) assert.ok(!s.isVersionString(v), v);
  });
});

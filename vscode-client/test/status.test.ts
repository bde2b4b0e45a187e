// Unit tests of the status bar text and of reading results from the server's commands.
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { describeResult } from '../src/results';
import { statusView, versionsFromInfo } from '../src/status';

describe('status bar', () => {
  it('shows the state and the versions from the settings first', () => {
    const v = statusView('running', { torchVersion: '2.7.1', msprobeVersion: '' }, { torchVersion: '2.1.0', msprobeVersion: '8.3.3' });
    assert.match(v.text, /msProbe · torch 2\.7\.1 · msProbe 8\.3\.3$/);
    assert.ok(!v.text.includes('running'));
    assert.equal(v.isError, false);
  });
  it('marks unknown versions and non-running states', () => {
    const v = statusView('starting', { torchVersion: '', msprobeVersion: '' });
    assert.match(v.text, /starting · torch \? · msProbe 26\.x/);
    assert.match(v.tooltip, /unknown/);
    assert.equal(statusView('not found', { torchVersion: '', msprobeVersion: '' }).isError, true);
    assert.match(statusView('stopped', { torchVersion: '', msprobeVersion: '' }).text, /stopped/);
  });
  it('reads versions from a showInfo object or JSON text', () => {
    assert.deepEqual(versionsFromInfo({ name: 'msprobe-lsp', torchVersion: '2.6.0', msprobeVersion: '26.0.0' }), {
      torchVersion: '2.6.0', msprobeVersion: '26.0.0',
    });
    assert.deepEqual(versionsFromInfo('{"torchVersion":"2.6.0"}'), { torchVersion: '2.6.0' });
    assert.deepEqual(versionsFromInfo('msprobe-lsp 0.1.0'), {});
    assert.deepEqual(versionsFromInfo(null), {});
  });
});

describe('describeResult', () => {
  it('handles strings, message objects, failure flags and null', () => {
    assert.equal(describeResult('X', 'ok\nmore').message, 'X: ok');
    assert.equal(describeResult('X', null).failed, false);
    const f = describeResult('X', { applied: false, reason: 'no loop found' });
    assert.equal(f.failed, true);
    assert.equal(f.message, 'X: no loop found');
    const o = describeResult('X', { ok: true, steps: [0] });
    assert.equal(o.message, 'X: done.');
    assert.match(o.detail, /"steps"/);
  });
});

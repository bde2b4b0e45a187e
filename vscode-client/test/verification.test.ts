// Unit tests of "Run short verification": the verify command line and the message from its report.
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import * as v from '../src/verification';

describe('verify arguments', () => {
  it('runs msprobe-lsp verify on the script with the configured interpreter and a report file', () => {
    assert.deepEqual(v.verifyArguments({ script: '/ws/train.py', python: '/usr/bin/python3', reportFile: '/tmp/r.json' }), [
      'verify', '/ws/train.py', '--python', '/usr/bin/python3', '--report', '/tmp/r.json',
    ]);
    assert.deepEqual(
      v.verifyArguments({ script: 't.py', python: 'python3', reportFile: 'r', steps: 2, config: '/ws/c.json' }).slice(-4),
      ['--steps', '2', '--config', '/ws/c.json'],
    );
  });
});

describe('the short run message', () => {
  const report = (ok: boolean, extra: Record<string, unknown> = {}) => ({
    script: 'train.py',
    command: 'python3 runner.py -- train.py',
    dump_path: '/ws/dump_path_verify',
    run: { outcome: 'ended by verify after step() returned 1 time(s)' },
    ok,
    report: {
      causes: ok ? [] : ['steps [0] were never dumped: the run ended earlier'],
      tensor_estimate: ['a tensor dump of step 0 would write about 1.3 GB on rank 0', 'the config dumps every step: about 1.3 GB per step'],
      text: 'config: ...\nresult: the dump looks complete\n',
      ...extra,
    },
  });
  it('says the dump is complete and shows the estimate', () => {
    const d = v.describeVerification(report(true), 0);
    assert.equal(d.failed, false);
    assert.equal(d.message, 'msProbe short verification: the dump looks complete. A tensor dump of step 0 would write about ' +
      '1.3 GB on rank 0; the config dumps every step: about 1.3 GB per step.');
    assert.ok(d.detail.includes('run: ended by verify after step() returned 1 time(s)'));
    assert.ok(d.detail.includes('result: the dump looks complete'));
  });
  it('names the first cause when the dump is incomplete', () => {
    const d = v.describeVerification(report(false, { tensor_estimate: [] }), 1);
    assert.equal(d.failed, true);
    assert.equal(d.message, 'msProbe short verification: the dump is missing or incomplete: steps [0] were never dumped: the run ended earlier.');
  });
  it('points at the terminal when verify wrote no report', () => {
    assert.match(v.describeVerification(undefined, 2).message, /could not run the script; see the terminal/);
    assert.equal(v.describeVerification(undefined, 2).failed, true);
  });
});

describe('the estimate from msprobe.checkDump', () => {
  it('reads previous_dump_estimate.lines', () => {
    assert.deepEqual(v.previousDumpEstimate({ previous_dump_estimate: { dumpPath: '/d', lines: ['a', 'b'] } }), ['a', 'b']);
    assert.deepEqual(v.previousDumpEstimate({}), []);
    assert.deepEqual(v.previousDumpEstimate(null), []);
  });
});

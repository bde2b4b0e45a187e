// Unit tests of the config wizard's pure logic (choices, validation, preview, arguments).
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import * as w from '../src/wizard';

describe('task choices', () => {
  it('offers the 26.x PyTorch tasks with statistics first and recommended', () => {
    const c = w.taskChoices('');
    assert.deepEqual(c.map((x) => x.value), ['statistics', 'tensor', 'nan_check', 'structure', 'acc_check']);
    assert.equal(c[0].recommended, true);
    assert.ok(c[0].description.startsWith(w.RECOMMENDED));
    assert.equal(c.filter((x) => x.recommended).length, 1);
    for (const x of c) assert.ok(x.description.length > 10, `${x.label} has a description`);
  });
  it('offers the 8.x tasks for an 8.x target', () => {
    const values = w.taskChoices('8.3.3').map((x) => x.value);
    assert.ok(values.includes('overflow_check'));
    assert.ok(!values.includes('nan_check'));
    assert.equal(values[0], 'statistics');
  });
  it('treats 26.0.0 like the default', () => {
    assert.deepEqual(w.taskChoices('26.0.0'), w.taskChoices(''));
  });
});

describe('level choices', () => {
  it('recommends L1 first for statistics', () => {
    const c = w.levelChoices('statistics');
    assert.equal(c[0].value, 'L1');
    assert.equal(c[0].recommended, true);
    assert.deepEqual(c.map((x) => x.value), ['L1', 'L0', 'mix', 'debug']);
  });
  it('offers L2 only for tensor', () => {
    assert.ok(w.levelChoices('tensor').some((x) => x.value === 'L2'));
    assert.ok(!w.levelChoices('statistics').some((x) => x.value === 'L2'));
  });
  it('limits structure to mix/L0 and nan_check to L1', () => {
    assert.deepEqual(w.levelChoices('structure').map((x) => x.value), ['mix', 'L0']);
    assert.equal(w.levelChoices('structure')[0].recommended, true);
    assert.deepEqual(w.levelChoices('nan_check').map((x) => x.value), ['L1']);
  });
});

describe('rank and step choices', () => {
  it('recommends [] for rank and [0,1] for step, with a custom entry', () => {
    const r = w.rankChoices();
    assert.deepEqual(r[0].value, []);
    assert.equal(r[0].recommended, true);
    assert.equal(r[r.length - 1].value, undefined);
    const s = w.stepChoices();
    assert.equal(s[0].label, '[0,1]');
    assert.deepEqual(s[0].value, [0, 1]);
    assert.deepEqual(s[1].value, []);
    assert.equal(s[2].label, w.CUSTOM_LABEL);
  });
});

describe('parseRangeList', () => {
  const ok = (text: string, value: unknown) => assert.deepEqual(w.parseRangeList(text), { ok: true, value });
  const bad = (text: string, re: RegExp) => {
    const r = w.parseRangeList(text);
    assert.equal(r.ok, false, text);
    if (!r.ok) assert.match(r.error, re);
  };
  it('accepts ints, "N" and "A-B" in several spellings', () => {
    ok('', []);
    ok('[]', []);
    ok('0', [0]);
    ok('0, 1', [0, 1]);
    ok('[0,1,"4-6"]', [0, 1, '4-6']);
    ok('0 1 4-6', [0, 1, '4-6']);
    ok('"3"', [3]);
    ok("'2-2'", ['2-2']);
    ok('1000000', [1000000]);
  });
  it('rejects what msProbe rejects', () => {
    bad('5-3', /left boundary \(5\) cannot be greater than the right boundary \(3\)/);
    bad('-3', /hyphen/);
    bad('3-', /hyphen/);
    bad('a', /not a step/);
    bad('1.5', /not a step/);
    bad('1000001', /between 0 and 1000000/);
    bad('[0, 1', /Unbalanced/);
  });
  it('names the field in messages', () => {
    assert.match(w.validateRangeInput('x', 'rank') ?? '', /not a rank/);
    assert.equal(w.validateRangeInput('0-3', 'rank'), undefined);
  });
});

describe('validateDumpPath', () => {
  it('accepts msProbe-safe paths', () => {
    for (const p of ['./dump_path', '/data/run1/dump_path', 'C:/x/y', 'a-b_c.d']) assert.equal(w.validateDumpPath(p), undefined, p);
  });
  it('rejects empty and special characters, naming them', () => {
    assert.match(w.validateDumpPath('  ') ?? '', /required/);
    assert.match(w.validateDumpPath('/data/my dump') ?? '', /space/);
    assert.match(w.validateDumpPath('/data/a$b') ?? '', /"\$"/);
    assert.match(w.validateDumpPath('/data/数据') ?? '', /only letters/);
  });
  it('defaults to <folder>/dump_path', () => {
    assert.equal(w.defaultDumpPath('/ws/proj'), '/ws/proj/dump_path');
    assert.equal(w.defaultDumpPath('/ws/proj/'), '/ws/proj/dump_path');
    assert.equal(w.defaultDumpPath(undefined), './dump_path');
  });
});

const answers: w.WizardAnswers = { task: 'statistics', level: 'L1', rank: [], step: [0, 1], dump_path: '/ws/dump_path' };

describe('preview and arguments', () => {
  it('builds the config the server writes', () => {
    assert.deepEqual(w.buildConfigPreview(answers), {
      task: 'statistics',
      dump_path: '/ws/dump_path',
      rank: [],
      step: [0, 1],
      level: 'L1',
      async_dump: false,
      extra_info: true,
      statistics: { scope: [], list: [], data_mode: ['all'], summary_mode: 'statistics' },
    });
    assert.deepEqual(JSON.parse(w.previewText(answers)), w.buildConfigPreview(answers));
  });
  it('has a block named after every offered task', () => {
    for (const t of [...w.taskChoices(''), ...w.taskChoices('8.0.0')]) {
      const cfg = w.buildConfigPreview({ ...answers, task: t.value! });
      assert.ok(t.value! in cfg, t.value);
    }
  });
  it('formats the preview compactly and parseably', () => {
    const text = w.previewText(answers);
    assert.ok(text.includes('"step": [0, 1]'), text);
    assert.ok(text.includes('    "statistics": {\n        "scope": [],'), text);
    assert.deepEqual(JSON.parse(w.formatJson({ a: [{ b: 1 }, { c: [] }], d: {} })), { a: [{ b: 1 }, { c: [] }], d: {} });
    const dialog = w.previewForDialog(answers);
    assert.ok(!/^ /m.test(dialog));
    assert.ok(dialog.includes('"task": "statistics"'));
    assert.deepEqual(JSON.parse(dialog.replace(/\u00a0/g, ' ')), w.buildConfigPreview(answers));
  });
  it('builds the generateConfig arguments', () => {
    assert.deepEqual(w.generateConfigArguments(answers, 'file:///ws/config.json'), [
      { task: 'statistics', level: 'L1', rank: [], step: [0, 1], dump_path: '/ws/dump_path', uri: 'file:///ws/config.json' },
    ]);
    assert.equal(w.generateConfigArguments(answers, 'file:///ws/config.json', true)[0].overwrite, true);
  });
  it('summarises the answers', () => {
    assert.equal(w.summary(answers), 'statistics / L1 / rank [] / step [0,1]');
  });
});

describe('interpretGenerateResult', () => {
  it('reads written, exists and failed answers', () => {
    assert.deepEqual(w.interpretGenerateResult({ written: true }), { kind: 'written', uri: undefined });
    assert.deepEqual(w.interpretGenerateResult(null), { kind: 'written' });
    assert.deepEqual(w.interpretGenerateResult({ written: true, uri: 'file:///a' }), { kind: 'written', uri: 'file:///a' });
    assert.equal(w.interpretGenerateResult({ written: false, reason: 'config.json already exists' }).kind, 'exists');
    assert.equal(w.interpretGenerateResult({ written: false, exists: true }).kind, 'exists');
    assert.deepEqual(w.interpretGenerateResult({ written: false, reason: 'bad level' }), { kind: 'failed', reason: 'bad level' });
  });
});

describe('task choices with the estimate of a previous dump', () => {
  const estimate = [
    'a tensor dump of step 0 would write about 1.3 GB on rank 0',
    'for the 2 configured step(s) [0, 1]: about 2.6 GB',
  ];
  it('adds the first and the last line to the tensor choice only', () => {
    const plain = w.taskChoices('');
    const c = w.taskChoices('', estimate);
    const tensor = c.find((x) => x.value === 'tensor');
    assert.ok(tensor);
    assert.ok(tensor.description.endsWith(`Previous dump of this config: ${estimate[0]}; ${estimate[1]}`));
    assert.deepEqual(c.filter((x) => x.value !== 'tensor'), plain.filter((x) => x.value !== 'tensor'));
  });
  it('leaves the choices alone without an estimate', () => {
    assert.deepEqual(w.taskChoices('8.3.3', []), w.taskChoices('8.3.3'));
  });
});

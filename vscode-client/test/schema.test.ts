// The checked-in JSON Schema must be what the server prints with `msprobe-lsp schema`, so the
// schema and the server's config checks never drift. Regenerate with `npm run gen-schema`.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const SCHEMA = path.join(ROOT, 'schemas', 'msprobe-config.schema.json');
const BINARY = process.env.MSPROBE_LSP || path.resolve(ROOT, '..', 'build', 'server', 'msprobe-lsp');

describe('config.json schema', () => {
  it('is valid JSON Schema text with the core fields', () => {
    const schema = JSON.parse(fs.readFileSync(SCHEMA, 'utf8'));
    assert.equal(schema.type, 'object');
    for (const k of ['task', 'dump_path', 'rank', 'step', 'level']) assert.ok(k in schema.properties, k);
  });

  const skip = fs.existsSync(BINARY)
    ? false
    : `server binary ${BINARY} does not exist yet (build it, or set MSPROBE_LSP); schema drift not checked`;
  it('matches `msprobe-lsp schema`', { skip }, () => {
    let out: string;
    try {
      out = execFileSync(BINARY, ['schema'], { encoding: 'utf8', timeout: 60000 });
    } catch (e) {
      assert.fail(`\`${BINARY} schema\` failed: ${(e as Error).message}`);
    }
    const normalise = (t: string) => (t.endsWith('\n') ? t : `${t}\n`);
    assert.equal(
      normalise(fs.readFileSync(SCHEMA, 'utf8')),
      normalise(out),
      'schemas/msprobe-config.schema.json differs from `msprobe-lsp schema`: run `npm run gen-schema` and commit the result',
    );
  });
});

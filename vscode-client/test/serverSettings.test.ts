// The settings the real server reports (msprobe.showInfo) must all be contributed by the extension,
// with the server's own defaults, so no server setting is missing from the Settings UI and no
// client default silently differs from the server's. Needs the built server binary.
import { strict as assert } from 'node:assert';
import { ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { SETTING_DEFAULTS } from '../src/settings';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const BINARY = process.env.MSPROBE_LSP || path.resolve(ROOT, '..', 'build', 'server', 'msprobe-lsp');
const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const props: Record<string, { default: unknown; description?: string; markdownDescription?: string }> =
  manifest.contributes.configuration.properties;

/** Server settings that are test-only knobs, deliberately not contributed. */
const TEST_ONLY = new Set(['testAnalysisDelayMs']);
const TIMEOUT_MS = 60000;  // a hang guard: nothing here is timed

type Message = { id?: number | string | null; method?: string; params?: unknown; result?: any; error?: any };

/** A minimal LSP client over stdio with Content-Length framing. */
class StdioClient {
  private buf = Buffer.alloc(0);
  private nextId = 1;
  private pending = new Map<number, { resolve: (m: Message) => void; reject: (e: Error) => void }>();
  stderr = '';
  readonly exited: Promise<number | null>;

  constructor(private readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.on('data', (d: Buffer) => this.onData(d));
    child.stderr.on('data', (d: Buffer) => {
      this.stderr += d.toString('utf8');
    });
    this.exited = new Promise((resolve) => {
      child.on('exit', (code) => {
        for (const p of this.pending.values()) p.reject(new Error(`server exited (code ${code}) before answering`));
        this.pending.clear();
        resolve(code);
      });
    });
    child.on('error', (e) => {
      for (const p of this.pending.values()) p.reject(e);
      this.pending.clear();
    });
  }

  private write(msg: object): void {
    const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...msg }), 'utf8');
    this.child.stdin.write(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]));
  }

  private onData(d: Buffer): void {
    this.buf = Buffer.concat([this.buf, d]);
    for (;;) {
      const end = this.buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      const header = this.buf.subarray(0, end).toString('ascii');
      const m = /content-length:\s*(\d+)/i.exec(header);
      if (!m) throw new Error(`bad LSP header from the server: ${JSON.stringify(header)}`);
      const len = Number(m[1]);
      if (this.buf.length < end + 4 + len) return;
      const msg = JSON.parse(this.buf.subarray(end + 4, end + 4 + len).toString('utf8')) as Message;
      this.buf = this.buf.subarray(end + 4 + len);
      this.dispatch(msg);
    }
  }

  private dispatch(msg: Message): void {
    if (msg.method !== undefined) {
      // A request from the server (e.g. workspace/configuration) gets a null answer; notifications
      // (logMessage, showMessage, publishDiagnostics) are ignored.
      if (msg.id !== undefined && msg.id !== null) this.write({ id: msg.id, result: null });
      return;
    }
    if (typeof msg.id !== 'number') return;
    const p = this.pending.get(msg.id);
    if (!p) return;
    this.pending.delete(msg.id);
    if (msg.error) p.reject(new Error(`server error ${JSON.stringify(msg.error)}`));
    else p.resolve(msg);
  }

  request(method: string, params?: unknown): Promise<any> {
    const id = this.nextId++;
    const answer = new Promise<Message>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    this.write(params === undefined ? { id, method } : { id, method, params });
    return answer.then((m) => m.result);
  }

  notify(method: string, params?: unknown): void {
    this.write(params === undefined ? { method } : { method, params });
  }
}

describe('server settings vs the extension', { timeout: TIMEOUT_MS }, () => {
  const skip = fs.existsSync(BINARY)
    ? false
    : `server binary ${BINARY} does not exist yet (build it, or set MSPROBE_LSP); server settings not checked`;

  it('contributes every setting msprobe.showInfo reports, with the server default', { skip, timeout: TIMEOUT_MS }, async () => {
    const child = spawn(BINARY, ['--stdio'], { cwd: os.tmpdir(), stdio: ['pipe', 'pipe', 'pipe'] });
    const client = new StdioClient(child);
    let clean = false;
    // A hung server is killed before the test's own timeout, so pending requests fail with a reason
    // and the child never keeps the test process alive.
    const watchdog = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS - 3000);
    try {
      // No settings: the server reports its own defaults.
      const init = await client.request('initialize', {
        processId: process.pid,
        clientInfo: { name: 'serverSettings.test' },
        rootUri: null,
        workspaceFolders: null,
        capabilities: {},
      });
      assert.ok(init && init.capabilities, 'initialize returned capabilities');
      client.notify('initialized', {});

      const info = await client.request('workspace/executeCommand', { command: 'msprobe.showInfo', arguments: [] });
      assert.ok(info && typeof info === 'object', 'msprobe.showInfo returned an object');
      const settings = info.settings as Record<string, unknown>;
      assert.ok(settings && typeof settings === 'object' && !Array.isArray(settings), 'showInfo has a settings object');
      const keys = Object.keys(settings).filter((k) => !TEST_ONLY.has(k));
      assert.ok(keys.length > 0, 'showInfo reports at least one setting');

      const defaults = SETTING_DEFAULTS as unknown as Record<string, unknown>;
      for (const key of keys) {
        const p = props[`msprobe.${key}`];
        assert.ok(p, `server setting ${key} is contributed in package.json as msprobe.${key}`);
        assert.ok((p.description ?? p.markdownDescription ?? '').length > 20, `msprobe.${key} has a description`);
        assert.ok(key in defaults, `server setting ${key} is in SETTING_DEFAULTS`);
        assert.deepEqual(defaults[key], settings[key], `SETTING_DEFAULTS.${key} equals the server default`);
        assert.deepEqual(p.default, settings[key], `package.json default of msprobe.${key} equals the server default`);
      }
      // The environment probe switch is reported in the config section, not under settings.
      const probe = info.config?.probeEnvironment;
      if (typeof probe === 'boolean') {
        assert.ok(props['msprobe.probeEnvironment'], 'msprobe.probeEnvironment is contributed');
        assert.equal(SETTING_DEFAULTS.probeEnvironment, probe, 'SETTING_DEFAULTS.probeEnvironment equals the server default');
      }

      assert.equal(await client.request('shutdown'), null, 'shutdown answers null');
      client.notify('exit');
      child.stdin.end();
      const code = await client.exited;
      assert.equal(code, 0, `the server exits with 0 after shutdown + exit; stderr:\n${client.stderr}`);
      clean = true;
    } finally {
      clearTimeout(watchdog);
      if (!clean && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });
});

// VS Code side of msprobe-lsp: starts the language server, and adds the UI the server cannot
// have on its own: the config.json wizard, commands, a status bar item and the output channel.
// The pure parts (choices, validation, settings, messages) live in modules without `vscode`.

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  ExecuteCommandRequest,
  LanguageClient,
  LanguageClientOptions,
  RevealOutputChannelOn,
  ServerOptions,
  State,
} from 'vscode-languageclient/node';
import { describeResult } from './results';
import { describeVerification, previousDumpEstimate, verifyArguments } from './verification';
import { locateServer } from './serverLocator';
import { initializationOptions, MsprobeSettings, readSettings, RESTART_KEYS } from './settings';
import { ServerInfoVersions, ServerState, statusView, versionsFromInfo } from './status';
import { SettingTraceChannel } from './traceChannel';
import * as wizard from './wizard';

/** Commands the server lists in executeCommandProvider (vscode-languageclient registers them). */
const SERVER_COMMANDS = {
  generateConfig: 'msprobe.generateConfig',
  enableDump: 'msprobe.enableDump',
  disableDump: 'msprobe.disableDump',
  removeDump: 'msprobe.removeDump',
  checkDump: 'msprobe.checkDump',
  showInfo: 'msprobe.showInfo',
} as const;

function currentSettings(): MsprobeSettings {
  const cfg = vscode.workspace.getConfiguration('msprobe');
  return readSettings((key) => cfg.get(key));
}

function folderFor(uri?: vscode.Uri): vscode.WorkspaceFolder | undefined {
  const fromUri = uri ? vscode.workspace.getWorkspaceFolder(uri) : undefined;
  return fromUri ?? vscode.workspace.workspaceFolders?.[0];
}

/** Resolves msprobe.configPath against the workspace folder. */
function configUri(folder: vscode.WorkspaceFolder, configPath: string): vscode.Uri {
  if (path.isAbsolute(configPath)) return vscode.Uri.file(configPath);
  return vscode.Uri.file(path.resolve(folder.uri.fsPath, configPath));
}

function sameFile(a: vscode.Uri, b: vscode.Uri): boolean {
  return a.scheme === b.scheme && path.resolve(a.fsPath) === path.resolve(b.fsPath);
}

class MsprobeClient implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private state: ServerState = 'stopped';
  private serverVersions: ServerInfoVersions = {};
  private readonly output: vscode.LogOutputChannel;
  private readonly traceChannel: SettingTraceChannel;
  private readonly status: vscode.StatusBarItem;
  private readonly disposables: vscode.Disposable[] = [];
  /** Serialises start/stop/restart so that two restarts never race. */
  private lifecycle: Promise<void> = Promise.resolve();
  /** Config file watchers of the running client; replaced on every restart. */
  private watchers: vscode.FileSystemWatcher[] = [];
  /** The msprobe-lsp binary the client started; "Run short verification" runs its `verify`. */
  private serverCommand: string | undefined;

  constructor(private readonly context: vscode.ExtensionContext) {
    this.output = vscode.window.createOutputChannel('msProbe', { log: true });
    this.status = vscode.window.createStatusBarItem('msprobe.status', vscode.StatusBarAlignment.Right, 100);
    this.status.name = 'msProbe';
    this.status.command = 'msprobe.client.showInfo';
    this.traceChannel = new SettingTraceChannel(this.output);
    this.disposables.push(this.traceChannel, this.output, this.status);
    this.renderStatus();
    this.status.show();
  }

  dispose(): void {
    for (const w of this.watchers) w.dispose();
    for (const d of this.disposables) d.dispose();
  }

  log(line: string): void {
    this.output.info(`[client] ${line}`);
  }

  showLog(): void {
    this.output.show(true);
  }

  private setState(state: ServerState): void {
    this.state = state;
    this.renderStatus();
  }

  renderStatus(): void {
    const view = statusView(this.state, currentSettings(), this.serverVersions);
    this.status.text = view.text;
    this.status.tooltip = view.tooltip;
    this.status.backgroundColor = view.isError ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
  }

  start(): Promise<void> {
    this.lifecycle = this.lifecycle.then(() => this.doStart()).catch((e) => this.log(`start failed: ${e}`));
    return this.lifecycle;
  }

  stop(): Promise<void> {
    this.lifecycle = this.lifecycle.then(() => this.doStop()).catch((e) => this.log(`stop failed: ${e}`));
    return this.lifecycle;
  }

  restart(): Promise<void> {
    this.log('restarting the server');
    this.lifecycle = this.lifecycle
      .then(() => this.doStop())
      .then(() => this.doStart())
      .catch((e) => this.log(`restart failed: ${e}`));
    return this.lifecycle;
  }

  private async doStart(): Promise<void> {
    const settings = currentSettings();
    const located = locateServer({
      settingPath: settings['server.path'],
      extensionPath: this.context.extensionPath,
      workspaceFolder: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
    });
    if (!located.found) {
      this.setState('not found');
      this.log(located.message);
      this.log(`tried: ${located.tried.join(', ')}`);
      void vscode.window.showErrorMessage(located.message, 'Open Settings', 'Show Log').then((pick) => {
        if (pick === 'Open Settings') void vscode.commands.executeCommand('workbench.action.openSettings', 'msprobe.server.path');
        if (pick === 'Show Log') this.showLog();
      });
      return;
    }
    this.serverCommand = located.command;
    const args = ['--stdio', ...settings['server.args']];
    this.log(`starting ${located.command} ${args.join(' ')} (from ${located.source})`);
    // No `transport`: vscode-languageclient would append its own --stdio; we pass it first ourselves.
    const serverOptions: ServerOptions = { command: located.command, args };
    // config.json files always reach the server, which decides by their content or by the
    // scripts that name them; msprobe.configGlobs adds files that are always configs.
    const jsonGlobs = [...new Set(['**/config.json', ...settings.configGlobs])];
    const selector: LanguageClientOptions['documentSelector'] = [
      { scheme: 'file', language: 'python' },
      { scheme: 'untitled', language: 'python' },
      ...jsonGlobs.map((pattern) => ({ scheme: 'file', language: 'json', pattern })),
      ...jsonGlobs.map((pattern) => ({ scheme: 'file', language: 'jsonc', pattern })),
    ];
    const watchers = jsonGlobs.map((g) => vscode.workspace.createFileSystemWatcher(g));
    this.watchers = watchers;
    const clientOptions: LanguageClientOptions = {
      documentSelector: selector,
      outputChannel: this.output,
      // msprobe.trace.server turns LSP tracing on; traces go into the same "msProbe" channel.
      traceOutputChannel: this.traceChannel,
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      initializationOptions: initializationOptions(settings),
      // Sends workspace/didChangeConfiguration {settings: {msprobe: {...}}} on every change.
      synchronize: { configurationSection: 'msprobe', fileEvents: watchers },
    };
    // Id 'msprobe' makes vscode-languageclient read msprobe.trace.server (messages / verbose).
    const client = new LanguageClient('msprobe', 'msProbe language server', serverOptions, clientOptions);
    this.client = client;
    client.onDidChangeState((e) => {
      if (e.newState === State.Starting) this.setState('starting');
      else if (e.newState === State.Running) this.setState('running');
      else this.setState('stopped');
    });
    this.setState('starting');
    try {
      await client.start();
    } catch (e) {
      this.setState('stopped');
      const msg = `msProbe: the language server ${located.command} failed to start: ${(e as Error).message ?? e}`;
      this.log(msg);
      void vscode.window.showErrorMessage(msg, 'Show Log').then((pick) => pick && this.showLog());
      return;
    }
    const info = client.initializeResult?.serverInfo;
    this.log(`server running: ${info ? `${info.name} ${info.version ?? ''}` : 'no serverInfo'}`);
    void this.refreshServerVersions();
  }

  private async doStop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    for (const w of this.watchers) w.dispose();
    this.watchers = [];
    if (!client) return;
    try {
      if (client.isRunning()) await client.stop(5000);
    } catch (e) {
      this.log(`stopping the server: ${e}`);
    }
    await client.dispose().catch(() => undefined);
    this.setState('stopped');
  }

  /** Fills the versions in the status bar from showInfo, when the server knows them. */
  private async refreshServerVersions(): Promise<void> {
    try {
      const info = await this.execute(SERVER_COMMANDS.showInfo, [], { quiet: true });
      this.serverVersions = versionsFromInfo(info);
      this.renderStatus();
    } catch {
      // Older servers may not have showInfo; the status bar then shows the settings only.
    }
  }

  /** workspace/executeCommand on the server; throws with a user-facing message. */
  async execute(command: string, args: unknown[], opts: { quiet?: boolean } = {}): Promise<unknown> {
    const client = this.client;
    if (!client || !client.isRunning()) {
      const msg =
        this.state === 'not found'
          ? 'msProbe: the language server was not found (see the msProbe output).'
          : 'msProbe: the language server is not running. Run "msProbe: Restart server".';
      if (!opts.quiet) void vscode.window.showErrorMessage(msg, 'Show Log').then((p) => p && this.showLog());
      throw new Error(msg);
    }
    if (!opts.quiet) this.log(`executeCommand ${command} ${JSON.stringify(args)}`);
    try {
      return await client.sendRequest(ExecuteCommandRequest.type, { command, arguments: args });
    } catch (e) {
      const msg = `msProbe: ${command} failed: ${(e as Error).message ?? e}`;
      if (!opts.quiet) {
        this.log(msg);
        void vscode.window.showErrorMessage(msg, 'Show Log').then((p) => p && this.showLog());
      }
      throw new Error(msg);
    }
  }

  // ---- commands -------------------------------------------------------------------------

  async showInfo(): Promise<void> {
    let info: unknown;
    try {
      info = await this.execute(SERVER_COMMANDS.showInfo, []);
    } catch {
      this.showLog();
      return;
    }
    this.serverVersions = versionsFromInfo(info);
    this.renderStatus();
    this.output.appendLine('---- msProbe server info ----');
    this.output.appendLine(typeof info === 'string' ? info : JSON.stringify(info, null, 2));
    this.showLog();
  }

  async dumpCommand(serverCommand: string, title: string): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    if (!editor || editor.document.languageId !== 'python') {
      void vscode.window.showWarningMessage(`${title}: open the Python training script first.`);
      return;
    }
    let result: unknown;
    try {
      result = await this.execute(serverCommand, [{ uri: editor.document.uri.toString() }]);
    } catch {
      return;
    }
    const d = describeResult(title, result);
    this.log(d.detail);
    if (d.failed) void vscode.window.showWarningMessage(d.message);
    else if (editor.document.isDirty) void vscode.window.showInformationMessage(`${d.message} Review the changes and save the file.`);
    else void vscode.window.showInformationMessage(d.message);
  }

  async generateConfig(): Promise<void> {
    const folder = folderFor(vscode.window.activeTextEditor?.document.uri);
    if (!folder) {
      void vscode.window.showErrorMessage('msProbe: open a folder first; config.json is written into the workspace folder.');
      return;
    }
    const settings = currentSettings();
    const target = configUri(folder, settings.configPath);
    const title = 'msProbe: Generate config.json';

    // A config that already dumped once tells how big a tensor dump of it would be.
    let estimate: string[] = [];
    if (fs.existsSync(target.fsPath)) {
      try {
        estimate = previousDumpEstimate(await this.execute(SERVER_COMMANDS.checkDump, [{ configPath: target.fsPath, quiet: true }], { quiet: true }));
      } catch {
        // No estimate: the wizard works without it.
      }
    }
    const task = await pickChoice(
      wizard.taskChoices(settings.msprobeVersion, estimate),
      `${title} (1/5): task`,
      estimate.length ? `What should msProbe collect? (a previous dump says: ${estimate[0]})` : 'What should msProbe collect?',
    );
    if (task === undefined) return;
    const level = await pickChoice(wizard.levelChoices(task), `${title} (2/5): level`, `Granularity of the ${task} dump`);
    if (level === undefined) return;
    const rank = await pickRange(wizard.rankChoices(), `${title} (3/5): rank`, 'rank');
    if (rank === undefined) return;
    const step = await pickRange(wizard.stepChoices(), `${title} (4/5): step`, 'step');
    if (step === undefined) return;
    const dumpPath = await vscode.window.showInputBox({
      title: `${title} (5/5): dump_path`,
      prompt: 'Directory msProbe writes the dump into (an absolute path is recommended; reusing a directory overwrites it).',
      value: wizard.defaultDumpPath(folder.uri.fsPath),
      ignoreFocusOut: true,
      validateInput: wizard.validateDumpPath,
    });
    if (dumpPath === undefined) return;

    const answers: wizard.WizardAnswers = { task, level, rank, step, dump_path: dumpPath.trim() };
    const rel = vscode.workspace.asRelativePath(target, false);
    const confirm = await vscode.window.showInformationMessage(
      `Write this msProbe config to ${rel}?`,
      { modal: true, detail: wizard.previewForDialog(answers) },
      'Confirm',
    );
    if (confirm !== 'Confirm') return;

    let overwrite = false;
    for (;;) {
      let result: unknown;
      const requestedAt = Date.now();
      try {
        result = await this.execute(SERVER_COMMANDS.generateConfig, wizard.generateConfigArguments(answers, target.toString(), overwrite));
      } catch {
        return;
      }
      const outcome = wizard.interpretGenerateResult(result);
      if (outcome.kind === 'exists' && !overwrite) {
        const pick = await vscode.window.showWarningMessage(
          `${rel} already exists. Overwrite it?`,
          { modal: true, detail: outcome.reason },
          'Overwrite',
        );
        if (pick !== 'Overwrite') return;
        overwrite = true;
        continue;
      }
      if (outcome.kind !== 'written') {
        this.log(`generateConfig: ${outcome.reason}`);
        void vscode.window.showErrorMessage(`msProbe: config.json was not written: ${outcome.reason}`);
        return;
      }
      const written = outcome.uri ? vscode.Uri.parse(outcome.uri) : target;
      const saved = await this.saveEditedDocument(written, requestedAt);
      this.log(`generateConfig wrote ${written.fsPath} (${saved})`);
      void vscode.window.showInformationMessage(`msProbe: wrote ${rel} (${wizard.summary(answers)}).`);
      return;
    }
  }

  /**
   * A file created by a WorkspaceEdit stays a dirty, unsaved editor in VS Code (empty on disk).
   * The server's applyEdit may be applied just before or just after its executeCommand answer
   * arrives, so wait briefly for the dirty document, then save it.
   */
  private async saveEditedDocument(uri: vscode.Uri, requestedAt: number): Promise<string> {
    const deadline = Date.now() + 5000;
    for (;;) {
      const doc = vscode.workspace.textDocuments.find((d) => sameFile(d.uri, uri));
      if (doc?.isDirty) {
        const ok = await doc.save();
        if (ok) await vscode.window.showTextDocument(doc, { preview: false, preserveFocus: true });
        return ok ? 'saved' : 'save failed';
      }
      if (!doc) {
        // A server that wrote the file itself leaves no document behind.
        const st = fs.statSync(uri.fsPath, { throwIfNoEntry: false });
        if (st && st.size > 0 && st.mtimeMs >= requestedAt - 1000) return 'written by the server';
      }
      if (Date.now() > deadline) return doc ? 'no unsaved changes' : 'no document to save';
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /**
   * Runs `msprobe-lsp verify` on the script in a terminal: the script's PrecisionDebugger reads a
   * copy of its config limited to the first step, the run ends after it, the dump goes beside the
   * config's dump_path. The report verify writes is shown when the terminal closes.
   */
  async runVerification(): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    if (!editor || editor.document.languageId !== 'python' || editor.document.uri.scheme !== 'file') {
      void vscode.window.showWarningMessage('msProbe: open the Python script to verify (saved on disk) first.');
      return;
    }
    const server = this.serverCommand;
    if (!server) {
      void vscode.window.showErrorMessage('msProbe: the language server was not found (see the msProbe output).', 'Show Log').then((p) => p && this.showLog());
      return;
    }
    const doc = editor.document;
    const folder = folderFor(doc.uri);
    const settings = currentSettings();
    const script = doc.uri.fsPath;
    const cwd = folder?.uri.fsPath ?? path.dirname(script);
    const confirm = await vscode.window.showWarningMessage(
      `Run a short verification of ${path.basename(script)} now?`,
      {
        modal: true,
        detail:
          `"msprobe-lsp verify" runs the script with ${settings.pythonPath} in a terminal in ${cwd}${doc.isDirty ? ' (it is saved first)' : ''}. ` +
          'Its PrecisionDebugger reads a copy of the config it names, limited to "step": [0]; the run ends right after ' +
          'the first step() and the dump goes to <dump_path>_verify beside your dump_path. Your script, config and ' +
          'earlier dumps are not changed. Then the dump is checked, with an estimate of what a tensor dump would write.',
      },
      'Run',
    );
    if (confirm !== 'Run') return;
    if (doc.isDirty) await doc.save();
    const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'msprobe-verify-'));
    const reportFile = path.join(tmpDir, 'report.json');
    const args = verifyArguments({ script, python: settings.pythonPath, reportFile });
    this.log(`verification: ${server} ${args.join(' ')} (cwd ${cwd})`);
    const terminal = vscode.window.createTerminal({ name: 'msProbe verification', cwd, shellPath: server, shellArgs: args });
    terminal.show();
    // verify writes the report (atomically) when it is done; the terminal stays open for reading.
    let shown = false;
    const showOnce = (exitCode?: number) => {
      if (shown) return;
      shown = true;
      this.showVerification(reportFile, exitCode);
    };
    const watcher = fs.watch(tmpDir, (_event, name) => {
      if (name === 'report.json' && fs.existsSync(reportFile)) showOnce();
    });
    const sub = vscode.window.onDidCloseTerminal((t) => {
      if (t !== terminal) return;
      sub.dispose();
      watcher.close();
      showOnce(t.exitStatus?.code);
      fs.rmSync(tmpDir, { recursive: true, force: true });
    });
    this.disposables.push(sub, { dispose: () => watcher.close() });
  }

  private showVerification(reportFile: string, exitCode?: number): void {
    let report: unknown;
    try {
      report = JSON.parse(fs.readFileSync(reportFile, 'utf8'));
    } catch {
      report = undefined;
    }
    const d = describeVerification(report, exitCode);
    this.output.appendLine('---- msProbe short verification ----');
    this.output.appendLine(d.detail);
    const show = d.failed ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    void show(d.message, 'Show Details').then((p) => p && this.showLog());
  }

  onConfigurationChanged(e: vscode.ConfigurationChangeEvent): void {
    if (!e.affectsConfiguration('msprobe')) return;
    this.renderStatus();
    if (RESTART_KEYS.some((k) => e.affectsConfiguration(`msprobe.${k}`))) {
      void vscode.window
        .showInformationMessage('msProbe: the server path, arguments, config globs or environment probe setting changed. Restart the server now?', 'Restart')
        .then((pick) => pick && this.restart());
    }
  }
}

async function pickChoice<T>(choices: wizard.Choice<T>[], title: string, placeHolder: string): Promise<T | undefined> {
  type Item = vscode.QuickPickItem & { choice: wizard.Choice<T> };
  const items: Item[] = choices.map((c) => ({ label: c.label, description: c.description, choice: c }));
  const picked = await vscode.window.showQuickPick(items, { title, placeHolder, ignoreFocusOut: true, matchOnDescription: true });
  return picked?.choice.value;
}

/** A rank/step QuickPick; "custom…" opens an InputBox validated with msProbe's syntax. */
async function pickRange(
  choices: wizard.Choice<wizard.RangeItem[]>[],
  title: string,
  what: 'rank' | 'step',
): Promise<wizard.RangeItem[] | undefined> {
  type Item = vscode.QuickPickItem & { choice: wizard.Choice<wizard.RangeItem[]> };
  const items: Item[] = choices.map((c) => ({ label: c.label, description: c.description, choice: c }));
  const picked = await vscode.window.showQuickPick(items, {
    title,
    placeHolder: `Which ${what}s to dump`,
    ignoreFocusOut: true,
    matchOnDescription: true,
  });
  if (!picked) return undefined;
  if (picked.choice.value !== undefined) return picked.choice.value;
  const text = await vscode.window.showInputBox({
    title,
    prompt: `${what} list: numbers and inclusive ranges, e.g. 0, 1, "4-6" (empty = all)`,
    value: '0',
    ignoreFocusOut: true,
    validateInput: (v) => wizard.validateRangeInput(v, what),
  });
  if (text === undefined) return undefined;
  const parsed = wizard.parseRangeList(text, what);
  return parsed.ok ? parsed.value : undefined;
}

let instance: MsprobeClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const ext = new MsprobeClient(context);
  instance = ext;
  context.subscriptions.push(
    ext,
    vscode.commands.registerCommand('msprobe.client.generateConfig', () => ext.generateConfig()),
    vscode.commands.registerCommand('msprobe.client.enableDump', () =>
      ext.dumpCommand(SERVER_COMMANDS.enableDump, 'msProbe: enable dump'),
    ),
    vscode.commands.registerCommand('msprobe.client.disableDump', () =>
      ext.dumpCommand(SERVER_COMMANDS.disableDump, 'msProbe: disable dump'),
    ),
    vscode.commands.registerCommand('msprobe.client.showInfo', () => ext.showInfo()),
    vscode.commands.registerCommand('msprobe.client.restartServer', () => ext.restart()),
    vscode.commands.registerCommand('msprobe.client.runVerification', () => ext.runVerification()),
    vscode.workspace.onDidChangeConfiguration((e) => ext.onConfigurationChanged(e)),
  );
  await ext.start();
}

export async function deactivate(): Promise<void> {
  await instance?.stop();
  instance = undefined;
}

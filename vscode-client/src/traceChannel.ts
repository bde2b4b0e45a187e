// Makes the msprobe.trace.server setting work. vscode-languageclient 11 traces only while its
// trace channel's log level is Trace, which a user can set only through the log level UI. This
// channel reports level Trace exactly when msprobe.trace.server is not "off", and writes the
// traced messages into the "msProbe" output channel next to the server's own log.

import * as vscode from 'vscode';

export class SettingTraceChannel implements vscode.LogOutputChannel {
  private readonly levelEmitter = new vscode.EventEmitter<vscode.LogLevel>();
  readonly onDidChangeLogLevel = this.levelEmitter.event;
  private readonly configListener: vscode.Disposable;
  private level: vscode.LogLevel;

  constructor(private readonly target: vscode.LogOutputChannel) {
    this.level = SettingTraceChannel.levelFromSettings();
    this.configListener = vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration('msprobe.trace.server')) return;
      const next = SettingTraceChannel.levelFromSettings();
      if (next === this.level) return;
      this.level = next;
      this.levelEmitter.fire(next);
    });
  }

  private static levelFromSettings(): vscode.LogLevel {
    const v = vscode.workspace.getConfiguration('msprobe').get<string>('trace.server', 'off');
    return v === 'messages' || v === 'verbose' ? vscode.LogLevel.Trace : vscode.LogLevel.Info;
  }

  get name(): string {
    return this.target.name;
  }

  get logLevel(): vscode.LogLevel {
    return this.level;
  }

  // Traced messages are written at info level so that they show with the channel's default level.
  trace(message: string, ...args: unknown[]): void {
    this.target.info(`[trace] ${message}`, ...args);
  }
  debug(message: string, ...args: unknown[]): void {
    this.target.debug(message, ...args);
  }
  info(message: string, ...args: unknown[]): void {
    this.target.info(message, ...args);
  }
  warn(message: string, ...args: unknown[]): void {
    this.target.warn(message, ...args);
  }
  error(error: string | Error, ...args: unknown[]): void {
    this.target.error(error, ...args);
  }
  append(value: string): void {
    this.target.append(value);
  }
  appendLine(value: string): void {
    this.target.appendLine(value);
  }
  replace(value: string): void {
    this.target.replace(value);
  }
  clear(): void {
    this.target.clear();
  }
  show(columnOrPreserve?: vscode.ViewColumn | boolean, preserveFocus?: boolean): void {
    if (typeof columnOrPreserve === 'boolean') this.target.show(columnOrPreserve);
    else this.target.show(columnOrPreserve, preserveFocus);
  }
  hide(): void {
    this.target.hide();
  }
  /** Owns only its listener; the target channel is disposed by its owner. */
  dispose(): void {
    this.configListener.dispose();
    this.levelEmitter.dispose();
  }
}

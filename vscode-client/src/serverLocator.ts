// Finds the msprobe-lsp binary: the msprobe.server.path setting, else the copy shipped in the
// .vsix, else PATH. No `vscode` import, so it runs under `node --test`.

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const SERVER_BINARY = 'msprobe-lsp';

export interface LocateInput {
  /** msprobe.server.path (may be empty). */
  settingPath: string;
  /** Root of the installed extension (context.extensionPath). */
  extensionPath: string;
  /** First workspace folder, for ${workspaceFolder} in the setting. */
  workspaceFolder?: string;
  /** Defaults to process.env.PATH. */
  envPath?: string;
  platform?: NodeJS.Platform;
  arch?: string;
}

export type LocateResult =
  | { found: true; command: string; source: 'setting' | 'bundled' | 'PATH' }
  | { found: false; message: string; tried: string[] };

export function isExecutableFile(p: string): boolean {
  try {
    const st = fs.statSync(p);
    if (!st.isFile()) return false;
    fs.accessSync(p, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Expands `~` and `${workspaceFolder}` and makes a relative path absolute against the folder. */
export function expandSettingPath(p: string, workspaceFolder?: string): string {
  let out = p.trim();
  if (out === '~' || out.startsWith('~/')) out = path.join(os.homedir(), out.slice(1));
  if (workspaceFolder) out = out.split('${workspaceFolder}').join(workspaceFolder);
  if (!path.isAbsolute(out) && out.includes('/') && workspaceFolder) out = path.resolve(workspaceFolder, out);
  return out;
}

/** Where the package script puts the server inside the extension. */
export function bundledServerPath(extensionPath: string, platform: string = process.platform, arch: string = process.arch): string {
  return path.join(extensionPath, 'server', `${platform}-${arch}`, SERVER_BINARY);
}

export function findOnPath(name: string, envPath = process.env.PATH ?? ''): string | undefined {
  for (const dir of envPath.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

/** The bundled binary may lose its exec bit on the way through the .vsix; give it back. */
function ensureExecutable(p: string): boolean {
  if (isExecutableFile(p)) return true;
  try {
    if (!fs.statSync(p).isFile()) return false;
    fs.chmodSync(p, 0o755);
    return isExecutableFile(p);
  } catch {
    return false;
  }
}

export function locateServer(input: LocateInput): LocateResult {
  const tried: string[] = [];
  if (input.settingPath.trim() !== '') {
    const p = expandSettingPath(input.settingPath, input.workspaceFolder);
    // A bare name in the setting ("msprobe-lsp-dev") is looked up on PATH.
    const resolved = p.includes('/') ? p : findOnPath(p, input.envPath);
    if (resolved && isExecutableFile(resolved)) return { found: true, command: resolved, source: 'setting' };
    return {
      found: false,
      tried: [p],
      message:
        `msprobe.server.path is set to "${input.settingPath}", but ${resolved ?? p} is not an executable file. ` +
        'Fix the setting (or clear it to use the bundled server or msprobe-lsp on PATH), then run "msProbe: Restart server".',
    };
  }
  const bundled = bundledServerPath(input.extensionPath, input.platform, input.arch);
  tried.push(bundled);
  if (ensureExecutable(bundled)) return { found: true, command: bundled, source: 'bundled' };
  const onPath = findOnPath(SERVER_BINARY, input.envPath);
  tried.push(`${SERVER_BINARY} on PATH`);
  if (onPath) return { found: true, command: onPath, source: 'PATH' };
  return {
    found: false,
    tried,
    message:
      'The msProbe language server (msprobe-lsp) was not found: this extension has no bundled server for ' +
      `${input.platform ?? process.platform}-${input.arch ?? process.arch} and msprobe-lsp is not on PATH. ` +
      'Build it (cmake -S . -B build -G Ninja && cmake --build build), then set "msprobe.server.path" to ' +
      'build/server/msprobe-lsp or put it on PATH, and run "msProbe: Restart server".',
  };
}

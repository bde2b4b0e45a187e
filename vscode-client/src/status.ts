// Text of the status bar item: the server state and the torch / msProbe versions targeted.
// Versions come from the settings first, else from the server's msprobe.showInfo answer.
// No `vscode` import, so it runs under `node --test`.

export type ServerState = 'starting' | 'running' | 'stopped' | 'not found';

export interface ServerInfoVersions {
  torchVersion?: string;
  msprobeVersion?: string;
}

export interface StatusView {
  text: string;
  tooltip: string;
  isError: boolean;
}

const ICONS: Record<ServerState, string> = {
  starting: '$(sync~spin)',
  running: '$(beaker)',
  stopped: '$(debug-stop)',
  'not found': '$(error)',
};

/** Picks torchVersion / msprobeVersion out of a showInfo result (object, or JSON text). */
export function versionsFromInfo(info: unknown): ServerInfoVersions {
  let obj = info;
  if (typeof obj === 'string') {
    try {
      obj = JSON.parse(obj);
    } catch {
      return {};
    }
  }
  if (!obj || typeof obj !== 'object') return {};
  const r = obj as Record<string, unknown>;
  const out: ServerInfoVersions = {};
  if (typeof r.torchVersion === 'string' && r.torchVersion) out.torchVersion = r.torchVersion;
  if (typeof r.msprobeVersion === 'string' && r.msprobeVersion) out.msprobeVersion = r.msprobeVersion;
  return out;
}

export function statusView(
  state: ServerState,
  settings: { torchVersion: string; msprobeVersion: string },
  fromServer: ServerInfoVersions = {},
): StatusView {
  const torch = settings.torchVersion || fromServer.torchVersion || '';
  const msprobe = settings.msprobeVersion || fromServer.msprobeVersion || '';
  const parts = [`${ICONS[state]} msProbe`];
  if (state !== 'running') parts.push(state);
  parts.push(`torch ${torch || '?'}`, `msProbe ${msprobe || '26.x'}`);
  const tooltip = [
    `msProbe language server: ${state}`,
    `Target PyTorch: ${torch || 'unknown (set msprobe.torchVersion)'}`,
    `Target msProbe: ${msprobe || 'unknown, 26.x rules (set msprobe.msprobeVersion)'}`,
    'Click for server info.',
  ].join('\n');
  return { text: parts.join(' · '), tooltip, isError: state === 'not found' };
}

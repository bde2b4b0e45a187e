// The msprobe.* settings: their keys and defaults, and how they become the object the server
// receives in initializationOptions. No `vscode` import, so it runs under `node --test`.

export type Severity = 'error' | 'warning' | 'info' | 'hint';
export type TraceLevel = 'off' | 'messages' | 'verbose';

/** Every setting under the `msprobe.` prefix, keyed by its path below that prefix. */
export interface MsprobeSettings {
  'server.path': string;
  'server.args': string[];
  'trace.server': TraceLevel;
  torchVersion: string;
  msprobeVersion: string;
  configPath: string;
  docsBaseUrl: string;
  pythonPath: string;
  probeEnvironment: boolean;
  debounceMs: number;
  disabledRules: string[];
  severityOverrides: Record<string, Severity>;
  showSyntaxErrors: boolean;
  parseTimeoutMs: number;
  configGlobs: string[];
  'index.enabled': boolean;
  'index.maxFiles': number;
}

/** Defaults; they must equal the ones in package.json (a unit test checks it). */
export const SETTING_DEFAULTS: Readonly<MsprobeSettings> = Object.freeze({
  'server.path': '',
  'server.args': [],
  'trace.server': 'off',
  torchVersion: '',
  msprobeVersion: '',
  configPath: './config.json',
  docsBaseUrl: '',
  pythonPath: 'python3',
  probeEnvironment: true,
  debounceMs: 150,
  disabledRules: [],
  severityOverrides: {},
  showSyntaxErrors: true,
  parseTimeoutMs: 1500,
  configGlobs: [],
  'index.enabled': true,
  'index.maxFiles': 5000,
});

export const SETTING_KEYS = Object.keys(SETTING_DEFAULTS) as (keyof MsprobeSettings)[];

const SEVERITIES: readonly string[] = ['error', 'warning', 'info', 'hint'];
const TRACE_LEVELS: readonly string[] = ['off', 'messages', 'verbose'];
/** The range the server accepts for parseTimeoutMs (server/settings.cpp); readSettings clamps to it. */
export const PARSE_TIMEOUT_RANGE: Readonly<{ min: number; max: number }> = Object.freeze({ min: 10, max: 60000 });

/** Reads one setting by its key below `msprobe.`; undefined when unset. */
export type SettingGetter = (key: string) => unknown;

function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}

/**
 * Reads all settings through `get`, replacing values of the wrong type by the default, so the
 * server never sees a value it has to reject. Bad severity entries are dropped one by one.
 */
export function readSettings(get: SettingGetter): MsprobeSettings {
  const d = SETTING_DEFAULTS;
  const str = (k: keyof MsprobeSettings, def: string): string => {
    const v = get(k);
    return typeof v === 'string' ? v : def;
  };
  const strs = (k: keyof MsprobeSettings, def: readonly string[]): string[] => {
    const v = get(k);
    return isStringArray(v) ? [...v] : [...def];
  };
  const trace = get('trace.server');
  const debounce = get('debounceMs');
  const overridesRaw = get('severityOverrides');
  const severityOverrides: Record<string, Severity> = {};
  if (overridesRaw && typeof overridesRaw === 'object' && !Array.isArray(overridesRaw)) {
    for (const [code, sev] of Object.entries(overridesRaw as Record<string, unknown>)) {
      if (typeof sev === 'string' && SEVERITIES.includes(sev.toLowerCase())) {
        severityOverrides[code.trim().toUpperCase()] = sev.toLowerCase() as Severity;
      }
    }
  }
  const showSyntax = get('showSyntaxErrors');
  const probeEnv = get('probeEnvironment');
  const parseTimeout = get('parseTimeoutMs');
  const indexEnabled = get('index.enabled');
  const maxFiles = get('index.maxFiles');
  return {
    'server.path': str('server.path', d['server.path']).trim(),
    'server.args': strs('server.args', d['server.args']),
    'trace.server':
      typeof trace === 'string' && TRACE_LEVELS.includes(trace) ? (trace as TraceLevel) : d['trace.server'],
    torchVersion: str('torchVersion', d.torchVersion).trim(),
    msprobeVersion: str('msprobeVersion', d.msprobeVersion).trim(),
    configPath: str('configPath', d.configPath).trim() || d.configPath,
    docsBaseUrl: str('docsBaseUrl', d.docsBaseUrl).trim(),
    pythonPath: str('pythonPath', d.pythonPath).trim() || d.pythonPath,
    probeEnvironment: typeof probeEnv === 'boolean' ? probeEnv : d.probeEnvironment,
    debounceMs:
      typeof debounce === 'number' && Number.isFinite(debounce) && debounce >= 0
        ? Math.round(debounce)
        : d.debounceMs,
    disabledRules: strs('disabledRules', d.disabledRules).map((c) => c.trim().toUpperCase()),
    severityOverrides,
    showSyntaxErrors: typeof showSyntax === 'boolean' ? showSyntax : d.showSyntaxErrors,
    parseTimeoutMs:
      typeof parseTimeout === 'number' && Number.isFinite(parseTimeout)
        ? Math.min(PARSE_TIMEOUT_RANGE.max, Math.max(PARSE_TIMEOUT_RANGE.min, Math.round(parseTimeout)))
        : d.parseTimeoutMs,
    configGlobs: strs('configGlobs', d.configGlobs),
    'index.enabled': typeof indexEnabled === 'boolean' ? indexEnabled : d['index.enabled'],
    'index.maxFiles':
      typeof maxFiles === 'number' && Number.isInteger(maxFiles) && maxFiles >= 1 && maxFiles <= 1000000
        ? maxFiles
        : d['index.maxFiles'],
  };
}

/**
 * Turns dotted keys into the nested object VS Code itself produces for the `msprobe` section
 * (`server.path` -> `{server: {path}}`). This is the shape the server gets both in
 * initializationOptions.settings and in didChangeConfiguration's settings.msprobe.
 */
export function toNested(settings: MsprobeSettings): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of SETTING_KEYS) {
    const parts = key.split('.');
    let node = out;
    for (const p of parts.slice(0, -1)) {
      if (typeof node[p] !== 'object' || node[p] === null) node[p] = {};
      node = node[p] as Record<string, unknown>;
    }
    node[parts[parts.length - 1]] = settings[key];
  }
  return out;
}

/** The initializationOptions sent with `initialize`. */
export function initializationOptions(settings: MsprobeSettings): { settings: Record<string, unknown> } {
  return { settings: toNested(settings) };
}

/** Settings whose change only takes effect after the server (or client) is restarted. */
export const RESTART_KEYS: readonly (keyof MsprobeSettings)[] = ['server.path', 'server.args', 'configGlobs', 'probeEnvironment'];

/** Version strings accepted for torchVersion / msprobeVersion: empty, or digits with dots. */
export function isVersionString(v: string): boolean {
  return v === '' || /^\d+(\.\d+){0,2}([.+-]?[0-9A-Za-z.+-]*)?$/.test(v);
}

/** The msProbe API generation a version targets: 8.x (and 1.x) legacy, else 26.x. */
export function msprobeGeneration(version: string): '8.x' | '26.x' {
  const major = Number.parseInt(version, 10);
  if (Number.isFinite(major) && major < 26) return '8.x';
  return '26.x';
}

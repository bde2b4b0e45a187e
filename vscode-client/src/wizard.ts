// Pure logic of the "msProbe: Generate config.json" wizard: the choices offered for each field,
// input validation with msProbe's own rules, the JSON preview and the executeCommand arguments.
// No `vscode` import, so it runs under `node --test`; extension.ts only drives the UI.

import { msprobeGeneration } from './settings';

export interface Choice<T> {
  /** Shown as the QuickPick label; for value choices it is the value itself. */
  label: string;
  description: string;
  /** undefined for the "custom…" entry, which asks for a value in an InputBox. */
  value: T | undefined;
  recommended?: boolean;
}

export type RangeItem = number | string;

export interface WizardAnswers {
  task: string;
  level: string;
  rank: RangeItem[];
  step: RangeItem[];
  dump_path: string;
}

export const RECOMMENDED = '(recommended)';
export const CUSTOM_LABEL = 'custom…';

function choice<T>(label: string, value: T | undefined, description: string, recommended = false): Choice<T> {
  return { label, value, description: recommended ? `${RECOMMENDED} ${description}` : description, recommended };
}

/**
 * Tasks the PyTorch dump accepts, for the targeted msProbe generation (empty version = 26.x).
 * `estimate`: msprobe.checkDump's lines for the config's previous dump ("a tensor dump of
 * step 0 would write about 1.3 GB on rank 0", ...), shown on the tensor choice.
 */
export function taskChoices(msprobeVersion = '', estimate: string[] = []): Choice<string>[] {
  const choices = baseTaskChoices(msprobeVersion);
  if (estimate.length === 0) return choices;
  const said = estimate.length > 1 ? `${estimate[0]}; ${estimate[estimate.length - 1]}` : estimate[0];
  return choices.map((c) =>
    c.value === 'tensor' ? { ...c, description: `${c.description}. Previous dump of this config: ${said}` } : c,
  );
}

function baseTaskChoices(msprobeVersion: string): Choice<string>[] {
  if (msprobeGeneration(msprobeVersion) === '8.x') {
    return [
      choice('statistics', 'statistics', 'statistics (max/min/mean/norm) of every API input and output; light', true),
      choice('tensor', 'tensor', 'full tensors of every API input and output; large on disk'),
      choice('overflow_check', 'overflow_check', 'dump only the APIs that overflow (level L0 or L1)'),
      choice('structure', 'structure', 'model structure and call stacks only, no data'),
      choice('free_benchmark', 'free_benchmark', 'perturb APIs and compare, without a benchmark run (level L1)'),
      choice('run_ut', 'run_ut', 'accuracy pre-check of APIs; not a dump'),
      choice('grad_probe', 'grad_probe', 'gradient statistics per parameter'),
    ];
  }
  return [
    choice('statistics', 'statistics', 'statistics (max/min/mean/norm) of every API input and output; light', true),
    choice('tensor', 'tensor', 'full tensors of every API input and output; large on disk'),
    choice('nan_check', 'nan_check', 'find the first NaN/Inf; NPU only, level L1, needs a source build of msProbe'),
    choice('structure', 'structure', 'model structure and call stacks only, no data (level L0 or mix)'),
    choice('acc_check', 'acc_check', 'accuracy pre-check of APIs against a benchmark; not a dump'),
  ];
}

const LEVEL_TEXT: Record<string, string> = {
  L1: 'API level: every torch API call',
  L0: 'module level: every nn.Module forward/backward; needs start(model)',
  mix: 'L0 + L1, for compare and visualisation; needs start(model)',
  debug: 'single-point debugger.save(...) only',
  L2: 'kernel level; NPU only, task tensor with exactly one API in "list"',
};

/**
 * Levels that make sense for a task, recommended first. msProbe forces `structure` to mix
 * (with a warning) unless L0/mix, requires L1 for nan_check, and requires task tensor for L2.
 */
export function levelChoices(task: string): Choice<string>[] {
  let levels: string[];
  let recommended = 'L1';
  switch (task) {
    case 'structure':
      levels = ['mix', 'L0'];
      recommended = 'mix';
      break;
    case 'nan_check':
      levels = ['L1'];
      break;
    case 'overflow_check':
      levels = ['L1', 'L0'];
      break;
    case 'free_benchmark':
      levels = ['L1'];
      break;
    case 'tensor':
      levels = ['L1', 'L0', 'mix', 'debug', 'L2'];
      break;
    default:
      levels = ['L1', 'L0', 'mix', 'debug'];
  }
  return levels.map((l) => choice(l, l, LEVEL_TEXT[l] ?? '', l === recommended));
}

export function rankChoices(): Choice<RangeItem[]>[] {
  return [
    choice<RangeItem[]>('[]', [], 'all ranks; required for single-card runs', true),
    choice<RangeItem[]>(CUSTOM_LABEL, undefined, 'ranks to dump, e.g. 0, 1, "4-6"; only ranks that run produce data'),
  ];
}

export function stepChoices(): Choice<RangeItem[]>[] {
  return [
    choice<RangeItem[]>('[0,1]', [0, 1], 'steps 0 and 1 only: a short run to check the dump', true),
    choice<RangeItem[]>('[]', [], 'all steps (counted by debugger.step())'),
    choice<RangeItem[]>(CUSTOM_LABEL, undefined, 'steps to dump, e.g. 0, "4-6"'),
  ];
}

/** Upper bound msProbe accepts for one rank or step number. */
export const MAX_RANGE_VALUE = 1_000_000;

export type ParseResult<T> = { ok: true; value: T } | { ok: false; error: string };

/**
 * Parses a rank/step list the way msProbe's get_real_step_or_rank accepts it: ints in
 * [0, 1e6], "N", or "A-B" with A <= B. Accepts `0, 1, "4-6"`, `[0,1,"4-6"]` and `0 1 4-6`.
 * Plain numbers become ints; ranges stay strings, as msProbe writes them.
 */
export function parseRangeList(text: string, what = 'step'): ParseResult<RangeItem[]> {
  let body = text.trim();
  if (body.startsWith('[') && body.endsWith(']')) body = body.slice(1, -1).trim();
  else if (body.startsWith('[') || body.endsWith(']')) {
    return { ok: false, error: `Unbalanced brackets: write the ${what} list as 0, 1, "4-6" or [0, 1, "4-6"].` };
  }
  if (body === '') return { ok: true, value: [] };
  const tokens = body.split(/[\s,]+/).filter((t) => t !== '');
  const out: RangeItem[] = [];
  for (const raw of tokens) {
    const tok = raw.replace(/^["']|["']$/g, '');
    if (/^\d+$/.test(tok)) {
      const n = Number(tok);
      if (n > MAX_RANGE_VALUE) return { ok: false, error: `${tok} is too large: each ${what} must be between 0 and ${MAX_RANGE_VALUE}.` };
      out.push(n);
      continue;
    }
    const m = /^(\d+)-(\d+)$/.exec(tok);
    if (m) {
      const a = Number(m[1]);
      const b = Number(m[2]);
      if (a > b) return { ok: false, error: `"${tok}": the left boundary (${a}) cannot be greater than the right boundary (${b}).` };
      if (b > MAX_RANGE_VALUE) return { ok: false, error: `"${tok}": each ${what} must be between 0 and ${MAX_RANGE_VALUE}.` };
      out.push(`${a}-${b}`);
      continue;
    }
    if (tok.includes('-')) {
      return { ok: false, error: `"${tok}": the hyphen (-) must start and end with decimal numbers, as in "4-6".` };
    }
    return { ok: false, error: `"${tok}" is not a ${what}: use a number such as 3 or a range such as "3-5".` };
  }
  return { ok: true, value: out };
}

/** InputBox validator: undefined when valid, otherwise the message to show. */
export function validateRangeInput(text: string, what = 'step'): string | undefined {
  const r = parseRangeList(text, what);
  return r.ok ? undefined : r.error;
}

const DUMP_PATH_CHARS = /^[a-zA-Z0-9_.:/-]+$/;

/** dump_path validator with msProbe's character rule (checked after realpath). */
export function validateDumpPath(text: string): string | undefined {
  const p = text.trim();
  if (p === '') return 'dump_path is required: msProbe stops with "The dump_path not found." without it.';
  if (!DUMP_PATH_CHARS.test(p)) {
    const bad = [...new Set([...p].filter((c) => !/[a-zA-Z0-9_.:/-]/.test(c)))]
      .map((c) => (c === ' ' ? 'space' : JSON.stringify(c)))
      .join(', ');
    return `dump_path may contain only letters, digits and _ . : / - (found ${bad}); msProbe rejects other characters.`;
  }
  return undefined;
}

/** Default dump_path: an absolute path inside the workspace folder (absolute is recommended). */
export function defaultDumpPath(workspaceFolderPath: string | undefined): string {
  if (!workspaceFolderPath) return './dump_path';
  return `${workspaceFolderPath.replace(/\/+$/, '')}/dump_path`;
}

/** The task's own block, as msProbe's default config.json has it for that task. */
export function taskBlock(task: string): Record<string, unknown> {
  switch (task) {
    case 'statistics':
      return { scope: [], list: [], data_mode: ['all'], summary_mode: 'statistics' };
    case 'tensor':
      return { scope: [], list: [], data_mode: ['all'] };
    case 'nan_check':
      return { scope: [], list: [], data_mode: ['all'] };
    case 'acc_check':
      return { white_list: [], black_list: [], error_data_path: './' };
    case 'overflow_check':
      return { overflow_nums: 1 };
    default:
      return {};
  }
}

/** The config.json the server is asked to write, for the preview the user confirms. */
export function buildConfigPreview(a: WizardAnswers): Record<string, unknown> {
  return {
    task: a.task,
    dump_path: a.dump_path,
    rank: a.rank,
    step: a.step,
    level: a.level,
    async_dump: false,
    extra_info: true,
    [a.task]: taskBlock(a.task),
  };
}

/**
 * JSON with 4-space indentation where arrays of scalars stay on one line (`"step": [0, 1]`),
 * so the whole config fits in the confirmation dialog.
 */
export function formatJson(value: unknown, indent = ''): string {
  const inner = `${indent}    `;
  if (Array.isArray(value)) {
    if (value.every((v) => v === null || typeof v !== 'object')) return `[${value.map((v) => JSON.stringify(v)).join(', ')}]`;
    return `[\n${value.map((v) => inner + formatJson(v, inner)).join(',\n')}\n${indent}]`;
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return '{}';
    return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${formatJson(v, inner)}`).join(',\n')}\n${indent}}`;
  }
  return JSON.stringify(value);
}

export function previewText(a: WizardAnswers): string {
  return formatJson(buildConfigPreview(a));
}

/** The preview for a modal dialog, which drops leading spaces: indent with no-break spaces. */
export function previewForDialog(a: WizardAnswers): string {
  return previewText(a).replace(/^ +/gm, (m) => '\u00a0'.repeat(m.length));
}

export interface GenerateConfigArgs extends WizardAnswers {
  uri: string;
  overwrite?: boolean;
}

/** Arguments of workspace/executeCommand `msprobe.generateConfig`. */
export function generateConfigArguments(a: WizardAnswers, uri: string, overwrite = false): [GenerateConfigArgs] {
  const args: GenerateConfigArgs = {
    task: a.task,
    level: a.level,
    rank: a.rank,
    step: a.step,
    dump_path: a.dump_path.trim(),
    uri,
  };
  if (overwrite) args.overwrite = true;
  return [args];
}

export type GenerateOutcome =
  | { kind: 'written'; uri?: string }
  | { kind: 'exists'; reason: string }
  | { kind: 'failed'; reason: string };

/**
 * Reads the server's answer to msprobe.generateConfig. `{written: false, reason}` where the
 * reason says the file exists asks for an overwrite; any other `written: false` is a failure.
 * A null/absent result means the server applied its edit without saying more.
 */
export function interpretGenerateResult(result: unknown): GenerateOutcome {
  if (result && typeof result === 'object') {
    const r = result as { written?: unknown; reason?: unknown; exists?: unknown; uri?: unknown };
    const reason = typeof r.reason === 'string' ? r.reason : '';
    if (r.written === false) {
      if (r.exists === true || /exist/i.test(reason)) return { kind: 'exists', reason: reason || 'the file exists' };
      return { kind: 'failed', reason: reason || 'the server did not write the file' };
    }
    return { kind: 'written', uri: typeof r.uri === 'string' ? r.uri : undefined };
  }
  return { kind: 'written' };
}

/** For the status line after writing: `statistics / L1 / rank [] / step [0,1]`. */
export function summary(a: WizardAnswers): string {
  return `${a.task} / ${a.level} / rank ${JSON.stringify(a.rank)} / step ${JSON.stringify(a.step)}`;
}


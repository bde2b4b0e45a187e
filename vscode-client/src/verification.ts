// "msProbe: Run short verification": the command line it runs in a terminal
// (`msprobe-lsp verify`, which points the script's debugger at a copy of its config
// limited to the first step and ends the run after it) and the message it shows from the
// report verify writes. No `vscode` import, so it runs under `node --test`.

export interface VerifyOptions {
  script: string;
  python: string;
  reportFile: string;
  steps?: number;
  config?: string;
}

/** Arguments of `msprobe-lsp verify` (after the binary). */
export function verifyArguments(o: VerifyOptions): string[] {
  const args = ['verify', o.script, '--python', o.python, '--report', o.reportFile];
  if (o.steps !== undefined && o.steps !== 1) args.push('--steps', String(o.steps));
  if (o.config) args.push('--config', o.config);
  return args;
}

export interface VerificationOutcome {
  /** One line for a notification. */
  message: string;
  /** Full text for the output channel. */
  detail: string;
  failed: boolean;
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/**
 * The notification for a finished short run: verify's report (the JSON of --report), or
 * undefined when verify wrote none (it could not start: the terminal says why).
 */
export function describeVerification(report: unknown, exitCode: number | undefined): VerificationOutcome {
  const title = 'msProbe short verification';
  if (!report || typeof report !== 'object') {
    const why = exitCode === 2 ? 'verify could not run the script' : 'the run ended without a report';
    return { message: `${title}: ${why}; see the terminal.`, detail: `${title}: ${why} (exit code ${exitCode ?? '?'})`, failed: true };
  }
  const r = report as Record<string, unknown>;
  const dump = (r.report && typeof r.report === 'object' ? r.report : {}) as Record<string, unknown>;
  const estimate = strings(dump.tensor_estimate);
  const causes = strings(dump.causes);
  const ok = r.ok === true;
  let message = ok ? `${title}: the dump looks complete.` : `${title}: the dump is missing or incomplete: ${causes[0] ?? 'see the details'}.`;
  // The volume a tensor dump would take is what a user decides on next.
  if (estimate.length) message += ` ${capitalise(estimate[0])}${estimate.length > 1 ? `; ${estimate[estimate.length - 1]}` : ''}.`;
  const run = (r.run && typeof r.run === 'object' ? r.run : {}) as Record<string, unknown>;
  const lines = [
    `${title} of ${String(r.script ?? '?')}`,
    `  command: ${String(r.command ?? '?')}`,
    `  run: ${String(run.outcome ?? '?')}`,
    `  dump: ${String(r.dump_path ?? '?')}`,
  ];
  const text = typeof dump.text === 'string' ? dump.text : '';
  return { message, detail: `${lines.join('\n')}\n${text}`, failed: !ok };
}

function capitalise(s: string): string {
  return s.length ? s[0].toUpperCase() + s.slice(1) : s;
}

/** The estimate lines msprobe.checkDump returns for a config's previous dump (may be empty). */
export function previousDumpEstimate(checkDumpResult: unknown): string[] {
  if (!checkDumpResult || typeof checkDumpResult !== 'object') return [];
  const p = (checkDumpResult as Record<string, unknown>).previous_dump_estimate;
  if (!p || typeof p !== 'object') return [];
  return strings((p as Record<string, unknown>).lines);
}

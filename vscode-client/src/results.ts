// How the answers of the server's commands (enableDump, disableDump, showInfo, checkDump) are
// turned into a message for the user. No `vscode` import, so it runs under `node --test`.

export interface Described {
  /** One line for a notification. */
  message: string;
  /** Full text for the output channel. */
  detail: string;
  /** true when the server says the command did not do what was asked. */
  failed: boolean;
}

function pretty(v: unknown): string {
  if (typeof v === 'string') return v;
  try {
    return JSON.stringify(v, null, 2) ?? String(v);
  } catch {
    return String(v);
  }
}

/**
 * Reads the common result shapes: a plain string, `{message}` / `{summary}` / `{reason}` with
 * optional `ok` / `applied` / `written` flags (false = failed), or anything else (shown as JSON).
 */
export function describeResult(commandTitle: string, result: unknown): Described {
  if (result === null || result === undefined) {
    return { message: `${commandTitle}: done.`, detail: `${commandTitle}: done (no result).`, failed: false };
  }
  if (typeof result === 'string') {
    const first = result.split('\n', 1)[0];
    return { message: `${commandTitle}: ${first}`, detail: result, failed: false };
  }
  if (typeof result === 'object' && !Array.isArray(result)) {
    const r = result as Record<string, unknown>;
    const failed = r.ok === false || r.applied === false || r.written === false || r.success === false;
    const text = [r.message, r.summary, r.reason].find((x): x is string => typeof x === 'string' && x !== '');
    const message = text ? `${commandTitle}: ${text}` : `${commandTitle}: ${failed ? 'failed' : 'done'}.`;
    return { message, detail: pretty(result), failed };
  }
  return { message: `${commandTitle}: done.`, detail: pretty(result), failed: false };
}

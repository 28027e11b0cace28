/** One-line logs to stderr. Callers pass no secrets: request logs carry method and path only. */
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  error(message: string, cause?: unknown): void;
}

export function createLogger(level: 'silent' | 'error' | 'info'): Logger {
  const write = (lvl: string, message: string, extra: unknown) => {
    const line: Record<string, unknown> = { t: new Date().toISOString(), level: lvl, msg: message };
    if (extra instanceof Error) line.err = extra.stack || extra.message;
    else if (extra !== undefined) Object.assign(line, extra);
    process.stderr.write(JSON.stringify(line) + '\n');
  };
  return {
    info: (m, f) => { if (level === 'info') write('info', m, f); },
    error: (m, c) => { if (level !== 'silent') write('error', m, c); },
  };
}

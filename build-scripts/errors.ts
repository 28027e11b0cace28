/** The one failure a build reports: which stage, which page (when one is to blame), and why. */
export class BuildError extends Error {
  readonly stage: string;
  readonly page: string | undefined;
  readonly detail: string;

  constructor(stage: string, page: string | undefined, detail: string, options?: { cause?: unknown }) {
    super(`build failed at stage ${stage}${page ? `, page ${page}` : ''}: ${detail}`, options);
    this.name = 'BuildError';
    this.stage = stage;
    this.page = page;
    this.detail = detail;
  }
}

export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Runs `fn` for one page, turning whatever it throws into a BuildError naming stage and page. */
export async function forPage<T>(stage: string, page: string, fn: () => T | Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof BuildError) throw err;
    throw new BuildError(stage, page, messageOf(err), { cause: err });
  }
}

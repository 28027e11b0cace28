/**
 * The inspector of another Node process (started with `--inspect=127.0.0.1:0`), over its
 * WebSocket: commands and their results, enough for V8's precise coverage.
 */

export interface Inspector {
  call<T = unknown>(method: string, params?: Record<string, unknown>): Promise<T>;
  close(): void;
}

export async function connectInspector(wsUrl: string): Promise<Inspector> {
  const ws = new WebSocket(wsUrl);
  await new Promise<void>((resolve, reject) => {
    ws.addEventListener('open', () => resolve(), { once: true });
    ws.addEventListener('error', () => reject(new Error(`cannot connect to the inspector at ${wsUrl}`)), { once: true });
  });
  let next = 0;
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  ws.addEventListener('message', (event) => {
    const msg = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message: string } };
    const waiter = msg.id === undefined ? undefined : pending.get(msg.id);
    if (!waiter) return;
    pending.delete(msg.id!);
    if (msg.error) waiter.reject(new Error(msg.error.message));
    else waiter.resolve(msg.result);
  });
  return {
    call<T>(method: string, params: Record<string, unknown> = {}) {
      const id = ++next;
      ws.send(JSON.stringify({ id, method, params }));
      return new Promise<T>((resolve, reject) => pending.set(id, { resolve: resolve as (v: unknown) => void, reject }));
    },
    close: () => ws.close(),
  };
}

/** One function of Profiler.takePreciseCoverage: its first range is the whole function, with its call count. */
export interface ScriptCoverage {
  url: string;
  functions: { functionName: string; ranges: { startOffset: number; endOffset: number; count: number }[] }[];
}

/**
 * Per script URL, the functions that ran since the last take (the take resets the counts):
 * how many of them, and their calls added up.
 */
export async function takeCounts(inspector: Inspector): Promise<Map<string, { functions: number; calls: number }>> {
  const { result } = await inspector.call<{ result: ScriptCoverage[] }>('Profiler.takePreciseCoverage');
  const out = new Map<string, { functions: number; calls: number }>();
  for (const script of result) {
    for (const fn of script.functions) {
      const count = fn.ranges[0]?.count ?? 0;
      if (count === 0) continue;
      const entry = out.get(script.url) ?? { functions: 0, calls: 0 };
      entry.functions++;
      entry.calls += count;
      out.set(script.url, entry);
    }
  }
  return out;
}

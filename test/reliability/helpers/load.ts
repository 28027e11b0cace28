/**
 * Continuous load: `concurrency` loops, each sending one request after the other until stopped.
 * Every request is recorded with its start and end (performance.now()), its status or the
 * transport error, so a test can check what happened in each phase of an incident.
 */
import { request, type RawResponse, type RequestOptions } from '../../helpers/http.ts';

export interface Sample {
  kind: string;
  /** 0 when the request failed without an HTTP answer (see `error`). */
  status: number;
  start: number;
  end: number;
  ms: number;
  error?: string;
  reply?: RawResponse;
  /** Which server the request went to (index into the caller's list). */
  target: number;
}

export interface PlannedRequest {
  kind: string;
  target: number;
  url: string;
  options?: RequestOptions;
}

export interface Load {
  samples: Sample[];
  /** Stops the loops once their current request ends; resolves with every sample. */
  stop(): Promise<Sample[]>;
}

export function startLoad(concurrency: number, next: (n: number) => PlannedRequest, timeoutMs = 5000): Load {
  const samples: Sample[] = [];
  let stopped = false;
  let n = 0;
  const loop = async () => {
    while (!stopped) {
      const planned = next(n++);
      const start = performance.now();
      let reply: RawResponse | undefined;
      let error: string | undefined;
      try {
        reply = await request(planned.url, { timeoutMs, ...planned.options });
      } catch (err) {
        error = `${(err as NodeJS.ErrnoException).code ?? ''} ${(err as Error).message}`.trim();
      }
      const end = performance.now();
      samples.push({ kind: planned.kind, target: planned.target, status: reply?.status ?? 0, start, end, ms: end - start, error, reply });
    }
  };
  const loops = Array.from({ length: concurrency }, loop);
  return {
    samples,
    async stop() {
      stopped = true;
      await Promise.all(loops);
      return samples;
    },
  };
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The slowest samples, for a readable failure message. */
export function slowest(samples: readonly Sample[], k = 3): string {
  return [...samples].sort((a, b) => b.ms - a.ms).slice(0, k).map((s) => `${s.kind} ${s.status || s.error} ${s.ms.toFixed(0)} ms`).join('; ');
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

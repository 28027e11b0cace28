/**
 * One round trip to the benchmark's Redis, from Node, as the server's store makes it (node-redis,
 * `sendCommand`, no per-command timeout): PINGs one at a time, none in flight beside another.
 *
 * Why the report shows it: the Redis store cannot answer before Redis has counted the request
 * (quotas exact across processes, RateLimit-Remaining exact), so every request's latency holds
 * one round trip the memory store does not have; with a fixed number of connections, each
 * waiting for its answer before sending again, req/s = connections ÷ latency. The report sets
 * this round trip beside what the Redis store added to each request's cycle under the load.
 */
import { createClient } from 'redis';
import { percentile } from '../lib/stats.ts';

export interface RoundTrip {
  /** Microseconds. */
  p50: number;
  p99: number;
  samples: number;
}

const WARMUP = 200;
const SAMPLES = 2_000;

export async function redisRoundTrip(url: string, samples = SAMPLES): Promise<RoundTrip> {
  const client = createClient({ url, commandOptions: { timeout: 0 }, maintNotifications: 'disabled' });
  await client.connect();
  try {
    for (let i = 0; i < WARMUP; i++) await client.sendCommand(['PING']);
    const us = new Float64Array(samples);
    for (let i = 0; i < samples; i++) {
      const t = process.hrtime.bigint();
      await client.sendCommand(['PING']);
      us[i] = Number(process.hrtime.bigint() - t) / 1000;
    }
    us.sort();
    return { p50: percentile(us, 50), p99: percentile(us, 99), samples };
  } finally {
    await client.close();
  }
}

/**
 * A master failover under load, on several server processes sharing one Redis topology (Cluster
 * or Sentinel). The decided behaviour (docs/operations.md, "What happens when something fails"): content
 * keeps answering 200 (quotas counted in the process while the master is away); a token or OAuth
 * request the store cannot serve is a 503 with Retry-After; nothing else fails, nothing hangs;
 * and once the new master serves, quotas are exact across the processes again.
 */
import * as assert from 'uvu/assert';
import { basic, form, statusCounts } from '../../helpers/http.ts';
import type { ServerProcess } from './cluster.ts';
import { sleep, slowest, startLoad, type PlannedRequest, type Sample } from './load.ts';
import { burst, from, registeredClient, type RegisteredClient } from './limits.ts';

const API = '/wp-json/agentes/v1';
/** A client's own window is 600 a minute: the load stays under it, so a 429 is never expected. */
const BEARER_MAX = 450;
/** Ten times what the new master takes to count exactly for every process on an idle machine. */
const EXACT_WITHIN_MS = 20_000;

export interface FailoverRun {
  samples: Sample[];
  /** How long the failover took, from the command to the new master serving. */
  failoverMs: number;
  /** From the end of the failover to the first burst counted exactly across the processes. */
  exactAfterMs: number;
  /** The address of that burst: 90 hits in its window. */
  exactIp: string;
  /** Answers per kind and status, for the report. */
  counts: Record<string, Record<number, number>>;
}

export interface FailoverPlan {
  servers: readonly ServerProcess[];
  client: RegisteredClient & { access_token: string };
  /** Starts the failover; resolves once the new master serves. */
  failover(): Promise<void>;
  /** A new address whose anonymous window lives on the master that failed over. */
  freshIp(): Promise<string>;
  /**
   * Whether the burst of `address` was counted where it must be, once the replies were exact: a
   * demoted master may still take writes for a moment, and replies counted there look exact too.
   */
  countedOnNewMaster?(address: string): Promise<boolean>;
}

/** 503 JSON with Retry-After, the documented answer of what the store could not serve. */
function assertUnavailable(s: Sample, field: 'code' | 'error', value: string) {
  const r = s.reply!;
  assert.is(r.status, 503, `${s.kind}: ${r.status} ${r.text().slice(0, 200)}`);
  assert.match(String(r.headers['content-type']), /^application\/json/);
  assert.is(r.json()[field], value);
  assert.ok(Number(r.headers['retry-after']) >= 1, 'Retry-After');
}

export async function assertFailoverUnderLoad(plan: FailoverPlan): Promise<FailoverRun> {
  const { servers, client } = plan;
  const auth = basic(client.client_id, client.client_secret);
  let ip = 0;
  const nextIp = () => `10.${(++ip >> 16) & 255}.${(ip >> 8) & 255}.${ip & 255}`;
  let bearer = 0;
  const paths = ['read_page?url=fontaneria', 'search_pages?query=fontanero%20madrid', 'get_company_info'];
  const load = startLoad(9, (n): PlannedRequest => {
    const target = n % servers.length;
    const base = servers[target]!.url;
    if (n % 4 === 2 && bearer < BEARER_MAX) {
      bearer++;
      return { kind: 'bearer', target, url: `${base}${API}/${paths[n % 3]}`, options: { headers: { Authorization: `Bearer ${client.access_token}`, ...from(nextIp()) } } };
    }
    if (n % 4 === 3) return { kind: 'oauth', target, url: `${base}/oauth/token`, options: { method: 'POST', ...form({ grant_type: 'client_credentials' }, { Authorization: auth, ...from(nextIp()) }) } };
    return { kind: 'anonymous', target, url: `${base}${API}/${paths[n % 3]}`, options: { headers: from(nextIp()) } };
  }, 10_000);

  let samples: Sample[] = [];
  let failoverMs = 0;
  let exactAfterMs = Infinity;
  let exactIp = '';
  try {
    await sleep(700);
    const t0 = performance.now();
    await plan.failover();
    const failedOver = performance.now();
    failoverMs = failedOver - t0;

    // Exact again: 90 calls of one new address over every process admit 60, whichever answers.
    while (performance.now() - failedOver < EXACT_WITHIN_MS) {
      const address = await plan.freshIp();
      const replies = await burst(servers, 90, () => ({ path: `${API}/get_company_info`, headers: from(address) }));
      const counts = statusCounts(replies);
      if (counts[200] === 60 && counts[429] === 30 && (await plan.countedOnNewMaster?.(address) ?? true)) {
        exactAfterMs = performance.now() - failedOver;
        exactIp = address;
        break;
      }
      await sleep(100);
    }
    await sleep(300);
  } finally {
    samples = await load.stop();
  }
  assert.ok(exactAfterMs < EXACT_WITHIN_MS, `quotas exact across processes within ${EXACT_WITHIN_MS} ms of the failover`);

  // Every request got a whole answer; nothing but the documented 503 failed.
  assert.equal(samples.filter((s) => s.status === 0).map((s) => `${s.kind}: ${s.error}`).slice(0, 5), [], `transport failures (slowest: ${slowest(samples)})`);
  const kinds = ['anonymous', 'bearer', 'oauth'];
  const counts = Object.fromEntries(kinds.map((k) => [k, statusCounts(samples.filter((s) => s.kind === k))]));
  for (const s of samples) {
    if (s.kind === 'anonymous') assert.is(s.status, 200, `content never fails: ${s.status} ${s.reply!.text().slice(0, 200)}`);
    else if (s.status !== 200) assertUnavailable(s, s.kind === 'bearer' ? 'code' : 'error', s.kind === 'bearer' ? 'agentes_unavailable' : 'temporarily_unavailable');
  }
  for (const k of kinds) assert.ok((counts[k]![200] ?? 0) > 10, `${k} served: ${JSON.stringify(counts[k])}`);
  for (const s of servers) assert.ok(s.alive(), `process ${s.port} still running`);
  return { samples, failoverMs, exactAfterMs, exactIp, counts };
}

/** Registers clients (each with a token) until one has its quota counter where `wanted` says (on a Cluster: one shard). */
export async function clientWhere(servers: readonly ServerProcess[], wanted: (clientId: string) => Promise<boolean>, ipBase: string): Promise<RegisteredClient & { access_token: string }> {
  for (let i = 1; i <= 30; i++) {
    const client = await registeredClient(servers, `failover ${i}`, [`${ipBase}.${2 * i}`, `${ipBase}.${2 * i + 1}`]);
    if (await wanted(client.client_id)) return client;
  }
  throw new Error('no client of 30 had its counter where wanted');
}

/**
 * Every limit of the contract, checked across several server processes sharing one store,
 * whatever Redis topology is behind it (one node, Cluster, Sentinel): a client registered on one
 * process gets its token on another and uses it on all; 600 of 1,000 concurrent calls of that
 * client are admitted, 60 of 300 anonymous calls of one IP, 5 of 40 registrations and 30 of 100
 * token requests of one IP. The processes trust 127.0.0.1 as a proxy (TRUST_PROXY).
 */
import * as assert from 'uvu/assert';
import { basic, form, json, request, statusCounts, type RawResponse } from '../../helpers/http.ts';
import type { ServerProcess } from './cluster.ts';

const API = '/wp-json/agentes/v1';

/** `n` requests at once, spread round-robin over the processes. */
export function burst(servers: readonly ServerProcess[], n: number, make: (i: number) => { path: string; method?: string; headers?: Record<string, string>; body?: string }): Promise<RawResponse[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => {
    const r = make(i);
    return request(servers[i % servers.length]!.url + r.path, { method: r.method, headers: r.headers, body: r.body, timeoutMs: 30_000 });
  }));
}

export const ascending = (n: number) => Array.from({ length: n }, (_, i) => i);
export const remainingOf = (replies: RawResponse[]) => replies.map((r) => Number(r.headers['ratelimit-remaining'])).sort((a, b) => a - b);
export const from = (ip: string) => ({ 'X-Forwarded-For': ip });

export interface RegisteredClient { client_id: string; client_secret: string }

/** A client registered on the first process and its token issued by the second. */
export async function registeredClient(servers: readonly ServerProcess[], name: string, ips: [string, string]): Promise<RegisteredClient & { access_token: string }> {
  const reg = await request(servers[0]!.url + '/oauth/register', { method: 'POST', ...json({ client_name: name }, from(ips[0])) });
  assert.is(reg.status, 201, reg.text());
  const client = reg.json<RegisteredClient>();
  const tok = await request(servers[1 % servers.length]!.url + '/oauth/token', { method: 'POST', ...form({ grant_type: 'client_credentials' }, { Authorization: basic(client.client_id, client.client_secret), ...from(ips[1]) }) });
  assert.is(tok.status, 200, tok.text());
  return { ...client, access_token: tok.json<{ access_token: string }>().access_token };
}

export interface LimitsSeen {
  client: RegisteredClient;
  /** How long the 1,000 concurrent identified calls took. */
  identifiedMs: number;
  /** The tokens the token burst issued. */
  issued: string[];
}

/**
 * Runs every burst and asserts its exact outcome. `ip` makes the addresses of this run (so runs
 * on one store do not share windows): `ip(n)` for n = 1…6.
 */
export async function assertExactLimits(servers: readonly ServerProcess[], ip: (n: number) => string): Promise<LimitsSeen> {
  const client = await registeredClient(servers, 'limits', [ip(1), ip(2)]);

  // 1,000 concurrent calls of one client (from 1,000 addresses: the quota is per client_id).
  const t0 = performance.now();
  const identified = await burst(servers, 1000, (i) => ({
    path: `${API}/${['read_page?url=fontaneria', 'search_pages?query=fontaneria', 'get_company_info?section=contact'][i % 3]}`,
    headers: { Authorization: `Bearer ${client.access_token}`, ...from(`10.1.${i >> 8}.${i & 255}`) },
  }));
  const identifiedMs = performance.now() - t0;
  assert.equal(statusCounts(identified), { 200: 600, 429: 400 });
  for (const r of identified) {
    assert.is(r.headers['ratelimit-policy'], '"identificado";q=600;w=60');
    if (r.status === 429) {
      assert.is(r.json().code, 'agentes_rate_limited');
      assert.ok(Number(r.headers['retry-after']) >= 1);
    }
  }
  assert.equal(remainingOf(identified.filter((r) => r.status === 200)), ascending(600), 'each admitted call saw its own count');
  // Which process admits which calls is a race, and not a fair one by design: each process sends
  // the hits of one loop turn as one increment, so a process can take the whole quota in a few
  // increments before another's first arrives. What holds whichever process answers is above.

  // Anonymous: 60 per IP per window.
  const anonymous = await burst(servers, 300, () => ({ path: `${API}/read_page?url=fontaneria`, headers: from(ip(3)) }));
  assert.equal(statusCounts(anonymous), { 200: 60, 429: 240 });
  assert.equal(remainingOf(anonymous.filter((r) => r.status === 200)), ascending(60));
  for (const r of anonymous) assert.is(r.headers['ratelimit-policy'], '"anonimo";q=60;w=60');

  // Registration: 5 per hour per IP.
  const registrations = await burst(servers, 40, (i) => ({
    path: '/oauth/register', method: 'POST',
    ...json({ client_name: `burst ${i}` }, from(ip(4))),
  }));
  assert.equal(statusCounts(registrations), { 201: 5, 429: 35 });
  for (const r of registrations.filter((x) => x.status === 429)) {
    assert.equal(Object.keys(r.json()).sort(), ['error', 'error_description']);
    assert.is(r.json().error, 'rate_limited');
    assert.ok(Number(r.headers['retry-after']) > 60, 'a registration window is an hour');
  }

  // Token endpoint: 30 per minute per IP, valid credentials.
  const tokens = await burst(servers, 100, () => ({
    path: '/oauth/token', method: 'POST',
    ...form({ grant_type: 'client_credentials' }, { Authorization: basic(client.client_id, client.client_secret), ...from(ip(5)) }),
  }));
  assert.equal(statusCounts(tokens), { 200: 30, 429: 70 });
  const issued = tokens.filter((r) => r.status === 200).map((r) => r.json<{ access_token: string }>().access_token);
  assert.is(new Set(issued).size, 30, 'thirty distinct tokens');
  for (const r of tokens.filter((x) => x.status === 429)) assert.is(r.json().error, 'rate_limited');

  // Every token issued by any process is known to every other: each is taken as the client's
  // (whose window the first burst used up: 429 on its policy; an unknown token would be a 401).
  const uses = await burst(servers, issued.length * servers.length, (i) => ({
    path: `${API}/get_company_info`, headers: { Authorization: `Bearer ${issued[Math.floor(i / servers.length)]}`, ...from(ip(6)) },
  }));
  assert.equal(statusCounts(uses), { 429: uses.length }, 'each token is known to each process');
  for (const r of uses) assert.is(r.headers['ratelimit-policy'], '"identificado";q=600;w=60');

  return { client, identifiedMs, issued };
}

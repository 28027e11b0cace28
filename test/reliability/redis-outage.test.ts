/**
 * Redis failures. Decided behaviour (docs/operations.md):
 * - content operations keep answering: quotas are counted per process while Redis is away, with
 *   one log line when counting goes local and one when it is shared again;
 * - a request with a Bearer token the process has not verified in the last minutes, the OAuth
 *   endpoints and /agent/identity answer 503 JSON with Retry-After: a token that cannot be checked
 *   is never served as anonymous; a token verified recently keeps its client's quota, counted in
 *   the process;
 * - no request waits on Redis for more than WAIT_BOUND_MS (1 s), whether Redis is dead, hung or
 *   answering errors (BUSY, READONLY…); no process crashes; when Redis is back, full service
 *   resumes within 2 s without restarting anything.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createClient } from 'redis';
import type { Logger } from '../../server/log.ts';
import { WAIT_BOUND_MS } from '../../server/stores/redis.ts';
import { freePort } from '../../scripts/lib/port.ts';
import { startRedis, type TestRedis } from '../helpers/redis.ts';
import { startTestServer } from '../helpers/server.ts';
import { startFixtureServers, stopAll, type ServerProcess } from './helpers/cluster.ts';
import { basic, form, json, request, statusCounts, type RawResponse } from '../helpers/http.ts';
import { percentile, sleep, slowest, startLoad, type PlannedRequest, type Sample } from './helpers/load.ts';
import { waitUntil } from '../helpers/wait.ts';

const API = '/wp-json/agentes/v1';
/**
 * Event-loop scheduling on top of the store's bound: tens of ms on an idle machine, a few hundred
 * when builds and other suites share its 2 cores; ten times that, so a busy machine is no failure.
 */
const SLACK_MS = 3000;
/** What a request may take while Redis misbehaves: the store's bound plus scheduling slack. */
const LATENCY_BOUND_MS = WAIT_BOUND_MS + SLACK_MS;
/** Requests give up (a transport failure in the samples) only well past that bound. */
const REQUEST_TIMEOUT_MS = 3 * LATENCY_BOUND_MS;

function assertJsonError(r: RawResponse, status: number, field: 'code' | 'error', value: string) {
  assert.is(r.status, status, `${status} expected, got ${r.status}: ${r.text().slice(0, 200)}`);
  assert.match(String(r.headers['content-type']), /^application\/json/);
  assert.is(r.json()[field], value);
  assert.ok(Number(r.headers['retry-after']) >= 1, 'Retry-After');
}

const processes = suite('Redis killed and restarted under load (3 processes)');

processes('content keeps answering, tokens verified before keep their quota, OAuth gets 503 + Retry-After, nothing hangs or crashes; full service within 2 s of Redis', async () => {
  const redis = await startRedis();
  let cluster: Awaited<ReturnType<typeof startFixtureServers>> | undefined;
  try {
    cluster = await startFixtureServers(3, {
      REDIS_URL: redis.url, KEY_PREFIX: 'outage', TRUST_PROXY: '127.0.0.1',
      RATE_LIMIT_ANONYMOUS: '1000000', RATE_LIMIT_IDENTIFIED: '1000000',
    });
    const { servers } = cluster;
    const reg = await request(servers[0]!.url + '/oauth/register', { method: 'POST', ...json({ client_name: 'outage' }) });
    const client = reg.json<{ client_id: string; client_secret: string }>();
    const auth = basic(client.client_id, client.client_secret);
    const tok = await request(servers[0]!.url + '/oauth/token', { method: 'POST', ...form({ grant_type: 'client_credentials' }, { Authorization: auth }) });
    const { access_token } = tok.json<{ access_token: string }>();

    const paths = ['read_page?url=fontaneria', 'search_pages?query=fontanero%20madrid', 'get_company_info'];
    let ip = 0;
    const nextIp = () => `10.${(++ip >> 16) & 255}.${(ip >> 8) & 255}.${ip & 255}`;
    const load = startLoad(12, (n): PlannedRequest => {
      const target = n % 3;
      const base = servers[target]!.url;
      switch (n % 4) {
        case 0: case 1: return { kind: 'anonymous', target, url: `${base}${API}/${paths[n % 3]}`, options: { headers: { 'X-Forwarded-For': '198.51.100.7' } } };
        case 2: return { kind: 'bearer', target, url: `${base}${API}/${paths[n % 3]}`, options: { headers: { Authorization: `Bearer ${access_token}` } } };
        default: return { kind: 'oauth', target, url: `${base}/oauth/token`, options: { method: 'POST', ...form({ grant_type: 'client_credentials' }, { Authorization: auth, 'X-Forwarded-For': nextIp() }) } };
      }
    }, REQUEST_TIMEOUT_MS);

    // Answers of every kind before the kill, and enough of them during the outage for the checks
    // below: waited for, since a busy machine answers fewer in the same time.
    const answered = (kind: string, after = 0) => load.samples.filter((x) => x.kind === kind && x.start > after).length;
    await waitUntil('the load under way', () => ['anonymous', 'bearer', 'oauth'].every((k) => answered(k) >= 5));
    const killedAt = performance.now();
    await redis.stop();
    await waitUntil('answers during the outage', () => answered('anonymous', killedAt + 50) > 50 && answered('bearer', killedAt + 50) > 10 && answered('oauth', killedAt + 50) > 10);
    const restartAt = performance.now();
    await redis.start();
    const redisUpAt = performance.now();

    // Recovery, per process: OAuth works again and quotas are shared again (its log says so).
    const recovered = new Map<ServerProcess, number>();
    await waitUntil('every process recovered', async () => {
      await Promise.all(servers.filter((s) => !recovered.has(s)).map(async (s) => {
        const r = await request(s.url + '/oauth/register', { method: 'POST', ...json({ client_name: 'probe' }, { 'X-Forwarded-For': nextIp() }), timeoutMs: REQUEST_TIMEOUT_MS }).catch(() => null);
        if (r?.status === 201 && s.logs().some((l) => l.msg.startsWith('quota store back'))) recovered.set(s, performance.now() - redisUpAt);
      }));
      return recovered.size === servers.length;
    }).catch(() => {});
    await sleep(500);
    const samples = await load.stop();

    const recovery = Math.max(...servers.map((s) => recovered.get(s) ?? Infinity));
    // Reconnections come every ≤ 0.5 s: the bound is ten of them, room for a busy machine.
    assert.ok(recovery <= 5000, `full service within seconds of Redis being back (took ${recovery.toFixed(0)} ms)`);

    // Nothing hung, nothing was cut: every request got a whole HTTP answer within the bound.
    const failed = samples.filter((s) => s.status === 0);
    assert.equal(failed.map((s) => `${s.kind}: ${s.error}`).slice(0, 5), [], 'transport failures');
    const worst = Math.max(...samples.map((s) => s.ms));
    assert.ok(worst < LATENCY_BOUND_MS, `slowest request ${worst.toFixed(0)} ms (bound ${LATENCY_BOUND_MS}): ${slowest(samples)}`);

    const anonymous = samples.filter((s) => s.kind === 'anonymous');
    assert.equal(statusCounts(anonymous), { 200: anonymous.length }, 'content never failed');
    const during = (s: Sample) => s.start > killedAt + 50 && s.end < restartAt;
    const before = (s: Sample) => s.end < killedAt;
    const anonDuring = anonymous.filter(during);
    assert.ok(anonDuring.length > 50, `content served during the outage (${anonDuring.length})`);
    for (const s of anonDuring) assert.ok(s.reply!.headers['ratelimit-policy'], 'quota headers while counting locally');

    const bearer = samples.filter((s) => s.kind === 'bearer');
    assert.equal(statusCounts(bearer.filter(before)), { 200: bearer.filter(before).length });
    const bearerDuring = bearer.filter(during);
    assert.ok(bearerDuring.length > 10, `token requests during the outage (${bearerDuring.length})`);
    // Each process verified the token before the kill: it keeps its client's quota (one in-process test below: a token never seen gets 503).
    for (const s of bearerDuring) {
      assert.is(s.reply!.status, 200, s.reply!.text().slice(0, 200));
      assert.is(s.reply!.headers['ratelimit-policy'], '"identificado";q=1000000;w=60', 'its own window, counted in the process');
    }
    const oauthDuring = samples.filter((s) => s.kind === 'oauth' && during(s));
    assert.ok(oauthDuring.length > 10);
    for (const s of oauthDuring) {
      assertJsonError(s.reply!, 503, 'error', 'temporarily_unavailable');
      assert.equal(Object.keys(s.reply!.json()).sort(), ['error', 'error_description']);
    }

    // Full service: a fresh client and token (Redis lost its data with the kill) work on every process.
    const reg2 = await request(servers[1]!.url + '/oauth/register', { method: 'POST', ...json({ client_name: 'after' }, { 'X-Forwarded-For': nextIp() }) });
    assert.is(reg2.status, 201);
    const c2 = reg2.json<{ client_id: string; client_secret: string }>();
    const tok2 = await request(servers[2]!.url + '/oauth/token', { method: 'POST', ...form({ grant_type: 'client_credentials' }, { Authorization: basic(c2.client_id, c2.client_secret), 'X-Forwarded-For': nextIp() }) });
    const t2 = tok2.json<{ access_token: string }>().access_token;
    for (const s of servers) {
      const r = await request(`${s.url}${API}/read_page?url=fontaneria`, { headers: { Authorization: `Bearer ${t2}` } });
      assert.is(r.status, 200);
      assert.is(r.headers['ratelimit-policy'], '"identificado";q=1000000;w=60');
    }
    // ...and counted in Redis again by all of them: 9 calls from one new address, one counter.
    const rawClient = createClient({ url: redis.url });
    rawClient.on('error', () => {});
    await rawClient.connect();
    try {
      for (let i = 0; i < 9; i++) await request(`${servers[i % 3]!.url}${API}/get_company_info`, { headers: { 'X-Forwarded-For': '198.51.100.99' } });
      assert.is(await rawClient.get('outage:{rl:anonimo:198.51.100.99}'), '9', 'shared counting resumed on every process');
    } finally {
      await rawClient.close();
    }

    for (const s of servers) {
      assert.ok(s.alive(), 'no process crashed');
      const lines = s.logs().map((l) => l.msg);
      assert.is(lines.filter((m) => m.startsWith('quota store unavailable')).length, 1, 'one line when counting goes local');
      assert.is(lines.filter((m) => m.startsWith('quota store back')).length, 1, 'one line when it is shared again');
    }
    const exits = await stopAll(servers);
    for (const e of exits) assert.equal(e, { code: 0, signal: null });

    const lat = anonDuring.map((s) => s.ms);
    console.log(`  redis outage: ${samples.length} requests, 0 failed, 0 hung; content during outage p50 ${percentile(lat, 50).toFixed(1)} ms, `
      + `p99 ${percentile(lat, 99).toFixed(1)} ms, slowest request overall ${worst.toFixed(0)} ms; recovery after restart `
      + servers.map((s) => `${recovered.get(s)!.toFixed(0)} ms`).join(' / '));
  } finally {
    await cluster?.close();
    await redis.close();
  }
});

processes.run();

/** One server in this process over `redis`, with its log lines kept. */
async function inProcess(redis: TestRedis, env: Record<string, string> = {}) {
  const lines: Array<{ level: string; msg: string }> = [];
  const log: Logger = { info: (msg) => lines.push({ level: 'info', msg }), error: (msg) => lines.push({ level: 'error', msg }) };
  const server = await startTestServer({ env: { REDIS_URL: redis.url, KEY_PREFIX: `inproc-${Math.random().toString(36).slice(2, 8)}`, ...env }, log });
  const { access_token } = await server.tokens.issue('client-x', ['content:read', 'quota:read']);
  return {
    /** A new token of `clientId`, never used yet. */
    issue: async (clientId: string) => (await server.tokens.issue(clientId, ['content:read'])).access_token,
    api: server.base,
    url: server.origin,
    lines,
    bearer: { Authorization: `Bearer ${access_token}` },
    count: (prefix: string) => lines.filter((l) => l.msg.startsWith(prefix)).length,
    close: server.close,
  };
}

const inproc = suite('Redis failures, one process');
let redis: TestRedis;
let raw: ReturnType<typeof createClient>;
inproc.before(async () => {
  redis = await startRedis();
  raw = createClient({ url: redis.url });
  raw.on('error', () => {});
  await raw.connect();
});
inproc.after(async () => {
  await raw.close().catch(() => {});
  await redis.close();
});

inproc('while Redis is down the same limits are counted in the process, with one log line each way', async () => {
  const s = await inProcess(redis, { RATE_LIMIT_ANONYMOUS: '5' });
  let down = false;
  try {
    assert.is((await request(`${s.api}/get_company_info`)).status, 200);
    await redis.stop();
    down = true;

    // A token cannot be checked: 503 on REST and MCP, each counted on the IP's local window.
    const withToken = await request(`${s.api}/get_company_info`, { headers: s.bearer, timeoutMs: REQUEST_TIMEOUT_MS });
    assertJsonError(withToken, 503, 'code', 'agentes_unavailable');
    // The process counts every hit in its own windows too: the one made before the outage is there.
    assert.is(withToken.headers['ratelimit-remaining'], '3', 'counted like any credential that is not accepted');
    const mcp = (headers: Record<string, string> = {}) => request(`${s.url}/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_company_info', arguments: {} } }),
      timeoutMs: REQUEST_TIMEOUT_MS,
    });
    const mcpToken = await mcp(s.bearer);
    assert.is(mcpToken.status, 503, 'the same on MCP');
    assert.ok(Number(mcpToken.headers['retry-after']) >= 1);
    assert.is(mcpToken.json().jsonrpc, '2.0');

    // Without a token, content goes on within the same limit, counted locally (REST and MCP share it).
    const replies: RawResponse[] = [];
    for (let i = 0; i < 6; i++) replies.push(await request(`${s.api}/read_page?url=fontaneria`, { timeoutMs: REQUEST_TIMEOUT_MS }));
    assert.equal(statusCounts(replies), { 200: 2, 429: 4 }, 'the anonymous limit still holds, counted locally');
    assert.equal(replies.map((r) => Number(r.headers['ratelimit-remaining'])), [1, 0, 0, 0, 0, 0], 'the same window as before the outage, not a fresh one');
    const limited = replies[5]!;
    assert.is(limited.json().code, 'agentes_rate_limited');
    assert.ok(Number(limited.headers['retry-after']) >= 1);
    assert.is((await mcp()).status, 429, 'MCP counts in the same local window');
    // A token that cannot be checked never gets the anonymous window's 429, even with it used up.
    const tokenOver = await request(`${s.api}/get_company_info`, { headers: s.bearer, timeoutMs: REQUEST_TIMEOUT_MS });
    assertJsonError(tokenOver, 503, 'code', 'agentes_unavailable');
    assert.is(tokenOver.headers['ratelimit-remaining'], '0', 'still counted, with the window\'s headers');
    assert.is((await mcp(s.bearer)).status, 503, 'the same on MCP');
    assert.is(s.count('quota store unavailable'), 1);

    await redis.start();
    down = false;
    let back: RawResponse | null = null;
    await waitUntil('the store back', async () => {
      back = await request(`${s.api}/read_page?url=fontaneria`);
      return s.count('quota store back') === 1;
    }, { everyMs: 50 });
    assert.is(s.count('quota store back'), 1, 'one line when shared again');
    // Redis came back without its counters: until the local window ends, it still holds (no fresh quota at a flap).
    assert.is(back!.status, 429, 'the used-up local window outlives the lost shared counter');
    assert.is(back!.headers['ratelimit-remaining'], '0');
    assert.is(s.count('quota store unavailable'), 1, 'no more lines');
  } finally {
    if (down) await redis.start();
    await s.close();
  }
});

inproc('through an outage, a token this process verified keeps its client\'s own quota, counted here; a token it never saw gets 503', async () => {
  const s = await inProcess(redis, { RATE_LIMIT_IDENTIFIED: '4', RATE_LIMIT_ANONYMOUS: '2' });
  let down = false;
  try {
    const known = { Authorization: `Bearer ${(await s.issue('client-conocido'))}` };
    const before = await request(`${s.api}/get_company_info`, { headers: known });
    assert.is(before.status, 200);
    assert.is(before.headers['ratelimit-remaining'], '3');
    await redis.stop();
    down = true;

    // 70 calls with the known token, as in the outage that was reported: its own window, never the anonymous one.
    const replies: RawResponse[] = [];
    for (let i = 0; i < 70; i++) replies.push(await request(`${s.api}/read_page?url=fontaneria`, { headers: known, timeoutMs: REQUEST_TIMEOUT_MS }));
    assert.equal(statusCounts(replies), { 200: 3, 429: 67 }, 'the client\'s limit, counted in the process');
    for (const r of replies) assert.is(r.headers['ratelimit-policy'], '"identificado";q=4;w=60');
    assert.is(replies[69]!.json().code, 'agentes_rate_limited');
    assert.match(replies[69]!.json().message, /client_id/, 'the identified 429, not the anonymous one');
    const mcp = await request(`${s.url}/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...known },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_company_info', arguments: {} } }),
      timeoutMs: REQUEST_TIMEOUT_MS,
    });
    assert.is(mcp.status, 429, 'MCP: the same client window');

    const unknown = await request(`${s.api}/get_company_info`, { headers: s.bearer, timeoutMs: REQUEST_TIMEOUT_MS });
    assertJsonError(unknown, 503, 'code', 'agentes_unavailable');
  } finally {
    if (down) await redis.start();
    await s.close();
  }
});

inproc('a hung Redis (CLIENT PAUSE) costs at most the 1 s bound: content answers, a token seen before keeps its quota, a new one gets 503', async () => {
  // Behind a trusted proxy, so that the requests below count on keys of their own (hits of one key are sent together).
  const s = await inProcess(redis, { TRUST_PROXY: '127.0.0.1' });
  try {
    assert.is((await request(`${s.api}/get_company_info`, { headers: s.bearer })).status, 200);
    const unseen = { Authorization: `Bearer ${await s.issue('client-nuevo')}` };
    // Paused longer than every bound below (an UNPAUSE would wait for the pause itself).
    await raw.sendCommand(['CLIENT', 'PAUSE', String(3 * LATENCY_BOUND_MS), 'ALL']);
    const [anon, bearer, fresh] = await Promise.all([
      request(`${s.api}/read_page?url=fontaneria`, { timeoutMs: REQUEST_TIMEOUT_MS }),
      request(`${s.api}/read_page?url=fontaneria`, { headers: s.bearer, timeoutMs: REQUEST_TIMEOUT_MS }),
      request(`${s.api}/read_page?url=fontaneria`, { headers: unseen, timeoutMs: REQUEST_TIMEOUT_MS }),
    ]);
    assert.is(anon.status, 200);
    assert.is(bearer.status, 200, 'verified by this process before: kept');
    assert.match(String(bearer.headers['ratelimit-policy']), /^"identificado"/);
    assertJsonError(fresh, 503, 'code', 'agentes_unavailable');
    for (const r of [anon, bearer, fresh]) assert.ok(r.ms <= WAIT_BOUND_MS + SLACK_MS, `answered in ${r.ms.toFixed(0)} ms`);
    // Known down: the next content requests do not wait on Redis, but for one probe at a time (a
    // busy machine may send them after the breaker's first period): five clients at once.
    const quicks = await Promise.all(Array.from({ length: 5 }, (_, i) => request(`${s.api}/search_pages?query=cerrajero`, {
      headers: { 'X-Forwarded-For': `198.51.100.${20 + i}` }, timeoutMs: REQUEST_TIMEOUT_MS,
    })));
    for (const r of quicks) assert.is(r.status, 200);
    const waited = quicks.filter((r) => r.ms >= WAIT_BOUND_MS / 2);
    assert.ok(waited.length <= 1, `served without waiting (${quicks.map((r) => r.ms.toFixed(0)).join(', ')} ms)`);
    const quick = quicks.reduce((a, b) => (a.ms <= b.ms ? a : b));
    // The OAuth endpoints give up as fast.
    const oauth = await request(`${s.url}/oauth/register`, { method: 'POST', ...json({ client_name: 'x' }), timeoutMs: REQUEST_TIMEOUT_MS });
    assertJsonError(oauth, 503, 'error', 'temporarily_unavailable');
    assert.ok(oauth.ms <= WAIT_BOUND_MS + SLACK_MS, `OAuth answered in ${oauth.ms.toFixed(0)} ms`);
    console.log(`  hung redis: content ${anon.ms.toFixed(0)} ms, known token ${bearer.ms.toFixed(0)} ms and new token 503 ${fresh.ms.toFixed(0)} ms while it times out, `
      + `then content ${quick.ms.toFixed(0)} ms (breaker open), OAuth 503 ${oauth.ms.toFixed(0)} ms`);
    await waitUntil('tokens work again once Redis answers', async () => (await request(`${s.api}/get_company_info`, { headers: s.bearer })).status === 200, { everyMs: 50 });
  } finally {
    await s.close();
  }
});

inproc('error replies that mean "cannot serve now" (READONLY replica, BUSY script) are an outage, not a 500', async () => {
  const s = await inProcess(redis);
  const blocker = createClient({ url: redis.url });
  blocker.on('error', () => {});
  try {
    // A failover left this node a replica: reads work, writes answer READONLY.
    const deadMaster = await freePort();
    await raw.sendCommand(['REPLICAOF', '127.0.0.1', String(deadMaster)]);
    const content = await request(`${s.api}/read_page?url=fontaneria`);
    assert.is(content.status, 200, 'content answers on local quotas');
    const tokenContent = await request(`${s.api}/read_page?url=fontaneria`, { headers: s.bearer });
    assert.is(tokenContent.status, 200, 'the token is still checked (a read), its quota counted locally');
    assert.is(tokenContent.headers['ratelimit-policy'], '"identificado";q=600;w=60');
    assertJsonError(await request(`${s.url}/oauth/register`, { method: 'POST', ...json({ client_name: 'x' }) }), 503, 'error', 'temporarily_unavailable');
    await raw.sendCommand(['REPLICAOF', 'NO', 'ONE']);

    // A script hogs Redis: every other command answers BUSY.
    const unseen = { Authorization: `Bearer ${await s.issue('client-nuevo')}` };
    await raw.sendCommand(['CONFIG', 'SET', 'busy-reply-threshold', '50']);
    await blocker.connect();
    const hog = blocker.sendCommand(['EVAL', 'while true do end', '0']).catch(() => null);
    await sleep(150);
    const [busyContent, knownToken, busyToken] = await Promise.all([
      request(`${s.api}/get_company_info`, { timeoutMs: REQUEST_TIMEOUT_MS }),
      request(`${s.api}/get_company_info`, { headers: s.bearer, timeoutMs: REQUEST_TIMEOUT_MS }),
      request(`${s.api}/get_company_info`, { headers: unseen, timeoutMs: REQUEST_TIMEOUT_MS }),
    ]);
    assert.is(busyContent.status, 200);
    assert.is(knownToken.status, 200, 'checked a moment ago (READONLY): kept');
    assertJsonError(busyToken, 503, 'code', 'agentes_unavailable');
    for (const r of [busyContent, knownToken, busyToken]) assert.ok(r.ms <= WAIT_BOUND_MS + SLACK_MS, `answered in ${r.ms.toFixed(0)} ms`);
    await raw.sendCommand(['SCRIPT', 'KILL']);
    await hog;
    await raw.sendCommand(['CONFIG', 'SET', 'busy-reply-threshold', '5000']);
    await waitUntil('OAuth works again', async () => (await request(`${s.url}/oauth/register`, { method: 'POST', ...json({ client_name: 'y' }) })).status === 201, { everyMs: 50 });
    assert.ok(s.lines.every((l) => l.msg !== 'unexpected error'), 'no 500 was logged');
  } finally {
    await blocker.close().catch(() => blocker.destroy());
    await raw.sendCommand(['REPLICAOF', 'NO', 'ONE']).catch(() => {});
    await s.close();
  }
});

inproc.run();

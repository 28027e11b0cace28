/**
 * Hostile input, property-based (fast-check), against a real server process on a private Redis:
 * generated parameters, headers, methods and bodies for every API operation, the OAuth endpoints,
 * /agent/identity and /mcp, plus byte-level malformed requests. Whatever arrives, the answer is
 * never a 5xx, never HTML, always the documented JSON error shape of its endpoint (REST
 * {code, message, data.status}; OAuth {error, error_description}; MCP JSON-RPC), and the API
 * operations' answers always carry the rate-limit headers. A second server with tiny limits
 * checks the shape of 429s. At least 10,000 requests per run.
 *
 * Reproduce a run: FC_SEED=<seed printed below> node --import tsx test/reliability/hostile-input.test.ts
 * (FC_RUNS_SCALE=<factor> runs more or fewer cases).
 */
import http from 'node:http';
import fc from 'fast-check';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { sharedReadModel } from '../helpers/read-model.ts';
import { startRedis, type TestRedis } from '../helpers/redis.ts';
import { serverEnv, startServers, stopAll, stubSite, type ServerProcess } from './helpers/cluster.ts';
import { basic, form, json, request } from '../helpers/http.ts';
import {
  apiRequest, getEndpointRequest, malformedRequest, mcpRequest, methodRequest, oauthRequest, OPERATIONS, API, type HostileRequest, type Tokens,
} from './hostile/arbitraries.ts';
import { dispatch, isProtocolLevel, retried, violations, type Answer } from './hostile/check.ts';

const seed = process.env.FC_SEED ? Number(process.env.FC_SEED) : (Date.now() ^ Math.floor(Math.random() * 2 ** 31)) >>> 0;
const scale = Number(process.env.FC_RUNS_SCALE ?? 1);
const runs = (n: number) => Math.max(1, Math.round(n * scale));
console.log(`  hostile input: fast-check seed ${seed} (replay with FC_SEED=${seed})`);

let sent = 0;
const perProperty: Record<string, number> = {};
/** Status counts per property: what the generated requests actually reached. */
const statuses: Record<string, Record<number, number>> = {};
let ipCounter = 0;
const nextIp = () => ++ipCounter;

/**
 * Idle kept-alive sockets are dropped by the client well before the server's keepAliveTimeout
 * (5 s), as a well-behaved client does; otherwise reusing one just as the server closes it is a
 * reset that says nothing about the server.
 */
const KEEP_ALIVE_IDLE_MS = 2000;

interface Env { redis: TestRedis; servers: ServerProcess[]; site: { remove(): Promise<void> }; tokens: Tokens; agent: http.Agent }
let env: Env;

async function issueTokens(server: ServerProcess): Promise<Tokens> {
  const reg = await request(`${server.url}/oauth/register`, { method: 'POST', ...json({ client_name: 'fuzz' }, { 'X-Forwarded-For': '192.0.2.10' }) });
  assert.is(reg.status, 201, reg.text());
  const { client_id, client_secret } = reg.json<{ client_id: string; client_secret: string }>();
  const token = async (scope?: string) => {
    const r = await request(`${server.url}/oauth/token`, { method: 'POST', ...form({ grant_type: 'client_credentials', ...(scope ? { scope } : {}) }, { Authorization: basic(client_id, client_secret), 'X-Forwarded-For': '192.0.2.11' }) });
    assert.is(r.status, 200, r.text());
    return r.json<{ access_token: string }>().access_token;
  };
  const full = await token();
  const quotaOnly = await token('quota:read');
  const revoked = await token();
  const rv = await request(`${server.url}/oauth/revoke`, { method: 'POST', ...form({ token: revoked }, { Authorization: basic(client_id, client_secret), 'X-Forwarded-For': '192.0.2.12' }) });
  assert.is(rv.status, 200);
  return { full, quotaOnly, revoked, clientId: client_id, clientSecret: client_secret };
}

/** Sends a batch at once and fails with every broken answer (request and answer shown). */
async function sendAll(name: string, server: ServerProcess, batch: HostileRequest[], judge = violations): Promise<boolean> {
  sent += batch.length;
  perProperty[name] = (perProperty[name] ?? 0) + batch.length;
  const answers = await Promise.all(batch.map((r) => dispatch(server.port, r, env.agent)));
  const seen = (statuses[name] ??= {});
  for (const a of answers) seen[a.status] = (seen[a.status] ?? 0) + 1;
  const broken = batch.map((r, i) => ({ r, a: answers[i]!, v: judge(r, answers[i]!) })).filter((x) => x.v.length > 0);
  if (broken.length > 0) {
    const { r, a, v } = broken[0]!;
    const state = server.alive() ? '' : `\n  the server died: ${server.stderr().slice(-1500)}`;
    throw new Error(`${broken.length} broken answer(s); first: ${v.join('; ')}\n  request: ${describe(r)}\n  answer: ${a.status} ${JSON.stringify(a.headers['content-type'])} ${a.body.toString('utf8').slice(0, 300)}${state}`);
  }
  return true;
}

const describe = (r: HostileRequest) => r.raw
  ? JSON.stringify(r.raw.toString('latin1').slice(0, 300))
  : `${r.method} ${JSON.stringify(r.target.slice(0, 200))} headers=${JSON.stringify(r.headers.map(([n, v]) => [n, v.length > 60 ? `${v.slice(0, 60)}…(${v.length})` : v]).slice(0, 12))} body=${r.body ? JSON.stringify(r.body.toString('latin1').slice(0, 120)) + ` (${r.body.length} bytes)` : 'none'}`;

const batches = (arb: fc.Arbitrary<HostileRequest>, size: number) => fc.array(arb, { minLength: size, maxLength: size });

/**
 * Runs a property of request batches. On failure the report is the first broken answer (request,
 * answer, rule) and the seed and path to replay it, not fast-check's dump of the whole batch.
 */
async function check(name: string, arb: fc.Arbitrary<HostileRequest>, size: number, numRuns: number, target: (i: number) => ServerProcess, judge = violations) {
  let broken: string | null = null;
  try {
    await fc.assert(fc.asyncProperty(batches(arb, size), fc.nat(7), async (batch, i) => {
      try {
        return await sendAll(name, target(i), batch, judge);
      } catch (err) {
        broken ??= (err as Error).message;
        throw err;
      }
    }), { seed, numRuns: runs(numRuns), endOnFailure: true });
  } catch (err) {
    const replay = /\{ seed: -?\d+, path: "[^"]*"/.exec((err as Error).message)?.[0] ?? '';
    throw new Error(`${broken ?? (err as Error).message}\n  replay: ${replay} }`);
  }
}

const hostile = suite('hostile input (fast-check)');

hostile.before(async () => {
  const fixture = await sharedReadModel();
  const redis = await startRedis();
  const site = await stubSite();
  const servers = await startServers(2, serverEnv({
    REDIS_URL: redis.url, KEY_PREFIX: 'fuzz', TRUST_PROXY: '127.0.0.1', LOG_LEVEL: 'error',
    RATE_LIMIT_ANONYMOUS: '1000000000', RATE_LIMIT_IDENTIFIED: '1000000000',
    SITE_URL: fixture.siteUrl, READ_MODEL_DIR: fixture.dir, DIST_DIR: site.distDir,
  }));
  env = { redis, servers, site, tokens: await issueTokens(servers[0]!), agent: new http.Agent({ keepAlive: true, maxSockets: 16, timeout: KEEP_ALIVE_IDLE_MS }) };
});

hostile.after(async () => {
  env.agent.destroy();
  await stopAll(env.servers);
  await env.redis.close();
  await env.site.remove();
});

const server = (i: number) => env.servers[i % env.servers.length]!;

hostile('API operations: hostile parameters and headers', async () => {
  await check('api', apiRequest(env.tokens, nextIp), 8, 520, server);
});

hostile('every method on every machine path', async () => {
  await check('methods', methodRequest(env.tokens, nextIp), 8, 150, server);
});

hostile('OAuth endpoints: bodies, content types, credentials', async () => {
  await check('oauth', oauthRequest(env.tokens, nextIp), 8, 300, server);
});

hostile('/agent/identity and /oauth/authorize', async () => {
  await check('identity', getEndpointRequest(env.tokens, nextIp), 8, 40, server);
});

hostile('MCP endpoint: JSON-RPC messages, batches, garbage, content negotiation', async () => {
  await check('mcp', mcpRequest(env.tokens, nextIp), 8, 200, server);
});

hostile('malformed requests over raw sockets', async () => {
  await check('raw', malformedRequest, 4, 120, server);
});

hostile('the servers are still up and logged no unexpected error', async () => {
  for (const s of env.servers) {
    assert.ok(s.alive(), `process ${s.port} alive`);
    const bad = s.logs().filter((l) => /unexpected|failed/.test(l.msg));
    assert.equal(bad.map((l) => `${l.msg} ${String(l.err ?? '').slice(0, 300)}`), [], 'no 500 logged');
  }
});

hostile.run();

const limited = suite('hostile input at tiny limits: the 429 shape');

let low: { servers: ServerProcess[]; site: { remove(): Promise<void> }; tokens: Tokens };
limited.before(async () => {
  const fixture = await sharedReadModel();
  const site = await stubSite();
  // Memory store; no trusted proxy, so every request is the same client address.
  const servers = await startServers(1, serverEnv({
    LOG_LEVEL: 'error', RATE_LIMIT_ANONYMOUS: '2', RATE_LIMIT_IDENTIFIED: '3',
    SITE_URL: fixture.siteUrl, READ_MODEL_DIR: fixture.dir, DIST_DIR: site.distDir,
  }));
  low = { servers, site, tokens: await issueTokens(servers[0]!) };
});
limited.after(async () => {
  await stopAll(low.servers);
  await low.site.remove();
});

/** Beyond the base rules: once the windows are used up, every counted call is a well-formed 429. */
function judge429(r: HostileRequest, a: Answer): string[] {
  const out = violations(r, a);
  if (out.length > 0 || isProtocolLevel(r, a, a.body.length ? JSON.parse(a.body.toString()) : undefined)) return out;
  const path = r.target.split('?')[0]!;
  const isOp = OPERATIONS.some((op) => path === `${API}/${op}` || path === `${API}/${op}/`) && (r.method === 'GET' || r.method === 'HEAD');
  if (isOp && a.status !== 429) out.push(`expected 429 once the quota is used up, got ${a.status}`);
  if (a.status === 429) {
    if (a.headers['ratelimit-remaining'] !== '0') out.push(`RateLimit-Remaining ${a.headers['ratelimit-remaining']} on a 429`);
    const t = Number(/;t=(\d+)/.exec(String(a.headers.ratelimit))?.[1]);
    if (isOp && !(Number(a.headers['retry-after']) >= t)) out.push(`Retry-After ${a.headers['retry-after']} < t=${t}`);
    if (r.method !== 'HEAD' && isOp) {
      const b = JSON.parse(a.body.toString());
      if (b.code !== 'agentes_rate_limited') out.push(`429 code ${b.code}`);
    }
  }
  return out;
}

limited('over the quota, every API operation answers a complete 429 whatever the input', async () => {
  // Use up the anonymous and identified windows first.
  for (let i = 0; i < 4; i++) {
    await request(`${low.servers[0]!.url}${API}/get_company_info`);
    await request(`${low.servers[0]!.url}${API}/get_company_info`, { headers: { Authorization: `Bearer ${low.tokens.full}` } });
  }
  const arb = apiRequest(low.tokens, nextIp).filter((r) => {
    // Requests whose answer cannot be a 429: header sections over the limit (431) are refused before any route.
    const size = r.headers.reduce((n, [k, v]) => n + k.length + v.length + 4, r.target.length);
    return size < 12_000;
  });
  await check('429', arb, 8, 60, () => low.servers[0]!, judge429);
});

limited('the OAuth limits answer rate_limited with Retry-After', async () => {
  const url = low.servers[0]!.url;
  const regs = await Promise.all(Array.from({ length: 8 }, () => request(`${url}/oauth/register`, { method: 'POST', ...json({ client_name: 'x' }) })));
  // issueTokens registered once (X-Forwarded-For is not trusted here: every request is 127.0.0.1); 5 an hour.
  const limitedRegs = regs.filter((r) => r.status === 429);
  assert.is(limitedRegs.length, 4, 'the sixth registration from one address on is refused');
  const tokens = await Promise.all(Array.from({ length: 35 }, () => request(`${url}/oauth/token`, { method: 'POST', ...form({ grant_type: 'client_credentials' }, { Authorization: basic(low.tokens.clientId, low.tokens.clientSecret) }) })));
  assert.is(tokens.filter((r) => r.status === 429).length, 35 - (30 - 3), 'thirty token requests a minute (three were made above)');
  for (const r of [...limitedRegs, ...tokens.filter((x) => x.status === 429)]) {
    assert.equal(Object.keys(r.json()).sort(), ['error', 'error_description']);
    assert.is(r.json().error, 'rate_limited');
    assert.ok(Number(r.headers['retry-after']) >= 1);
    assert.match(String(r.headers['cache-control']), 'no-store');
  }
  sent += 8 + 35;
});

limited('MCP over the quota: HTTP 429 with Retry-After and the reason in the tool result', async () => {
  const call = () => request(`${low.servers[0]!.url}/mcp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'read_page', arguments: { url: 'fontaneria' } } }),
  });
  const r = await call();
  sent += 1;
  assert.is(r.status, 429, r.text());
  assert.ok(Number(r.headers['retry-after']) >= 1);
  const body = r.json();
  assert.is(body.jsonrpc, '2.0');
  assert.is(body.result?.isError, true, 'the model sees the quota error');
});

limited('totals', () => {
  console.log(`  hostile input: ${sent} requests (${Object.entries(perProperty).map(([k, v]) => `${k} ${v}`).join(', ')}), seed ${seed}, 0 broken answers`
    + ` (${retried.count} resent after a reset of a reused kept-alive socket)`);
  for (const [name, counts] of Object.entries(statuses)) console.log(`    ${name}: ${Object.entries(counts).map(([st, n]) => `${st}×${n}`).join(' ')}`);
  if (scale >= 1) assert.ok(sent >= 10_000, `at least 10,000 generated requests (sent ${sent})`);
});

limited.run();

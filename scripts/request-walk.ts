/**
 * Which of the project's source files run while the server answers one request, start-up
 * excluded: the server is started from its TypeScript sources (tsx) with the inspector open, V8's
 * precise coverage (call counts) is switched on, the request is sent once to warm every lazy path,
 * the counts are reset, and the same request is sent again; a file is listed when any of its
 * functions ran during that second answer, with how many functions and calls. A quiet window as
 * long as that answer follows, to show what runs on its own (timers) and would be counted too.
 *
 *   node --import tsx scripts/request-walk.ts [rest-read-page] [mcp-tools-call]
 *     [--dir <project folder>]   (another checkout; default this one)
 *     [--built <folder>]         (its read-model/ and dist/; default the project's READ_MODEL_DIR and DIST_DIR)
 *     [--env NAME=value]…        (more configuration, e.g. METRICS_PORT=0 to walk with the metrics on)
 *
 * Both walks use a token from POST /oauth/token (the client registered first), the memory store
 * and the configuration's defaults otherwise.
 */
import path from 'node:path';
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { baseEnv } from './compare/commit-server.ts';
import { freePort } from './lib/port.ts';
import { connectInspector, takeCounts, type Inspector } from './walk/inspector.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: opts, positionals } = parseArgs({
  allowPositionals: true,
  options: { dir: { type: 'string', default: ROOT }, built: { type: 'string' }, env: { type: 'string', multiple: true, default: [] } },
});
const dir = path.resolve(opts.dir);

interface Call { method: string; path: string; headers?: Record<string, string>; body?: string }
interface Walk {
  title: string;
  /** Requests before the walked one (each sent once, start of the warm-up): what it needs, like a token. */
  setup(send: Send): Promise<Call>;
}
type Send = (call: Call) => Promise<{ status: number; text: string }>;

const PAGE = '/servicios/fontaneria/madrid/';
const MCP_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2025-11-25' };

async function tokenOf(send: Send): Promise<string> {
  const client = JSON.parse((await send({ method: 'POST', path: '/oauth/register', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ client_name: 'request-walk' }) })).text);
  const body = `grant_type=client_credentials&client_id=${client.client_id}&client_secret=${client.client_secret}`;
  return JSON.parse((await send({ method: 'POST', path: '/oauth/token', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body })).text).access_token;
}

const WALKS: Record<string, Walk> = {
  'rest-read-page': {
    title: `REST read_page with a token: GET /wp-json/agentes/v1/read_page?url=${PAGE}`,
    async setup(send) {
      const token = await tokenOf(send);
      return { method: 'GET', path: `/wp-json/agentes/v1/read_page?url=${PAGE}`, headers: { Authorization: `Bearer ${token}` } };
    },
  },
  'mcp-tools-call': {
    title: `MCP tools/call read_page with a token, revision 2025-11-25, after initialize: POST /mcp {"url":"${PAGE}"}`,
    async setup(send) {
      const token = await tokenOf(send);
      const headers = { ...MCP_HEADERS, Authorization: `Bearer ${token}` };
      await send({ method: 'POST', path: '/mcp', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'request-walk', version: '1' } } }) });
      await send({ method: 'POST', path: '/mcp', headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
      return { method: 'POST', path: '/mcp', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'read_page', arguments: { url: PAGE } } }) };
    },
  },
};

const names = positionals.length ? positionals : Object.keys(WALKS);
for (const name of names) if (!WALKS[name]) throw new Error(`unknown walk ${name}; known: ${Object.keys(WALKS).join(', ')}`);

/** The server from its sources with the inspector on; resolves with its address and the inspector's. */
async function startInspected(port: number) {
  const env: Record<string, string> = { ...baseEnv(), PORT: String(port), READ_MODEL_WATCH: 'off' };
  for (const k of ['READ_MODEL_DIR', 'DIST_DIR', 'SITE_URL'] as const) if (process.env[k]) env[k] = process.env[k]!;
  if (opts.built) Object.assign(env, { READ_MODEL_DIR: path.join(path.resolve(opts.built), 'read-model'), DIST_DIR: path.join(path.resolve(opts.built), 'dist') });
  for (const pair of opts.env) env[pair.slice(0, pair.indexOf('='))] = pair.slice(pair.indexOf('=') + 1);
  const child = spawn(process.execPath, ['--inspect=127.0.0.1:0', '--import', 'tsx', 'server/index.ts'], { cwd: dir, env, stdio: ['ignore', 'inherit', 'pipe'] });
  let seen = '';
  const ws = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      const debuggerUrl = /Debugger listening on (ws:\/\/\S+)/.exec(seen)?.[1];
      if (debuggerUrl && /"msg":"listening"/.test(seen)) resolve(debuggerUrl);
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before listening:\n${seen}`)));
  });
  return { ws, stop: () => new Promise<void>((resolve) => { child.once('exit', () => resolve()); child.kill('SIGTERM'); }) };
}

const relative = (url: string) => (url.startsWith('file://') ? path.relative(dir, fileURLToPath(url.split('?')[0]!)) : url);
const ours = (url: string) => url.startsWith('file://') && !relative(url).startsWith('..') && !relative(url).split(path.sep).includes('node_modules');

function print(title: string, counts: Map<string, { functions: number; calls: number }>): void {
  const files = [...counts].filter(([url]) => ours(url)).map(([url, c]) => [relative(url), c] as const).sort((a, b) => a[0].localeCompare(b[0]));
  console.log(`\n${title}: ${files.length} files`);
  for (const [file, c] of files) console.log(`  ${file.padEnd(48)} ${String(c.functions).padStart(3)} functions, ${String(c.calls).padStart(4)} calls`);
}

const port = await freePort();
const server = await startInspected(port);
let inspector: Inspector | undefined;
try {
  inspector = await connectInspector(server.ws);
  await inspector.call('Profiler.enable');
  // Before the first request: V8 counts calls exactly only for code it runs in this mode.
  await inspector.call('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
  const send: Send = async (call) => {
    const res = await fetch(`http://localhost:${port}${call.path}`, { method: call.method, headers: call.headers ?? {}, body: call.body ?? null });
    return { status: res.status, text: await res.text() };
  };
  for (const name of names) {
    const walk = WALKS[name]!;
    const call = await walk.setup(send);
    const warm = await send(call);
    await takeCounts(inspector);
    const started = performance.now();
    const walked = await send(call);
    // What the server does after the last byte (a response's end bookkeeping) runs within a turn or two.
    await new Promise((r) => setTimeout(r, 20));
    const counts = await takeCounts(inspector);
    const ms = performance.now() - started;
    if (walked.status !== warm.status) console.log(`note: the warm-up answered ${warm.status}, the walked request ${walked.status}`);
    print(`${name} — ${walk.title} → ${walked.status}`, counts);
    await new Promise((r) => setTimeout(r, ms));
    print(`${name} — a quiet window as long (${ms.toFixed(0)} ms), for comparison`, await takeCounts(inspector));
  }
} finally {
  inspector?.close();
  await server.stop();
}

/**
 * Smoke test of a running server's MCP endpoint with the official SDK client (2.x, negotiating:
 * 2026-07-28 through server/discover, else initialize): lists the tools and
 * calls the four of them, anonymously and then with a token obtained by the SDK's own
 * client-credentials flow (registration at /oauth/register, then discovery from /mcp).
 *
 *   npm start                                   # in another terminal
 *   node --import tsx scripts/mcp-smoke.ts      # default http://localhost:4321/mcp (SITE_URL)
 *   node --import tsx scripts/mcp-smoke.ts https://example.org/mcp
 *
 * The URL must be the one the server publishes (SITE_URL + /mcp): the SDK checks that the
 * protected-resource metadata names exactly that resource. Exits 1 on the first failure.
 */
import { auth, Client, ClientCredentialsProvider, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';

const url = new URL(process.argv[2] ?? `${process.env.SITE_URL ?? 'http://localhost:4321'}/mcp`);
const site = url.origin;

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

async function connect(provider?: ClientCredentialsProvider) {
  let last: Headers | undefined;
  // Keeps the headers of the last answer, to show the rate-limit state the host would otherwise hide.
  const fetchAndKeep: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    last = res.headers;
    return res;
  };
  const transport = new StreamableHTTPClientTransport(url, { fetch: fetchAndKeep, ...(provider ? { authProvider: provider } : {}) });
  const client = new Client({ name: 'agentes-mcp-smoke', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(transport);
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const started = performance.now();
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    const ms = (performance.now() - started).toFixed(1);
    const quota = `${last?.get('ratelimit-remaining')}/${last?.get('ratelimit-limit')}`;
    const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
    console.log(`  ${name}(${JSON.stringify(args)}) → ${result.isError ? 'isError' : 'ok'} in ${ms} ms, quota ${quota}: ${text.slice(0, 110).replace(/\s+/g, ' ')}…`);
    return result;
  };
  return { client, transport, call };
}

console.log(`MCP endpoint: ${url.href}`);
const anonymous = await connect();
try {
  const info = anonymous.client.getServerVersion();
  console.log(`server ${info?.name} ${info?.version}, protocol ${anonymous.client.getNegotiatedProtocolVersion()}`);
  console.log(`instructions: ${anonymous.client.getInstructions()?.split('\n')[0]}`);
  const { tools } = await anonymous.client.listTools();
  console.log(`tools: ${tools.map((t) => `${t.name}${t.annotations?.readOnlyHint ? ' (read-only)' : ''}`).join(', ')}`);
  check(tools.length === 4, 'four tools expected');

  console.log('anonymous:');
  const found = await anonymous.call('search_pages', { query: 'fontanero', city: 'madrid', limit: 3 });
  const first = (found.structuredContent as { results: { url: string }[] } | undefined)?.results[0];
  check(!found.isError && first, 'search_pages found nothing');
  const page = await anonymous.call('read_page', { url: first.url });
  check(!page.isError && (page.structuredContent as { markdown: string }).markdown.length > 0, 'read_page returned no Markdown');
  check(!(await anonymous.call('get_company_info', { section: 'contact' })).isError, 'get_company_info failed');
  check((await anonymous.call('get_quota')).isError, 'get_quota without a token must be a tool error');
  check((await anonymous.call('search_pages', { query: 'x' })).isError, 'a one-letter query must be a tool error');
} finally {
  await anonymous.client.close();
}

console.log('registered (client credentials, token from the SDK\'s own discovery):');
const registration = await fetch(`${site}/oauth/register`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ client_name: 'agentes-mcp-smoke', contacts: ['smoke@example.com'] }),
});
check(registration.status === 201, `registration answered ${registration.status}: ${await registration.clone().text()}`);
const { client_id, client_secret } = (await registration.json()) as { client_id: string; client_secret: string };
const provider = new ClientCredentialsProvider({ clientId: client_id, clientSecret: client_secret, expectedIssuer: site });
check(await auth(provider, { serverUrl: url }) === 'AUTHORIZED', 'no token');
const registered = await connect(provider);
try {
  check(!(await registered.call('search_pages', { query: 'cerrajero' })).isError, 'search_pages with a token failed');
  const quota = await registered.call('get_quota');
  check(!quota.isError && (quota.structuredContent as { client_id: string }).client_id === client_id, 'get_quota with a token failed');
} finally {
  await registered.client.close();
}
console.log('MCP smoke test passed');

/**
 * `node --import tsx bench/compare/rest-handler.ts <tree A> <tree B>`: the REST handler of two
 * checkouts (e.g. `git worktree add` of two commits), called in one process over tree A's built
 * read model (a read-model format both understand), each with its own memory store, interleaved
 * in rounds, so a refactor's cost per request shows
 * beside the noise of a shared machine (HTTP rows there move by tens of per cent between runs).
 * The handler alone, without sockets: what a change of the request path adds or saves.
 */
import path from 'node:path';
import { Bench } from 'tinybench';

const [a, b] = process.argv.slice(2).map((p) => path.resolve(p));
if (!a || !b) throw new Error('usage: rest-handler.ts <tree A> <tree B>');
/**
 * The tree's REST handler: rest/handler.ts, or routes/api/index.ts before it existed; given the
 * front door's match where the tree has one (routes/table.ts), which it then pays for here.
 */
async function handlerOf(root: string, readModelDir: string, anonymousLimit = '1000000000') {
  const { parseConfig } = await import(`${root}/server/config.ts`);
  const { openModel } = await import(`${root}/server/read-model/holder.ts`);
  const { createMemoryStore } = await import(`${root}/server/stores/memory.ts`);
  const { createTokenService } = await import(`${root}/server/auth/tokens.ts`);
  const { createLogger } = await import(`${root}/server/log.ts`);
  const config = parseConfig({ READ_MODEL_DIR: readModelDir, RATE_LIMIT_ANONYMOUS: anonymousLimit, LOG_LEVEL: 'silent' });
  const log = createLogger('silent');
  const model = await openModel(config, log, { watch: false });
  const store = createMemoryStore({ clock: Date.now });
  const deps: any = { config, log, store, tokens: createTokenService({ store, config, clock: Date.now }), model, clock: Date.now };
  try {
    deps.operations = (await import(`${root}/server/operations/index.ts`)).OPERATIONS;
    const handler = (await import(`${root}/server/rest/handler.ts`)).createApiHandler(deps);
    const table = await import(`${root}/server/routes/table.ts`).catch(() => null);
    if (table === null) return handler;
    const routes = table.createRouteTable({ operations: deps.operations });
    return (req: any, res: any) => handler(req, res, routes.match(req.url));
  } catch {
    return (await import(`${root}/server/routes/api/index.ts`)).createApiHandler(deps);
  }
}
const model = path.join(a, 'var', 'read-model');
const handlers = { A: await handlerOf(a, model), B: await handlerOf(b, model) };
// One client over its quota: every call after the first is the 429.
const refusing = { A: await handlerOf(a, model, '1'), B: await handlerOf(b, model, '1') };
const res = () => ({ writeHead() {}, end() {}, setHeader() {}, headersSent: false } as any);
let ip = 0;
const req = (url: string) => ({ url, method: 'GET', headers: { 'accept-encoding': 'gzip, br', host: 'localhost' }, socket: { remoteAddress: `10.0.${(ip >> 8) & 255}.${ip++ & 255}` } } as any);
const cases: [string, typeof handlers, (url: string) => any][] = [
  ['/wp-json/agentes/v1/read_page?url=/cookies/', handlers, req],
  ['/wp-json/agentes/v1/get_company_info', handlers, req],
  ['/wp-json/agentes/v1/search_pages?query=fontanero', handlers, req],
  ['429 /wp-json/agentes/v1/read_page?url=/cookies/', refusing, (url) => ({ ...req(url.slice(4)), socket: { remoteAddress: '10.9.9.9' } })],
];
for (const [url, pair, make] of cases) {
  const bench = new Bench({ time: 2000, warmupTime: 500 });
  for (let round = 0; round < 3; round++) {
    for (const [name, handle] of Object.entries(pair)) bench.add(`${name} ${round}`, () => { handle(make(url), res()); });
  }
  await bench.run();
  const p50 = (name: string) => bench.tasks.filter((t) => t.name.startsWith(name)).map((t) => ((t.result as any).latency?.p50 ?? (t.result as any).p50) * 1000);
  const median = (xs: number[]) => xs.sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
  const [ma, mb] = [median(p50('A')), median(p50('B'))];
  console.log(`${url}: A p50 ${ma.toFixed(2)} µs, B p50 ${mb.toFixed(2)} µs (rounds A ${p50('A').map((x) => x.toFixed(2)).join(' ')}; B ${p50('B').map((x) => x.toFixed(2)).join(' ')}) B ÷ A ${(mb / ma).toFixed(2)}`);
}
process.exit(0);

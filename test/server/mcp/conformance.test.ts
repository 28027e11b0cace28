/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`) against the whole
 * server: its server scenarios that apply to what this server offers (tools, page resources, no
 * prompts, logging or test tools), at 2025-11-25 with the released suite and at 2026-07-28 with
 * its pre-release, which is the one that has the stateless revision's scenarios. Scenarios that
 * read the suite's own fixtures (json-schema-2020-12's `json_schema_2020_12_tool`, the
 * `test://` resources of resources-read-*, prompts, logging) or tools this server does not have
 * (http-custom-header-server-validation: tools with `x-mcp-header` parameters) do not apply here.
 *
 * A check the suite itself reports as untestable here (it needs the suite's own diagnostic tools)
 * is accepted only when listed below with its reason, so any other failure fails the test.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT } from '../../../server/config.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { sharedReadModel } from '../../helpers/read-model.ts';

const run = promisify(execFile);
const cli = (pkg: string) => path.join(ROOT, 'node_modules/@modelcontextprotocol', pkg, 'dist/index.js');

interface Check { id: string; status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED'; errorMessage?: string; details?: { untestable?: boolean } }

/** Checks that need what this server does not offer: the suite's diagnostic tools, or prompts. */
const NOT_APPLICABLE: Record<string, string> = {
  'sep-2575-server-rejects-undeclared-capability': 'needs the suite\'s test_missing_capability tool',
  'sep-2575-missing-capability-http-400': 'needs the suite\'s test_missing_capability tool',
  'sep-2575-http-server-no-independent-requests-on-stream': 'needs the suite\'s test_streaming_elicitation tool',
  'sep-2575-server-no-log-without-loglevel': 'needs the suite\'s test_logging_tool',
  'sep-2549-prompts-list-caching-hints': 'the server offers no prompts (prompts/list is -32601)',
};

const SUITES = [
  { pkg: 'conformance', revision: '2025-11-25', scenarios: ['server-initialize', 'ping', 'tools-list', 'resources-list', 'dns-rebinding-protection'] },
  { pkg: 'conformance-next', revision: '2026-07-28', scenarios: ['server-stateless', 'tools-list', 'resources-list', 'dns-rebinding-protection', 'caching', 'sep-2164-resource-not-found', 'http-header-validation'] },
] as const;

const test = suite<{ api: TestServer; out: string }>('MCP conformance suite');

test.before(async (ctx) => {
  // SITE_URL on loopback: the DNS-rebinding scenario sends a local Host and expects it served.
  ctx.api = await startTestServer({ fixture: await sharedReadModel(), siteUrlIsOrigin: true, env: { RATE_LIMIT_ANONYMOUS: '100000' } });
  ctx.out = fs.mkdtempSync(path.join(os.tmpdir(), 'agentes-conformance-'));
});
test.after(async (ctx) => {
  await ctx.api.close();
  fs.rmSync(ctx.out, { recursive: true, force: true });
});

/** Runs one scenario (asynchronously: the server under test lives in this process) and returns its checks. */
async function scenario(ctx: { api: TestServer; out: string }, pkg: string, revision: string, name: string): Promise<Check[]> {
  const out = path.join(ctx.out, `${pkg}-${revision}-${name}`);
  const args = [cli(pkg), 'server', '--url', `${ctx.api.origin}/mcp`, '--scenario', name, '--spec-version', revision, '-o', out];
  await run(process.execPath, args, { cwd: ROOT }).catch((err: { stdout?: string }) => {
    // Exit 1 when a check fails: the checks file says which, below.
    if (!fs.existsSync(out)) throw new Error(`conformance ${name} did not run: ${String(err)}\n${err.stdout ?? ''}`);
  });
  const [dir] = fs.readdirSync(out);
  assert.ok(dir, `${name}: no results written`);
  return JSON.parse(fs.readFileSync(path.join(out, dir!, 'checks.json'), 'utf8')) as Check[];
}

for (const { pkg, revision, scenarios } of SUITES) {
  for (const name of scenarios) {
    test(`${revision} ${name}`, async (ctx) => {
      const checks = await scenario(ctx, pkg, revision, name);
      assert.ok(checks.some((c) => c.status === 'SUCCESS'), `${name}: no check passed`);
      const failed = checks.filter((c) => c.status === 'FAILURE' && !(c.id in NOT_APPLICABLE && (c.details?.untestable || c.id.includes('prompts'))));
      assert.equal(failed.map((c) => `${c.id}: ${c.errorMessage}`), [], `${pkg} ${revision} ${name}`);
    });
  }
}

test.run();

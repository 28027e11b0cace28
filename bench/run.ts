/**
 * `npm run bench [-- options]`: the performance benchmarks (see BENCHMARKS.md).
 * Sections: http (real server vs a bare node:http baseline, memory store and Redis), micro
 * (tinybench and per-call workloads of the hot functions), build (`npm run build`, and the
 * read-model stage on a generated large site), large (10,000- and 100,000-page sites: the build,
 * the server's start, memory, cold reads, search and a publish under load), publish (edits of the
 * sources of 10,000- and 100,000-page sites, timed until they are live, against a full build), start-options (each
 * option `npm start` gives the server, alone and left out), lighthouse (Lighthouse Performance on
 * the pages the page tests open). Prints a Markdown report; `--check` exits 1 when a
 * figure misses its target, naming it. Not part of `npm test`.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { runBuild, type BuildReport } from './build/run-build.ts';
import { runHttp, type HttpReport } from './http/run-http.ts';
import { runLarge, type LargeReport } from './large/run-large.ts';
import { runPublish, type PublishReport } from './publish/run-publish.ts';
import { runLighthouse, type LighthouseBenchReport } from './lighthouse/run-lighthouse.ts';
import { pickTool } from './http/load.ts';
import { parseArgs, USAGE, type Section } from './lib/args.ts';
import { loadNow, machineInfo } from './lib/machine.ts';
import { runMicro, type MicroReport } from './micro/run-micro.ts';
import { runStartOptions, type StartOptionsReport } from './start-options/run-start-options.ts';
import { renderReport } from './report.ts';
import { checks } from './targets.ts';

async function main(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(USAGE + '\n');
    return 0;
  }
  let args;
  try {
    args = parseArgs(argv);
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    return 2;
  }
  const started = performance.now();
  const machine = machineInfo();
  const log = (line: string) => process.stderr.write(`[${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}\n`);
  if (args.profileDir) await fs.mkdir(path.resolve(args.profileDir), { recursive: true });
  const profileDir = args.profileDir ? path.resolve(args.profileDir) : undefined;

  let http: HttpReport | undefined;
  let micro: MicroReport | undefined;
  let build: BuildReport | undefined;
  let large: LargeReport | undefined;
  let publish: PublishReport | undefined;
  let startOptions: StartOptionsReport | undefined;
  let lighthouse: LighthouseBenchReport | undefined;
  // Both load sections use one tool; autocannon runs in this process, beside the server on the
  // same cores, so its figures differ from wrk's (ratios closer to 1, latency tails longer).
  const tool = ['large', 'publish', 'http', 'start-options'].some((s) => args.sections.has(s as Section)) ? await pickTool(args.tool) : undefined;
  if (tool === 'autocannon' && !args.tool) log('wrk is not installed; using autocannon (costlier per request: ratios read closer to 1, latency tails longer — apt-get install wrk)');
  // The build section first: it creates many files, which on ext4 without a journal costs far
  // more soon after other files' deletion, and the sections before it would leave it theirs;
  // the files it deletes at its end cost the others nothing.
  if (args.sections.has('build')) build = await runBuild({ pages: args.pages, ...(profileDir ? { profileDir } : {}), log });
  if (tool && args.sections.has('large')) large = await runLarge({ sizes: args.largePages, tool, seconds: args.seconds, log });
  if (tool && args.sections.has('publish')) publish = await runPublish({ sizes: args.publishPages, tool, log });
  if (args.sections.has('micro')) micro = await runMicro({ quick: args.quick, log });
  if (tool && args.sections.has('http')) {
    http = await runHttp({
      rounds: args.rounds, seconds: args.seconds, warmupSeconds: args.warmupSeconds, connections: args.connections, tool,
      ...(args.filter ? { filter: args.filter } : {}), ...(profileDir ? { profileDir } : {}), log,
    });
  }

  if (tool && args.sections.has('start-options')) {
    startOptions = await runStartOptions({ rounds: args.rounds, seconds: args.seconds, connections: args.connections, tool, log });
  }

  // Last: a browser and the simulated slow CPU want the machine to themselves.
  if (args.sections.has('lighthouse')) lighthouse = await runLighthouse({ log });

  machine.loadEnd = loadNow();
  const list = checks({ http, micro, build, large, publish, startOptions, lighthouse });
  const report = renderReport({
    machine, http, micro, build, large, publish, startOptions, lighthouse, checks: list,
    command: ['npm run bench', ...(argv.length ? ['--', ...argv] : [])].join(' '),
    minutes: (performance.now() - started) / 60_000,
  });
  process.stdout.write(report);
  if (args.out) {
    await fs.mkdir(path.dirname(path.resolve(args.out)), { recursive: true });
    await fs.writeFile(args.out, report);
  }
  if (profileDir) log(`CPU profiles in ${profileDir}/<process>/ — the largest file of each is its main thread (Chrome DevTools › Performance, or speedscope)`);

  const failed = list.filter((c) => !c.pass);
  if (args.check) {
    if (failed.length === 0) {
      process.stderr.write(`bench --check: all ${list.length} targets hold\n`);
      return 0;
    }
    process.stderr.write(`bench --check: ${failed.length} of ${list.length} targets missed:\n`);
    for (const c of failed) process.stderr.write(`  ${c.name}: ${c.value.toFixed(2)}${c.unit ?? ''} (target ${c.target})\n`);
    return 1;
  }
  return 0;
}

process.exitCode = await main(process.argv.slice(2));

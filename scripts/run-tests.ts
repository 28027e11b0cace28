/**
 * `npm test`'s runner: uvu over `test/` (or `[dir] [pattern]`, as uvu takes them), failing the run
 * when a suite ran fewer tests than it has without a failure to show for it.
 *
 * Why: uvu swallows an error thrown in a suite's `before` or `after` hook (its runner returns
 * from a `finally`): the suite prints `(0 / 6)`, no failure, and uvu exits 0. A private
 * redis-server that cannot start, or a fixture that cannot be built, would pass unnoticed (seen:
 * the Pagefind merge suite lost all six tests in one CI run, and the run exited 0). Such a suite
 * fails the run here, named; run its file alone to see the hook's error.
 */
import { spawn } from 'node:child_process';

const SUITE_FILE = /\.(?:test|spec)\.[cm]?[jt]s$/;
const COUNT = /\((\d+) \/ (\d+)\)\s*$/;

/** Suites of uvu's output that ran fewer tests than they have, beyond the ones that failed. */
export function lostSuites(output: string): { file: string; lost: number }[] {
  // eslint-disable-next-line no-control-regex
  const lines = output.replace(/\x1b\[[0-9;]*m/g, '').split('\n');
  const lost: { file: string; lost: number }[] = [];
  let file = '(unnamed suite)';
  for (const line of lines) {
    if (SUITE_FILE.test(line.trim())) { file = line.trim(); continue; }
    const count = COUNT.exec(line);
    if (!count) continue;
    const missing = Number(count[2]) - Number(count[1]) - (line.match(/✘/g)?.length ?? 0);
    if (missing > 0) lost.push({ file, lost: missing });
  }
  return lost;
}

async function main(args: string[]): Promise<number> {
  const [dir = 'test', pattern = '\\.test\\.ts$'] = args;
  const child = spawn(process.execPath, ['--import', 'tsx', 'node_modules/uvu/bin.js', dir, pattern], { stdio: ['inherit', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    process.stdout.write(chunk);
    output += chunk.toString();
  });
  const code = await new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (c) => resolve(c ?? 1));
  });
  const lost = lostSuites(output);
  for (const s of lost) {
    process.stdout.write(`\n  LOST  ${s.lost} test(s) of ${s.file} never ran: a before/after hook failed (uvu does not report it).\n`
      + `        Run the file alone to see its error: node --import tsx ${dir}/${s.file}\n`);
  }
  return code !== 0 ? code : lost.length > 0 ? 1 : 0;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = await main(process.argv.slice(2));

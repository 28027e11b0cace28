/**
 * One commit's server for scripts/compare-responses.ts: its code checked out beside this one
 * (a detached worktree), its dependencies, and its `npm start` on ports of its own, stopped with
 * SIGTERM as a supervisor would.
 */
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync, spawn, spawnSync } from 'node:child_process';

export interface Checkout {
  /** The project folder of that code. */
  dir: string;
  /** A commit id, or the folder when one was given. */
  label: string;
  remove(): void;
}

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

/**
 * The server's own settings (README, "Configuration") and what changes how Node runs: never taken
 * from the caller's environment, so both servers get exactly the configuration given.
 */
const SERVER_SETTINGS = /^(?:PORT|HOST|SITE_URL|ALLOWED_HOSTS|REDIS_\w+|KEY_PREFIX|TRUST_PROXY|RATE_LIMIT_\w+|READ_PAGE_\w+|READ_MODEL_\w+|DIST_DIR|API_\w+|CURSOR_SECRET|LOG_LEVEL|METRICS_\w+|NODE_OPTIONS|TEST_\w+)$/;

/** The caller's environment (npm's registry and certificates) less the server's settings. */
export function baseEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !SERVER_SETTINGS.test(k)) env[k] = v;
  // The Node running this script first, as `. scripts/node.sh` would put it.
  env.PATH = `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`;
  return env;
}

function run(cmd: string, args: string[], cwd: string, env: Record<string, string>): void {
  const result = spawnSync(cmd, args, { cwd, env, stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0) throw new Error(`${cmd} ${args.join(' ')} in ${cwd} failed (exit ${result.status ?? result.signal})`);
}

/**
 * `ref` as a project folder: an existing folder as it is, else a detached worktree of that commit
 * in `parent`, with this checkout's node_modules linked in when its package.json and
 * package-lock.json are the same as this checkout's, and `npm ci` otherwise.
 */
export function checkout(repo: string, ref: string, parent: string, name: string): Checkout {
  if (fs.existsSync(ref) && fs.statSync(ref).isDirectory()) return { dir: path.resolve(ref), label: path.resolve(ref), remove() {} };
  const sha = git(repo, 'rev-parse', '--verify', `${ref}^{commit}`);
  const dir = path.join(parent, name);
  git(repo, 'worktree', 'add', '--detach', dir, sha);
  let removed = false;
  const remove = () => {
    if (removed) return;
    removed = true;
    git(repo, 'worktree', 'remove', '--force', dir);
  };
  try {
    const same = ['package.json', 'package-lock.json'].every((f) => {
      const theirs = fs.readFileSync(path.join(dir, f), 'utf8');
      return fs.existsSync(path.join(repo, f)) && fs.readFileSync(path.join(repo, f), 'utf8') === theirs;
    });
    if (same && fs.existsSync(path.join(repo, 'node_modules'))) fs.symlinkSync(path.join(repo, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    else run('npm', ['ci', '--no-audit', '--no-fund'], dir, baseEnv());
  } catch (err) {
    remove();
    throw err;
  }
  return { dir, label: sha, remove };
}

/** `npm run build` of that code, with `env` saying where its output goes. */
export function buildSite(dir: string, env: Record<string, string>): void {
  run('npm', ['run', 'build', '--silent'], dir, { ...baseEnv(), ...env });
}

/**
 * The process groups started here and not yet stopped: an interrupted or failed run stops them
 * on its way out (in their own groups, they do not hear the terminal's Ctrl-C).
 */
const running = new Set<number>();
let hooked = false;
function stopAllOnExit(): void {
  if (hooked) return;
  hooked = true;
  process.once('exit', () => { for (const pgid of running) { try { process.kill(-pgid, 'SIGTERM'); } catch { /* gone */ } } });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));
}

export interface StartedServer {
  stop(): Promise<void>;
}

/**
 * `npm start` in `dir` with `env`, its output appended to `logFile`; resolves once the server
 * logs that it listens, rejects when it exits first.
 */
export function npmStart(dir: string, env: Record<string, string>, logFile: string): Promise<StartedServer> {
  const log = fs.openSync(logFile, 'a');
  // A process group of its own: npm, its shell and the server are stopped together.
  const child = spawn('npm', ['start', '--silent'], { cwd: dir, env: { ...baseEnv(), ...env }, detached: true, stdio: ['ignore', log, 'pipe'] });
  stopAllOnExit();
  running.add(child.pid!);
  const exited = new Promise<void>((resolve) => child.once('exit', () => { running.delete(child.pid!); resolve(); }));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      try { process.kill(-child.pid!, 'SIGTERM'); } catch { /* already gone */ }
      await exited;
    }
    fs.closeSync(log);
  };
  return new Promise((resolve, reject) => {
    let seen = '';
    let ready = false;
    child.stderr!.on('data', (chunk: Buffer) => {
      fs.writeSync(log, chunk);
      if (ready) return;
      seen += chunk.toString('utf8');
      if (/"msg":"listening"/.test(seen)) { ready = true; resolve({ stop }); }
    });
    child.once('exit', (code, signal) => reject(new Error(`npm start in ${dir} exited (${code ?? signal}) before listening; see ${logFile}`)));
  });
}

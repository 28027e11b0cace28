/**
 * One commit's server for scripts/compare-responses.ts: its code checked out beside this one
 * (a detached worktree), its dependencies, and its `npm start` on ports of its own, stopped with
 * SIGTERM as a supervisor would.
 */
import fs from 'node:fs';
import net from 'node:net';
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

/** Only what npm and Node need from the caller's environment: no REDIS_URL or SITE_URL of its own leaks in. */
export function baseEnv(): Record<string, string> {
  const keep = ['HOME', 'TMPDIR', 'LANG', 'USER', 'CHROMIUM_PATH'];
  const env: Record<string, string> = Object.fromEntries(keep.flatMap((k) => (process.env[k] ? [[k, process.env[k]!]] : [])));
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
  const remove = () => { git(repo, 'worktree', 'remove', '--force', dir); };
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

/** A TCP port free on loopback now, for a server told to bind it a moment later. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
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
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
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

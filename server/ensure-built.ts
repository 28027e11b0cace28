/**
 * `npm start` and the tests build the site and read model first when either is missing, or when
 * the current read model was written in an older format than this code reads (an upgrade whose
 * read model changed shape rebuilds it instead of failing to load it).
 *
 * Several processes started at once on a fresh tree: the first builds, the others see its build
 * lock, wait for it to be released and serve what it built (or build, if it failed).
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { ROOT, type Config } from './config.ts';
import { BUILDS_DIR, POINTER_FILE } from '../formats/read-model/pointer.ts';
import { lockOwner, ownerName } from '../formats/read-model/build-lock.ts';
import { PointerSchema, READ_MODEL_SCHEMA_VERSION } from '../formats/schemas/read-model.ts';

/** The current read-model build exists and is of this code's format. */
export function readModelUsable(readModelDir: string): boolean {
  try {
    const pointer = PointerSchema.safeParse(JSON.parse(fs.readFileSync(path.join(readModelDir, POINTER_FILE), 'utf8')));
    if (!pointer.success) return false;
    const id = pointer.data.build_id;
    const manifest = JSON.parse(fs.readFileSync(path.join(readModelDir, BUILDS_DIR, id, 'manifest.json'), 'utf8')) as { schema_version?: unknown };
    return manifest.schema_version === READ_MODEL_SCHEMA_VERSION;
  } catch {
    return false;
  }
}

export function isBuilt(config: Config): boolean {
  return fs.existsSync(path.join(config.distDir, 'client', 'index.html')) && readModelUsable(config.readModelDir);
}

const LOCK_POLL_MS = 250;
/** Blocks this (still starting) process for `ms`: nothing else runs before the server exists. */
const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Waits while another live process builds into `dir`; true when there was one. */
function waitForOtherBuild(dir: string): boolean {
  const owner = lockOwner(dir);
  if (owner === null) return false;
  process.stderr.write(`Another process (${ownerName(owner)}) is building the site and read model: waiting for it…\n`);
  while (lockOwner(dir) !== null) pause(LOCK_POLL_MS);
  return true;
}

export function ensureBuilt(config: Config): void {
  for (;;) {
    if (isBuilt(config)) return;
    if (waitForOtherBuild(config.readModelDir)) continue;
    process.stderr.write('No built site or read model of this version yet: running the build first (npm run build)…\n');
    const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'build-scripts', 'build.ts')], {
      cwd: ROOT,
      stdio: 'inherit',
      env: process.env,
    });
    if (result.status === 0) return;
    // Another process took the lock between the check and this build: wait for its build instead.
    if (lockOwner(config.readModelDir) !== null) continue;
    throw new Error(`the build failed (exit ${result.status ?? result.signal})`);
  }
}

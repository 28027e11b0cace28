/**
 * `npm start` and the tests build the site and read model first when either is missing, or when
 * the current read model was written in an older format than this code reads (an upgrade whose
 * read model changed shape rebuilds it instead of failing to load it).
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { ROOT, type Config } from './config.ts';
import { BUILDS_DIR, POINTER_FILE } from './read-model/pointer.ts';
import { PointerSchema, READ_MODEL_SCHEMA_VERSION } from './schemas/read-model.ts';

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

export function ensureBuilt(config: Config): void {
  if (isBuilt(config)) return;
  process.stderr.write('No built site or read model of this version yet: running the build first (npm run build)…\n');
  const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'build-scripts', 'build.ts')], {
    cwd: ROOT,
    stdio: 'inherit',
    env: process.env,
  });
  if (result.status !== 0) throw new Error(`the build failed (exit ${result.status ?? result.signal})`);
}

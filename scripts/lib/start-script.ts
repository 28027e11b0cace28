/**
 * What `npm start` runs once the server is bundled (package.json `scripts.start`:
 * `node --import tsx scripts/bundle-server.ts && NAME=value… node <options> var/server/index.mjs`):
 * the environment it sets, the Node options and the bundle, so the benchmarks and the tests run
 * the server exactly as production does.
 */
import fs from 'node:fs';
import path from 'node:path';
import { SERVER_BUNDLE } from '../bundle-server.ts';
import { ROOT } from '../../server/config.ts';

const ENV_ASSIGNMENT = /^([A-Z_][A-Z0-9_]*)=(\S*)$/;

/** The environment `npm start` sets for the server and the Node options it passes. */
export interface StartScript { env: Record<string, string>; options: string[] }

export function startScript(): StartScript {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const serve = pkg.scripts.start.split('&&').pop()!.trim().split(/\s+/);
  const env: Record<string, string> = {};
  let m: RegExpExecArray | null;
  while ((m = ENV_ASSIGNMENT.exec(serve[0]!)) !== null) {
    env[m[1]!] = m[2]!;
    serve.shift();
  }
  if (serve[0] !== 'node' || path.resolve(ROOT, serve[serve.length - 1]!) !== SERVER_BUNDLE) {
    throw new Error(`unexpected start script: ${pkg.scripts.start}`);
  }
  return { env, options: serve.slice(1, -1) };
}

export const startScriptNodeOptions = (): string[] => startScript().options;
export const startScriptEnv = (): Record<string, string> => startScript().env;


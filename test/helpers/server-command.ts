/**
 * The command that starts a real server process the way `npm start` does: the server bundled by
 * scripts/bundle-server.ts, run by plain Node with the start script's options. Bundled once per
 * test process, from the current sources, into a folder of its own under var/test/ (inside the
 * project, so the bundle finds node_modules and the project root as the real one does).
 */
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../server/config.ts';
import { bundleServer } from '../../scripts/bundle-server.ts';
import { startScriptNodeOptions } from '../../scripts/lib/start-script.ts';

let bundled: Promise<string> | undefined;

/** `[…node options, bundle]`: spawn with `process.execPath`. */
export async function serverCommand(): Promise<string[]> {
  bundled ??= (async () => {
    const dir = path.join(ROOT, 'var', 'test', `server-${process.pid}`);
    process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
    return bundleServer(path.join(dir, 'index.mjs'));
  })();
  return [...startScriptNodeOptions(), await bundled];
}

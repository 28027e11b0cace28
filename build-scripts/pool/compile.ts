/**
 * The task module a pool's workers run, as plain JavaScript: a TypeScript module and what it
 * imports from the project are bundled by esbuild into one ES module (packages left as imports,
 * as scripts/bundle-server.ts does for the server), written once under `var/build-workers/`
 * named by its content.
 *
 * Why not tsx in the workers: a worker does not inherit the parent's `--import tsx`, so each one
 * would register tsx itself, which starts a loader thread per worker that compiles and resolves
 * every import: CPU spent before a worker reads its first page, and the build waits for them
 * before it reads a page.
 *
 * The bundle sits inside the project so its package imports resolve from the project's
 * node_modules, as the sources' do. Task modules must not locate files from `import.meta.url`
 * (it names the bundle).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildSync } from 'esbuild';
import { NODE_BUNDLE } from '../../scripts/bundle-server.ts';
import { ROOT } from '../../formats/settings.ts';

export const COMPILED_DIR = path.join(ROOT, 'var', 'build-workers');

/** `script` itself when it is JavaScript; else the URL of its bundle, written if not there yet. */
export function compiledTaskModule(script: URL): URL {
  const file = fileURLToPath(script);
  if (!/\.[cm]?tsx?$/.test(file)) return script;
  const result = buildSync({ ...NODE_BUNDLE, entryPoints: [file], write: false, logLevel: 'silent' });
  const code = result.outputFiles[0]!.contents;
  const name = `${path.basename(file).replace(/\.[^.]+$/, '')}-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`;
  const target = path.join(COMPILED_DIR, name);
  if (!fs.existsSync(target)) {
    fs.mkdirSync(COMPILED_DIR, { recursive: true });
    // Written aside, then renamed: builds started together may write the same bundle at once.
    const temp = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    fs.writeFileSync(temp, code);
    fs.renameSync(temp, target);
  }
  return pathToFileURL(target);
}

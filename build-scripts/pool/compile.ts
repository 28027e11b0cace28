/**
 * The task module a pool's workers run, as plain JavaScript: a TypeScript module, what it imports
 * from the project and the packages it uses are bundled by esbuild into one ES module, written
 * once under `var/build-workers/` named by its content. Packages are bundled in too because every
 * build starts its workers afresh, and one file loads faster than the hundreds of modules of the
 * Markdown packages.
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
import { buildSync, type BuildOptions } from 'esbuild';
import { NODE_BUNDLE } from '../../scripts/bundle-server.ts';
import { ROOT } from '../../formats/settings.ts';

const WORKER_BUNDLE: BuildOptions = {
  ...NODE_BUNDLE,
  packages: 'bundle',
  // For the CommonJS packages bundled into an ES module.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
};

export const COMPILED_DIR = path.join(ROOT, 'var', 'build-workers');

/** `script` itself when it is JavaScript; else the URL of its bundle, written if not there yet. */
export function compiledTaskModule(script: URL): URL {
  const file = fileURLToPath(script);
  if (!/\.[cm]?tsx?$/.test(file)) return script;
  // Bundled once per process: the main thread's own code does not change while it runs either.
  let url = compiled.get(file);
  if (!url) compiled.set(file, url = compile(file));
  return url;
}

const compiled = new Map<string, URL>();

function compile(file: string): URL {
  const result = buildSync({ ...WORKER_BUNDLE, entryPoints: [file], write: false, logLevel: 'silent' });
  const code = result.outputFiles[0]!.contents;
  const base = path.basename(file).replace(/\.[^.]+$/, '');
  const name = `${base}-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`;
  const target = path.join(COMPILED_DIR, name);
  if (!fs.existsSync(target)) {
    fs.mkdirSync(COMPILED_DIR, { recursive: true });
    // Written aside, then renamed: builds started together may write the same bundle at once.
    const temp = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    fs.writeFileSync(temp, code);
    fs.renameSync(temp, target);
    pruneOlder(base, target);
  }
  return pathToFileURL(target);
}

/** A bundle of the same module untouched for this long belongs to code long since edited. */
const STALE_MS = 24 * 60 * 60_000;

/** Removes the stale bundles of module `base` other than `keep`: each edit of the sources leaves one. */
function pruneOlder(base: string, keep: string): void {
  for (const name of fs.readdirSync(COMPILED_DIR)) {
    const file = path.join(COMPILED_DIR, name);
    if (file === keep || !name.startsWith(`${base}-`) || !name.endsWith('.mjs')) continue;
    try {
      if (Date.now() - fs.statSync(file).mtimeMs > STALE_MS) fs.rmSync(file, { force: true });
    } catch {
      // Another build removed it first.
    }
  }
}

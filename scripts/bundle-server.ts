/**
 * Compiles the server for production: `server/index.ts` and everything it imports from `server/`
 * into ES modules, `var/server/index.mjs` and its chunks (with source maps), packages left as imports.
 * `npm start` runs this, then the bundle with plain Node.
 *
 * Why not `node --import tsx server/index.ts` in production: tsx compiles on a loader thread of its
 * own, which stays alive with its own heap, and its hooks sit on the module loader: more
 * resident memory and more CPU per request on the API's hot path. Tests and scripts keep running
 * the TypeScript sources through tsx.
 *
 *   node --import tsx scripts/bundle-server.ts [outfile]
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions } from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SERVER_BUNDLE = path.join(ROOT, 'var', 'server', 'index.mjs');

/**
 * Writes the server's bundle to `outfile`, and beside it, in `chunks/`, what index.ts imports
 * dynamically: the server and its packages load only once the SIGHUP listener is in place.
 * Resolves to `outfile`. Fails on any compile error.
 */
export async function bundleServer(outfile = SERVER_BUNDLE): Promise<string> {
  const outdir = path.dirname(outfile);
  fs.rmSync(path.join(outdir, 'chunks'), { recursive: true, force: true });
  await build({
    ...NODE_BUNDLE,
    entryPoints: { [path.basename(outfile, '.mjs')]: path.join(ROOT, 'server', 'index.ts') },
    outdir,
    splitting: true,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  return outfile;
}

/** One ES module for plain Node from a TypeScript entry and what it imports from the project (the build's workers run such bundles too). */
export const NODE_BUNDLE: BuildOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  // Dependencies load from node_modules as they do under tsx (same versions, same files).
  packages: 'external',
};

/** Bundles one entry module the same way (the benchmark's baseline server is built with it too). */
export async function bundle(entry: string, outfile: string): Promise<string> {
  await build({
    ...NODE_BUNDLE,
    entryPoints: [entry],
    outfile,
    // `--enable-source-maps` (npm start) maps stack traces in logs back to the TypeScript sources.
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  return outfile;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await bundleServer(process.argv[2] ? path.resolve(process.argv[2]) : undefined);
}

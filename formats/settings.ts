/**
 * The settings the build and the server read alike from the environment: the project folder,
 * the site's public origin (SITE_URL), and where the built site and the read model live. The
 * server reads the rest of its configuration in server/config.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export type Env = Record<string, string | undefined>;

/**
 * The project folder: the nearest one above this module holding package.json. Found rather than
 * fixed, because this module runs from `formats/` (tsx) and from the production bundle in
 * `var/server/` (scripts/bundle-server.ts).
 */
export const ROOT = findRoot(path.dirname(fileURLToPath(import.meta.url)));

function findRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

/** An integer setting: `fallback` when unset or empty, else at least `min`. */
export function envInt(env: Env, name: string, fallback: number, min = 1): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer ≥ ${min}, got "${raw}"`);
  return n;
}

export const DEFAULT_PORT = 4321;
export const DEFAULT_SITE_URL = `http://localhost:${DEFAULT_PORT}`;

/**
 * SITE_URL, the public identity of the site (canonical links, API URLs; not the address the
 * server listens on): an origin, no path. The server, the build and the Astro config all read it
 * through this one function.
 */
export function parseSiteUrl(raw: string | undefined): string {
  const value = (raw || DEFAULT_SITE_URL).replace(/\/+$/, '');
  let url: URL;
  try { url = new URL(value); } catch { throw new Error(`SITE_URL must be an absolute URL, got "${value}"`); }
  if (url.pathname !== '/' || url.search || url.hash) throw new Error(`SITE_URL must be an origin without a path, got "${value}"`);
  return url.origin;
}

/**
 * SITE_URL, or when it is unset the local address on PORT, so that a server started on another
 * port names itself where it answers (OAuth's resource and issuer must match what clients call).
 * PORT 0 (any free port) cannot be named in advance: the default port stands then.
 */
export function siteUrlFrom(env: Env): string {
  if (env.SITE_URL) return parseSiteUrl(env.SITE_URL);
  const port = envInt(env, 'PORT', DEFAULT_PORT, 0);
  return parseSiteUrl(`http://localhost:${port === 0 ? DEFAULT_PORT : port}`);
}

/** The read model's folder: READ_MODEL_DIR, from the project folder. */
export const readModelDirFrom = (env: Env): string => path.resolve(ROOT, env.READ_MODEL_DIR || 'var/read-model');

/** The built site's folder: DIST_DIR, from the project folder. */
export const distDirFrom = (env: Env): string => path.resolve(ROOT, env.DIST_DIR || 'dist');

/**
 * Pagefind's own generated `pagefind.js` running in Node, no browser.
 *
 * The bundle's files are read into memory once and served to it by a private `fetch`: the
 * module's source is evaluated as a function body whose `fetch` parameter shadows the global,
 * so nothing else in the process sees a patched `fetch`, and each engine gets its own copy of
 * the module and so its own WebAssembly instance (two builds, or two engines on one build, never
 * share Pagefind's mutable state). Fragments are not loaded: excerpts come from the sidecar.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { FILES_AT_ONCE, mapLimit } from '../read-model/file-pressure.ts';

/** One page of a raw Pagefind search (the fields we read). */
export interface RawHit {
  /** Pagefind's page id. */
  id: string;
  score: number;
  /** Word positions in the indexed text (`text.split(' ')`) that Pagefind matched. */
  words: number[];
}

export interface PagefindSearch {
  search(term: string): Promise<RawHit[]>;
  /** Loads the index chunks `term` needs, without searching. */
  preload(term: string): Promise<void>;
  destroy(): Promise<void>;
}

interface PagefindModule {
  createInstance(opts: { basePath: string }): {
    init(): Promise<void>;
    search(term: string, opts: object): Promise<{ results: RawHit[] } | null>;
    preload(term: string, opts: object): Promise<void>;
    destroy(): Promise<void>;
  };
}

const BASE = '/pagefind/';
/** The module's only export statement, turned into the function's return value. */
const EXPORTS = /export\s*\{([^}]*)\}\s*;?\s*$/;
/**
 * Pagefind's `Pagefind` constructor starts `init()` without awaiting it. With a broken bundle
 * that promise rejects unhandled, which ends a Node process, besides the init awaited below
 * (which reports the same failure): a broken build published while serving would crash every
 * server instead of being refused. The call is marked handled.
 */
const UNAWAITED_INIT = /(this\.instances=\[this\.primary\];)this\.init\(([\w$?.]*)\);/;

async function readBundle(dir: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  const entries = await fs.readdir(dir, { withFileTypes: true, recursive: true });
  // A few at a time: a large site's bundle holds hundreds of index and filter chunks.
  await mapLimit(entries, FILES_AT_ONCE, async (e) => {
    if (!e.isFile()) return;
    const rel = path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/');
    if (rel.startsWith('fragment/') || rel.endsWith('.js')) return;
    files.set(rel, await fs.readFile(path.join(dir, rel)));
  });
  return files;
}

export async function loadPagefind(dir: string): Promise<PagefindSearch> {
  const [source, files] = await Promise.all([fs.readFile(path.join(dir, 'pagefind.js'), 'utf8'), readBundle(dir)]);
  if (!EXPORTS.test(source)) throw new Error(`${dir}/pagefind.js: no export statement found (unsupported Pagefind version?)`);
  if (!UNAWAITED_INIT.test(source)) throw new Error(`${dir}/pagefind.js: constructor init call not found (unsupported Pagefind version?)`);
  const body = `"use strict";${source
    .replace(EXPORTS, 'return {$1};')
    .replace(UNAWAITED_INIT, '$1this.init($2).catch(()=>{});')
    .replaceAll('import.meta.url', 'importMetaUrl')}`;

  const fetchFile = async (input: string | URL): Promise<Response> => {
    const url = String(input).split('?')[0]!;
    const data = url.startsWith(BASE) ? files.get(url.slice(BASE.length)) : undefined;
    return data === undefined ? new Response(null, { status: 404 }) : new Response(new Uint8Array(data));
  };
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- evaluating the bundle's own generated module
  const mod = new Function('fetch', 'importMetaUrl', body)(fetchFile, undefined) as PagefindModule;
  const instance = mod.createInstance({ basePath: BASE });
  await instance.init();

  return {
    async search(term) {
      const res = await instance.search(term, {});
      return res?.results ?? [];
    },
    async preload(term) {
      await instance.preload(term, {});
    },
    destroy: () => instance.destroy(),
  };
}

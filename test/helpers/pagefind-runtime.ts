/**
 * Pagefind's own generated `pagefind.js` running in Node, no browser: what the server's postings
 * search (formats/search/postings-search.ts) is checked against.
 *
 * The bundle's files are served to it by a private `fetch` that reads them from disk when
 * Pagefind first asks (it keeps what it loaded), so index chunks are loaded as searches need them
 * rather than all at start: a large site's index is hundreds of chunks. The module's source is
 * evaluated as a function body whose `fetch` parameter shadows the global, so nothing else in the
 * process sees a patched `fetch`, and each engine gets its own copy of the module and so its own
 * WebAssembly instance (two builds, or two engines on one build, never share Pagefind's mutable
 * state). Fragments are not served: excerpts come from the sidecar.
 *
 * Pagefind never unloads a chunk, and WebAssembly memory never shrinks: after its memory passes
 * `maxMemoryBytes` the instance is replaced by a fresh one at the next call, so on a large site
 * the index held in memory is what recent searches needed, not everything ever searched.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { retryOnShortage } from '../../server/read-model/file-pressure.ts';
import type { Keep, RawHit } from '../../formats/search/term-search.ts';

/** Pagefind's own answer for one term, as RawHit objects (the reference the postings are checked against). */
export interface PagefindSearch {
  search(term: string, keep?: Keep): Promise<RawHit[]>;
  close(): Promise<void>;
  /** The stems Pagefind searches for `term`'s words (its playground's search keywords). */
  stems(term: string): Promise<string[]>;
  /** Loads the index chunks `term` needs, without searching. */
  preload(term: string): Promise<void>;
  /** Bytes of the current instance's WebAssembly memory. */
  memoryBytes(): number;
  /** Instances replaced so far for their memory. */
  readonly renewals: number;
}

/** Memory of an instance past which it is replaced (chunks it loaded are read again as needed). */
export const PAGEFIND_MAX_MEMORY_BYTES = 128 * 2 ** 20;

/** Pagefind's main-thread class: what its playground mode is entered on. */
interface PagefindClass {
  primary: { wasm: unknown };
  enterPlaygroundMode(): Promise<void>;
  search(term: string, opts: object): Promise<{ search_keywords?: string[] }>;
  destroy?(): Promise<void>;
}

interface PagefindModule {
  Pagefind: new (opts: { basePath: string; language: string }) => PagefindClass;
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
/** Where the module keeps its WebAssembly exports: handed out too, to read the memory's size. */
const WASM_LOADED = /(this\.wasm=await this\.backend\(\{module_or_path:[\w$]+\}\);)/;

/** A bundle file's path under `dir`, or null for what the Node runtime never serves. */
function bundleFile(dir: string, url: string): string | null {
  if (!url.startsWith(BASE)) return null;
  const rel = url.slice(BASE.length);
  if (rel.startsWith('fragment/') || rel.endsWith('.js') || rel.split('/').some((part) => part === '..' || part === '')) return null;
  return path.join(dir, rel);
}

type Instance = ReturnType<PagefindModule['createInstance']>;

export async function loadPagefind(dir: string, maxMemoryBytes = PAGEFIND_MAX_MEMORY_BYTES): Promise<PagefindSearch> {
  const source = await fs.readFile(path.join(dir, 'pagefind.js'), 'utf8');
  for (const [pattern, what] of [[EXPORTS, 'no export statement'], [UNAWAITED_INIT, 'constructor init call'], [WASM_LOADED, 'WebAssembly load']] as const) {
    if (!pattern.test(source)) throw new Error(`${dir}/pagefind.js: ${what} not found (unsupported Pagefind version?)`);
  }
  const body = `"use strict";${source
    .replace(EXPORTS, 'return {$1, Pagefind};')
    .replace(UNAWAITED_INIT, '$1this.init($2).catch(()=>{});')
    .replace(WASM_LOADED, '$1onWasm(this.wasm);')
    .replaceAll('import.meta.url', 'importMetaUrl')}`;

  let destroyed = false;
  const fetchFile = async (input: string | URL): Promise<Response> => {
    const file = bundleFile(dir, String(input).split('?')[0]!);
    // Pagefind keeps a failed chunk load for good: a descriptor shortage is waited out, not returned.
    const data = file === null ? null : await retryOnShortage(() => fs.readFile(file), () => undefined, () => destroyed)
      .catch((err: NodeJS.ErrnoException) => { if (err.code === 'ENOENT') return null; throw err; });
    return data === null ? new Response(null, { status: 404 }) : new Response(new Uint8Array(data));
  };
  let memory: WebAssembly.Memory | undefined;
  let mod: PagefindModule | undefined;
  const open = async (): Promise<Instance> => {
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- evaluating the bundle's own generated module
    mod = new Function('fetch', 'importMetaUrl', 'onWasm', body)(fetchFile, undefined, (wasm: { memory: WebAssembly.Memory }) => { memory = wasm.memory; }) as PagefindModule;
    const created = mod.createInstance({ basePath: BASE });
    await created.init();
    return created;
  };
  let instance = await open();
  let renewals = 0;
  const current = async (): Promise<Instance> => {
    if ((memory?.buffer.byteLength ?? 0) > maxMemoryBytes) {
      const old = instance;
      instance = await open();
      renewals++;
      await old.destroy();
    }
    return instance;
  };

  let playground: Promise<PagefindClass> | undefined;
  const inPlayground = async (): Promise<PagefindClass> => {
    const pagefind = new mod!.Pagefind({ basePath: BASE, language: 'es' });
    for (let waited = 0; pagefind.primary.wasm === null; waited++) {
      if (waited > 6000) throw new Error(`${dir}: Pagefind's WebAssembly did not load`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await pagefind.enterPlaygroundMode();
    return pagefind;
  };

  return {
    async search(term) {
      const res = await (await current()).search(term, {});
      return res?.results ?? [];
    },
    async preload(term) {
      await (await current()).preload(term, {});
    },
    async stems(term) {
      return (await (await (playground ??= inPlayground())).search(term, {})).search_keywords ?? [];
    },
    memoryBytes: () => memory?.buffer.byteLength ?? 0,
    get renewals() { return renewals; },
    close: () => { destroyed = true; return instance.destroy(); },
  };
}

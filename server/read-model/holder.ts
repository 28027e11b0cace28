/**
 * Loads the current read-model build into memory and keeps it current.
 *
 * Loading reads `current` → `builds/<id>/`, validates the manifest and every company section with
 * the shared zod schemas and checks the binary page index (everything but each page's Markdown:
 * its format, its digest and its head; page-index.ts) — a build that does not load is refused,
 * never served half. Page bodies stay on disk: each is
 * prepared when first asked for — the Page JSON (url recomposed on this server's SITE_URL, the
 * first part of a Markdown longer than READ_PAGE_MAX_CHARS), its strong ETag and its gzip/brotli
 * encodings — and kept in a byte-bounded hot set (page-store.ts), so memory does not grow with the
 * site and a start or a publish opens a handful of files whatever its size.
 *
 * A new build published while the server runs (the build switches `current` last, atomically)
 * is picked up by watching the read-model folder: the new model is loaded beside the old one and
 * swapped in with one reference write; a build that fails to load is logged and the old model
 * stays. The old model is closed a little later, once in-flight requests are done.
 * `reload()` does the same on demand (SIGHUP, or where file watching does not work).
 *
 * A load short of file descriptors waits and tries again until it succeeds, the model held
 * meanwhile serving (file-pressure.ts).
 *
 * A loaded model holds its page pack open and the rest of what it serves in memory, so its build
 * folder may be removed while it serves (its HTML site aside, which is read from the folder); a
 * load that fails while `current` has moved on (its build was replaced, maybe pruned, meanwhile)
 * is retried on the build `current` names now.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import type { Config } from '../config.ts';
import type { Logger } from '../log.ts';
import { makeRepresentation } from '../compression.ts';
import { ManifestSchema, PAGE_INDEX_FILE, PAGE_PACK_FILE, type Manifest } from '../../formats/schemas/read-model.ts';
import { COMPANY_SECTIONS, CompanyInfoSchema, type CompanySection } from '../../formats/schemas/resources.ts';
import { openSearch } from '../search/index.ts';
import { cursorKey } from '../search/cursor.ts';
import { buildPath, POINTER_FILE, readPointer } from '../../formats/read-model/pointer.ts';
import { retryOnShortage } from './file-pressure.ts';
import { indexedPages } from './indexed-pages.ts';
import { PageIndex } from '../../formats/read-model/page-index.ts';
import { createPageStore } from './page-store.ts';
import { warnOnSiteUrlMismatch } from './site-url-check.ts';
import type { LoadedModel, ModelHolder, Representation } from './types.ts';

export type ModelConfig = Pick<Config, 'siteUrl' | 'readModelDir' | 'readPageMaxChars' | 'readModelCacheBytes' | 'cursorSecret'>;

export interface OpenModelOptions {
  /** Follow new builds published while running (default true). */
  watch?: boolean;
  /** Told of each new build swapped in and of each reload that failed (the old model stays). */
  observer?: { swapped(): void; failed(): void };
}

export interface OpenedModel extends ModelHolder {
  /** Loads the build `current` names if it is not the one held; true when a new model was swapped in. */
  reload(): Promise<boolean>;
  close(): Promise<void>;
}

/** Old models (search engine, page pack) stay open this long after a swap, for requests still running on them. */
const RETIRE_AFTER_MS = 30_000;
const WATCH_DEBOUNCE_MS = 250;
/** Loads of a build replaced while loading, before giving up (builds take seconds; this is plenty). */
const LOAD_ATTEMPTS = 5;

export async function openModel(config: ModelConfig, log: Logger, options: OpenModelOptions = {}): Promise<OpenedModel> {
  // Short of file descriptors (many connections open), a load waits and tries again until the
  // build loads: a start or a publish is never lost, and the model held meanwhile goes on serving.
  const shortage = (err: unknown, pauseMs: number) =>
    log.info('read model not loaded: out of file descriptors; trying again', { code: (err as { code: string }).code, retry_ms: pauseMs });
  const loaded = await retryOnShortage(async () => {
    const first = await readPointer(config.readModelDir);
    if (first === null) {
      throw new Error(`no read model in ${config.readModelDir}: run \`npm run build\` first`);
    }
    return loadLatest(config, first, log);
  }, shortage);
  let buildId = loaded.id;
  let model = loaded.model;
  let closed = false;
  /** Swapped-out models, each closed when its timer fires, or with the holder. */
  const retiring = new Map<NodeJS.Timeout, LoadedModel>();

  const retire = (old: LoadedModel) => {
    const timer = setTimeout(() => {
      retiring.delete(timer);
      void closeModel(old, log);
    }, RETIRE_AFTER_MS);
    timer.unref();
    retiring.set(timer, old);
  };

  let running: Promise<boolean> | null = null;
  let again = false;
  const reloadOnce = async (): Promise<boolean> => {
    const pointed = await readPointer(config.readModelDir);
    if (pointed === null || pointed === buildId || closed) return false;
    const { id, model: next } = await loadLatest(config, pointed, log);
    if (closed || id === buildId) { await closeModel(next, log); return false; }
    const old = model;
    model = next;
    buildId = id;
    retire(old);
    options.observer?.swapped();
    log.info('read model swapped', { build_id: id, pages: next.pages.length });
    return true;
  };
  const reload = (): Promise<boolean> => {
    if (running) { again = true; return running; }
    running = (async () => {
      let swapped = false;
      let failed = false;
      let failure: unknown;
      // A publish during a failed load (a fixed build right after a broken one) is not lost.
      do {
        again = false;
        failed = false;
        try {
          swapped = (await retryOnShortage(reloadOnce, shortage, () => closed)) || swapped;
        } catch (err) {
          failed = true;
          failure = err;
        }
      } while (again && !closed);
      if (failed) {
        options.observer?.failed();
        throw failure;
      }
      return swapped;
    })().finally(() => { running = null; });
    return running;
  };

  let watcher: fs.FSWatcher | null = null;
  if (options.watch !== false) {
    let debounce: NodeJS.Timeout | null = null;
    try {
      watcher = fs.watch(config.readModelDir, { persistent: false }, (_event, file) => {
        if (file !== null && file !== POINTER_FILE) return;
        if (debounce) clearTimeout(debounce);
        debounce = setTimeout(() => {
          reload().catch((err) => log.error(`new read model not loaded; still serving build ${buildId}`, err));
        }, WATCH_DEBOUNCE_MS);
        debounce.unref();
      });
      watcher.on('error', (err) => log.error('read-model watcher failed; new builds need a restart', err));
    } catch (err) {
      log.error('cannot watch the read-model folder; new builds need a restart', err);
    }
  }

  return {
    current: () => model,
    reload,
    async close() {
      if (closed) return;
      closed = true;
      watcher?.close();
      const old = [...retiring.values()];
      for (const timer of retiring.keys()) clearTimeout(timer);
      retiring.clear();
      await running?.catch(() => false);
      await Promise.all([model, ...old].map((m) => closeModel(m, log)));
    },
  };
}

/** Loads build `id`, or the build `current` names once `id` is replaced while it loads. */
async function loadLatest(config: ModelConfig, id: string, log: Logger): Promise<{ id: string; model: LoadedModel }> {
  for (let attempt = 1; ; attempt++) {
    try {
      const model = await loadModel(config, buildPath(config.readModelDir, id));
      warnOnSiteUrlMismatch(model.manifest, config.siteUrl, log);
      return { id, model };
    } catch (err) {
      const now = await readPointer(config.readModelDir).catch(() => id);
      if (now === null || now === id || attempt >= LOAD_ATTEMPTS) throw err;
      log.info('read model replaced while loading; loading the current one', { build_id: id, current: now });
      id = now;
    }
  }
}

async function closeModel(model: LoadedModel, log: Logger): Promise<void> {
  try {
    await model.close();
  } catch (err) {
    log.error('closing a read model failed', err);
  }
}

/**
 * Loads and validates one build folder: its manifest, its page index (never the page files) and
 * its company sections. Throws with the file and field at fault.
 */
export async function loadModel(config: ModelConfig, buildDir: string): Promise<LoadedModel> {
  const manifest = parse(ManifestSchema, await readJson(path.join(buildDir, 'manifest.json')), 'manifest.json');
  const rebase = rebaser(manifest.site_url, config.siteUrl);

  const index = await PageIndex.open(path.join(buildDir, PAGE_INDEX_FILE));
  if (index.size === 0) throw new Error(`${buildDir}: no pages`);
  const { pages, byPath, bySlug } = indexedPages(index, config.siteUrl);
  if (manifest.counts.pages !== pages.length) {
    throw new Error(`${buildDir}: the manifest counts ${manifest.counts.pages} pages, the build holds ${pages.length}`);
  }

  const company = {} as Record<CompanySection, Representation>;
  await Promise.all(COMPANY_SECTIONS.map(async (section) => {
    const name = `company/${section}.json`;
    const info = parse(CompanyInfoSchema, await readJson(path.join(buildDir, name)), name);
    company[section] = await makeRepresentation(Buffer.from(JSON.stringify(rebase.deep(info))));
  }));

  const search = await openSearch(path.join(buildDir, 'search'), { size: pages.length, get: (p) => byPath.get(p), values: () => pages.values() },
    cursorKey(config.cursorSecret, manifest.content_id));
  let store;
  try {
    const pack = await fsp.open(path.join(buildDir, PAGE_PACK_FILE), 'r');
    store = createPageStore({ pack, rebase: rebase.text, maxChars: config.readPageMaxChars, cacheBytes: config.readModelCacheBytes });
  } catch (err) {
    await search.close();
    throw err;
  }
  const siteDir = path.join(buildDir, 'site');
  const hasSite = await fsp.access(path.join(siteDir, 'index.html')).then(() => true, () => false);
  return {
    manifest, pages, byPath, bySlug, company, search, siteDir: hasSite ? siteDir : null,
    partOf: store.partOf, textOf: store.textOf, markdownOf: store.markdownOf,
    close: async () => { await Promise.all([search.close(), store.close()]); },
  };
}

async function readJson(file: string): Promise<unknown> {
  const text = await fsp.readFile(file, 'utf8');
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new Error(`${file}: not JSON (${(err as Error).message})`);
  }
}

function parse<T extends z.ZodType>(schema: T, value: unknown, name: string): z.infer<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw new Error(`read model ${name}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
}

/**
 * Links written on the build's SITE_URL, moved to this server's SITE_URL (the same build can be
 * served under another address, e.g. a staging host). Identity when both are the same.
 */
function rebaser(from: Manifest['site_url'], to: string) {
  const old = from.replace(/\/+$/, '');
  if (old === to) return { text: (s: string) => s, deep: <T>(v: T) => v };
  const text = (s: string) => (s.includes(old) ? s.replace(new RegExp(escapeRegExp(old) + '(?=[/?#"\\s)\\]]|$)', 'g'), to) : s);
  const deep = <T>(v: T): T => {
    if (typeof v === 'string') return text(v) as T;
    if (Array.isArray(v)) return v.map(deep) as T;
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, deep(x)])) as T;
    return v;
  };
  return { text, deep };
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

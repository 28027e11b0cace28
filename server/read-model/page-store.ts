/**
 * The pages of one loaded build as the server answers them, read from the build's page pack on
 * demand and kept in a byte-bounded hot set (READ_MODEL_CACHE_MB): a page's Markdown (rebased on
 * this server's SITE_URL, with its sections), its read_page bodies (the first part, and later
 * parts asked for) and its Markdown representation, each with its strong ETags and gzip/brotli
 * encodings made exactly as before (compression.ts), so an evicted representation is made again
 * byte for byte. A hot request is one map lookup; a cold one reads its bytes from the pack (one
 * positioned read), checks them against the page index (path and content hash) and compresses
 * once, however many ask at the same time.
 *
 * The pack is opened once per loaded build and held until the build is retired: cold reads open
 * no file (no descriptor shortage can fail them), and a build folder pruned while a server still
 * holds it stays readable through that descriptor.
 */
import type { FileHandle } from 'node:fs/promises';
import { makeRepresentation } from '../compression.ts';
import type { Page, Section } from '../schemas/resources.ts';
import { Lru } from '../search/lru.ts';
import { pageHash } from './page-hash.ts';
import { partAt, sectionsOf } from './parts.ts';
import type { LoadedPage, PageText, Representation } from './types.ts';

export interface PageStoreOptions {
  /** The build's `pages.pack`, open for reading; closed by `close()`. */
  pack: FileHandle;
  /** Links written on the build's SITE_URL, moved to this server's. */
  rebase: (markdown: string) => string;
  /** READ_PAGE_MAX_CHARS */
  maxChars: number;
  /** Budget of the hot set, bytes. */
  cacheBytes: number;
}

export interface PageStore {
  textOf(page: LoadedPage): PageText | Promise<PageText>;
  partOf(page: LoadedPage, offset: number): Representation | Promise<Representation>;
  markdownOf(page: LoadedPage): Representation | Promise<Representation>;
  /** Bytes the hot set holds now. */
  readonly cachedBytes: number;
  close(): Promise<void>;
}

const repBytes = (r: Representation) => r.body.length + (r.gzip?.body.length ?? 0) + (r.br?.body.length ?? 0);
/** Strings count two bytes a character (V8 keeps accented text so), sections a little each. */
const textBytes = (t: PageText) => 2 * t.markdown.length + 64 * t.sections.length;

/** The read_page body of the part of a page's Markdown that starts at `offset`. */
function pageBody(page: LoadedPage, text: PageText, offset: number, maxChars: number): Buffer {
  const part = partAt(text.markdown, offset, maxChars);
  const body: Page = {
    title: page.title, url: page.url, markdown: part.text, truncated: part.next !== null,
    offset, next_offset: part.next, total_chars: text.markdown.length, sections: text.sections,
  };
  return Buffer.from(JSON.stringify(body));
}

/** `"md-<hash>"`: tied to the content (title + Markdown), distinct from the HTML's validator. */
async function markdownRepresentation(page: LoadedPage, markdown: string): Promise<Representation> {
  const made = await makeRepresentation(Buffer.from(markdown.endsWith('\n') ? markdown : `${markdown}\n`));
  const etag = `"md-${page.hash.slice(0, 32)}"`;
  const variant = (v: Representation['br'], enc: string) => (v === null ? null : { body: v.body, etag: `${etag.slice(0, -1)}-${enc}"` });
  return { body: made.body, etag, br: variant(made.br, 'br'), gzip: variant(made.gzip, 'gzip') };
}

export function createPageStore(options: PageStoreOptions): PageStore {
  const hot = new Lru<string, PageText | Representation>(options.cacheBytes);
  const pending = new Map<string, Promise<PageText | Representation>>();

  /** The cached value of `key`, or the one `make` prepares (once, however many ask meanwhile). */
  const through = <T extends PageText | Representation>(key: string, make: () => Promise<T>, bytes: (v: T) => number): T | Promise<T> => {
    const known = hot.get(key);
    if (known !== undefined) return known as T;
    let p = pending.get(key) as Promise<T> | undefined;
    if (p === undefined) {
      p = make().then((value) => {
        hot.set(key, value, bytes(value));
        return value;
      }).finally(() => pending.delete(key));
      pending.set(key, p);
    }
    return p;
  };

  const load = async (page: LoadedPage): Promise<PageText> => {
    const name = `pages.pack at ${page.offset}`;
    let raw: { path?: unknown; title?: unknown; markdown?: unknown };
    try {
      const { buffer, bytesRead } = await options.pack.read(Buffer.allocUnsafe(page.length), 0, page.length, page.offset);
      raw = JSON.parse(buffer.toString('utf8', 0, bytesRead)) as typeof raw;
    } catch (err) {
      throw new Error(`read model ${name}: ${(err as Error).message}`, { cause: err });
    }
    if (raw.path !== page.path || typeof raw.title !== 'string' || typeof raw.markdown !== 'string' || pageHash(raw.title, raw.markdown) !== page.hash) {
      throw new Error(`read model ${name} does not hold the page the index lists (${page.path})`);
    }
    const markdown = options.rebase(raw.markdown);
    return { markdown, sections: sectionsOf(markdown) };
  };

  const textOf = (page: LoadedPage) => through('t' + page.path, () => load(page), textBytes);
  const then = <T, R>(value: T | Promise<T>, next: (v: T) => Promise<R>): Promise<R> =>
    (value instanceof Promise ? value.then(next) : next(value));

  return {
    textOf,
    partOf: (page, offset) => through(offset === 0 ? page.path : `p${offset} ${page.path}`,
      () => then(textOf(page), (text) => makeRepresentation(pageBody(page, text, offset, options.maxChars))), repBytes),
    markdownOf: (page) => through('m' + page.path, () => then(textOf(page), (text) => markdownRepresentation(page, text.markdown)), repBytes),
    get cachedBytes() { return hot.weight; },
    close: () => options.pack.close(),
  };
}

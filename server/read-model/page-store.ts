/**
 * The pages of one loaded build as the server answers them, read from the build's page pack on
 * demand and kept in a byte-bounded hot set (READ_MODEL_CACHE_MB): a page's Markdown (rebased on
 * this server's SITE_URL, with its sections), its read_page bodies (the first part, and later
 * parts asked for) and its Markdown representation, each with its strong ETags and gzip/brotli
 * encodings made exactly as before (compression.ts), so an evicted representation is made again
 * byte for byte. A hot request is one map lookup; a cold one reads its bytes from the pack (one
 * positioned read), checks them against the page index (path and content hash) and makes its
 * body once, however many ask at the same time.
 *
 * A page of up to 64 KB (`inlineReadMaxBytes`) is read and made on the main thread, and its
 * encodings only when a client asks for each: every hop to the threadpool is a wake-up that waits
 * for a core on a small machine, and those waits make a cold read's latency tail.
 * The pack is in the page cache after the build that wrote it; a read that has to wait for the
 * disk then blocks the loop as nginx's do. Larger pages are read and compressed in the threadpool.
 *
 * The pack is opened once per loaded build and held until the build is retired: cold reads open
 * no file (no descriptor shortage can fail them), and a build folder pruned while a server still
 * holds it stays readable through that descriptor.
 */
import type { FileHandle } from 'node:fs/promises';
import { chain, type Maybe } from '../chain.ts';
import { INLINE_ENCODE_MAX_BYTES, makeLazyRepresentation, makeRepresentation, representationBytes } from '../compression.ts';
import type { Page } from '../../formats/schemas/resources.ts';
import { Lru } from '../../formats/search/lru.ts';
import { pageHash, pageVersion } from '../../formats/read-model/page-hash.ts';
import { partAt, sectionsOf } from './parts.ts';
import { readAt } from '../../formats/read-model/read-at.ts';
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
  /** Pages whose record in the pack is at most this long are read with one synchronous read (default 64 KB). */
  inlineReadMaxBytes?: number;
}

export interface PageStore {
  textOf(page: LoadedPage): PageText | Promise<PageText>;
  partOf(page: LoadedPage, offset: number): Representation | Promise<Representation>;
  markdownOf(page: LoadedPage): Representation | Promise<Representation>;
  /** Bytes the hot set holds now. */
  readonly cachedBytes: number;
  close(): Promise<void>;
}

const INLINE_READ_MAX_BYTES = 64 * 1024;

/** Strings count two bytes a character (V8 keeps accented text so), sections a little each. */
const textBytes = (t: PageText) => 2 * t.markdown.length + 64 * t.sections.length;

/** The read_page body of the part of a page's Markdown that starts at `offset`. */
function pageBody(page: LoadedPage, text: PageText, offset: number, maxChars: number): Buffer {
  const part = partAt(text.markdown, offset, maxChars);
  const body: Page = {
    title: page.title, url: page.url, markdown: part.text, truncated: part.next !== null,
    offset, next_offset: part.next, total_chars: text.markdown.length, sections: text.sections, version: pageVersion(page.hash),
  };
  return Buffer.from(JSON.stringify(body));
}

/** `"md-<hash>"`: tied to the content (title + Markdown), distinct from the HTML's validator. */
const markdownEtag = (page: LoadedPage) => `"md-${page.hash.slice(0, 32)}"`;
const markdownBody = (markdown: string) => Buffer.from(markdown.endsWith('\n') ? markdown : `${markdown}\n`);

export function createPageStore(options: PageStoreOptions): PageStore {
  const hot = new Lru<string, PageText | Representation>(options.cacheBytes);
  const inlineReadMaxBytes = options.inlineReadMaxBytes ?? INLINE_READ_MAX_BYTES;
  const pending = new Map<string, Promise<PageText | Representation>>();

  /** The cached value of `key`, or the one `make` prepares (once, however many ask meanwhile). */
  const through = <T extends PageText | Representation>(key: string, make: () => Maybe<T>, bytes: (v: T) => number): Maybe<T> => {
    const known = hot.get(key);
    if (known !== undefined) return known as T;
    let p = pending.get(key) as Promise<T> | undefined;
    if (p !== undefined) return p;
    const made = make();
    if (!(made instanceof Promise)) {
      hot.set(key, made, bytes(made));
      return made;
    }
    p = made.then((value) => {
      hot.set(key, value, bytes(value));
      return value;
    }).finally(() => pending.delete(key));
    pending.set(key, p);
    return p;
  };

  /** A body's representation kept under `key`: its encodings made when asked for, if it is small enough. */
  const representation = (key: string, body: Buffer, etag?: string): Maybe<Representation> => {
    if (body.length > INLINE_ENCODE_MAX_BYTES) return makeRepresentation(body, etag);
    // Weighed again with each encoding made, if it is still the one held.
    return makeLazyRepresentation(body, etag, (rep) => hot.reweigh(key, rep, representationBytes(rep)));
  };

  const name = (page: LoadedPage) => `read model pages.pack at ${page.offset}`;
  const failed = (page: LoadedPage, err: unknown) => new Error(`${name(page)}: ${(err as Error).message}`, { cause: err });
  const textFrom = (page: LoadedPage, bytes: Buffer): PageText => {
    let raw: { path?: unknown; title?: unknown; markdown?: unknown };
    try {
      raw = JSON.parse(bytes.toString('utf8')) as typeof raw;
    } catch (err) {
      throw failed(page, err);
    }
    if (raw.path !== page.path || typeof raw.title !== 'string' || typeof raw.markdown !== 'string' || pageHash(raw.title, raw.markdown) !== page.hash) {
      throw new Error(`${name(page)} does not hold the page the index lists (${page.path})`);
    }
    const markdown = options.rebase(raw.markdown);
    return { markdown, sections: sectionsOf(markdown) };
  };

  const load = (page: LoadedPage): Maybe<PageText> => {
    if (page.length <= inlineReadMaxBytes) {
      let bytes: Buffer;
      try {
        bytes = readAt(options.pack.fd, page.offset, page.length);
      } catch (err) {
        throw failed(page, err);
      }
      return textFrom(page, bytes);
    }
    return options.pack.read(Buffer.allocUnsafe(page.length), 0, page.length, page.offset).then(
      ({ buffer, bytesRead }) => textFrom(page, buffer.subarray(0, bytesRead)),
      (err: unknown) => { throw failed(page, err); },
    );
  };

  const textOf = (page: LoadedPage) => through('t' + page.path, () => load(page), textBytes);

  return {
    textOf,
    partOf: (page, offset) => {
      const key = offset === 0 ? page.path : `p${offset} ${page.path}`;
      return through(key, () => chain(textOf(page), (text) => representation(key, pageBody(page, text, offset, options.maxChars))), representationBytes);
    },
    markdownOf: (page) => {
      const key = 'm' + page.path;
      return through(key, () => chain(textOf(page), (text) => representation(key, markdownBody(text.markdown), markdownEtag(page))), representationBytes);
    },
    get cachedBytes() { return hot.weight; },
    close: () => options.pack.close(),
  };
}

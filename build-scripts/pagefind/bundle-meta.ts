/**
 * A Pagefind bundle's entry file and meta file, read and checked for the one layout this project
 * reads: Pagefind 1.5.2, one language, no sort indexes, one fragment per page. The session merge
 * (merge.ts) and the postings writer (postings-writer.ts) both read bundles through it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CborReader } from './cbor.ts';
import { readPayload } from './files.ts';

export const PAGEFIND_FORMAT = '1.5.2';

export interface BundleEntry {
  version: string;
  languages: Record<string, { hash: string; wasm: string; page_count: number }>;
  [key: string]: unknown;
}

export type MetaPage = [hash: string, wordCount: number];
/** version, pages `[fragment hash, word count]` by page number, index chunks `[from, to, hash]`, filters, sorts, meta field names. */
export type BundleMeta = [version: string, pages: MetaPage[], chunks: [string, string, string][], filters: [string, string][], sorts: unknown[], metaFields: string[]];

/** The error of a bundle in `dir` laid out otherwise; `reader` names what reads it. */
export function unsupportedBundle(dir: string, reader: string, what: string): never {
  throw new Error(`${dir}: ${what} — ${reader} reads Pagefind ${PAGEFIND_FORMAT} bundles only`);
}

/** The bundle in `dir`, read for `reader` (named in the error of a bundle laid out otherwise). */
export function readBundleMeta(dir: string, reader: string): { entry: BundleEntry; language: string; meta: BundleMeta } {
  const unsupported = (what: string): never => unsupportedBundle(dir, reader, what);
  const entry = JSON.parse(fs.readFileSync(path.join(dir, 'pagefind-entry.json'), 'utf8')) as BundleEntry;
  if (entry.version !== PAGEFIND_FORMAT) unsupported(`version ${entry.version}`);
  const languages = Object.keys(entry.languages);
  if (languages.length !== 1) unsupported(`${languages.length} languages`);
  const language = languages[0]!;
  const meta = new CborReader(readPayload(path.join(dir, `pagefind.${entry.languages[language]!.hash}.pf_meta`))).value() as BundleMeta;
  if (!Array.isArray(meta) || meta.length !== 6 || meta[0] !== PAGEFIND_FORMAT) unsupported('unexpected meta layout');
  if (meta[4].length > 0) unsupported('sort indexes');
  if (meta[1].some((p) => p.length !== 2)) unsupported('grouped fragments');
  return { entry, language, meta };
}

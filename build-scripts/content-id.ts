/**
 * The build identity: a SHA-256 of everything a server's answers depend on — the read-model
 * format, SITE_URL, every page's fields and content hash, the company sections and the search
 * index (the compiled lexicon and index.bin, whose head names postings.bin's digest). No time,
 * random value or machine fact goes in, so building the same content twice, on one machine or on
 * two, gives the same id; servers derive their cursor key
 * from it (server/search/cursor.ts), so they accept each other's cursors.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { READ_MODEL_SCHEMA_VERSION, type ReadModelPage } from '../formats/schemas/read-model.ts';
import { COMPANY_SECTIONS, type CompanyInfo, type CompanySection } from '../formats/schemas/resources.ts';
import { INDEX_FILE, LEXICON_FILE } from '../formats/search/index-file.ts';
import { byPath } from './page-index.ts';

export async function contentId(opts: {
  siteUrl: string;
  pages: readonly Pick<ReadModelPage, 'path' | 'slug' | 'title' | 'description' | 'city' | 'kind' | 'hash'>[];
  company: Readonly<Record<CompanySection, CompanyInfo>>;
  /** The build's `search/` folder, written. */
  searchDir: string;
}): Promise<string> {
  const hash = createHash('sha256');
  const line = (...parts: string[]) => hash.update(parts.join('\u0000') + '\n');
  line('agentes read model', String(READ_MODEL_SCHEMA_VERSION), opts.siteUrl);
  const pages = [...opts.pages].sort(byPath);
  for (const p of pages) line('page', p.path, p.slug, p.title, p.description, p.city, p.kind, p.hash);
  for (const section of COMPANY_SECTIONS) line('company', section, JSON.stringify(opts.company[section]));
  for (const file of [LEXICON_FILE, INDEX_FILE]) {
    line('search', file, createHash('sha256').update(await fs.readFile(path.join(opts.searchDir, file))).digest('hex'));
  }
  return hash.digest('hex');
}

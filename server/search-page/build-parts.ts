/**
 * What the results page takes from a loaded read-model build besides the search itself, read on
 * the build's first results page and kept with it (a publish switches shell, company facts and
 * search together): the shell the site built there, the company's phone, WhatsApp and services and
 * the cities' names (its company section), and the lexicon's filler words (marks.ts).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { CompiledLexiconSchema } from '../../formats/schemas/lexicon.ts';
import { CompanyInfoSchema } from '../../formats/schemas/resources.ts';
import { LEXICON_FILE } from '../../formats/search/index-file.ts';
import { SEARCH_PAGE_PATH } from '../../formats/search-page.ts';
import type { LoadedModel } from '../read-model/types.ts';
import { parseShell, type Shell } from './shell.ts';

export interface Link {
  text: string;
  /** A site path: the page's, under whatever host the person reached the site by. */
  href: string;
}

export interface BuildParts {
  shell: Shell;
  phone: string;
  whatsapp: string;
  services: readonly Link[];
  /** City slug → its name. */
  cityNames: ReadonlyMap<string, string>;
  filler: ReadonlySet<string>;
}

const Contact = CompanyInfoSchema.required({ phone: true, whatsapp: true, services: true, cities: true });
const Filler = CompiledLexiconSchema.pick({ filler: true });

const sitePath = (url: string) => new URL(url).pathname;

async function read(model: LoadedModel, distDir: string): Promise<BuildParts | null> {
  const siteDir = model.siteDir ?? path.join(distDir, 'client');
  const shellFile = path.join(siteDir, ...SEARCH_PAGE_PATH.split('/').filter(Boolean), 'index.html');
  const html = await fs.readFile(shellFile, 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return null;
    throw err;
  });
  // A build without the site (API-only fixtures) has no results page.
  if (html === null) return null;
  const company = Contact.parse(JSON.parse(model.company.all.body.toString('utf8')));
  const lexicon = model.siteDir === null ? null : path.join(path.dirname(model.siteDir), 'search', LEXICON_FILE);
  const filler = lexicon === null ? [] : Filler.parse(JSON.parse(await fs.readFile(lexicon, 'utf8'))).filler;
  return {
    shell: parseShell(html),
    phone: company.phone,
    whatsapp: company.whatsapp,
    services: company.services.map((s) => ({ text: s.name, href: sitePath(s.url) })),
    cityNames: new Map(company.cities.map((c) => [c.slug, c.name])),
    filler: new Set(filler),
  };
}

/** The parts of a model, read once per model; null for a build without the results page's shell. */
export function createBuildParts(options: { distDir: string }): (model: LoadedModel) => Promise<BuildParts | null> {
  const kept = new WeakMap<LoadedModel, Promise<BuildParts | null>>();
  return (model) => {
    let parts = kept.get(model);
    if (parts === undefined) {
      parts = read(model, options.distDir);
      kept.set(model, parts);
      // A read that failed is tried again by the next request.
      parts.catch(() => kept.delete(model));
    }
    return parts;
  };
}


/**
 * The search lexicon of a build: `src/content/lexicon/*.json` (formats/schemas/lexicon.ts) read,
 * checked and folded, with the place names cities.json gives (name, short name, island, districts,
 * nearby towns) and the forms of places.json's demonyms added, and the service names services.json
 * gives (name; tradesman, marked as such) as intents naming the service's page; and every target
 * checked against the pages the build publishes. A missing
 * lexicon folder gives the empty lexicon (the city slugs still name their cities); a file that
 * fails its schema, or a target that is not a published page, fails the build.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { CITY_SLUGS, CitySlugSchema, type CitySlug } from '../../formats/schemas/cities.ts';
import {
  CompiledLexiconSchema, FillerFileSchema, IntentsFileSchema, LEXICON_FILES, NotOfferedFileSchema, PlacesFileSchema,
  RewritesFileSchema, SynonymsFileSchema, type CompiledLexicon,
} from '../../formats/schemas/lexicon.ts';
import { words } from '../../formats/search/text.ts';
import { basqueCaseForms } from './basque-cases.ts';
import { demonymForms } from './demonyms.ts';
import { isRealWord } from './real-words.ts';

export const LEXICON_DIR = 'lexicon';
/** The filler category whose words are topics only alone (formats/schemas/lexicon.ts). */
const ROOMS = 'rooms';
const CLAUSE_BREAKS = 'function-clause';

const ServiceFileSchema = z.array(z.object({
  id: z.string(), name: z.string(), label: z.string().optional(), pro: z.string().optional(), pro_plural: z.string().optional(),
}));

const CityFileSchema = z.array(z.object({
  id: CitySlugSchema, name: z.string(), short: z.string().optional(), island: z.string().optional(),
  districts: z.array(z.string()).optional(), nearby: z.array(z.string()).optional(),
}));

export class LexiconError extends Error {}

function readFile<T>(file: string, schema: z.ZodType<T>): T | undefined {
  if (!fs.existsSync(file)) return undefined;
  let raw: unknown;
  try { raw = JSON.parse(fs.readFileSync(file, 'utf8')); } catch (err) { throw new LexiconError(`${file}: ${(err as Error).message}`); }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new LexiconError(`${file}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return parsed.data;
}

/** Folded words of a phrase; a phrase with none (only symbols) is a content error, but where symbols are harmless (filler). */
function folded(phrase: string, where: string, symbolsAllowed = false): string[] {
  const w = words(phrase.replace(/\(.*?\)/g, ' '));
  if (w.length === 0 && !symbolsAllowed) throw new LexiconError(`${where}: "${phrase}" has no words`);
  return w;
}

/** Parenthesised parts of a district name are other names of it ("Arona (Los Cristianos y Las Américas)"). */
function placeNames(name: string): string[] {
  const inner = [...name.matchAll(/\(([^)]*)\)/g)].flatMap((m) => m[1]!.split(/\s+y\s+|,/));
  return [name.replace(/\(.*?\)/g, ' '), ...inner].map((n) => n.trim()).filter(Boolean);
}

/**
 * Adds the Basque case forms of the one-word place names `byName` and `unserved` hold
 * (basque-cases.ts) to the names of their cities, or to the unserved places; a form that is a
 * Spanish or English word, or already a place's name, is left out ("roman" is no case of Roma).
 */
function addBasqueCases(byName: Map<string, Set<CitySlug>>, unserved: Set<string>): void {
  const free = (w: string) => !isRealWord(w) && !byName.has(w) && !unserved.has(w);
  for (const [name, slugs] of [...byName]) {
    for (const form of basqueCaseForms(name)) if (free(form)) byName.set(form, new Set(slugs));
  }
  for (const name of [...unserved]) for (const form of basqueCaseForms(name)) if (free(form)) unserved.add(form);
}

export interface LexiconInput {
  /** Folder holding `lexicon/` and `cities.json` (src/content). */
  contentDir?: string;
  /** Paths of the pages the build publishes: every target must be one. Omitted: not checked. */
  paths?: ReadonlySet<string>;
}

export function compileLexicon({ contentDir, paths }: LexiconInput = {}): CompiledLexicon {
  const dir = contentDir === undefined ? undefined : path.join(contentDir, LEXICON_DIR);
  const file = (name: string) => (dir === undefined ? '' : path.join(dir, name));
  const synonyms = dir ? readFile(file(LEXICON_FILES.synonyms), SynonymsFileSchema) : undefined;
  const rewrites = dir ? readFile(file(LEXICON_FILES.rewrites), RewritesFileSchema) : undefined;
  const intents = dir ? readFile(file(LEXICON_FILES.intents), IntentsFileSchema) : undefined;
  const places = dir ? readFile(file(LEXICON_FILES.places), PlacesFileSchema) : undefined;
  const filler = dir ? readFile(file(LEXICON_FILES.filler), FillerFileSchema) : undefined;
  const notOffered = dir ? readFile(file(LEXICON_FILES.notOffered), NotOfferedFileSchema) : undefined;
  const cities = contentDir ? readFile(path.join(contentDir, 'cities.json'), CityFileSchema) : undefined;
  const services = contentDir ? readFile(path.join(contentDir, 'services.json'), ServiceFileSchema) : undefined;

  const page = (p: string, where: string): string => {
    if (paths && !paths.has(p)) throw new LexiconError(`${where}: ${p} is not a published page`);
    return p;
  };

  // Places: the slug's own words, cities.json names, then places.json; a name shared by cities names all of them.
  const ignored = new Set((places?.ignore ?? []).map((n) => folded(n, 'places.json ignore').join(' ')));
  const byName = new Map<string, Set<CitySlug>>();
  const addPlace = (name: string, slug: CitySlug, where: string, optional: boolean) => {
    const key = folded(name, where).join(' ');
    if (optional && ignored.has(key)) return;
    let set = byName.get(key);
    if (!set) byName.set(key, (set = new Set()));
    set.add(slug);
  };
  for (const slug of CITY_SLUGS) addPlace(slug.replace(/-/g, ' '), slug, 'city slug', false);
  for (const c of cities ?? []) {
    addPlace(c.name, c.id, 'cities.json', false);
    if (c.short) addPlace(c.short, c.id, 'cities.json', false);
    if (c.island) addPlace(c.island, c.id, 'cities.json', false);
    for (const d of [...(c.districts ?? []), ...(c.nearby ?? [])]) for (const n of placeNames(d)) addPlace(n, c.id, 'cities.json', true);
  }
  for (const [slug, names] of Object.entries(places?.cities ?? {})) {
    for (const n of names ?? []) addPlace(n, slug as CitySlug, `places.json ${slug}`, false);
  }
  const unservedNames = new Set((places?.unserved ?? []).map((n) => folded(n, 'places.json unserved').join(' ')));
  // Names take case endings, what people are called does not.
  if (contentDir !== undefined) addBasqueCases(byName, unservedNames);
  for (const [slug, names] of Object.entries(places?.demonyms ?? {})) {
    for (const n of (names ?? []).flatMap(demonymForms)) addPlace(n, slug as CitySlug, `places.json demonyms ${slug}`, false);
  }
  for (const n of (places?.unserved_demonyms ?? []).flatMap(demonymForms)) unservedNames.add(folded(n, 'places.json unserved_demonyms').join(' '));
  for (const n of [...(places?.unserved ?? []), ...(places?.unserved_demonyms ?? [])]) {
    const key = folded(n, 'places.json unserved').join(' ');
    if (byName.has(key)) throw new LexiconError(`places.json unserved: "${key}" names a city the site serves`);
  }
  const unserved = [...unservedNames].sort();

  const compiled: CompiledLexicon = {
    format: 1,
    rewrites: (rewrites?.rewrites ?? []).flatMap((r, i) => {
      const to = folded(r.to, `rewrites.json #${i}`);
      return r.from.map((f): [string[], string[]] => [folded(f, `rewrites.json #${i}`), to]);
    }),
    synonyms: (synonyms?.groups ?? []).map((g, i) => g.words.map((w) => folded(w, `synonyms.json #${i}`))),
    intents: [
      // Each service's own names ("fontanería", "fontanero", "técnicos de calefacción") name its page.
      ...(services ?? []).filter((sv) => !paths || paths.has(`/servicios/${sv.id}/`)).flatMap((sv) => {
        const phrases = (names: Array<string | undefined>) => [...new Set(names.flatMap((p) => (p === undefined ? [] : [folded(p, `services.json ${sv.id}`).join(' ')])))]
          .map((p) => p.split(' '));
        return [
          { phrases: phrases([sv.name, sv.label]), paths: [], services: [sv.id], strong: false },
          // The tradesman: whoever asks for one wants the service, whatever problem they add.
          ...(sv.pro === undefined ? [] : [{ phrases: phrases([sv.pro, sv.pro_plural]), paths: [], services: [sv.id], strong: false, trade: true }]),
        ];
      }),
      ...(intents?.intents ?? []).map((intent, i) => {
      const where = `intents.json #${i}`;
      return {
        phrases: intent.phrases.map((p) => folded(p, where)),
        paths: [
          ...(intent.guides ?? []).map((g) => page(`/guias/${g}/`, where)),
          ...(intent.pages ?? []).map((p) => page(p, where)),
        ],
        services: (intent.services ?? []).map((s) => { page(`/servicios/${s}/`, where); return s; }),
        strong: true,
      };
    })],
    places: [...byName].map(([name, set]): [string[], CitySlug[]] => [name.split(' '), [...set].sort()])
      .sort((a, b) => (a[0].join(' ') < b[0].join(' ') ? -1 : 1)),
    unserved: unserved.map((n) => n.split(' ')),
    filler: [...new Set(Object.entries(filler?.categories ?? {}).filter(([cat]) => cat !== ROOMS)
      .flatMap(([cat, list]) => list.flatMap((w) => folded(w, `filler.json ${cat}`, true))))].sort(),
    rooms: [...new Set((filler?.categories[ROOMS] ?? []).flatMap((w) => folded(w, `filler.json ${ROOMS}`)))].sort(),
    negations: [...new Set((filler?.categories.negation ?? []).flatMap((w) => folded(w, 'filler.json negation')))].sort(),
    not_offered: (notOffered?.topics ?? []).flatMap((t, i) => t.words.map((w) => folded(w, `not-offered.json #${i}`))),
    not_offered_things: (notOffered?.topics ?? []).flatMap((t, i) => (t.thing ? t.words.map((w) => folded(w, `not-offered.json #${i}`)) : [])),
    not_offered_settings: (notOffered?.topics ?? []).flatMap((t, i) => (t.setting ? t.words.map((w) => folded(w, `not-offered.json #${i}`)) : [])),
    clause_breaks: [...new Set((filler?.categories[CLAUSE_BREAKS] ?? []).flatMap((w) => folded(w, `filler.json ${CLAUSE_BREAKS}`)))].sort(),
  };
  return CompiledLexiconSchema.parse(compiled);
}

/**
 * The search lexicon: the words people use for this site's services, problems, business and places,
 * kept as content in `src/content/lexicon/` (one file per concern, below) and compiled by the build
 * into the read model (`search/lexicon.json`, CompiledLexiconSchema), which the search engine loads.
 *
 * Words and phrases are written as people write them (accents, capitals); the build folds them
 * (formats/search/text.ts) and checks every target against the published pages.
 */
import { z } from 'zod';
import { CitySlugSchema } from './cities.ts';

/** One word or a short phrase, as people write it. */
const Phrase = z.string().trim().min(1).max(80);
const Note = z.string().optional();
const Slug = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
const SitePath = z.string().regex(/^\/(?:[a-z0-9-]+\/)*$/);

/** `synonyms.json`: words and phrases that mean the same thing here; each matches the others. */
export const SynonymsFileSchema = z.object({
  groups: z.array(z.object({ words: z.array(Phrase).min(2), note: Note }).strict()),
}).strict();

/**
 * `rewrites.json`: one-way replacements applied to the query before anything else: SMS spellings
 * ("xq" → "porque"), English ("plumber" → "fontanero"), spelling variants.
 */
export const RewritesFileSchema = z.object({
  rewrites: z.array(z.object({ from: z.array(Phrase).min(1), to: Phrase, note: Note }).strict()),
}).strict();

/**
 * `intents.json`: what a person means by a phrase, as the pages that answer it. A query holding
 * every word of one of the phrases (any order, stop words aside) ranks those pages first: symptom
 * phrases → guides and services, business questions → general pages.
 */
export const IntentsFileSchema = z.object({
  intents: z.array(z.object({
    phrases: z.array(Phrase).min(1),
    /** Guide slugs (`/guias/<slug>/`). */
    guides: z.array(Slug).optional(),
    /** Service ids: the service page, or the service × city page when the query names a city. */
    services: z.array(Slug).optional(),
    /** Other site paths (general pages). */
    pages: z.array(SitePath).optional(),
    note: Note,
  }).strict().refine((i) => (i.guides?.length ?? 0) + (i.services?.length ?? 0) + (i.pages?.length ?? 0) > 0, 'an intent needs a guide, a service or a page')),
}).strict();

/**
 * `places.json`: how people name each city or island besides its name in cities.json (co-official
 * and local names, capitals, abbreviations). The build adds each city's name, short name, island,
 * districts and nearby towns from cities.json; `ignore` lists district words too common to name a
 * city on their own ("centro", "norte").
 */
export const PlacesFileSchema = z.object({
  cities: z.partialRecord(CitySlugSchema, z.array(Phrase)),
  /**
   * What people from each city are called ("malagueño", "barceloní", "bilbotarra"), one form each:
   * the build adds the other genders and numbers (build-scripts/lexicon/demonyms.ts).
   */
  demonyms: z.partialRecord(CitySlugSchema, z.array(Phrase)).optional(),
  /** Places the site does not serve ("Donostia", "Girona"): a query naming one finds no city's pages. */
  unserved: z.array(Phrase).optional(),
  /** What people from such places are called ("donostiarra", "burgalés"), one form each, as `demonyms`. */
  unserved_demonyms: z.array(Phrase).optional(),
  ignore: z.array(Phrase),
}).strict();

/**
 * `filler.json`: words that carry no topic, by category (function words, request phrasing, price,
 * urgency, generic nouns such as "casa"; `function-en`, `function-ca`… for other languages' function
 * words; `function-clause` for the words that begin another clause: "porque", "but"). They rank but never make a page match beside other words; alone, those not in a
 * `function…` category may be what a page's title says ("precios").
 */
export const FillerFileSchema = z.object({
  categories: z.record(z.string().regex(/^[a-z-]+$/), z.array(Phrase).min(1)),
}).strict();

/**
 * `not-offered.json`: words and phrases that name what this site does not offer (moving, cleaning,
 * gardening, cars, lawyers…). Pages may mention them in passing ("cambiar la cerradura tras una
 * mudanza"), so in a query they weigh as a word nothing on the site answers: "mudanzas en madrid"
 * finds nothing, "cambiar la cerradura tras la mudanza" still finds the locksmith.
 */
export const NotOfferedFileSchema = z.object({
  topics: z.array(z.object({
    words: z.array(Phrase).min(1),
    /**
     * A thing the site never works on (a car): a query naming it is about it, its other words the
     * thing's parts ("el cristal del coche"), so it finds nothing unless an intent phrase holds the
     * thing ("cargador coche eléctrico").
     */
    thing: z.boolean().optional(),
    /**
     * A setting the site's work may happen in (a flat for sale or to let): alone it is what the
     * query asks for, so it finds nothing; beside a job a service does ("pintar el piso de
     * alquiler", "pisua saldu aurretik margotu") it is that job's circumstance, and weighs nothing.
     */
    setting: z.boolean().optional(),
    note: Note,
  }).strict()),
}).strict();

export const LEXICON_FILES = {
  synonyms: 'synonyms.json',
  rewrites: 'rewrites.json',
  intents: 'intents.json',
  places: 'places.json',
  filler: 'filler.json',
  notOffered: 'not-offered.json',
} as const;

/** Folded words of a phrase. */
const Words = z.array(z.string().regex(/^[a-z0-9]+$/)).min(1);

/** `search/lexicon.json` of a build: the lexicon folded, with every target resolved to a page path. */
export const CompiledLexiconSchema = z.object({
  format: z.literal(1),
  /** [from, to]: token sequences. */
  rewrites: z.array(z.tuple([Words, Words])),
  /** Groups of phrases that match each other. */
  synonyms: z.array(z.array(Words).min(2)),
  intents: z.array(z.object({
    phrases: z.array(Words).min(1),
    /** Pages that answer it whatever the city. */
    paths: z.array(SitePath),
    /** Services whose page answers it: the service × city page when the query names a city. */
    services: z.array(Slug),
    /**
     * false for the service names the build adds from services.json ("fontanería", "pintor"): they
     * say which trade, not which page answers ("presupuesto reforma de baño" is the budget guide).
     */
    strong: z.boolean(),
    /** The service's tradesman ("fontanero", "electricistas"): a query asking for one wants the service's pages. */
    trade: z.boolean().optional(),
  })),
  /** Place names and the cities they name (a district can lie in two). */
  places: z.array(z.tuple([Words, z.array(CitySlugSchema).min(1)])),
  /** Names of places the site does not serve. */
  unserved: z.array(Words).optional(),
  filler: z.array(z.string().regex(/^[a-z0-9]+$/)),
  /** Rooms: topic words only when the query has no other. */
  rooms: z.array(z.string().regex(/^[a-z0-9]+$/)),
  /** Filler words an intent phrase still needs (the `negation` category). */
  negations: z.array(z.string().regex(/^[a-z0-9]+$/)),
  /** Phrases naming what the site does not offer. */
  not_offered: z.array(Words),
  /** Of them, the things the site never works on (`thing` in not-offered.json). */
  not_offered_things: z.array(Words).optional(),
  /** Of them, the settings the site's work may happen in (`setting` in not-offered.json). */
  not_offered_settings: z.array(Words).optional(),
  /** Filler words that begin another clause (`function-clause`): a thing's parts are the words of its own clause. */
  clause_breaks: z.array(z.string().regex(/^[a-z0-9]+$/)).optional(),
});

export type CompiledLexicon = z.infer<typeof CompiledLexiconSchema>;

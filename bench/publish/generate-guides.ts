/**
 * Guides written into a project copy's `src/content/guides/` until the site has the pages asked
 * for: each made from one of the real guides (same service and frontmatter shape), with a title
 * and slug of its own (a place in the home and a circumstance), its sections shuffled and some
 * left out, and some words of its paragraphs swapped for dictionary words, so that search and
 * Markdown see a vocabulary and page sizes that grow as a real site's do. The real guides stay.
 * Deterministic: the same guides on every run.
 */
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { stem } from '../../formats/search/stem-es.ts';
import { words } from '../../formats/search/text.ts';
import { prng } from '../build/generate-site.ts';

export interface GeneratedGuides {
  /** Slugs written, in the order written. */
  slugs: string[];
  /** Guides of each service on the site, the real ones included. */
  perService: Map<string, number>;
  /**
   * Dictionary words whose stem no source holds (content, lexicon, guides real and generated): a
   * page holding one is the only one search finds by it, as an edit's word must be.
   */
  rareWords: string[];
}

interface RealGuide { slug: string; title: string; description: string; service: string; intro: string; sections: string[] }

const PLACES = ['en el baño', 'en la cocina', 'en el salón', 'en el dormitorio', 'en la terraza', 'en el garaje', 'en el trastero',
  'en una casa antigua', 'en un piso de alquiler', 'en un ático', 'en un bajo', 'en una casa de pueblo', 'en un chalet', 'en la segunda residencia', 'en un local'];
const CIRCUMSTANCES = ['en invierno', 'en verano', 'tras una tormenta', 'después de una obra', 'al volver de vacaciones', 'por la noche',
  'con niños en casa', 'con personas mayores', 'con poco presupuesto', 'con urgencia', 'cada pocos días', 'de repente'];
/** Of the dictionary, one word in SPARE is kept out of the guides. */
const SPARE = 4;
const SWAP_RATE = 0.08;

const slugify = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
const quoted = (s: string) => JSON.stringify(s);

/** A guide file: frontmatter, first paragraph, then `## ` sections. */
function parseGuide(slug: string, text: string): RealGuide {
  const m = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text);
  if (!m) throw new Error(`${slug}.md: no frontmatter`);
  const field = (name: string) => {
    const v = new RegExp(`^${name}: (.*)$`, 'm').exec(m[1]!)?.[1]?.trim() ?? '';
    return v.startsWith('"') ? JSON.parse(v) as string : v;
  };
  const [intro, ...sections] = m[2]!.trim().split(/\n(?=## )/);
  return { slug, title: field('title'), description: field('description'), service: field('service'), intro: intro!, sections };
}

/** Swaps some words of the plain paragraphs (not headings, tables, lists or code) for dictionary words. */
function varyWords(block: string, words: readonly string[], rand: () => number): string {
  return block.split('\n').map((line) => {
    if (!/^[A-ZÁÉÍÓÚÑ¿¡]/.test(line)) return line;
    return line.split(' ').map((w) => (/^[a-záéíóúñ]{5,}$/.test(w) && rand() < SWAP_RATE ? words[Math.floor(rand() * words.length)]! : w)).join(' ');
  }).join('\n');
}

function shuffled<T>(items: readonly T[], rand: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Stems of every word of the text files under `dir`. */
async function stemsUnder(dir: string): Promise<Set<string>> {
  const out = new Set<string>();
  for (const e of await fs.readdir(dir, { recursive: true, withFileTypes: true })) {
    if (e.isFile()) for (const w of words(await fs.readFile(path.join(e.parentPath, e.name), 'utf8'))) out.add(stem(w));
  }
  return out;
}

/** `guidesDir`'s parent holds the rest of the sources. */
export async function generateGuides(opts: { guidesDir: string; count: number }): Promise<GeneratedGuides> {
  const taken = await stemsUnder(path.dirname(opts.guidesDir));
  const files = (await fs.readdir(opts.guidesDir)).filter((f) => f.endsWith('.md')).sort();
  const real = await Promise.all(files.map(async (f) => parseGuide(f.slice(0, -3), await fs.readFile(path.join(opts.guidesDir, f), 'utf8'))));
  const dictionary = (createRequire(import.meta.url)('an-array-of-spanish-words') as string[]).filter((w) => /^[a-záéíóúñ]{6,14}$/.test(w));
  const used = dictionary.filter((_, i) => i % SPARE !== 0);
  const rand = prng(7);
  const perService = new Map<string, number>();
  for (const g of real) perService.set(g.service, (perService.get(g.service) ?? 0) + 1);
  const combos = PLACES.length * CIRCUMSTANCES.length;
  const slugs: string[] = [];
  for (let i = 0; i < opts.count; i++) {
    const template = real[i % real.length]!;
    const j = Math.floor(i / real.length);
    const place = PLACES[j % combos % PLACES.length]!;
    const when = CIRCUMSTANCES[Math.floor((j % combos) / PLACES.length)]!;
    const round = Math.floor(j / combos);
    const slug = `${template.slug}-${slugify(place)}-${slugify(when)}${round ? `-${round + 1}` : ''}`;
    const title = `${template.title.split(':')[0]} ${place} ${when}${round ? ` (caso ${round + 1})` : ''}`;
    const kept = shuffled(template.sections, rand).filter((_, k) => k < 2 || rand() > 0.25);
    const body = [template.intro, ...kept].map((b) => varyWords(b, used, rand)).join('\n\n');
    const text = `---\ntitle: ${quoted(title)}\ndescription: ${quoted(`${template.description} Caso: ${place}, ${when}.`)}\nservice: ${template.service}\n---\n\n${body}\n`;
    await fs.writeFile(path.join(opts.guidesDir, `${slug}.md`), text);
    slugs.push(slug);
    perService.set(template.service, (perService.get(template.service) ?? 0) + 1);
  }
  for (const w of used) taken.add(stem(w));
  const rareWords = dictionary.filter((w, i) => i % SPARE === 0 && /^[a-z]{9,}$/.test(w) && !taken.has(stem(w)));
  return { slugs, perService, rareWords };
}

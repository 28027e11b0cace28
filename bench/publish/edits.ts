/**
 * The content edits the publish bench times, in the order it makes them, each with what a client
 * must see once it is live: an edited guide, an added one, the edited one deleted, a service
 * renamed, and a new synonym in the search lexicon. Each edits the project copy's sources only.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { AstroProject } from '../../test/helpers/astro-project.ts';
import type { Probe, Surfaces } from './surfaces.ts';

export interface Edit {
  kind: string;
  apply(): Promise<void>;
  probe: Probe;
}

export interface EditWords {
  /** In the edited guide only. */
  edited: string;
  /** In the added guide only. */
  added: string;
  /** The new synonym. */
  synonym: string;
}

export const RENAMED_SERVICE = { id: 'cristaleria', name: 'Cristalería y espejos' };
/** The group the new synonym joins. */
const SYNONYM_OF = 'fontanero';

const guideFile = (slug: string) => `src/content/guides/${slug}.md`;
const guidePath = (slug: string) => `/guias/${slug}/`;

/** The edit's sentence goes after the guide's first paragraph: read_page's first part holds it whatever the guide's length. */
function insertParagraph(guide: string, paragraph: string): string {
  const end = guide.indexOf('\n\n', guide.indexOf('\n---\n') + 5 + 2);
  return `${guide.slice(0, end)}\n\n${paragraph}${guide.slice(end)}`;
}

/** Every surface of one guide: whether each shows `word` (or, `gone`, answers 404 and is no longer found by it). */
function guideProbe(surfaces: Surfaces, slug: string, word: string, gone = false): Probe {
  const p = guidePath(slug);
  const shows = (a: { status: number; text: string }) => (gone ? a.status === 404 : a.status === 200 && a.text.includes(word));
  return async () => {
    const [read, found, md, html] = await Promise.all([surfaces.readPage(p), surfaces.search(word), surfaces.markdown(p), surfaces.html(p)]);
    return { read_page: shows(read), search_pages: found.paths.includes(p) !== gone, markdown: shows(md), html: shows(html) };
  };
}

export function publishEdits(opts: { project: AstroProject; surfaces: Surfaces; guide: string; template: string; words: EditWords; cities: readonly string[] }): Edit[] {
  const { project, surfaces, guide, words } = opts;
  const added = `${opts.template}-guia-nueva`;
  const servicePages = opts.cities.map((c) => `/servicios/${RENAMED_SERVICE.id}/${c}/`);
  return [
    {
      kind: 'guide edited',
      apply: async () => project.write(guideFile(guide), insertParagraph(await project.read(guideFile(guide)),
        `Si el problema vuelve, anota cuándo ocurre: el ${words.edited} ayuda al profesional a encontrar la causa.`)),
      probe: guideProbe(surfaces, guide, words.edited),
    },
    {
      kind: 'guide added',
      apply: async () => project.write(guideFile(added), insertParagraph(
        (await project.read(guideFile(opts.template))).replace(/^title: "(.*)"$/m, (_, t: string) => `title: ${JSON.stringify(`${t.split(':')[0]} (guía nueva)`)}`),
        `Una guía nueva: el ${words.added} explica el caso paso a paso.`)),
      probe: guideProbe(surfaces, added, words.added),
    },
    {
      kind: 'guide deleted',
      apply: () => fs.rm(path.join(project.root, guideFile(guide))),
      probe: guideProbe(surfaces, guide, words.edited, true),
    },
    {
      kind: `service renamed (${servicePages.length} service × city pages)`,
      apply: async () => {
        const rel = 'src/content/services.json';
        const services = JSON.parse(await project.read(rel)) as { id: string; name: string }[];
        services.find((s) => s.id === RENAMED_SERVICE.id)!.name = RENAMED_SERVICE.name;
        await project.write(rel, `${JSON.stringify(services, null, 2)}\n`);
      },
      probe: async () => {
        const answers = await Promise.all(servicePages.map((p) => surfaces.readPage(p)));
        return { read_page: answers.every((a) => a.status === 200 && a.text.includes(RENAMED_SERVICE.name)) };
      },
    },
    {
      kind: 'lexicon: a new synonym',
      apply: async () => {
        const rel = 'src/content/lexicon/synonyms.json';
        const lexicon = JSON.parse(await project.read(rel)) as { groups: { words: string[] }[] };
        lexicon.groups.find((g) => g.words.includes(SYNONYM_OF))!.words.push(words.synonym);
        await project.write(rel, `${JSON.stringify(lexicon, null, 2)}\n`);
      },
      probe: async () => ({ search_pages: (await surfaces.search(words.synonym)).total > 0 }),
    },
  ];
}

/** Words of `candidates` that search_pages finds nowhere yet, `count` of them, in the candidates' order. */
export async function absentWords(surfaces: Surfaces, candidates: readonly string[], count: number): Promise<string[]> {
  const out: string[] = [];
  for (const w of candidates) {
    if ((await surfaces.search(w)).total === 0) out.push(w);
    if (out.length === count) return out;
  }
  throw new Error(`fewer than ${count} dictionary words unknown to search`);
}

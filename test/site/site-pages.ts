/** Which built pages the page tests open: one of each kind, every guide (their tables) and every general page. */
import { REPRESENTATIVE } from '../../data/site-pages.ts';
import type { ReadModelPage } from '../../formats/schemas/read-model.ts';

/** The representative pages, then every guide and every general page (info), each once, in path order. */
export function pagesToCheck(pages: readonly Pick<ReadModelPage, 'path' | 'kind'>[]): string[] {
  const chosen = new Set<string>(Object.values(REPRESENTATIVE));
  for (const page of pages) if (page.kind === 'guide' || page.kind === 'info') chosen.add(page.path);
  return [...chosen].sort();
}

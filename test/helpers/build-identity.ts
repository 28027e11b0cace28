/**
 * What a published read-model build answers from, to compare two builds of the same content (an
 * incremental one against a full one): its `content_id`, each page's content hash, and each file
 * of its static site as a digest of its bytes.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PageIndex } from '../../formats/read-model/page-index.ts';
import { PAGE_INDEX_FILE } from '../../formats/schemas/read-model.ts';

export interface BuildIdentity {
  contentId: string;
  /** Page path → content hash. */
  pages: Map<string, string>;
}

export async function buildIdentity(buildDir: string): Promise<BuildIdentity> {
  const manifest = JSON.parse(fs.readFileSync(path.join(buildDir, 'manifest.json'), 'utf8')) as { content_id: string };
  const index = await PageIndex.open(path.join(buildDir, PAGE_INDEX_FILE));
  const pages = new Map<string, string>();
  for (let i = 0; i < index.size; i++) pages.set(index.path(i), index.hash(i));
  return { contentId: manifest.content_id, pages };
}

/** How `b` differs from `a`, one line per difference (the first `limit` pages named); empty when identical. */
export function identityDifferences(a: BuildIdentity, b: BuildIdentity, limit = 5): string[] {
  const out: string[] = [];
  if (a.contentId !== b.contentId) out.push(`content_id ${a.contentId.slice(0, 12)} ≠ ${b.contentId.slice(0, 12)}`);
  const only = (x: BuildIdentity, y: BuildIdentity) => [...x.pages.keys()].filter((p) => !y.pages.has(p));
  const changed = [...a.pages].filter(([p, hash]) => b.pages.has(p) && b.pages.get(p) !== hash).map(([p]) => p);
  const list = (what: string, paths: string[]) => {
    if (paths.length) out.push(`${paths.length} ${what}: ${paths.slice(0, limit).join(', ')}${paths.length > limit ? ', …' : ''}`);
  };
  list('page(s) only in the first', only(a, b));
  list('page(s) only in the second', only(b, a));
  list('page(s) with another hash', changed);
  return out;
}

const files = (dir: string) => fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));

/** Every file of a build's static site, by path, as a digest of its bytes. */
export function siteFiles(buildDir: string): Record<string, string> {
  const root = path.join(buildDir, 'site');
  return Object.fromEntries(files(root).sort().map((f) => [path.relative(root, f), createHash('sha256').update(fs.readFileSync(f)).digest('hex')]));
}

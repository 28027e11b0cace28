/**
 * Validate: reads every page and company JSON this build wrote back from disk and checks it
 * against the one schema source, before anything is published (the search stage checks its own
 * index: every page indexed once). Catches what in-memory checks cannot: a file missing or left
 * over, a name that does not match its content, a company section with fields it must not have.
 */
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { PAGE_INDEX_FILE, PAGE_PACK_FILE, PageIndexEntrySchema, ReadModelPageSchema, type ReadModelPage } from '../../server/schemas/read-model.ts';
import { pageIndexEntry } from '../page-index.ts';
import { COMPANY_SECTIONS, COMPANY_SECTION_FIELDS, CompanyInfoSchema } from '../../server/schemas/resources.ts';
import type { BuildContext } from '../context.ts';
import { BuildError, forPage, messageOf } from '../errors.ts';
import { readJson } from '../files.ts';

export const STAGE = 'validate';

/**
 * Built once per thread: `.strict()` returns a new schema, and zod compiles a schema into a
 * parser on its first use, so a `.strict()` per file would compile one per page, about ten times
 * the cost of the check itself (BENCHMARKS.md note 6).
 */
const StrictPage = ReadModelPageSchema.strict();
const StrictCompanyInfo = CompanyInfoSchema.strict();
const StrictIndexEntry = PageIndexEntrySchema.strict();

function issueOf(err: unknown): string {
  const issues = (err as { issues?: { path: PropertyKey[]; message: string }[] }).issues;
  return issues?.[0] ? `${issues[0].path.map(String).join('.') || '(root)'}: ${issues[0].message}` : messageOf(err);
}

function check<T>(parse: () => T, page: string | undefined, what: string): T {
  try {
    return parse();
  } catch (err) {
    throw new BuildError(STAGE, page, `${what} is invalid: ${issueOf(err)}`);
  }
}

export interface PageCheckTask {
  file: string;
  /** `<slug>.json`. */
  name: string;
  /** The path and hash of the page that was written under that name. */
  path: string;
  hash: string;
}

/** Reads one written page back (in a build worker): null when it holds that page, else what is wrong. */
export async function checkPageFile({ file, name, path: pagePath, hash }: PageCheckTask): Promise<string | null> {
  // Synchronous: a worker thread blocks only itself, and a promise read costs ~4× the CPU here.
  const raw: unknown = JSON.parse(readFileSync(file, 'utf8'));
  const parsed = StrictPage.safeParse(raw);
  if (!parsed.success) return `pages/${name} is invalid: ${issueOf(parsed.error)}`;
  if (parsed.data.hash !== hash || parsed.data.path !== pagePath) return `pages/${name} does not hold what was written`;
  return null;
}

/**
 * The page index read back: one valid line per page, by path, each what the page's file holds,
 * and their places in the pack laid end to end over the whole pack (written from the same bytes
 * as the page files checked above).
 */
async function checkPageIndex(ctx: BuildContext, expected: ReadModelPage[]): Promise<void> {
  const lines = (await fs.readFile(path.join(ctx.stagingDir, PAGE_INDEX_FILE), 'utf8')).split('\n');
  if (lines.pop() !== '') throw new BuildError(STAGE, undefined, `${PAGE_INDEX_FILE} does not end with a line break`);
  const byPath = [...expected].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  if (lines.length !== byPath.length) throw new BuildError(STAGE, undefined, `${PAGE_INDEX_FILE} lists ${lines.length} pages, the build ${byPath.length}`);
  const places: { offset: number; length: number }[] = [];
  lines.forEach((line, i) => {
    const want = byPath[i]!;
    const entry = check(() => StrictIndexEntry.parse(JSON.parse(line)), want.path, `${PAGE_INDEX_FILE} line ${i + 1}`);
    const at = { offset: entry.offset, length: entry.length };
    if (JSON.stringify(entry) !== JSON.stringify(pageIndexEntry(want, at))) throw new BuildError(STAGE, want.path, `${PAGE_INDEX_FILE} line ${i + 1} does not hold this page`);
    places.push(at);
  });
  places.sort((a, b) => a.offset - b.offset);
  let end = 0;
  for (const at of places) {
    if (at.offset !== end) throw new BuildError(STAGE, undefined, `${PAGE_INDEX_FILE}: pages overlap or leave a gap in ${PAGE_PACK_FILE} at byte ${end}`);
    end += at.length;
  }
  const size = (await fs.stat(path.join(ctx.stagingDir, PAGE_PACK_FILE))).size;
  if (size !== end) throw new BuildError(STAGE, undefined, `${PAGE_PACK_FILE} holds ${size} bytes, the index ${end}`);
}

/** Files being checked at once, per worker. */
const CHECK_AHEAD = 8;

export async function validate(ctx: BuildContext, expected: ReadModelPage[]): Promise<void> {
  const pagesDir = path.join(ctx.stagingDir, 'pages');
  const files = (await fs.readdir(pagesDir)).filter((f) => f.endsWith('.json')).sort();
  const wanted = new Map(expected.map((p) => [`${p.slug}.json`, p]));
  const total = files.length + COMPANY_SECTIONS.length;
  let done = 0;

  // Checked by the workers, several at once; results are taken in file order, so the first bad file is the one reported.
  const checks = new Map<number, Promise<string | null>>();
  const ahead = CHECK_AHEAD * ctx.workers.size;
  let started = 0;
  for (let i = 0; i < files.length; i++) {
    for (; started < files.length && started <= i + ahead; started++) {
      const name = files[started]!;
      const want = wanted.get(name);
      if (!want) continue;
      const checking = forPage(STAGE, want.path, () => ctx.workers.check({ file: path.join(pagesDir, name), name, path: want.path, hash: want.hash }));
      checking.catch(() => {});
      checks.set(started, checking);
    }
    const name = files[i]!;
    const want = wanted.get(name);
    if (!want) throw new BuildError(STAGE, undefined, `pages/${name} does not belong to this build`);
    const problem = await checks.get(i)!;
    checks.delete(i);
    if (problem !== null) throw new BuildError(STAGE, want.path, problem);
    wanted.delete(name);
    ctx.progress(++done, total);
  }
  const missing = [...wanted.values()][0];
  if (missing) throw new BuildError(STAGE, missing.path, `pages/${missing.slug}.json was not written`);
  await checkPageIndex(ctx, expected);

  for (const section of COMPANY_SECTIONS) {
    const file = path.join(ctx.stagingDir, 'company', `${section}.json`);
    const raw = await readJson(file).catch((err) => {
      throw new BuildError(STAGE, undefined, `company/${section}.json: ${messageOf(err)}`);
    });
    const info = check(() => StrictCompanyInfo.parse(raw), undefined, `company/${section}.json`);
    if (section !== 'all') {
      const allowed = new Set<string>(COMPANY_SECTION_FIELDS[section]);
      const extra = Object.keys(info).find((k) => !allowed.has(k));
      if (extra) throw new BuildError(STAGE, undefined, `company/${section}.json has field "${extra}", not part of section ${section}`);
    }
    ctx.progress(++done, total);
  }
}

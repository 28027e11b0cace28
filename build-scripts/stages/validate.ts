/**
 * Validate: reads back what this build wrote for the server before anything is published, and
 * checks it against the one schema source (the search stage checks its own index: every page
 * indexed once). The pages are read from `pages.pack`, which the server reads, in path order, by
 * the build's workers; `pages/<slug>.json` hold the same bytes (page-index.ts writes both from one
 * buffer), so of those the listing and sizes are checked, not each file read again. Catches what
 * in-memory checks cannot: a file missing or left over, a page that does not match its index
 * entry, a company section with fields it must not have.
 */
import { closeSync, openSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { PAGE_INDEX_FILE, PAGE_PACK_FILE, PageIndexEntrySchema, ReadModelPageSchema, type PageIndexEntry } from '../../formats/schemas/read-model.ts';
import { pageIndexEntry } from '../page-index.ts';
import { COMPANY_SECTIONS, COMPANY_SECTION_FIELDS, CompanyInfoSchema } from '../../formats/schemas/resources.ts';
import type { BuildContext } from '../context.ts';
import { BuildError, messageOf } from '../errors.ts';
import { readAt } from '../../formats/read-model/read-at.ts';
import { readJson } from '../files.ts';
import { PageIndex } from '../../formats/read-model/page-index.ts';

export const STAGE = 'validate';

/**
 * Built once per thread: `.strict()` returns a new schema, and zod compiles a schema into a
 * parser on its first use, so a `.strict()` per file would compile one per page, costing far
 * more than the check itself.
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

/** A run of consecutive pages of the pack to check (in a build worker). */
export interface PackCheckTask {
  /** The build's folder (the staging folder while it is built). */
  dir: string;
  /** What the index says of each page. */
  entries: PageIndexEntry[];
}

/** A page of the pack that is not as written, and what is wrong with it. */
export interface PackProblem { page: string; problem: string }

/**
 * Checks pages of the pack (in a build worker): each a valid page, the one its index entry names,
 * and its page file the size of its packed copy. Null when all are, else the first that is not.
 */
export function checkPackedPages({ dir, entries }: PackCheckTask): PackProblem | null {
  // Synchronous: a worker thread blocks only itself, and a promise read costs ~4x the CPU here.
  const fd = openSync(path.join(dir, PAGE_PACK_FILE), 'r');
  try {
    for (const entry of entries) {
      const name = `pages/${entry.slug}.json`;
      const fail = (problem: string) => ({ page: entry.path, problem: `${name} (${PAGE_PACK_FILE} at byte ${entry.offset}) ${problem}` });
      let raw: unknown;
      try {
        raw = JSON.parse(readAt(fd, entry.offset, entry.length).toString('utf8'));
      } catch (err) {
        return fail(`is invalid: ${messageOf(err)}`);
      }
      const parsed = StrictPage.safeParse(raw);
      if (!parsed.success) return fail(`is invalid: ${issueOf(parsed.error)}`);
      const at = { offset: entry.offset, length: entry.length };
      if (JSON.stringify(pageIndexEntry(parsed.data, at)) !== JSON.stringify(entry)) return fail('does not hold what was written');
      const size = statSync(path.join(dir, name), { throwIfNoEntry: false })?.size;
      if (size !== entry.length) return fail(size === undefined ? 'was not written' : `holds ${size} bytes, its packed copy ${entry.length}`);
    }
    return null;
  } finally {
    closeSync(fd);
  }
}

/**
 * The page index read back as a server reads it (its format, digest and head checked there):
 * each page the entry written, valid by the schema, and their places in the pack laid end to end
 * over the whole pack.
 */
async function checkPageIndex(ctx: BuildContext, expected: readonly PageIndexEntry[]): Promise<void> {
  const index = await PageIndex.open(path.join(ctx.stagingDir, PAGE_INDEX_FILE))
    .catch((err: unknown) => { throw new BuildError(STAGE, undefined, messageOf(err)); });
  if (index.size !== expected.length) throw new BuildError(STAGE, undefined, `${PAGE_INDEX_FILE} lists ${index.size} pages, the build ${expected.length}`);
  const places: { offset: number; length: number }[] = [];
  for (let i = 0; i < index.size; i++) {
    const want = expected[i]!;
    const entry = check(() => StrictIndexEntry.parse(index.entry(i)), want.path, `${PAGE_INDEX_FILE} page ${i + 1}`);
    if (JSON.stringify(entry) !== JSON.stringify(want)) throw new BuildError(STAGE, want.path, `${PAGE_INDEX_FILE} page ${i + 1} does not hold this page`);
    if (index.findPath(want.path) !== i || index.findSlug(want.slug) !== i) throw new BuildError(STAGE, want.path, `${PAGE_INDEX_FILE} does not find this page by its path and slug`);
    places.push({ offset: entry.offset, length: entry.length });
  }
  places.sort((a, b) => a.offset - b.offset);
  let end = 0;
  for (const at of places) {
    if (at.offset !== end) throw new BuildError(STAGE, undefined, `${PAGE_INDEX_FILE}: pages overlap or leave a gap in ${PAGE_PACK_FILE} at byte ${end}`);
    end += at.length;
  }
  const size = statSync(path.join(ctx.stagingDir, PAGE_PACK_FILE)).size;
  if (size !== end) throw new BuildError(STAGE, undefined, `${PAGE_PACK_FILE} holds ${size} bytes, the index ${end}`);
}

/** Pages per check task: enough that a task's message costs little beside its checks. */
const CHECK_PAGES = 200;
/** Check tasks in flight, per worker. */
const CHECK_AHEAD = 2;

/** `expected`: the index entries of the pages written (page-index.ts), by path. */
export async function validate(ctx: BuildContext, expected: readonly PageIndexEntry[]): Promise<void> {
  const wanted = new Set(expected.map((e) => `${e.slug}.json`));
  const files = readdirSync(path.join(ctx.stagingDir, 'pages')).sort();
  const extra = files.find((f) => !wanted.has(f));
  if (extra !== undefined) throw new BuildError(STAGE, undefined, `pages/${extra} does not belong to this build`);
  await checkPageIndex(ctx, expected);

  const total = expected.length + COMPANY_SECTIONS.length;
  let done = 0;
  // Checked by the workers, several runs at once; results are taken in path order, so the first bad page is the one reported.
  const runs: PageIndexEntry[][] = [];
  for (let i = 0; i < expected.length; i += CHECK_PAGES) runs.push(expected.slice(i, i + CHECK_PAGES));
  const checks = new Map<number, Promise<PackProblem | null>>();
  const ahead = CHECK_AHEAD * ctx.workers.size;
  let started = 0;
  for (let i = 0; i < runs.length; i++) {
    for (; started < runs.length && started <= i + ahead; started++) {
      const checking = ctx.workers.check({ dir: ctx.stagingDir, entries: runs[started]! });
      checking.catch(() => {});
      checks.set(started, checking);
    }
    const found = await checks.get(i)!.catch((err: unknown) => {
      throw new BuildError(STAGE, runs[i]![0]!.path, messageOf(err), { cause: err });
    });
    checks.delete(i);
    if (found !== null) throw new BuildError(STAGE, found.page, found.problem);
    ctx.progress(done += runs[i]!.length, total);
  }

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

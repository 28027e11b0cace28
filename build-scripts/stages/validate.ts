/**
 * Validate: reads every JSON this build wrote back from disk and checks it against the one schema
 * source, before anything is published. Catches what in-memory checks cannot: a file missing or
 * left over, a name that does not match its content, a company section with fields it must not have.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { ReadModelPageSchema, type ReadModelPage } from '../../server/schemas/read-model.ts';
import { COMPANY_SECTIONS, COMPANY_SECTION_FIELDS, CompanyInfoSchema } from '../../server/schemas/resources.ts';
import type { BuildContext } from '../context.ts';
import { BuildError, messageOf } from '../errors.ts';
import { listFiles, readJson } from '../files.ts';

export const STAGE = 'validate';

function check<T>(parse: () => T, page: string | undefined, what: string): T {
  try {
    return parse();
  } catch (err) {
    const issues = (err as { issues?: { path: PropertyKey[]; message: string }[] }).issues;
    const detail = issues?.[0] ? `${issues[0].path.map(String).join('.') || '(root)'}: ${issues[0].message}` : messageOf(err);
    throw new BuildError(STAGE, page, `${what} is invalid: ${detail}`);
  }
}

export async function validate(ctx: BuildContext, expected: ReadModelPage[]): Promise<void> {
  const pagesDir = path.join(ctx.stagingDir, 'pages');
  const files = (await fs.readdir(pagesDir)).filter((f) => f.endsWith('.json')).sort();
  const wanted = new Map(expected.map((p) => [`${p.slug}.json`, p]));
  const total = files.length + COMPANY_SECTIONS.length;
  let done = 0;

  for (const name of files) {
    const want = wanted.get(name);
    if (!want) throw new BuildError(STAGE, undefined, `pages/${name} does not belong to this build`);
    const raw = await readJson(path.join(pagesDir, name));
    const page = check(() => ReadModelPageSchema.strict().parse(raw), want.path, `pages/${name}`);
    if (page.hash !== want.hash || page.path !== want.path) {
      throw new BuildError(STAGE, want.path, `pages/${name} does not hold what was written`);
    }
    wanted.delete(name);
    ctx.progress(++done, total);
  }
  const missing = [...wanted.values()][0];
  if (missing) throw new BuildError(STAGE, missing.path, `pages/${missing.slug}.json was not written`);

  for (const section of COMPANY_SECTIONS) {
    const file = path.join(ctx.stagingDir, 'company', `${section}.json`);
    const raw = await readJson(file).catch((err) => {
      throw new BuildError(STAGE, undefined, `company/${section}.json: ${messageOf(err)}`);
    });
    const info = check(() => CompanyInfoSchema.strict().parse(raw), undefined, `company/${section}.json`);
    if (section !== 'all') {
      const allowed = new Set<string>(COMPANY_SECTION_FIELDS[section]);
      const extra = Object.keys(info).find((k) => !allowed.has(k));
      if (extra) throw new BuildError(STAGE, undefined, `company/${section}.json has field "${extra}", not part of section ${section}`);
    }
    ctx.progress(++done, total);
  }

  const searchFiles = await listFiles(path.join(ctx.stagingDir, 'search')).catch(() => []);
  if (searchFiles.length === 0) throw new BuildError(STAGE, undefined, 'search/ holds no index');
}

/**
 * Company: the `get_company_info` bodies, one JSON per section, from the company content file and
 * the site's actual service and city pages. Every URL listed must be a page this build publishes
 * (or a route the server answers), so an agent following one never lands on a 404.
 *
 * Inputs (src/content/): company.json — the CompanyInfo facts (brand, legal_name, …, service_model,
 * `pages`: name → site path), possibly wrapped as a one-entry collection; services.json and
 * cities.json — arrays of `{ id, name }` whose pages live at /servicios/<id>/ and /ciudades/<id>/.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { CitySlugSchema } from '../../formats/schemas/cities.ts';
import {
  COMPANY_SECTIONS, COMPANY_SECTION_FIELDS, CompanyInfoSchema, type CompanyInfo, type CompanySection,
} from '../../formats/schemas/resources.ts';
import type { BuildContext, ReadModelPage } from '../context.ts';
import { BuildError, messageOf } from '../errors.ts';
import { writeJson } from '../files.ts';
import { SERVER_PATHS } from './crawl.ts';

export const STAGE = 'company';

const EntrySchema = z.object({ id: z.string().min(1), name: z.string().min(1) });

/** The company facts as written in company.json: CompanyInfo minus what the build derives. */
const CompanyFileSchema = CompanyInfoSchema.omit({ website: true, services: true, cities: true, pages: true })
  .extend({ pages: z.record(z.string(), z.string()).optional() });

async function readContent(ctx: BuildContext, name: string): Promise<unknown> {
  const file = path.join(ctx.contentDir, name);
  try {
    return JSON.parse(await fs.readFile(file, 'utf8'));
  } catch (err) {
    throw new BuildError(STAGE, undefined, `cannot read ${file}: ${messageOf(err)}`);
  }
}

function parse<T>(schema: z.ZodType<T>, value: unknown, name: string): T {
  const result = schema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new BuildError(STAGE, undefined, `${name}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return result.data;
}

/** Content collections may wrap the one company entry (`[{…}]` or `{ "company": {…} }`). */
function unwrapCompany(raw: unknown): unknown {
  if (Array.isArray(raw) && raw.length === 1) return raw[0];
  if (raw && typeof raw === 'object' && !('brand' in raw)) {
    const values = Object.values(raw);
    if (values.length === 1 && values[0] && typeof values[0] === 'object' && 'brand' in values[0]) return values[0];
  }
  return raw;
}

/** Entry arrays may also be collections keyed by id (`{ "madrid": { name } }`). */
function entries(raw: unknown): unknown {
  if (Array.isArray(raw) || !raw || typeof raw !== 'object') return raw;
  return Object.entries(raw).map(([id, value]) => ({ id, ...(value as object) }));
}

function pick(info: CompanyInfo, fields: readonly string[]): CompanyInfo {
  const out: Record<string, unknown> = {};
  for (const key of fields) {
    const value = (info as Record<string, unknown>)[key];
    if (value !== undefined) out[key] = value;
  }
  return out as CompanyInfo;
}

export async function company(ctx: BuildContext, pages: readonly Pick<ReadModelPage, 'path' | 'url'>[]): Promise<Record<CompanySection, CompanyInfo>> {
  const site = new URL(ctx.siteUrl);
  const byPath = new Map(pages.map((p) => [p.path, p]));
  const facts = parse(CompanyFileSchema, unwrapCompany(await readContent(ctx, 'company.json')), 'company.json');
  const services = parse(z.array(EntrySchema), entries(await readContent(ctx, 'services.json')), 'services.json');
  const cities = parse(z.array(EntrySchema.extend({ id: CitySlugSchema })), entries(await readContent(ctx, 'cities.json')), 'cities.json');

  const pageUrl = (pagePath: string, what: string): string => {
    const page = byPath.get(pagePath);
    if (!page) throw new BuildError(STAGE, pagePath, `${what} links to ${pagePath}, which is not a published page`);
    return page.url;
  };

  const linkedPages: Record<string, string> = {};
  for (const [name, target] of Object.entries(facts.pages ?? {})) {
    const url = new URL(target, site);
    if (url.origin !== site.origin || SERVER_PATHS.some((re) => re.test(url.pathname))) {
      linkedPages[name] = url.href;
      continue;
    }
    const p = url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`;
    linkedPages[name] = pageUrl(p, `company.json pages.${name}`) + url.hash;
  }

  const all = CompanyInfoSchema.parse({
    ...facts,
    website: ctx.siteUrl,
    services: services.map((s) => ({ name: s.name, url: pageUrl(`/servicios/${s.id}/`, `services.json "${s.id}"`) })),
    cities: cities.map((c) => ({ slug: c.id, name: c.name, url: pageUrl(`/ciudades/${c.id}/`, `cities.json "${c.id}"`) })),
    ...(facts.pages ? { pages: linkedPages } : {}),
  });
  const ordered = pick(all, Object.keys(CompanyInfoSchema.shape));

  const sections = {} as Record<CompanySection, CompanyInfo>;
  for (const section of COMPANY_SECTIONS) {
    sections[section] = section === 'all' ? ordered : pick(ordered, COMPANY_SECTION_FIELDS[section]);
    await writeJson(path.join(ctx.stagingDir, 'company', `${section}.json`), sections[section]);
    ctx.progress(Object.keys(sections).length, COMPANY_SECTIONS.length);
  }
  return sections;
}

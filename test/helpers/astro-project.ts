/**
 * A copy of the project that the real Astro builds: the site's code and content, in a temp folder,
 * trimmed to a few guides and each service offered in one or two cities when asked. Its
 * node_modules links each of the project's packages but holds a cache folder (.astro) of its own.
 * With the build's code too, `npm run build` runs in it as in the repository (the publish bench).
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from '../../formats/settings.ts';
import type { BuildContext } from '../../build-scripts/context.ts';
import { astroBuild, type AstroOptions, type AstroResult } from '../../build-scripts/stages/astro.ts';
import { refuseInUnitTier } from '../tiers.ts';

/** What the site's code reads: src/ imports formats/ and server/. */
const COPIED = ['src', 'formats', 'server', 'public', 'astro.config.mjs', 'package.json', 'package-lock.json', 'tsconfig.json'];
/** What `npm run build` runs besides the site's code: the build, and the bundler its workers use. */
const BUILD_CODE = ['build-scripts', 'scripts'];
/** Cache folders Astro and Vite write into node_modules: the copy's own. */
const NOT_LINKED = new Set(['.astro', '.vite', '.cache']);

export interface AstroProject {
  root: string;
  distDir: string;
  contentDir: string;
  /** `astro build` through the build's astro stage; `lines` gets what the stage logs. */
  build(options?: AstroOptions & { siteUrl?: string; lines?: string[] }): Promise<AstroResult>;
  /** The built file of `page` (`/guias/x/index.html`). */
  page(page: string): Promise<string>;
  read(rel: string): Promise<string>;
  write(rel: string, text: string): Promise<void>;
  remove(): Promise<void>;
}

export interface ProjectSpec {
  /** Guides kept, by file name without `.md` (default: all). */
  guides?: string[];
  /** Cities each service is offered in (default: as services.json says). */
  cities?: string[];
  siteUrl: string;
  /** Copy the build's code too, so that `npm run build` runs in the copy. */
  buildCode?: boolean;
  /** Folder the copy is made in (default: the system's temp folder). */
  parentDir?: string;
}

export async function createAstroProject(spec: ProjectSpec): Promise<AstroProject> {
  refuseInUnitTier('A build of the site with Astro');
  const root = await fs.mkdtemp(path.join(spec.parentDir ?? os.tmpdir(), 'agentes-astro-'));
  for (const name of [...COPIED, ...(spec.buildCode ? BUILD_CODE : [])]) await fs.cp(path.join(ROOT, name), path.join(root, name), { recursive: true });
  await fs.mkdir(path.join(root, 'node_modules'));
  for (const name of await fs.readdir(path.join(ROOT, 'node_modules'))) {
    if (!NOT_LINKED.has(name)) await fs.symlink(path.join(ROOT, 'node_modules', name), path.join(root, 'node_modules', name));
  }
  const contentDir = path.join(root, 'src', 'content');
  if (spec.guides) {
    const keep = new Set(spec.guides.map((g) => `${g}.md`));
    for (const name of await fs.readdir(path.join(contentDir, 'guides'))) {
      if (!keep.has(name)) await fs.rm(path.join(contentDir, 'guides', name));
    }
  }
  if (spec.cities) {
    const servicesFile = path.join(contentDir, 'services.json');
    const services = JSON.parse(await fs.readFile(servicesFile, 'utf8')) as { cities?: string[] }[];
    for (const s of services) s.cities = spec.cities;
    await fs.writeFile(servicesFile, `${JSON.stringify(services, null, 2)}\n`);
  }

  const distDir = path.join(root, 'dist', 'client');
  const project: AstroProject = {
    root,
    distDir,
    contentDir,
    async build(options = {}) {
      const lines = options.lines ?? [];
      const ctx = {
        distDir, contentDir, siteUrl: options.siteUrl ?? spec.siteUrl, buildId: 'test',
        log: (line: string) => lines.push(line),
        warn: (line: string) => lines.push(`warning: ${line}`),
        progress: () => {},
      } as Partial<BuildContext> as BuildContext;
      return astroBuild(ctx, root, { full: options.full });
    },
    page: (page) => fs.readFile(path.join(distDir, page), 'utf8'),
    read: (rel) => fs.readFile(path.join(root, rel), 'utf8'),
    write: (rel, text) => fs.writeFile(path.join(root, rel), text),
    remove: () => fs.rm(root, { recursive: true, force: true }),
  };
  return project;
}

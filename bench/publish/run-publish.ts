/**
 * Publish section: for each size (10,000 and 100,000 pages by default), a copy of the project
 * (test/helpers/astro-project.ts, with the build's code) whose `src/content/guides/` gets
 * generated guides up to that many pages (generate-guides.ts), then:
 *   - a full build (`npm run build -- --full`): wall time, peak memory of the build and its
 *     children summed, stage times;
 *   - the real server on the copy's read model, started as `npm start` starts it;
 *   - each edit of edits.ts, written to the sources, then `npm run build`: the time from the
 *     write until a client polling every surface sees the edit everywhere (surfaces.ts), while a
 *     light load reads one page (failed answers counted);
 *   - `npm run build -- --full` of the edited sources into another READ_MODEL_DIR: its content_id
 *     and page hashes must be the incremental build's.
 * The copy lives under var/bench/ and is removed at the end.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { parseConfig, ROOT } from '../../server/config.ts';
import { buildPath } from '../../formats/read-model/pointer.ts';
import { bundleServer } from '../../scripts/bundle-server.ts';
import { createAstroProject } from '../../test/helpers/astro-project.ts';
import { buildIdentity, identityDifferences } from '../../test/helpers/build-identity.ts';
import { prng } from '../build/generate-site.ts';
import { load, type LoadTool } from '../http/load.ts';
import { firstOk } from '../large/run-large.ts';
import { startServer, type Child } from '../lib/processes.ts';
import { currentBuildId } from '../lib/read-model-snapshot.ts';
import { absentWords, publishEdits, RENAMED_SERVICE, type Edit } from './edits.ts';
import { generateGuides } from './generate-guides.ts';
import { buildProject, type ProjectBuild } from './project-build.ts';
import { createSurfaces, waitLive } from './surfaces.ts';

export interface EditRun {
  kind: string;
  /** From the edit written to every surface showing it; NaN when it did not go live. */
  liveMs: number;
  firstSeenMs: Record<string, number>;
  build: ProjectBuild;
  failed: number;
  answers: number;
  /** What went wrong: not live, live before the edit. */
  problem?: string;
}

export interface PublishRun {
  pages: number;
  generatedGuides: number;
  full: ProjectBuild;
  edits: EditRun[];
  /** Pages that show the renamed service's name as their own: its service and service × city pages and its guides. */
  renamedServicePages: number;
  /** The `--full` build of the edited sources against the incremental one; empty when identical. */
  identity: { differences: string[]; full: ProjectBuild };
}

export interface PublishReport { runs: PublishRun[]; tool: LoadTool }

/** After the build's exit, time the server has to load what it published. */
const GRACE_MS = 20_000;
/** The light load: each connection waits this long between requests. */
const LOAD = { connections: 2, delayMs: 20 };
const LOADED_PAGE = '/servicios/fontaneria/madrid/';

/** Pages of the sample site (its read model's manifest), which the copy has before any guide is generated. */
async function samplePages(): Promise<number> {
  const dir = buildPath(parseConfig().readModelDir, await currentBuildId());
  return (JSON.parse(await fs.readFile(path.join(dir, 'manifest.json'), 'utf8')) as { counts: { pages: number } }).counts.pages;
}

/** One edit, built and published while the load runs and the client polls. */
async function timeEdit(edit: Edit, opts: { server: Child; tool: LoadTool; build: () => Promise<ProjectBuild> }): Promise<EditRun> {
  const before = await edit.probe();
  const early = Object.entries(before).filter(([, shown]) => shown).map(([name]) => name);
  const stop = new AbortController();
  const headers = { 'Accept-Encoding': 'gzip, br' };
  const during = load(opts.server.url, { method: 'GET', path: LOADED_PAGE, headers, rotate: [LOADED_PAGE, `/wp-json/agentes/v1/read_page?url=${encodeURIComponent(LOADED_PAGE)}`] },
    { tool: opts.tool, ...LOAD, seconds: 3600, expectStatus: 200, stop: stop.signal });
  try {
    await edit.apply();
    const since = performance.now();
    const building = opts.build();
    const live = await waitLive({ probe: edit.probe, since, done: building, graceMs: GRACE_MS });
    const build = await building;
    stop.abort();
    const answers = await during;
    const problem = [
      early.length ? `already shown before the edit: ${early.join(', ')}` : '',
      Number.isNaN(live.liveMs) ? `not live ${GRACE_MS / 1000} s after the build ended (shown: ${Object.keys(live.firstSeenMs).join(', ') || 'nothing'})` : '',
      build.error ? `the build exited 1: ${build.error}` : '',
    ].filter(Boolean).join('; ') || undefined;
    return { kind: edit.kind, ...live, build, failed: answers.unexpected, answers: answers.count, ...(problem ? { problem } : {}) };
  } finally {
    stop.abort();
    await during.catch(() => undefined);
  }
}

async function runSize(pages: number, opts: { tool: LoadTool; log(line: string): void }): Promise<PublishRun> {
  const parentDir = path.join(ROOT, 'var', 'bench');
  await fs.mkdir(parentDir, { recursive: true });
  const project = await createAstroProject({ siteUrl: 'http://localhost:4321', buildCode: true, parentDir });
  let server: Child | undefined;
  try {
    const generatedGuides = Math.max(0, pages - await samplePages());
    opts.log(`publish: ${pages} pages: ${generatedGuides} guides generated in ${path.relative(ROOT, project.root)}`);
    const guides = await generateGuides({ guidesDir: path.join(project.contentDir, 'guides'), count: generatedGuides });
    const readModelDir = path.join(project.root, 'var', 'read-model');
    const build = (full = false, dir = readModelDir, dist = path.join(project.root, 'dist')) =>
      buildProject({ root: project.root, distDir: dist, readModelDir: dir, full });

    opts.log(`publish: ${pages} pages: full build`);
    const full = await build(true);
    opts.log(`publish: full build ${(full.wallMs / 1000).toFixed(1)} s, peak ${Math.round(full.peakTreeRss / 2 ** 20)} MB`);

    server = await startServer('publish', { READ_MODEL_DIR: readModelDir, RATE_LIMIT_ANONYMOUS: '1000000000', RATE_LIMIT_WINDOW: '3600' });
    await firstOk(`${server.url}/wp-json/agentes/v1/read_page?url=${encodeURIComponent(LOADED_PAGE)}`);
    const surfaces = createSurfaces({ origin: server.url });
    const rand = prng(11);
    const candidates = [...guides.rareWords].sort(() => rand() - 0.5);
    const [edited, added, synonym] = await absentWords(surfaces, candidates, 3);
    opts.log(`publish: words of the edits: ${edited}, ${added}, ${synonym}`);
    const cities = (JSON.parse(await project.read('src/content/cities.json')) as { id: string }[]).map((c) => c.id);
    const guide = guides.slugs[Math.floor(guides.slugs.length / 2)] ?? 'cisterna-pierde-agua';
    const edits = publishEdits({ project, surfaces, guide, template: 'cisterna-pierde-agua', words: { edited: edited!, added: added!, synonym: synonym! }, cities });

    const runs: EditRun[] = [];
    for (const edit of edits) {
      opts.log(`publish: ${pages} pages: ${edit.kind}`);
      const run = await timeEdit(edit, { server, tool: opts.tool, build: () => build() });
      opts.log(`publish: ${edit.kind}: live ${(run.liveMs / 1000).toFixed(1)} s, build ${(run.build.wallMs / 1000).toFixed(1)} s, ${run.build.rendered} rendered, ${run.failed} failed of ${run.answers}${run.problem ? `; ${run.problem}` : ''}`);
      runs.push(run);
    }

    opts.log(`publish: ${pages} pages: --full build of the edited sources into another READ_MODEL_DIR`);
    const fullAgain = await build(true, path.join(project.root, 'var', 'read-model-full'), path.join(project.root, 'dist-full'));
    const differences = identityDifferences(await buildIdentity(runs.at(-1)!.build.buildDir), await buildIdentity(fullAgain.buildDir));
    const renamedServicePages = 1 + cities.length + (guides.perService.get(RENAMED_SERVICE.id) ?? 0);
    return { pages, generatedGuides, full, edits: runs, renamedServicePages, identity: { differences, full: fullAgain } };
  } finally {
    await server?.close();
    await project.remove();
  }
}

export async function runPublish(opts: { sizes: readonly number[]; tool: LoadTool; log(line: string): void }): Promise<PublishReport> {
  await bundleServer();
  const runs: PublishRun[] = [];
  for (const pages of opts.sizes) runs.push(await runSize(pages, opts));
  return { runs, tool: opts.tool };
}

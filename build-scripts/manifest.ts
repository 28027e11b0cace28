/** The manifest of one read-model build: what it holds and how long each stage took. */
import { ManifestSchema, READ_MODEL_SCHEMA_VERSION, type Manifest, type ReadModelPage } from '../formats/schemas/read-model.ts';
import { COMPANY_SECTIONS } from '../formats/schemas/resources.ts';

export function createManifest(opts: {
  buildId: string;
  /** build-scripts/content-id.ts */
  contentId: string;
  siteUrl: string;
  pages: readonly Pick<ReadModelPage, 'kind'>[];
  timings: Record<string, number>;
  createdAt?: Date;
}): Manifest {
  const count = (kind: ReadModelPage['kind']) => opts.pages.filter((p) => p.kind === kind).length;
  return ManifestSchema.parse({
    schema_version: READ_MODEL_SCHEMA_VERSION,
    build_id: opts.buildId,
    content_id: opts.contentId,
    created_at: (opts.createdAt ?? new Date()).toISOString(),
    site_url: opts.siteUrl,
    counts: {
      pages: opts.pages.length,
      cities: count('city'),
      services: count('service'),
      guides: count('guide'),
      company_sections: COMPANY_SECTIONS.length,
    },
    timings_ms: { ...opts.timings },
  });
}

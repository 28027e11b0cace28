/** GET {base}/read_page?url=… — a published page as Markdown (contract.md, "read_page"). */
import type { LoadedModel, LoadedPage } from '../../read-model/types.ts';
import type { PageResolver } from '../../read-model/url.ts';
import { JSON_CONTENT_TYPE, pageNotFound } from '../../errors.ts';
import { sendRepresentation } from '../../http/respond.ts';
import { ReadPageParams } from '../../schemas/params.ts';
import { contentIdentifies, type ApiShared, type Operation } from './operation.ts';
import { parseParams } from './params.ts';

/** The page `url` names (full URL, path or slug), or 404 `agentes_page_not_found`. */
export function findPage(model: LoadedModel, resolvePage: PageResolver, url: string): LoadedPage {
  const page = resolvePage(model, url);
  if (!page) throw pageNotFound();
  return page;
}

export function readPageOperation(shared: ApiShared): Operation {
  return {
    name: 'read_page',
    identifies: contentIdentifies,
    run({ req, res, headers, query, cacheControl }) {
      const { url } = parseParams(ReadPageParams, query);
      const page = findPage(shared.deps.model.current(), shared.resolvePage, url);
      sendRepresentation(req, res, page, cacheControl, JSON_CONTENT_TYPE, headers);
    },
  };
}

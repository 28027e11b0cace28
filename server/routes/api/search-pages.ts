/** GET {base}/search_pages?query=…&city=…&limit=…&cursor=… — ranked pages with excerpts. */
import { chain } from '../../chain.ts';
import { invalidParam } from '../../errors.ts';
import { sendSerialized } from '../../http/respond.ts';
import { LIMITS, SearchPagesParams, type SearchPagesInput } from '../../schemas/params.ts';
import type { SearchResponse } from '../../schemas/resources.ts';
import { searchPages } from '../../search/index.ts';
import { contentIdentifies, type ApiShared, type Operation } from './operation.ts';
import { parseParams } from './params.ts';

/** Decimal digits only: the schema's number coercion would also take `1e1`, ` 5` or `0x10`. */
const DIGITS = /^[0-9]{1,6}$/;

/** The SearchResponse for validated parameters (shared by REST and the MCP tool). */
export function searchPagesResult(shared: ApiShared, input: SearchPagesInput): SearchResponse | Promise<SearchResponse> {
  // The engine of the model current when the request started, even if a new build swaps in meanwhile.
  return searchPages(shared.deps.model.current().search, input);
}

export function searchPagesOperation(shared: ApiShared): Operation {
  return {
    name: 'search_pages',
    identifies: contentIdentifies,
    run({ req, res, headers, query, cacheControl }) {
      const limit = query.get('limit');
      if (typeof limit === 'string' && !DIGITS.test(limit)) {
        throw invalidParam('limit', `Debe ser un número entero entre ${LIMITS.limitMin} y ${LIMITS.limitMax}.`);
      }
      // The engine returns the same frozen object for a repeated request: serialized once.
      return chain(searchPagesResult(shared, parseParams(SearchPagesParams, query)), (response) => {
        sendSerialized(req, res, response, cacheControl, headers);
      });
    },
  };
}

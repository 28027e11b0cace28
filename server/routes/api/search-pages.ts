/** GET {base}/search_pages?query=…&city=…&limit=…&cursor=… — ranked pages with excerpts. */
import { invalidParam } from '../../errors.ts';
import { sendDynamic } from '../../middleware/respond.ts';
import { LIMITS, SearchPagesParams } from '../../schemas/params.ts';
import { searchPages } from '../../search/index.ts';
import { contentIdentifies, type ApiShared, type Operation } from './operation.ts';
import { parseParams } from './params.ts';

/** Decimal digits only: the schema's number coercion would also take `1e1`, ` 5` or `0x10`. */
const DIGITS = /^[0-9]{1,6}$/;

export function searchPagesOperation(shared: ApiShared): Operation {
  return {
    name: 'search_pages',
    identifies: contentIdentifies,
    async run({ req, res, query, cacheControl }) {
      const limit = query.limit;
      if (typeof limit === 'string' && !DIGITS.test(limit)) {
        throw invalidParam('limit', `Debe ser un número entero entre ${LIMITS.limitMin} y ${LIMITS.limitMax}.`);
      }
      const input = parseParams(SearchPagesParams, query);
      // The engine of the model current when the request started, even if a new build swaps in meanwhile.
      const response = await searchPages(shared.deps.model.current().search, input);
      sendDynamic(req, res, JSON.stringify(response), cacheControl);
    },
  };
}

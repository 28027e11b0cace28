/** GET {base}/get_company_info?section=… — company facts, one section or all (contract.md). */
import { sendRepresentation } from '../../middleware/respond.ts';
import { GetCompanyInfoParams } from '../../schemas/params.ts';
import { contentIdentifies, type ApiShared, type Operation } from './operation.ts';
import { parseParams } from './params.ts';

export function getCompanyInfoOperation(shared: ApiShared): Operation {
  return {
    name: 'get_company_info',
    identifies: contentIdentifies,
    run({ req, res, query, cacheControl }) {
      const { section } = parseParams(GetCompanyInfoParams, query);
      sendRepresentation(req, res, shared.deps.model.current().company[section], cacheControl);
    },
  };
}

/** GET {base}/get_company_info?section=… — company facts, one section or all (contract.md). */
import { JSON_CONTENT_TYPE } from '../../errors.ts';
import { sendRepresentation } from '../../http/respond.ts';
import type { Representation } from '../../read-model/types.ts';
import { GetCompanyInfoParams } from '../../schemas/params.ts';
import type { CompanySection } from '../../schemas/resources.ts';
import { contentIdentifies, type ApiShared, type Operation } from './operation.ts';
import { parseParams } from './params.ts';

/** The CompanyInfo body of `section`, serialized at load (shared by REST and the MCP tool). */
export function companyInfoResult(shared: ApiShared, section: CompanySection): Representation {
  return shared.deps.model.current().company[section];
}

export function getCompanyInfoOperation(shared: ApiShared): Operation {
  return {
    name: 'get_company_info',
    identifies: contentIdentifies,
    run({ req, res, headers, query, cacheControl }) {
      const { section } = parseParams(GetCompanyInfoParams, query);
      sendRepresentation(req, res, companyInfoResult(shared, section), cacheControl, JSON_CONTENT_TYPE, headers);
    },
  };
}

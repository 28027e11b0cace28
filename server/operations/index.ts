/**
 * The operations of the content API, in the order every list shows them (OpenAPI paths, MCP
 * tools, the no-route hint). Adding one is adding its file here.
 */
import { getCompanyInfo } from './get-company-info.ts';
import { getQuota } from './get-quota.ts';
import type { Operation } from './operation.ts';
import { readPage } from './read-page.ts';
import { searchPages } from './search-pages.ts';

export const OPERATIONS: readonly Operation[] = [searchPages, readPage, getCompanyInfo, getQuota];

/** `{base_url}/<path>` of an operation of OPERATIONS, by name. */
export function operationPath(name: string): string {
  const op = OPERATIONS.find((o) => o.name === name);
  if (!op) throw new Error(`no operation ${name}`);
  return '/' + op.path;
}

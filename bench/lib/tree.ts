/**
 * The search-facing modules of another checkout (`root`, e.g. a `git archive` of main), loaded
 * by path, so one script can run the same measurement on the code before and after a change.
 * Typed loosely on purpose: the other tree's types are not this one's.
 */
import path from 'node:path';

/* eslint-disable @typescript-eslint/no-explicit-any -- another checkout's modules */
export async function searchModulesOf(root: string): Promise<Record<string, any>> {
  const load = (file: string): Promise<Record<string, any>> => import(path.join(root, file));
  const parts = await Promise.all(['server/config.ts', 'server/read-model/holder.ts', 'server/schemas/params.ts',
    'server/search/index.ts', 'bench/micro/queries.ts', 'bench/lib/stats.ts'].map(load));
  return Object.assign({}, ...parts);
}

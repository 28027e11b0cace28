/**
 * Search for search_pages: `openSearch` on a build's `search/` folder, `searchPages` per request,
 * `close` when the server swaps in another build. The index itself is written by
 * build-scripts/search-index/search-index.ts.
 */
export { openSearch, searchPages, SearchEngine, type PageInfo, type PageInfos, type SearchMemory } from './engine.ts';

/**
 * Where a page matched a term, as bits: the engine's ranking reads them, and the build keeps them
 * in the word answers (word-hits.ts), so both sides must give them the same values.
 */
export const TITLE = 1;
export const HEADING = 2;

/** Resolve hook: `fs` and `node:fs` imported by the conformance suite's packages → fs-with-glob.mjs. */
const WRAPPER = new URL('./fs-with-glob.mjs', import.meta.url).href;
const SUITE = /\/node_modules\/@modelcontextprotocol\/conformance[^/]*\//;

export async function resolve(specifier, context, nextResolve) {
  if ((specifier === 'fs' || specifier === 'node:fs') && context.parentURL && SUITE.test(context.parentURL)) {
    return { url: WRAPPER, shortCircuit: true };
  }
  return nextResolve(specifier, context);
}

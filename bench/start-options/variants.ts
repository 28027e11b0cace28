/**
 * The options `npm start` gives the server (allocator variables and Node flags), and the sets of
 * them the start-options section compares: the start script's own, none, each alone, and each
 * left out.
 */
import type { StartScript } from '../../scripts/lib/start-script.ts';

/** Kept in every variant: it changes stack traces, not memory or speed. */
const ALWAYS = new Set(['--enable-source-maps']);

/** One option of the start script: `NAME=value` (environment) or a Node flag. */
export type StartOption = string;

export interface Variant {
  name: string;
  script: StartScript;
}

/** The options the section varies, in the start script's order. */
export function variedOptions(script: StartScript): StartOption[] {
  return [
    ...Object.entries(script.env).map(([name, value]) => `${name}=${value}`),
    ...script.options.filter((o) => !ALWAYS.has(o)),
  ];
}

function scriptWith(script: StartScript, kept: ReadonlySet<StartOption>): StartScript {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(script.env)) if (kept.has(`${name}=${value}`)) env[name] = value;
  return { env, options: script.options.filter((o) => ALWAYS.has(o) || kept.has(o)) };
}

/** The start script first (every ratio is taken against it), then none, each alone, each left out. */
export function variants(script: StartScript): Variant[] {
  const all = variedOptions(script);
  const out: Variant[] = [
    { name: 'start script', script },
    { name: 'none', script: scriptWith(script, new Set()) },
  ];
  if (all.length > 1) {
    for (const o of all) out.push({ name: `only ${o}`, script: scriptWith(script, new Set([o])) });
    for (const o of all) out.push({ name: `without ${o}`, script: scriptWith(script, new Set(all.filter((x) => x !== o))) });
  }
  return out;
}

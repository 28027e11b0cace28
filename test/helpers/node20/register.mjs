/**
 * `fs.globSync` for Node 20 (Node 22 added it), preloaded with `node --import` by the tests that
 * run the MCP conformance suite: its CLI does `import { globSync } from 'fs'`, a named import that
 * Node 20's `fs` cannot satisfy, so a resolve hook (hooks.mjs) hands that package a wrapper of `fs`
 * that adds it (fs-with-glob.mjs, on the `glob` package). On Node 22 nothing is changed.
 */
import fs from 'node:fs';
import { register } from 'node:module';
import { globSync } from './fs-with-glob.mjs';

if (typeof fs.globSync !== 'function') {
  fs.globSync = globSync;
  register('./hooks.mjs', import.meta.url);
}

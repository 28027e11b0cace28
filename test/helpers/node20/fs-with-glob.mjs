/** `node:fs` plus Node 22's `globSync`, implemented by the `glob` package. */
import fs from 'node:fs';
import { globSync as globPackageSync } from 'glob';

export * from 'node:fs';
export default fs;

export function globSync(pattern, options = {}) {
  return globPackageSync(pattern, options);
}

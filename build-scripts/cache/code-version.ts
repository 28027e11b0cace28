/**
 * The build's code as one short hash: its own sources, the file formats it writes, the locked
 * dependency versions and the Node.js version (zlib and brotli output come with the runtime).
 * What a build keeps for the next one is valid only for the same code, so it is filed under this.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../formats/settings.ts';

const SOURCE_DIRS = ['build-scripts', 'formats'];
const FILES = ['package-lock.json'];

export function codeVersion(root = ROOT): string {
  const hash = createHash('sha256').update(`node ${process.version}\n`);
  const files = SOURCE_DIRS.flatMap((dir) => fs.readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/')));
  for (const file of [...files.sort(), ...FILES]) {
    hash.update(`${file}\n`).update(fs.readFileSync(path.join(root, file))).update('\n');
  }
  return hash.digest('hex').slice(0, 16);
}

/** Build ids sort by creation time (`20250101T120000123Z-1a2b3c`), and the random tail keeps two builds in one millisecond apart. */
import { randomBytes } from 'node:crypto';

export function newBuildId(now = new Date()): string {
  return `${now.toISOString().replace(/[-:.]/g, '')}-${randomBytes(3).toString('hex')}`;
}

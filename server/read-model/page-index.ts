/**
 * Reads a build's page index (`pages.ndjson`, server/schemas/read-model.ts) line by line through
 * one descriptor: a start or a publish opens this file, not every page's, and holds one line at a
 * time rather than the whole file as one string.
 */
import fs from 'node:fs';
import readline from 'node:readline';
import { PageIndexEntrySchema, type PageIndexEntry } from '../schemas/read-model.ts';

/** Every entry, in the file's order; throws naming the line at fault. */
export async function readPageIndex(file: string): Promise<PageIndexEntry[]> {
  const stream = fs.createReadStream(file, { encoding: 'utf8' });
  // The stream's open error (ENOENT, EMFILE) reaches the caller through the iterator.
  const lines = readline.createInterface({ input: stream, crlfDelay: Infinity });
  const out: PageIndexEntry[] = [];
  let n = 0;
  try {
    for await (const line of lines) {
      n++;
      if (line === '') continue;
      let raw: unknown;
      try {
        raw = JSON.parse(line);
      } catch (err) {
        throw new Error(`${file} line ${n}: not JSON (${(err as Error).message})`);
      }
      const parsed = PageIndexEntrySchema.safeParse(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        throw new Error(`read model pages.ndjson line ${n}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
      }
      out.push(parsed.data);
    }
  } finally {
    lines.close();
    stream.destroy();
  }
  return out;
}

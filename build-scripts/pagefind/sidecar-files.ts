/**
 * Writes the sidecar (server/search/sidecar.ts): search.json and texts.txt, a page at a time —
 * the texts of a large site are hundreds of MB, and one string of them all would double that.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { SIDECAR_FILE, SIDECAR_FORMAT, TEXTS_FILE, type Sidecar } from '../../server/search/sidecar.ts';

export interface SidecarInput {
  site_url: string;
  /** In the order they are stored (the caller sorts them); read once, a page at a time. */
  pages: Iterable<{ id: string; path: string; text: string }>;
  vocabulary: Sidecar['vocabulary'];
}

/** Appends strings to a file in chunks of about a megabyte. */
async function chunkedWriter(file: string) {
  const out = await fs.open(file, 'w');
  let chunk = '';
  return {
    async add(s: string) {
      chunk += s;
      if (chunk.length >= 1 << 20) { await out.write(chunk); chunk = ''; }
    },
    async close() {
      try { if (chunk !== '') await out.write(chunk); } finally { await out.close(); }
    },
  };
}

export async function writeSidecarFiles(outDir: string, input: SidecarInput): Promise<void> {
  const texts = await chunkedWriter(path.join(outDir, TEXTS_FILE));
  const json = await chunkedWriter(path.join(outDir, SIDECAR_FILE));
  try {
    await json.add(`${JSON.stringify({ format: SIDECAR_FORMAT, site_url: input.site_url })
      .slice(0, -1)},"pages":[`);
    let first = true;
    for (const page of input.pages) {
      await texts.add(`${page.text}\n`);
      await json.add((first ? '' : ',') + JSON.stringify({ id: page.id, path: page.path, bytes: Buffer.byteLength(page.text) }));
      first = false;
    }
    await json.add(`],"vocabulary":${JSON.stringify(input.vocabulary)}}`);
  } finally {
    await Promise.all([texts.close(), json.close()]);
  }
}

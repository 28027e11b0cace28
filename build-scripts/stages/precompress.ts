/**
 * Precompress: gzip and brotli siblings (`x.html.gz`, `x.html.br`) of the static site's text
 * files of 1 KB or more, which sirv serves as-is (its `gzip`/`brotli` options) instead of
 * compressing per request. Files whose siblings are already newer are skipped, and a sibling
 * that would not be smaller is not written.
 *
 * Siblings are written to a temporary name and renamed into place, never rewritten in place: the
 * site stage hard-links them into the build instead of copying them (site.ts), so a published
 * build's sibling must never change when a later build compresses the file again.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { brotliWindowBits } from '../../server/middleware/compression.ts';
import type { BuildContext } from '../context.ts';
import { forPage } from '../errors.ts';
import { listFiles } from '../files.ts';

export const STAGE = 'precompress';
export const MIN_BYTES = 1024;
export const EXTENSIONS = ['.html', '.css', '.js', '.mjs', '.json', '.xml', '.txt', '.svg', '.md', '.webmanifest'];

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

const ENCODERS: Record<'.gz' | '.br', (data: Buffer) => Promise<Buffer>> = {
  '.gz': (data) => gzip(data, { level: 9 }),
  // Quality 9 with the window sized to the file: measured on the sample site's 415 files, 179 ms
  // of CPU for 1,825 KB, where quality 10 took 3,004 ms for 1,676 KB (11: 6,823 ms, 1,641 KB).
  // The files are redone on every build, and at 10,000 pages quality 10 alone (~64 s of CPU)
  // would exceed the whole read-model budget (BENCHMARKS.md) for 9 % smaller files.
  '.br': (data) => brotli(data, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: 9,
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      [zlib.constants.BROTLI_PARAM_LGWIN]: brotliWindowBits(data.length),
    },
  }),
};

async function mtime(file: string): Promise<number> {
  return fs.stat(file).then((s) => s.mtimeMs, () => -1);
}

async function compressOne(file: string, siblings: string[]): Promise<number> {
  const data = await fs.readFile(file);
  const source = await mtime(file);
  let written = 0;
  for (const [ext, encode] of Object.entries(ENCODERS)) {
    const target = file + ext;
    if ((await mtime(target)) >= source) {
      siblings.push(target);
      continue;
    }
    const out = await encode(data);
    if (out.length < data.length) {
      const temp = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.tmp`);
      await fs.writeFile(temp, out);
      await fs.rename(temp, target);
      siblings.push(target);
      written++;
    } else {
      await fs.rm(target, { force: true });
    }
  }
  return written;
}

export interface PrecompressResult {
  files: number;
  written: number;
  /** Every sibling now in the site, written by this build or an earlier one (always by rename). */
  siblings: Set<string>;
}

export async function precompress(ctx: BuildContext): Promise<PrecompressResult> {
  const candidates: string[] = [];
  for (const file of await listFiles(ctx.distDir)) {
    if (!EXTENSIONS.some((ext) => file.endsWith(ext))) continue;
    if ((await fs.stat(file)).size >= MIN_BYTES) candidates.push(file);
  }
  let next = 0;
  let done = 0;
  let written = 0;
  const siblings: string[] = [];
  // zlib runs on libuv's thread pool: keep it busy without queueing every file at once.
  const workers = Array.from({ length: Math.max(2, os.availableParallelism()) }, async () => {
    for (let i = next++; i < candidates.length; i = next++) {
      const file = candidates[i]!;
      const n = await forPage(STAGE, file, () => compressOne(file, siblings));
      written += n;
      ctx.progress(++done, candidates.length);
    }
  });
  await Promise.all(workers);
  return { files: candidates.length, written, siblings: new Set(siblings) };
}

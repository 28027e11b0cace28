/**
 * Texts kept on disk between the stage that makes them and the stages that use them: the crawl
 * converts pages in the order its walk visits them, while the pages and search stages take them
 * in path order, later. Held in memory, a site's Markdown grows with the site; one
 * file appended to, read back by position, keeps memory flat and needs one descriptor. What was
 * just written is still in the page cache, so reading it back costs a copy, not the disk.
 */
import fs from 'node:fs';
import { readAt } from '../formats/read-model/read-at.ts';

/** Where one text lies in the spill file. */
export interface SpillRef { offset: number; length: number }

export interface TextSpill {
  put(text: string): SpillRef;
  get(ref: SpillRef): string;
  /** Closes and deletes the file. */
  remove(): void;
}

export function createTextSpill(file: string): TextSpill {
  const fd = fs.openSync(file, 'w+');
  let end = 0;
  let open = true;
  return {
    put(text) {
      const bytes = Buffer.from(text, 'utf8');
      fs.writeSync(fd, bytes, 0, bytes.length, end);
      const ref = { offset: end, length: bytes.length };
      end += bytes.length;
      return ref;
    },
    get({ offset, length }) {
      const bytes = readAt(fd, offset, length);
      if (bytes.length !== length) throw new Error(`${file}: ends before byte ${offset + length}`);
      return bytes.toString('utf8');
    },
    remove() {
      if (!open) return;
      open = false;
      fs.closeSync(fd);
      fs.rmSync(file, { force: true });
    },
  };
}

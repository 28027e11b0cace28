/**
 * Positioned synchronous reads of files held open (page pack checks, search texts, the build's
 * spills): `readSync` may return fewer bytes than asked, so each read loops until it has them all.
 */
import fs from 'node:fs';

/** Reads `length` bytes of `fd` from `position` into the start of `buf`; returns how many there were before the file ended. */
export function readInto(fd: number, buf: Buffer, length: number, position: number): number {
  let done = 0;
  while (done < length) {
    const n = fs.readSync(fd, buf, done, length - done, position + done);
    if (n === 0) break;
    done += n;
  }
  return done;
}

/** `length` bytes of `fd` from `position`, fewer where the file ends first. */
export function readAt(fd: number, position: number, length: number): Buffer {
  const bytes = Buffer.allocUnsafe(length);
  return bytes.subarray(0, readInto(fd, bytes, length, position));
}

/**
 * Positioned synchronous reads and writes of files held open (page pack checks, search texts, the
 * build's spills and files made in parts): `readSync` and `writeSync` may move fewer bytes than
 * asked, so each call loops until it has moved them all.
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

/** Writes all of `bytes` into `fd` from `position`. */
export function writeAt(fd: number, bytes: Uint8Array, position: number): void {
  for (let done = 0; done < bytes.length;) done += fs.writeSync(fd, bytes, done, bytes.length - done, position + done);
}

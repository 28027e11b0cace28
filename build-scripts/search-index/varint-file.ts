/** Unsigned LEB128 varints appended to a growing buffer in memory, or to a file a megabyte at a time (postings.bin). */
import { createHash } from 'node:crypto';
import { writeAt } from '../../formats/read-model/read-at.ts';

export class VarintBuffer {
  buf = Buffer.allocUnsafe(1 << 16);
  /** Bytes used. */
  length = 0;

  protected room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(2 * this.buf.length, this.length + n));
    this.buf.copy(bigger, 0, 0, this.length);
    this.buf = bigger;
  }

  uint(value: number): void {
    if (!Number.isSafeInteger(value) || value < 0) throw new Error(`postings: ${value} is not an unsigned integer`);
    this.room(8);
    let v = value;
    while (v >= 0x80) { this.buf[this.length++] = (v % 0x80) | 0x80; v = Math.floor(v / 0x80); }
    this.buf[this.length++] = v;
  }

  bytes(data: Uint8Array): void {
    this.room(data.length);
    this.buf.set(data, this.length);
    this.length += data.length;
  }

  clear(): void {
    this.length = 0;
  }

  get data(): Buffer {
    return this.buf.subarray(0, this.length);
  }
}

/**
 * A VarintBuffer flushed to `fd` past a megabyte, from `start` (bytes already there) on; `position`
 * counts every byte written, `digest` hashes them as they are written.
 */
export class VarintFile extends VarintBuffer {
  private flushed: number;
  readonly digest = createHash('sha256');
  constructor(private readonly fd: number, start = 0) {
    super();
    this.flushed = start;
    this.buf = Buffer.allocUnsafe(1 << 20);
  }

  protected override room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    this.flush();
    if (n > this.buf.length) this.buf = Buffer.allocUnsafe(n);
  }

  flush(): void {
    this.digest.update(this.buf.subarray(0, this.length));
    writeAt(this.fd, this.buf.subarray(0, this.length), this.flushed);
    this.flushed += this.length;
    this.length = 0;
  }

  get position(): number {
    return this.flushed + this.length;
  }
}

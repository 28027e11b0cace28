/**
 * Unsigned LEB128 varints read from a buffer (postings.ts); a small class V8 inlines in
 * hot loops, always over a Buffer so its reads see one kind of array.
 */
export class Varints {
  pos: number;
  constructor(public bytes: Buffer, pos = 0) {
    this.pos = pos;
  }

  uint(): number {
    const bytes = this.bytes;
    let b = bytes[this.pos++]!;
    if (b < 0x80) return b;
    let value = b & 0x7f;
    let scale = 0x80;
    do {
      b = bytes[this.pos++]!;
      value += (b & 0x7f) * scale;
      scale *= 0x80;
    } while (b >= 0x80);
    return value;
  }

  /** A signed number written zigzag (0, −1, 1, −2, …). */
  int(): number {
    const z = this.uint();
    return z % 2 === 0 ? z / 2 : -(z + 1) / 2;
  }

  /** Throws unless the reads ended exactly at `end` (a record cut short reads undefined as 0). */
  endsAt(end: number, what: string): void {
    if (this.pos !== end) throw new Error(`postings: ${what} ${this.pos < end ? 'has trailing bytes' : 'ends early'}`);
  }
}

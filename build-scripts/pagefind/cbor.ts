/**
 * The little of CBOR (RFC 8949) that Pagefind's index files use: unsigned and negative integers,
 * text strings and definite-length arrays, always in the shortest form (as minicbor, Pagefind's
 * encoder, writes them). The reader walks items in place so the merge (merge.ts) can copy page
 * lists as raw bytes instead of building millions of small arrays.
 */

const UINT = 0;
const NINT = 1;
const TEXT = 3;
const ARRAY = 4;

const decoder = new TextDecoder('utf-8', { fatal: true });

export class CborReader {
  pos = 0;
  constructor(readonly bytes: Uint8Array) {}

  get done(): boolean {
    return this.pos >= this.bytes.length;
  }

  /** Major type and argument of the next item's head; advances past the head only. */
  private head(): { major: number; value: number } {
    const b = this.bytes;
    if (this.pos >= b.length) throw new Error('CBOR: unexpected end of data');
    const first = b[this.pos++]!;
    const major = first >> 5;
    const info = first & 31;
    let value: number;
    if (info < 24) value = info;
    else if (info === 24) value = b[this.pos++]!;
    else if (info === 25) { value = (b[this.pos]! << 8) | b[this.pos + 1]!; this.pos += 2; }
    else if (info === 26) { value = ((b[this.pos]! << 24) >>> 0) + (b[this.pos + 1]! << 16) + (b[this.pos + 2]! << 8) + b[this.pos + 3]!; this.pos += 4; }
    else if (info === 27) {
      value = 0;
      for (let k = 0; k < 8; k++) value = value * 256 + b[this.pos + k]!;
      if (!Number.isSafeInteger(value)) throw new Error('CBOR: integer beyond 2^53');
      this.pos += 8;
    } else throw new Error(`CBOR: unsupported head 0x${first.toString(16)} at ${this.pos - 1}`);
    if (this.pos > b.length) throw new Error('CBOR: unexpected end of data');
    return { major, value };
  }

  private expect(major: number, what: string): number {
    const at = this.pos;
    const h = this.head();
    if (h.major !== major) throw new Error(`CBOR: expected ${what} at ${at}, found major type ${h.major}`);
    return h.value;
  }

  array(): number {
    return this.expect(ARRAY, 'an array');
  }

  uint(): number {
    return this.expect(UINT, 'an unsigned integer');
  }

  int(): number {
    const at = this.pos;
    const h = this.head();
    if (h.major === UINT) return h.value;
    if (h.major === NINT) return -1 - h.value;
    throw new Error(`CBOR: expected an integer at ${at}, found major type ${h.major}`);
  }

  text(): string {
    const n = this.expect(TEXT, 'a text string');
    const end = this.pos + n;
    if (end > this.bytes.length) throw new Error('CBOR: unexpected end of data');
    const s = decoder.decode(this.bytes.subarray(this.pos, end));
    this.pos = end;
    return s;
  }

  /** Skips one whole item (of the types above). */
  skip(): void {
    const h = this.head();
    if (h.major === TEXT) this.pos += h.value;
    else if (h.major === ARRAY) for (let i = 0; i < h.value; i++) this.skip();
    else if (h.major !== UINT && h.major !== NINT) throw new Error(`CBOR: unsupported major type ${h.major}`);
  }

  /** Any item as plain values: numbers, strings, nested arrays. */
  value(): unknown {
    const h = this.head();
    switch (h.major) {
      case UINT: return h.value;
      case NINT: return -1 - h.value;
      case TEXT: {
        const s = decoder.decode(this.bytes.subarray(this.pos, this.pos + h.value));
        this.pos += h.value;
        return s;
      }
      case ARRAY: return Array.from({ length: h.value }, () => this.value());
      default: throw new Error(`CBOR: unsupported major type ${h.major}`);
    }
  }
}

/** Appends CBOR items to growing chunks; `bytes()` joins them. */
export class CborWriter {
  private parts: Uint8Array[] = [];
  private buf = new Uint8Array(64 * 1024);
  private len = 0;

  private room(n: number): void {
    if (this.len + n <= this.buf.length) return;
    this.flush();
    if (n > this.buf.length) this.buf = new Uint8Array(n);
  }

  private flush(): void {
    if (this.len === 0) return;
    this.parts.push(this.buf.slice(0, this.len));
    this.len = 0;
  }

  private head(major: number, value: number): void {
    if (!Number.isSafeInteger(value) || value < 0) throw new Error(`CBOR: cannot encode ${value}`);
    this.room(9);
    const b = this.buf;
    const m = major << 5;
    if (value < 24) b[this.len++] = m | value;
    else if (value < 0x100) { b[this.len++] = m | 24; b[this.len++] = value; }
    else if (value < 0x10000) { b[this.len++] = m | 25; b[this.len++] = value >> 8; b[this.len++] = value & 0xff; }
    else if (value < 0x100000000) {
      b[this.len++] = m | 26;
      b[this.len++] = value >>> 24; b[this.len++] = (value >>> 16) & 0xff; b[this.len++] = (value >>> 8) & 0xff; b[this.len++] = value & 0xff;
    } else {
      b[this.len++] = m | 27;
      let v = value;
      for (let k = 7; k >= 0; k--) { b[this.len + k] = v % 256; v = Math.floor(v / 256); }
      this.len += 8;
    }
  }

  array(n: number): this {
    this.head(ARRAY, n);
    return this;
  }

  int(v: number): this {
    if (v >= 0) this.head(UINT, v);
    else this.head(NINT, -1 - v);
    return this;
  }

  text(s: string): this {
    const data = Buffer.from(s, 'utf8');
    this.head(TEXT, data.length);
    return this.raw(data);
  }

  /** Bytes that already are one or more encoded items. */
  raw(data: Uint8Array): this {
    this.room(data.length);
    this.buf.set(data, this.len);
    this.len += data.length;
    return this;
  }

  /** Plain values (numbers, strings, nested arrays), as `CborReader.value` returns them. */
  value(v: unknown): this {
    if (typeof v === 'number') return this.int(v);
    if (typeof v === 'string') return this.text(v);
    if (Array.isArray(v)) {
      this.array(v.length);
      for (const item of v) this.value(item);
      return this;
    }
    throw new Error(`CBOR: cannot encode ${typeof v}`);
  }

  bytes(): Buffer {
    this.flush();
    return Buffer.concat(this.parts);
  }
}

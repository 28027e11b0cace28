/**
 * The binary files a server loads whole when it opens a build (the page index, the search
 * index): a header naming the file's kind and format, a SHA-256 of the rest, and sections laid
 * out 8-byte aligned, so typed arrays view them where they lie — no parse, no object per entry.
 * The build checked the content when it wrote it; a server checks kind, format and digest once,
 * so a damaged file or one of another format fails the load with a clear message.
 *
 *   0   magic, 8 ASCII bytes        8  format (u32)       12  section count (u32)
 *   16  SHA-256 of every byte from 48 on
 *   48  each section's length (u32), padded to 8 bytes; then the sections, each padded to 8 bytes
 * Numbers are little-endian.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { z } from 'zod';

const HEADER = 48;
const pad8 = (n: number) => (n + 7) & ~7;

export interface BinaryKind {
  /** Eight ASCII characters that open every file of this kind. */
  magic: string;
  format: number;
}

/** Writes `sections` as one file of `kind`. */
export function writeBinaryFile(file: string, kind: BinaryKind, sections: readonly Uint8Array[]): void {
  const table = Buffer.alloc(pad8(4 * sections.length));
  sections.forEach((s, i) => table.writeUInt32LE(s.length, 4 * i));
  const zeros = Buffer.alloc(8);
  const parts: Uint8Array[] = [table];
  for (const s of sections) parts.push(s, zeros.subarray(0, pad8(s.length) - s.length));
  const digest = createHash('sha256');
  for (const p of parts) digest.update(p);
  const header = Buffer.alloc(HEADER);
  header.write(kind.magic, 0, 8, 'latin1');
  header.writeUInt32LE(kind.format, 8);
  header.writeUInt32LE(sections.length, 12);
  digest.digest().copy(header, 16);
  const fd = fs.openSync(file, 'w');
  try {
    for (const p of [header, ...parts]) fs.writeSync(fd, p);
  } finally {
    fs.closeSync(fd);
  }
}

/** The sections of a file read whole, with typed views on them. */
export class BinarySections {
  constructor(private readonly parts: readonly Buffer[], private readonly name: string) {}

  get count(): number {
    return this.parts.length;
  }

  bytes(i: number): Buffer {
    const part = this.parts[i];
    if (part === undefined) throw new Error(`${this.name}: no section ${i}`);
    return part;
  }

  u32(i: number, count?: number): Uint32Array {
    const b = this.sized(i, 4, count);
    return new Uint32Array(b.buffer, b.byteOffset, b.length / 4);
  }

  i32(i: number, count?: number): Int32Array {
    const b = this.sized(i, 4, count);
    return new Int32Array(b.buffer, b.byteOffset, b.length / 4);
  }

  f64(i: number, count?: number): Float64Array {
    const b = this.sized(i, 8, count);
    return new Float64Array(b.buffer, b.byteOffset, b.length / 8);
  }

  /** Section `i`, a small JSON head, checked with `schema`; throws naming the field at fault. */
  head<T extends z.ZodType>(i: number, schema: T): z.infer<T> {
    let raw: unknown;
    try {
      raw = JSON.parse(this.bytes(i).toString('utf8'));
    } catch (err) {
      throw new Error(`${this.name}: section ${i} is not JSON (${(err as Error).message})`);
    }
    const parsed = schema.safeParse(raw);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0]!;
    throw new Error(`${this.name}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }

  /** What errors call the file. */
  get label(): string {
    return this.name;
  }

  /** Throws unless section `i` holds `count` items of `size` bytes (any whole number of them when `count` is not given). */
  private sized(i: number, size: number, count: number | undefined): Buffer {
    const b = this.bytes(i);
    if (b.length % size !== 0 || (count !== undefined && b.length !== count * size)) {
      throw new Error(`${this.name}: section ${i} holds ${b.length} bytes, not ${count ?? 'a whole number of'} items of ${size}`);
    }
    return b;
  }
}

/** Reads a whole file of `kind` and checks its header and digest; throws naming the file and what is wrong. */
export async function readBinaryFile(file: string, kind: BinaryKind): Promise<BinarySections> {
  const name = path.basename(file);
  if (os.endianness() !== 'LE') throw new Error(`${name}: this server reads little-endian files only`);
  let data = await fsp.readFile(file);
  // Typed views need their section's offset aligned in the underlying memory.
  if (data.byteOffset % 8 !== 0) data = Buffer.from(new Uint8Array(data));
  if (data.length < HEADER || data.toString('latin1', 0, 8) !== kind.magic) throw new Error(`read model ${name}: not a ${kind.magic.trim()} file`);
  const format = data.readUInt32LE(8);
  if (format !== kind.format) {
    throw new Error(`read model ${name}: format ${format}, this server reads format ${kind.format}: rebuild the read model (npm run build)`);
  }
  const digest = createHash('sha256').update(data.subarray(HEADER)).digest();
  if (!digest.equals(data.subarray(16, HEADER))) throw new Error(`read model ${name}: damaged (its SHA-256 does not match its content)`);
  const count = data.readUInt32LE(12);
  const parts: Buffer[] = [];
  let at = HEADER + pad8(4 * count);
  for (let i = 0; i < count; i++) {
    const length = data.readUInt32LE(HEADER + 4 * i);
    if (at + length > data.length) throw new Error(`read model ${name}: section ${i} runs past the end of the file`);
    parts.push(data.subarray(at, at + length));
    at += pad8(length);
  }
  if (at !== data.length) throw new Error(`read model ${name}: ${data.length - at} bytes after the last section`);
  return new BinarySections(parts, `read model ${name}`);
}

/** Strings as one UTF-8 heap and where each ends: string i is `heap[ends[i] .. ends[i + 1])`. */
export function encodeStrings(strings: Iterable<string>): { ends: Uint8Array; heap: Uint8Array } {
  const ends: number[] = [0];
  const chunks: Buffer[] = [];
  let at = 0;
  for (const s of strings) {
    const b = Buffer.from(s, 'utf8');
    chunks.push(b);
    ends.push(at += b.length);
  }
  const u32 = Uint32Array.from(ends);
  return { ends: new Uint8Array(u32.buffer), heap: Buffer.concat(chunks) };
}

/** A column of strings written by `encodeStrings`, decoded one at a time when asked for. */
export class StringColumn {
  constructor(readonly ends: Uint32Array, readonly heap: Buffer, name: string) {
    for (let i = 1; i < ends.length; i++) {
      if (ends[i]! < ends[i - 1]!) throw new Error(`${name}: string ${i - 1} ends before it starts`);
    }
    if (ends[0] !== 0 || ends[ends.length - 1] !== heap.length) throw new Error(`${name}: the strings do not fill their heap`);
  }

  get size(): number {
    return this.ends.length - 1;
  }

  get(i: number): string {
    return this.heap.toString('utf8', this.ends[i], this.ends[i + 1]);
  }

  /**
   * String i against `key` as JS compares strings (`<`), without decoding it while both are
   * ASCII (a binary search compares a dozen strings a lookup).
   */
  compare(i: number, key: string): number {
    const from = this.ends[i]!;
    const to = this.ends[i + 1]!;
    const n = Math.min(to - from, key.length);
    for (let k = 0; k < n; k++) {
      const b = this.heap[from + k]!;
      const c = key.charCodeAt(k);
      if (b > 0x7f || c > 0x7f) return compareStrings(this.get(i), key);
      if (b !== c) return b - c;
    }
    if (to - from > n) return this.heap[from + n]! > 0x7f ? compareStrings(this.get(i), key) : 1;
    return n - key.length;
  }
}

const compareStrings = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

import { randomBytes } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CursorCodec, MAX_OFFSET } from '../../../server/search/cursor.ts';

const codec = new CursorCodec(randomBytes(32));
const scope = 'todas\u0000fontanero';

test('a cursor is 12 URL-safe characters and round-trips its offset', () => {
  for (const offset of [1, 2, 8, 25, 399, 4096, MAX_OFFSET]) {
    const c = codec.encode(offset, scope);
    assert.match(c, /^[A-Za-z0-9_-]{12}$/);
    assert.is(codec.decode(c, scope), offset);
  }
});

test('a cursor only opens its own scope, on its own key', () => {
  const c = codec.encode(8, scope);
  assert.is(codec.decode(c, 'madrid\u0000fontanero'), null);
  assert.is(codec.decode(c, 'todas\u0000fontaneros'), null);
  assert.is(new CursorCodec(randomBytes(32)).decode(c, scope), null);
});

test('any change to a cursor is detected', () => {
  const c = codec.encode(16, scope);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  for (let i = 0; i < c.length; i++) {
    for (const ch of alphabet) {
      if (ch === c[i]) continue;
      assert.is(codec.decode(c.slice(0, i) + ch + c.slice(i + 1), scope), null, `${i}:${ch}`);
    }
  }
});

test('malformed cursors decode to null, never throw', () => {
  for (const bad of ['', 'x', 'AAAAAAAAAAA', 'AAAAAAAAAAAAA', 'AAAAAAAAAAA=', 'AAAA+AAAAAAA', 'AAAA/AAAAAAA', 'ñññññññññññ', '            ']) {
    assert.is(codec.decode(bad, scope), null, JSON.stringify(bad));
  }
  // Offset 0 is never issued (the first page needs no cursor).
  assert.is(codec.decode('AAAAAAAAAAAA', scope), null);
});

test('offsets outside 1..65535 are refused at encoding', () => {
  assert.throws(() => codec.encode(0, scope), RangeError);
  assert.throws(() => codec.encode(MAX_OFFSET + 1, scope), RangeError);
  assert.throws(() => codec.encode(1.5, scope), RangeError);
});

test.run();

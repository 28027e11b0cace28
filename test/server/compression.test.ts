import zlib from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { COMPRESS_MIN_BYTES } from '../../formats/brotli-settings.ts';
import { makeDynamicRepresentation, makeLazyRepresentation, makeRepresentation, negotiateEncoding, strongEtag } from '../../server/compression.ts';
import type { Representation } from '../../server/read-model/types.ts';
import { ifNoneMatchHits } from '../../server/http/conditional.ts';

test('Accept-Encoding negotiation honours q-values, refusals and *', () => {
  assert.is(negotiateEncoding(undefined), null);
  assert.is(negotiateEncoding(''), null);
  assert.is(negotiateEncoding('gzip, deflate, br'), 'br');
  assert.is(negotiateEncoding('gzip'), 'gzip');
  assert.is(negotiateEncoding('br;q=0, gzip'), 'gzip');
  assert.is(negotiateEncoding('br;q=0.5, gzip;q=0.8'), 'gzip');
  assert.is(negotiateEncoding('GZIP;Q=1'), 'gzip');
  assert.is(negotiateEncoding('identity'), null);
  assert.is(negotiateEncoding('*'), 'br');
  assert.is(negotiateEncoding('*;q=0'), null);
  assert.is(negotiateEncoding('gzip;q=0, br;q=0'), null);
  assert.is(negotiateEncoding('deflate'), null);
  assert.is(negotiateEncoding('gzip, deflate, br'), 'br', 'the remembered answer is the same');
});

test('large bodies get precompressed variants with their own strong ETags; small ones none', async () => {
  const big = Buffer.from(JSON.stringify({ markdown: 'Fontanería en Madrid. '.repeat(200) }));
  const rep = await makeRepresentation(big);
  assert.match(rep.etag, /^"[A-Za-z0-9_-]{22}"$/);
  assert.is(rep.br!.etag, rep.etag.slice(0, -1) + '-br"');
  assert.is(rep.gzip!.etag, rep.etag.slice(0, -1) + '-gzip"');
  assert.equal(zlib.brotliDecompressSync(rep.br!.body), big);
  assert.equal(zlib.gunzipSync(rep.gzip!.body), big);
  assert.ok(rep.br!.body.length < big.length / 5);
  const small = await makeRepresentation(Buffer.alloc(COMPRESS_MIN_BYTES - 1, 'a'));
  assert.is(small.br, null);
  assert.is(small.gzip, null);
  assert.is(strongEtag(big), rep.etag, 'the ETag depends on the body only');
  const dyn = makeDynamicRepresentation(big, 'gzip');
  assert.equal(zlib.gunzipSync(dyn.gzip!.body), big);
  assert.is(dyn.br, null);
});

test('every body a representation keeps owns exactly its bytes (no view into a larger chunk or pool)', async () => {
  // Small enough for Buffer.from's pool; compressed output lands in zlib's output chunk.
  const body = () => Buffer.from(JSON.stringify({ markdown: `Fontanería en Madrid ${Math.random()}. `.repeat(60) }));
  const owns = (buf: Buffer, what: string) =>
    assert.ok(buf.byteOffset === 0 && buf.buffer.byteLength === buf.length, `${what}: ${buf.length} bytes in an ArrayBuffer of ${buf.buffer.byteLength}`);
  const all = (rep: Representation, what: string) => {
    owns(rep.body, `${what} identity`);
    for (const enc of ['gzip', 'br'] as const) if (rep[enc]) owns(rep[enc].body, `${what} ${enc}`);
  };
  all(await makeRepresentation(body()), 'stored');
  all(await makeRepresentation(Buffer.from('{"a":1}')), 'small');
  const lazy = makeLazyRepresentation(body());
  lazy.encode!('gzip');
  lazy.encode!('br');
  assert.ok(lazy.gzip && lazy.br, 'both made');
  all(lazy, 'lazy');
  for (const enc of ['gzip', 'br', null] as const) all(makeDynamicRepresentation(body(), enc), `per request, ${enc}`);
});

test('If-None-Match: one tag, lists, weak prefix, *, any encoding of the same body', async () => {
  const rep = await makeRepresentation(Buffer.from('x'.repeat(2000)));
  assert.not.ok(ifNoneMatchHits(undefined, rep));
  assert.ok(ifNoneMatchHits(rep.etag, rep));
  assert.ok(ifNoneMatchHits(`"nope", ${rep.etag}`, rep));
  assert.ok(ifNoneMatchHits(`W/${rep.etag}`, rep));
  assert.ok(ifNoneMatchHits('*', rep));
  assert.ok(ifNoneMatchHits(rep.gzip!.etag, rep));
  assert.ok(ifNoneMatchHits(rep.br!.etag, rep));
  assert.not.ok(ifNoneMatchHits('"nope"', rep));
  assert.not.ok(ifNoneMatchHits(rep.etag.slice(1, -1), rep), 'an unquoted tag is not the tag');
});

test.run();

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { OAuthError } from '../../../server/errors.ts';
import { sendOAuthError } from '../../../server/http/oauth-error-response.ts';
import { parseForm, readForm, readJson } from '../../../server/http/body.ts';
import { LINGER_MS } from '../../../server/http/lingering-close.ts';

const f = (s: string | Buffer, repeatable: string[] = []) => Object.fromEntries(parseForm(Buffer.from(s), repeatable));

function fails(fn: () => unknown, description: string) {
  try {
    fn();
  } catch (err) {
    assert.instance(err, OAuthError);
    assert.is((err as OAuthError).error, 'invalid_request');
    assert.is((err as OAuthError).description, description);
    return;
  }
  assert.unreachable('parsed');
}

test('parseForm: application/x-www-form-urlencoded decoding', () => {
  assert.equal(f('a=1&b=x+y%2Bz&c=%C3%B1'), { a: ['1'], b: ['x y+z'], c: ['ñ'] });
  assert.equal(f(''), {});
  assert.equal(f('a=&b&&c=1'), { c: ['1'] }, 'empty values are omitted (RFC 6749 §3.1)');
  assert.equal(f('a=b=c'), { a: ['b=c'] });
  assert.equal(f('resource=x&resource=y', ['resource']), { resource: ['x', 'y'] });
});

test('parseForm: repeated parameters, bad escapes and invalid UTF-8 are invalid_request', () => {
  fails(() => f('a=1&a=2'), 'Parameter a must not be repeated.');
  fails(() => f('a=%'), 'Parameter a is not correctly form-encoded (bad %-escape or UTF-8).');
  fails(() => f('%zz=1'), 'Parameter name is not correctly form-encoded (bad %-escape or UTF-8).');
  fails(() => f('a=%C3'), 'Parameter a is not correctly form-encoded (bad %-escape or UTF-8).');
  fails(() => f(Buffer.from([0x61, 0x3d, 0xc3])), 'The request body is not valid UTF-8.');
});

/** A server whose only route reads the body the way the OAuth endpoints do and echoes it. */
async function withEcho(fn: (url: string) => Promise<void>) {
  const log = { info() {}, error() {} };
  const server = http.createServer((req, res) => {
    const read = req.url === '/json' ? readJson(req) : readForm(req).then((m) => Object.fromEntries(m));
    read.then((body) => { res.setHeader('content-type', 'application/json'); res.end(JSON.stringify(body)); }, (err) => sendOAuthError(res, err, log));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    await fn(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
}

test('readForm/readJson over HTTP: content types, limit, and the error response', () => withEcho(async (url) => {
  const post = (path: string, type: string | null, body: BodyInit) => fetch(url + path, { method: 'POST', headers: type ? { 'content-type': type } : {}, body });
  assert.equal(await (await post('/form', 'Application/X-WWW-Form-Urlencoded; charset="utf-8"', 'a=1')).json(), { a: ['1'] });
  assert.equal(await (await post('/json', 'application/json; charset=utf-8', '{"a":1}')).json(), { a: 1 });
  const big = await post('/form', 'application/x-www-form-urlencoded', 'a='.padEnd(16 * 1024 + 1, 'x'));
  assert.is(big.status, 413);
  assert.equal(await big.json(), { error: 'invalid_request', error_description: 'The request body is larger than 16384 bytes.' });
  const exact = await post('/form', 'application/x-www-form-urlencoded', 'a='.padEnd(16 * 1024, 'x'));
  assert.is(exact.status, 200, 'exactly the limit is accepted');
  const wrong = await post('/form', 'text/plain', 'a=1');
  assert.is(wrong.status, 400);
  assert.equal(await wrong.json(), { error: 'invalid_request', error_description: 'Content-Type must be application/x-www-form-urlencoded.' });
}));

/** How long the uploading client below leaves the answer unread: it is busy sending. */
const READS_AFTER_MS = 200;

/**
 * Sends `bytes` in one write over a raw socket and reads what comes back only READS_AFTER_MS
 * later, as a client busy uploading a big body does; keeps it until the connection ends, with how
 * it ended.
 */
function upload(url: string, bytes: Buffer): Promise<{ answer: string; ms: number; error?: string }> {
  return new Promise((resolve) => {
    const { port } = new URL(url);
    const t0 = Date.now();
    const socket = net.connect(Number(port), '127.0.0.1', () => {
      socket.pause();
      socket.write(bytes, () => {});
      setTimeout(() => socket.resume(), READS_AFTER_MS);
    });
    let answer = '';
    let error: string | undefined;
    socket.on('data', (c: Buffer) => { answer += c.toString('latin1'); });
    socket.on('error', (err: NodeJS.ErrnoException) => { error ??= err.code; });
    socket.on('close', () => resolve({ answer, ms: Date.now() - t0, ...(error ? { error } : {}) }));
  });
}

test('readBody: a client still uploading past the limit gets its whole 413, then the connection closes', () => withEcho(async (url) => {
  // Far beyond the socket buffers: most of it is still in flight when the 413 is written. Closing
  // then is a reset, and a reset discards the answer the client has not read yet.
  const body = Buffer.alloc(4 * 1024 * 1024, 0x61);
  const head = (framing: string) => Buffer.from(`POST /form HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n${framing}\r\n\r\n`);
  const framings = {
    'Content-Length': Buffer.concat([head(`Content-Length: ${body.length}`), body]),
    chunked: Buffer.concat([head('Transfer-Encoding: chunked'), Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')]),
  };
  for (let round = 0; round < 4; round++) {
    for (const [framing, bytes] of Object.entries(framings)) {
      const { answer, ms, error } = await upload(url, bytes);
      const at = `${framing}, round ${round}${error ? ` (${error})` : ''}`;
      assert.match(answer, /^HTTP\/1\.1 413 Payload Too Large\r\n/, `the 413 arrives: ${at}`);
      assert.match(answer, /\r\nConnection: close\r\n/i, at);
      const json = answer.slice(answer.indexOf('\r\n\r\n') + 4);
      assert.equal(JSON.parse(json), { error: 'invalid_request', error_description: 'The request body is larger than 16384 bytes.' }, at);
      // Closed by LINGER_MS; the slack is for a busy machine. Held open, it would wait for the client.
      assert.ok(ms < LINGER_MS + 5000, `the connection is not held open (${ms} ms): ${at}`);
    }
  }
}));

test.run();

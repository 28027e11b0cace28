/**
 * Graceful shutdown of `server/index.ts`: on SIGTERM the process stops accepting connections at
 * once, lets every request it already received finish (a client still uploading its body
 * included), closes kept-alive connections as they go idle, then exits 0.
 */
import http from 'node:http';
import net from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { sharedReadModel } from '../helpers/read-model.ts';
import { serverEnv, startServers, stopAll, stubSite, type ServerProcess } from './helpers/cluster.ts';
import { sleep } from './helpers/load.ts';
import { waitUntil } from '../helpers/wait.ts';

interface Outcome {
  /** The whole answer arrived. */
  complete: boolean;
  status: number;
  /** Failed before any byte of an answer (refused or reset at connect): the request never ran. */
  neverAnswered: boolean;
  error?: string;
  connection?: string;
}

/** A GET whose outcome says precisely whether an answer was started and whether it finished. */
function probe(url: string, agent: http.Agent | false = false, onAnswer?: () => void): Promise<Outcome> {
  return new Promise((resolve) => {
    let answered = false;
    const req = http.get(url, { agent }, (res) => {
      answered = true;
      onAnswer?.();
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        const complete = body.length === Number(res.headers['content-length']);
        resolve({ complete, status: res.statusCode!, neverAnswered: false, connection: res.headers.connection });
      });
      res.on('error', (e) => resolve({ complete: false, status: res.statusCode!, neverAnswered: false, error: e.message }));
    });
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ complete: false, status: 0, neverAnswered: !answered, error: e.code ?? e.message }));
    req.setTimeout(10_000, () => req.destroy(new Error('hang')));
  });
}

/** Sends the head and half the body of a token request, and returns a way to send the rest. */
function halfUpload(port: number): Promise<{ finish(): Promise<string> }> {
  const body = 'grant_type=client_credentials&client_id=nobody&client_secret=wrong';
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(`POST /oauth/token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 20)}`);
      let received = '';
      socket.on('data', (d: Buffer) => { received += d.toString(); });
      const closed = new Promise<string>((r) => socket.on('close', () => r(received)));
      resolve({
        finish: () => { socket.write(body.slice(20)); return closed; },
      });
    });
    socket.on('error', reject);
  });
}

test('SIGTERM: refuses new connections, finishes every request in flight, exits 0', async () => {
  const fixture = await sharedReadModel();
  const site = await stubSite();
  let servers: ServerProcess[] = [];
  const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 20 });
  try {
    servers = await startServers(1, serverEnv({ SITE_URL: fixture.siteUrl, READ_MODEL_DIR: fixture.dir, DIST_DIR: site.distDir, RATE_LIMIT_ANONYMOUS: '1000000' }));
    const server = servers[0]!;
    const api = `${server.url}/wp-json/agentes/v1`;

    // Kept-alive connections, idle at the time of the signal.
    const warm = await Promise.all(Array.from({ length: 20 }, () => probe(`${api}/get_company_info`, keepAlive)));
    assert.ok(warm.every((o) => o.complete && o.connection === 'keep-alive'));
    // Uploads in progress: their requests have been received, their bodies have not.
    const uploads = await Promise.all(Array.from({ length: 3 }, () => halfUpload(server.port)));
    // Time for the server to read their heads: a few ms when idle, ten times more when busy.
    await sleep(1000);

    // A burst of requests, and the signal in the middle of it.
    let burstAnswers = 0;
    const burst = Array.from({ length: 300 }, (_, i) => probe(`${api}/${i % 2 ? 'read_page?url=fontaneria' : 'search_pages?query=fontanero'}`, false, () => { burstAnswers++; }));
    await waitUntil('the burst under way', () => burstAnswers > 0, { everyMs: 1 });
    const signalledAt = performance.now();
    process.kill(server.pid, 'SIGTERM');
    await server.waitForLog(/^draining$/);

    // New connections are refused from the moment it drains.
    await waitUntil('a new connection refused', async () => {
      const o = await probe(`${api}/get_company_info`);
      return o.neverAnswered && o.error === 'ECONNREFUSED';
    }, { timeoutMs: 10_000 });

    // The uploads are still waited for; finishing them gets each a whole answer.
    await sleep(300);
    assert.ok(server.alive(), 'still draining while requests are in flight');
    const answers = await Promise.all(uploads.map((u) => u.finish()));
    for (const a of answers) {
      assert.match(a, /^HTTP\/1\.1 401 Unauthorized\r\n/, 'the upload was answered');
      assert.match(a, /\r\nConnection: close\r\n/i, 'and told to go elsewhere next time');
      assert.is(JSON.parse(a.slice(a.indexOf('\r\n\r\n') + 4)).error, 'invalid_client');
    }

    const outcomes = await Promise.all(burst);
    const exit = await server.exited;
    const exitedAfter = performance.now() - signalledAt;
    assert.equal(exit, { code: 0, signal: null }, 'exit 0');

    const completed = outcomes.filter((o) => o.complete);
    const cut = outcomes.filter((o) => !o.complete && !o.neverAnswered);
    assert.equal(cut, [], 'no answer was cut short');
    assert.ok(outcomes.every((o) => o.complete || o.neverAnswered), 'every request either ran to the end or never started');
    for (const o of completed) assert.is(o.status, 200);
    assert.ok(completed.length > 0, 'requests in flight at the signal completed');
    // Below the 10 s grace after which every connection would be cut, with room for a busy machine.
    assert.ok(exitedAfter < 8000, `exited ${exitedAfter.toFixed(0)} ms after SIGTERM`);
    console.log(`  shutdown: ${completed.length} of ${outcomes.length} burst requests completed, ${outcomes.length - completed.length} refused before starting, 0 cut; `
      + `3 half-sent uploads answered; exit 0 ${exitedAfter.toFixed(0)} ms after SIGTERM (300 ms of it waiting on the uploads)`);
  } finally {
    keepAlive.destroy();
    await stopAll(servers);
    await site.remove();
  }
});

test.run();

/**
 * A server that fails to start (its port taken) closes the read model and store it opened: no
 * file handle is left for the garbage collector ("Closing a FileHandle object on garbage collection").
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const HELPER = pathToFileURL(path.join(import.meta.dirname, '..', 'helpers', 'server.ts')).href;

const SCENARIO = `
import net from 'node:net';
import { once } from 'node:events';
import { startTestServer } from ${JSON.stringify(HELPER)};
const blocker = net.createServer().listen(0, '127.0.0.1');
await once(blocker, 'listening');
try {
  await startTestServer({ env: { PORT: String(blocker.address().port) } });
  console.log('started');
} catch (err) {
  console.log(err.code);
}
blocker.close();
for (let i = 0; i < 5; i++) {
  globalThis.gc();
  await new Promise((resolve) => setTimeout(resolve, 50));
}
`;

test('a start refused its port leaves no file handle to the garbage collector', async () => {
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', SCENARIO], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => { stdout += d; });
  child.stderr.on('data', (d: Buffer) => { stderr += d; });
  const code = await new Promise((resolve) => child.once('close', resolve));
  assert.is(stdout.trim(), 'EADDRINUSE', stderr);
  assert.not.match(stderr, /Closing a FileHandle/);
  assert.is(code, 0, stderr);
});

test.run();

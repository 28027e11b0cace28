import autocannon from 'autocannon';
import http from 'node:http';
import { fork } from 'node:child_process';
if (process.argv[2] === 'child') {
  const body = Buffer.alloc(900, 'x');
  http.createServer((q, s) => { s.writeHead(200, ['content-type', 'application/json', 'content-length', String(body.length)]); s.end(body); }).listen(0, '127.0.0.1', function () { process.send(this.address().port); });
} else {
  const c = fork(new URL(import.meta.url).pathname, ['child']);
  const port = await new Promise((r) => c.once('message', r));
  const r = await autocannon({ url: `http://127.0.0.1:${port}/`, connections: 10, duration: 2 });
  console.log(r.duration, r.requests, r.latency);
  c.kill();
}

import autocannon from 'autocannon';
import http from 'node:http';
import { fork } from 'node:child_process';
if (process.argv[2] === 'child') {
  const size = Number(process.argv[3]);
  const body = Buffer.alloc(size, 'x');
  http.createServer((q, s) => { s.writeHead(200, ['content-type', 'application/json', 'content-length', String(body.length)]); s.end(body); }).listen(0, '127.0.0.1', function () { process.send(this.address().port); });
} else {
  for (const size of [500, 2000, 4230, 8000, 20000]) {
    const c = fork(new URL(import.meta.url).pathname, ['child', String(size)]);
    const port = await new Promise((r) => c.once('message', r));
    const r = await autocannon({ url: `http://127.0.0.1:${port}/`, connections: 10, duration: 2 });
    console.log(size, r.requests.average, r.latency.p99);
    c.kill();
  }
}

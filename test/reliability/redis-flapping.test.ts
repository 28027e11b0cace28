/**
 * A Redis that flaps (docs/operations.md, "What happens when something fails"): under `noeviction`, its
 * `maxmemory` switched between 1 byte and unlimited every 50 ms, so writes fail and succeed in
 * turn, while one address loops on get_company_info. Each switch to counting in the process must
 * not hand out a fresh window: the address gets at most its limit in the window. Every change of
 * state is logged once, without a stack. A real redis-server started by the test.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createClient } from 'redis';
import type { Logger } from '../../server/log.ts';
import { startRedis } from '../helpers/redis.ts';
import { startTestServer } from '../helpers/server.ts';
import { request } from '../helpers/http.ts';

const LIMIT = 60;
const LOOP_MS = 4000;

test(`flapping Redis: one address gets at most ${LIMIT} answers in the window, each state change logged once and without a stack`, async () => {
  const redis = await startRedis();
  const admin = createClient({ url: redis.url });
  admin.on('error', () => {});
  await admin.connect();
  const lines: { level: string; msg: string; cause: boolean }[] = [];
  const log: Logger = {
    info: (msg) => { lines.push({ level: 'info', msg, cause: false }); },
    error: (msg, cause) => { lines.push({ level: 'error', msg, cause: cause !== undefined }); },
  };
  const api = await startTestServer({ fixture: 'built', env: { REDIS_URL: redis.url, RATE_LIMIT_ANONYMOUS: String(LIMIT), RATE_LIMIT_WINDOW: '60' }, log });
  let flaps = 0;
  let full = false;
  const toggler = setInterval(() => {
    full = !full;
    flaps++;
    void admin.configSet('maxmemory', full ? '1' : '0').catch(() => {});
  }, 50);
  try {
    await admin.configSet('maxmemory-policy', 'noeviction');
    const statuses = new Map<number, number>();
    // LOOP_MS of calls, and on a busy machine (timers late) until Redis flapped enough, bounded.
    const until = Date.now() + LOOP_MS;
    while ((Date.now() < until || flaps < 20) && Date.now() < until + 10 * LOOP_MS) {
      const res = await request(`${api.base}/get_company_info`);
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    }
    clearInterval(toggler);
    const ok = statuses.get(200) ?? 0;
    const summary = JSON.stringify(Object.fromEntries(statuses));
    assert.ok(flaps >= 20, `Redis flapped (${flaps} switches)`);
    console.log(`flapping: ${flaps} switches, ${summary}, ${lines.filter((l) => l.msg.startsWith('quota store')).length} state lines`);
    assert.ok(ok <= LIMIT, `at most ${LIMIT} × 200 in the window: ${summary}`);
    assert.ok(ok >= LIMIT / 2, `the address was served meanwhile: ${summary}`);
    assert.equal([...statuses.keys()].filter((s) => s !== 200 && s !== 429), [], `only 200 and 429: ${summary}`);

    const unavailable = lines.filter((l) => l.msg.startsWith('quota store unavailable'));
    const back = lines.filter((l) => l.msg.startsWith('quota store back'));
    assert.ok(unavailable.length >= 1, 'the flapping was seen');
    assert.ok(Math.abs(unavailable.length - back.length) <= 1, `one line per change (${unavailable.length} / ${back.length})`);
    assert.match(unavailable[0]!.msg, /OOM|unavailable/i);
    assert.equal(lines.filter((l) => l.cause).map((l) => l.msg), [], 'no stack for an expected failure');
  } finally {
    clearInterval(toggler);
    await admin.configSet('maxmemory', '0').catch(() => {});
    await api.close();
    await admin.close().catch(() => {});
    await redis.close();
  }
});

test.run();

/**
 * Three real server processes (the bundled server, as `npm start` runs it) sharing one private
 * Redis, with the default limits: exactly 60 of 200 concurrent anonymous requests from one IP
 * are admitted, whichever process answers them.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { request, statusCounts } from '../../helpers/http.ts';
import { startRedis } from '../../helpers/redis.ts';
import { startFixtureServers } from '../../reliability/helpers/cluster.ts';

test('3 processes on one Redis admit exactly 60 of 200 concurrent anonymous requests', async () => {
  const redis = await startRedis();
  try {
    const { servers, close } = await startFixtureServers(3, { LOG_LEVEL: 'error', REDIS_URL: redis.url, KEY_PREFIX: 'multi' });
    try {
      const responses = await Promise.all(Array.from({ length: 200 }, (_, i) =>
        request(`${servers[i % 3]!.url}/wp-json/agentes/v1/read_page?url=fontaneria`)));
      assert.equal(statusCounts(responses), { 200: 60, 429: 140 });
      for (const r of responses) assert.type(r.headers.ratelimit, 'string', 'every answer carries the quota headers');
      const remaining = responses.filter((r) => r.status === 200).map((r) => Number(r.headers['ratelimit-remaining'])).sort((a, b) => a - b);
      assert.equal(remaining, Array.from({ length: 60 }, (_, i) => i), 'each admitted request saw its own count');
    } finally {
      await close();
    }
  } finally {
    await redis.close();
  }
});

test.run();

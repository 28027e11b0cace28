/**
 * Redis beyond one node in the configuration: REDIS_CLUSTER_NODES, REDIS_SENTINELS with
 * REDIS_SENTINEL_NAME (and REDIS_USERNAME, REDIS_PASSWORD for the nodes behind them), checked at
 * start; no error prints a password.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseConfig } from '../../server/config.ts';

const secretFree = (name: string) => (err: Error) => err.message.startsWith(name) && !err.message.includes('s3cret');

test('REDIS_CLUSTER_NODES: host:port or redis(s):// URLs, one scheme and one set of credentials', () => {
  assert.equal(parseConfig({ REDIS_CLUSTER_NODES: '10.0.0.1:7000, redis://10.0.0.2:7001,[::1]:7002' }).redisCluster, {
    nodes: ['redis://10.0.0.1:7000', 'redis://10.0.0.2:7001', 'redis://[::1]:7002'],
  });
  assert.equal(parseConfig({ REDIS_CLUSTER_NODES: 'rediss://u:pw@a:7000,rediss://u:pw@b:7000' }).redisCluster!.nodes.length, 2);
  assert.is(parseConfig({}).redisCluster, undefined);
  for (const bad of ['10.0.0.1', 'http://u:s3cret@h:1', 'redis://:s3cret@h:99999', 'u:s3cret@h', 'a:7000,,b:7000', 'redis://:s3cret@h:7000/1']) {
    assert.throws(() => parseConfig({ REDIS_CLUSTER_NODES: bad }), secretFree('REDIS_CLUSTER_NODES'), bad);
  }
  assert.throws(() => parseConfig({ REDIS_CLUSTER_NODES: 'redis://:s3cret@a:7000,b:7000' }), (e: Error) => /same scheme, user and password/.test(e.message) && !e.message.includes('s3cret'));
});

test('REDIS_SENTINELS and REDIS_SENTINEL_NAME go together; REDIS_USERNAME and REDIS_PASSWORD are for the nodes behind them', () => {
  assert.equal(parseConfig({ REDIS_SENTINELS: 's1:26379,s2:26379', REDIS_SENTINEL_NAME: 'mymaster', REDIS_PASSWORD: 's3cret' }).redisSentinel, {
    name: 'mymaster', sentinels: ['redis://s1:26379', 'redis://s2:26379'], username: undefined, password: 's3cret',
  });
  assert.throws(() => parseConfig({ REDIS_SENTINELS: 's1:26379' }), /REDIS_SENTINELS needs REDIS_SENTINEL_NAME/);
  assert.throws(() => parseConfig({ REDIS_SENTINEL_NAME: 'mymaster' }), /REDIS_SENTINEL_NAME needs REDIS_SENTINELS/);
  assert.throws(() => parseConfig({ REDIS_URL: 'redis://h:1', REDIS_PASSWORD: 's3cret' }), secretFree('REDIS_USERNAME and REDIS_PASSWORD'));
  assert.throws(() => parseConfig({ REDIS_SENTINELS: 's1:26379', REDIS_SENTINEL_NAME: 'm', REDIS_USERNAME: 'app' }), /REDIS_USERNAME needs REDIS_PASSWORD/);
  assert.throws(() => parseConfig({ REDIS_SENTINELS: 'redis://:s3cret@s1', REDIS_SENTINEL_NAME: 'm' }), secretFree('REDIS_SENTINELS'));
});

test('one place for clients and tokens; REDIS_QUOTA_URL beside any of them', () => {
  assert.throws(() => parseConfig({ REDIS_URL: 'redis://:s3cret@h:1', REDIS_CLUSTER_NODES: 'a:7000' }), (e: Error) => e.message === 'REDIS_URL and REDIS_CLUSTER_NODES are set: choose one of them');
  assert.throws(() => parseConfig({ REDIS_CLUSTER_NODES: 'a:7000', REDIS_SENTINELS: 's:26379', REDIS_SENTINEL_NAME: 'm' }), /choose one/);
  assert.is(parseConfig({ REDIS_CLUSTER_NODES: 'a:7000', REDIS_QUOTA_URL: 'redis://q:6379' }).redisQuotaUrl, 'redis://q:6379');
  assert.is(parseConfig({ REDIS_SENTINELS: 's:26379', REDIS_SENTINEL_NAME: 'm', REDIS_QUOTA_URL: 'redis://q:6379' }).redisQuotaUrl, 'redis://q:6379');
  assert.throws(() => parseConfig({ REDIS_QUOTA_URL: 'redis://q:6379' }), /REDIS_QUOTA_URL needs REDIS_URL, REDIS_CLUSTER_NODES or REDIS_SENTINELS/);
});

test.run();

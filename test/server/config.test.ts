/** Configuration is parsed once, at start, and a bad value fails there naming its variable. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DEFAULT_SITE_URL, parseConfig, parseSiteUrl, redactUrl, siteUrlFrom } from '../../server/config.ts';
import { API_BASE } from '../../server/paths.ts';

test('SITE_URL: an origin, trailing slashes dropped; the API base derives from it', () => {
  assert.is(parseSiteUrl(undefined), DEFAULT_SITE_URL);
  assert.is(parseSiteUrl('https://avisohogar.es///'), 'https://avisohogar.es');
  assert.is(parseConfig({ SITE_URL: 'https://avisohogar.es/' }).baseUrl, `https://avisohogar.es${API_BASE}`);
  for (const bad of ['avisohogar.es', 'https://avisohogar.es/es/', 'https://avisohogar.es/?x=1']) {
    assert.throws(() => parseConfig({ SITE_URL: bad }), /SITE_URL/, bad);
  }
});

test('SITE_URL left unset follows PORT (not 0, which has no address yet); a SITE_URL set wins', () => {
  assert.is(parseConfig({}).siteUrl, DEFAULT_SITE_URL);
  assert.is(parseConfig({ PORT: '5210' }).siteUrl, 'http://localhost:5210');
  assert.is(parseConfig({ PORT: '5210' }).baseUrl, `http://localhost:5210${API_BASE}`);
  assert.is(parseConfig({ PORT: '0' }).siteUrl, DEFAULT_SITE_URL);
  assert.is(parseConfig({ PORT: '5210', SITE_URL: 'https://avisohogar.es' }).siteUrl, 'https://avisohogar.es');
  assert.is(siteUrlFrom({ PORT: '8080', SITE_URL: '' }), 'http://localhost:8080', 'an empty SITE_URL is unset');
  assert.throws(() => siteUrlFrom({ PORT: 'x' }), /PORT must be an integer/);
});

test('TRUST_PROXY: every entry an IP or a CIDR, checked at start', () => {
  assert.equal(parseConfig({ TRUST_PROXY: ' 127.0.0.1, 10.0.0.0/8 ,::1' }).trustProxy, ['127.0.0.1', '10.0.0.0/8', '::1']);
  assert.equal(parseConfig({}).trustProxy, []);
  assert.throws(() => parseConfig({ TRUST_PROXY: '127.0.0.1, proxy.internal' }), /TRUST_PROXY: "proxy.internal"/);
});

test('REDIS_URL: a redis:// or rediss:// URL; the error never prints its credentials', () => {
  assert.is(parseConfig({ REDIS_URL: 'redis://:pw@127.0.0.1:6379/0' }).redisUrl, 'redis://:pw@127.0.0.1:6379/0');
  assert.is(parseConfig({ REDIS_URL: 'rediss://u:pw@redis.example:6380' }).redisUrl, 'rediss://u:pw@redis.example:6380');
  for (const bad of ['redis://:secret@host:99999', 'http://u:secret@host', 'secret@host', 'redis://:secret@']) {
    assert.throws(() => parseConfig({ REDIS_URL: bad }), (err: Error) => err.message.startsWith('REDIS_URL') && !err.message.includes('secret'), bad);
  }
  assert.is(redactUrl('redis://user:pw@h:1'), 'redis://***@h:1');
});

test('CURSOR_SECRET: unset or at least 16 characters, never printed', () => {
  assert.is(parseConfig({}).cursorSecret, '');
  assert.is(parseConfig({ CURSOR_SECRET: 'sixteen chars ok' }).cursorSecret, 'sixteen chars ok');
  assert.throws(() => parseConfig({ CURSOR_SECRET: 'short-secret' }), (err: Error) => /CURSOR_SECRET/.test(err.message) && !err.message.includes('short-secret'));
});

test('API_DEPRECATED_AT and API_SUNSET_AT: full ISO dates only', () => {
  const ok = parseConfig({ API_DEPRECATED_AT: '2027-03-01', API_SUNSET_AT: '2027-06-01T00:00:00Z' });
  assert.is(ok.deprecation!.deprecatedAt.toISOString(), '2027-03-01T00:00:00.000Z');
  for (const bad of ['1', '2027', '2027-03', 'March 1, 2027', '2027-13-01']) {
    assert.throws(() => parseConfig({ API_DEPRECATED_AT: bad, API_SUNSET_AT: '2027-06-01' }), /API_DEPRECATED_AT must be a full ISO 8601 date/, bad);
  }
});

test('METRICS_PORT: unset, no metrics listener; set, on loopback unless METRICS_HOST says otherwise', () => {
  assert.is(parseConfig({}).metrics, null);
  assert.equal(parseConfig({ METRICS_PORT: '9464' }).metrics, { port: 9464, host: '127.0.0.1' });
  assert.equal(parseConfig({ METRICS_PORT: '0', METRICS_HOST: '0.0.0.0' }).metrics, { port: 0, host: '0.0.0.0' });
  for (const bad of ['x', '-1', '1.5']) assert.throws(() => parseConfig({ METRICS_PORT: bad }), /METRICS_PORT/, bad);
});

test.run();

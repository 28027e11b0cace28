/** Configuration is parsed once, at start, and a bad value fails there naming its variable. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DEFAULT_SITE_URL, parseConfig, parseSiteUrl } from '../../server/config.ts';
import { API_BASE } from '../../server/paths.ts';

test('SITE_URL: an origin, trailing slashes dropped; the API base derives from it', () => {
  assert.is(parseSiteUrl(undefined), DEFAULT_SITE_URL);
  assert.is(parseSiteUrl('https://avisohogar.es///'), 'https://avisohogar.es');
  assert.is(parseConfig({ SITE_URL: 'https://avisohogar.es/' }).baseUrl, `https://avisohogar.es${API_BASE}`);
  for (const bad of ['avisohogar.es', 'https://avisohogar.es/es/', 'https://avisohogar.es/?x=1']) {
    assert.throws(() => parseConfig({ SITE_URL: bad }), /SITE_URL/, bad);
  }
});

test('TRUST_PROXY: every entry an IP or a CIDR, checked at start', () => {
  assert.equal(parseConfig({ TRUST_PROXY: ' 127.0.0.1, 10.0.0.0/8 ,::1' }).trustProxy, ['127.0.0.1', '10.0.0.0/8', '::1']);
  assert.equal(parseConfig({}).trustProxy, []);
  assert.throws(() => parseConfig({ TRUST_PROXY: '127.0.0.1, proxy.internal' }), /TRUST_PROXY: "proxy.internal"/);
});

test.run();

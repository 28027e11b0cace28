import type { IncomingMessage } from 'node:http';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createClientIpResolver, ipQuotaKey } from '../../../server/net/client-ip.ts';
import { normalizeIp, parseTrustList } from '../../../server/net/ip.ts';

const req = (remoteAddress: string | undefined, xff?: string | string[]) =>
  ({ socket: { remoteAddress }, headers: xff === undefined ? {} : { 'x-forwarded-for': xff } }) as unknown as IncomingMessage;

test('without TRUST_PROXY the socket address is the client, whatever X-Forwarded-For says', () => {
  const ip = createClientIpResolver([]);
  assert.is(ip(req('203.0.113.7')), '203.0.113.7');
  assert.is(ip(req('203.0.113.7', '198.51.100.1')), '203.0.113.7');
  assert.is(ip(req('::ffff:203.0.113.7', '1.1.1.1, 2.2.2.2')), '203.0.113.7', 'IPv4-mapped IPv6 is IPv4');
  assert.is(ip(req(undefined)), 'unknown', 'a socket already gone counts as one shared client');
});

test('a trusted proxy: X-Forwarded-For is walked right to left, skipping trusted hops', () => {
  const ip = createClientIpResolver(['10.0.0.0/8', '127.0.0.1']);
  assert.is(ip(req('127.0.0.1', '198.51.100.9')), '198.51.100.9');
  assert.is(ip(req('127.0.0.1', '6.6.6.6, 198.51.100.9, 10.1.2.3')), '198.51.100.9', 'the forged leftmost entry is never read');
  assert.is(ip(req('127.0.0.1', ['6.6.6.6', '198.51.100.9'])), '198.51.100.9', 'repeated headers');
  assert.is(ip(req('127.0.0.1', '10.9.9.9, 10.1.1.1')), '10.9.9.9', 'all hops trusted: the leftmost');
  assert.is(ip(req('127.0.0.1')), '127.0.0.1', 'no header: the proxy itself');
  assert.is(ip(req('127.0.0.1', '198.51.100.9:4711')), '198.51.100.9', 'ports are dropped');
  assert.is(ip(req('127.0.0.1', '[2001:db8::5]:443')), '2001:db8::5');
  assert.is(ip(req('127.0.0.1', 'garbage, 198.51.100.9')), '198.51.100.9');
  assert.is(ip(req('127.0.0.1', '198.51.100.9, garbage')), '127.0.0.1', 'a malformed hop from the proxy: keep the last good one');
});

test('an untrusted peer cannot use X-Forwarded-For', () => {
  const ip = createClientIpResolver(['10.0.0.1']);
  assert.is(ip(req('203.0.113.7', '10.0.0.1')), '203.0.113.7');
  assert.is(ip(req('203.0.113.7', '1.2.3.4')), '203.0.113.7');
});

test('IPv6 proxies and CIDRs, with IPv4-mapped peers', () => {
  const ip = createClientIpResolver(['fd00::/8', '::1', '192.0.2.0/24']);
  assert.is(ip(req('fd12::1', '2001:db8::77')), '2001:db8::77');
  assert.is(ip(req('::1', '203.0.113.5')), '203.0.113.5');
  assert.is(ip(req('::ffff:192.0.2.10', '203.0.113.5')), '203.0.113.5', 'mapped peer matches the IPv4 range');
  assert.is(ip(req('2001:db8::1', '203.0.113.5')), '2001:db8::1');
});

test('TRUST_PROXY entries are validated at start', () => {
  for (const bad of ['10.0.0.0/33', 'proxy.local', '1.2.3.4/', '1.2.3.4/8/9', '::1/129', '']) {
    assert.throws(() => parseTrustList([bad]), /TRUST_PROXY/, bad);
  }
  const list = parseTrustList(['10.0.0.0/8', '2001:db8::/32', '[::1]']);
  assert.ok(list.check('10.200.0.1', 'ipv4'));
  assert.ok(list.check('2001:db8:ffff::1', 'ipv6'));
  assert.ok(list.check('::1', 'ipv6'));
});

test('addresses are normalized; IPv6 clients share one quota per /56', () => {
  assert.is(normalizeIp('::FFFF:10.0.0.1'), '10.0.0.1');
  assert.is(normalizeIp('FE80::1%eth0'), 'fe80::1');
  assert.is(normalizeIp('not-an-ip'), null);
  assert.is(ipQuotaKey('203.0.113.7'), '203.0.113.7');
  assert.is(ipQuotaKey('2001:db8:abcd:12ff:1::5'), '2001:db8:abcd:1200::/56');
  assert.is(ipQuotaKey('2001:db8:abcd:1234::9'), ipQuotaKey('2001:db8:abcd:12aa:ffff::1'));
  assert.is.not(ipQuotaKey('2001:db8:abcd:1300::1'), ipQuotaKey('2001:db8:abcd:1200::1'));
});

test.run();

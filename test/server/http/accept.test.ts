import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { acceptQuality, prefersMarkdown } from '../../../server/http/accept.ts';

test('acceptQuality: the most specific matching range decides (RFC 9110 §12.5.1)', () => {
  const h = 'text/*;q=0.3, text/html;q=0.7, */*;q=0.5';
  assert.is(acceptQuality(h, 'text/html'), 0.7);
  assert.is(acceptQuality(h, 'text/plain'), 0.3);
  assert.is(acceptQuality(h, 'image/jpeg'), 0.5);
  assert.is(acceptQuality('text/html', 'text/markdown'), 0);
  assert.is(acceptQuality('TEXT/Markdown ; Q=0.4', 'text/markdown'), 0.4);
  assert.is(acceptQuality('text/markdown;variant=GFM;q=0.8', 'text/markdown'), 0.8);
});

test('acceptQuality: no header or an empty one accepts everything; malformed q counts as 0', () => {
  assert.is(acceptQuality(undefined, 'text/html'), 1);
  assert.is(acceptQuality('', 'text/markdown'), 1);
  assert.is(acceptQuality('text/markdown;q=2', 'text/markdown'), 0);
  assert.is(acceptQuality('text/markdown;q=abc', 'text/markdown'), 0);
  assert.is(acceptQuality('text/markdown;q=0.125', 'text/markdown'), 0.125);
});

test('prefersMarkdown: Markdown rated above HTML, or as high by name against a wildcard', () => {
  const yes = [
    'text/markdown',
    'text/markdown, text/html;q=0.9',
    'text/html;q=0.5, text/markdown',
    'text/markdown;q=0.5, */*;q=0.1',
    'text/markdown, */*',
    'text/markdown, text/*;q=0.9',
    'text/markdown, text/*',
    'text/markdown, text/html;q=0.9, */*;q=0.8',
    'text/markdown, text/plain',
  ];
  const no = [
    undefined,
    '',
    '*/*',
    'text/*',
    'text/html',
    'text/html, text/markdown',
    'text/markdown, text/html',
    'text/markdown;q=0.5, text/html',
    'text/markdown;q=0',
    'text/markdown;q=0.5, text/*',
    'text/markdown;q=0.5, */*',
    'application/json',
    'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  ];
  for (const h of yes) assert.ok(prefersMarkdown(h), `Markdown for ${h}`);
  for (const h of no) assert.not.ok(prefersMarkdown(h), `HTML for ${h}`);
});

test.run();

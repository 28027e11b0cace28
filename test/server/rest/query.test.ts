import querystring from 'node:querystring';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MALFORMED, parseQuery } from '../../../server/rest/query.ts';

const plain = (q: ReturnType<typeof parseQuery>) => Object.fromEntries(q);

test('form-urlencoded: + is a space, escapes decoded once, repeats collected', () => {
  assert.equal(plain(parseQuery('query=fontaner%C3%ADa+urgente&city=vigo')), { query: 'fontanería urgente', city: 'vigo' });
  assert.equal(plain(parseQuery('url=%252e%252e')), { url: '%2e%2e' });
  assert.equal(plain(parseQuery('query=a&query=b&query=c')), { query: ['a', 'b', 'c'] });
  assert.equal(plain(parseQuery('a&b=&=c&&')), { a: '', b: '', '': 'c' });
  assert.equal(plain(parseQuery('')), {});
  assert.equal(plain(parseQuery('url=%E0%A4%A&a=%zz&b=%')), { url: MALFORMED, a: MALFORMED, b: MALFORMED }, 'escapes that do not decode are marked');
  assert.equal(plain(parseQuery('q%zz=1&q=%E0&q=x')), { 'q%zz': '1', q: [MALFORMED, 'x'] }, 'a name that does not decode is kept as written');
  assert.equal(plain(parseQuery('x=a=b')), { x: 'a=b' });
  const special = parseQuery('__proto__=1&constructor=2&toString=3');
  assert.equal([...special], [['__proto__', '1'], ['constructor', '2'], ['toString', '3']], '`__proto__`, `constructor` are plain names');
  assert.is(parseQuery('a=1').get('hasOwnProperty'), undefined, 'nothing inherited');
});

test('agrees with node:querystring on ordinary input', () => {
  for (const s of ['query=ab&limit=8&cursor=Zx_9', 'url=https%3A%2F%2Fa.test%2Fx%2F%3Fy%3D1%23z', 'q=%20+%2B', 'city=todas&city=vigo']) {
    assert.equal(plain(parseQuery(s)), { ...querystring.parse(s) }, s);
  }
});

test.run();

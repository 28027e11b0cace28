import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { memoize } from '../../server/memo.ts';

/** A memoized function that counts the calls it passes through. */
function counted(max: number, maxKeyLength?: number) {
  const calls: string[] = [];
  const fn = memoize((key) => { calls.push(key); return { key }; }, max, maxKeyLength);
  return { fn, calls };
}

test('a repeated key is answered from memory, with the same value', () => {
  const { fn, calls } = counted(4);
  const first = fn('a');
  assert.is(fn('a'), first);
  assert.is(fn('b').key, 'b');
  assert.equal(calls, ['a', 'b']);
});

test('at the bound every entry is dropped, then refilled', () => {
  const { fn, calls } = counted(2);
  fn('a'); fn('b');
  fn('c'); // full: a and b dropped, c kept
  fn('c');
  fn('a');
  assert.equal(calls, ['a', 'b', 'c', 'a']);
});

test('keys longer than the bound are computed every time and not kept', () => {
  const { fn, calls } = counted(4, 3);
  fn('abcd'); fn('abcd'); fn('abc'); fn('abc');
  assert.equal(calls, ['abcd', 'abcd', 'abc']);
});

test.run();

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { memoize } from '../../server/memo.ts';
import { driveInChild } from '../helpers/cache-memory.ts';

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

test('a key cut from a longer string does not keep that string alive', async () => {
  // A child process with `gc`: 4,096 entries, each key (and its value) made from an address cut
  // from a distinct 16 KB string, as a client address is cut from X-Forwarded-For.
  const report = await driveInChild('memo', 0, 4096);
  const grown = report.after.heapUsed - report.before.heapUsed;
  assert.ok(grown < 16 * 2 ** 20, `the heap grew by ${(grown / 2 ** 20).toFixed(1)} MB for 4,096 short keys`);
});

test.run();

/** The real-words filter: what was added is found, bytes round-trip, a damaged file is refused. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BloomFilter } from '../../../formats/search/bloom.ts';

test('added words are found; others almost never (1 % at the size asked for)', () => {
  const filter = BloomFilter.sized(2000);
  for (let i = 0; i < 2000; i++) filter.add(`palabra${i}`);
  for (let i = 0; i < 2000; i++) assert.ok(filter.has(`palabra${i}`), `palabra${i}`);
  let false_ = 0;
  for (let i = 0; i < 10_000; i++) if (filter.has(`otra${i}`)) false_++;
  assert.ok(false_ < 300, `${false_} false positives in 10,000`);
});

test('bytes round-trip, the same on every machine; a damaged file is refused', () => {
  const filter = BloomFilter.sized(100);
  for (const w of ['fontanero', 'mudanza']) filter.add(w);
  const again = BloomFilter.from(filter.bytes());
  assert.ok(again.has('fontanero') && again.has('mudanza'));
  assert.equal(again.bytes(), filter.bytes());
  assert.throws(() => BloomFilter.from(new Uint8Array(3)), /too short/);
  assert.throws(() => BloomFilter.from(filter.bytes().subarray(0, 20)), /bad header/);
});

test.run();

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Lru } from '../../../formats/search/lru.ts';

const keys = (lru: Lru<string, number>, all: string[]) => all.filter((k) => lru.get(k) !== undefined);

test('bounded by weight: the oldest entries go first; an entry heavier than the bound is not kept', () => {
  const lru = new Lru<string, number>(10);
  lru.set('a', 1, 4);
  lru.set('b', 2, 4);
  lru.set('c', 3, 4); // 12 > 10: a goes
  assert.is(lru.weight, 8);
  lru.set('huge', 4, 11);
  assert.is(lru.get('huge'), undefined);
  assert.equal(keys(lru, ['a', 'b', 'c']), ['b', 'c']);
});

test('an entry that grows is weighed again: the oldest go to keep the bound; a stale value is not weighed', () => {
  const lru = new Lru<string, object>(10);
  const a = {};
  const b = {};
  lru.set('a', a, 3);
  lru.set('b', b, 3);
  lru.reweigh('b', b, 6);
  assert.is(lru.weight, 9);
  lru.reweigh('b', b, 8); // 11 > 10: a goes
  assert.is(lru.weight, 8);
  assert.is(lru.get('a'), undefined);
  lru.reweigh('b', {}, 2); // not the value held
  assert.is(lru.weight, 8);
  lru.reweigh('b', b, 11); // heavier than the bound: not kept
  assert.is(lru.get('b'), undefined);
  assert.is(lru.weight, 0);
});

test('a hit on an entry older than the newest quarter saves it from the next eviction', () => {
  const lru = new Lru<string, number>(8);
  for (const k of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']) lru.set(k, 0);
  assert.is(lru.get('a'), 0); // the oldest, hit: moved to the newest end
  lru.set('i', 0); // evicts b, not a
  assert.is(lru.get('b'), undefined);
  assert.is(lru.get('a'), 0);
});

test('hits on the newest entries keep their order; no entry of the newest quarter is evicted next', () => {
  const lru = new Lru<string, number>(8);
  for (const k of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']) lru.set(k, 0);
  for (let i = 0; i < 100; i++) { lru.get('g'); lru.get('h'); }
  for (const k of ['i', 'j', 'k', 'l', 'm', 'n']) lru.set(k, 0); // six evictions: a to f
  assert.equal(keys(lru, ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']), ['g', 'h']);
});

test('a hit within the newest quarter leaves the order as it is (one lookup, no re-insert)', () => {
  const lru = new Lru<string, number>(8);
  for (const k of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']) lru.set(k, 0);
  lru.get('g'); // second newest: not moved behind h
  for (const k of ['i', 'j', 'k', 'l', 'm', 'n', 'o']) lru.set(k, 0); // seven evictions: a to g
  assert.equal(keys(lru, ['g', 'h']), ['h']);
});

test('setting a key again replaces its value and weight', () => {
  const lru = new Lru<string, number>(10);
  lru.set('a', 1, 6);
  lru.set('a', 2, 3);
  assert.is(lru.get('a'), 2);
  assert.is(lru.weight, 3);
  assert.is(lru.size, 1);
});

test.run();

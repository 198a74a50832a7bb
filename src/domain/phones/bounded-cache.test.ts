import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BoundedCache } from './bounded-cache.js';

test('keeps at most maxEntries, dropping the oldest', () => {
  const cache = new BoundedCache<number>(2);
  cache.set('a', 1);
  cache.set('b', 2);
  cache.set('c', 3);
  assert.equal(cache.size, 2);
  assert.equal(cache.get('a'), undefined);
  assert.equal(cache.get('b'), 2);
  assert.equal(cache.get('c'), 3);
});

test('overwriting a present key evicts nothing', () => {
  const cache = new BoundedCache<number>(2);
  cache.set('a', 1);
  cache.set('b', 2);
  cache.set('b', 20);
  assert.equal(cache.get('a'), 1);
  assert.equal(cache.get('b'), 20);
});

test('clear empties it; a non-positive size is refused', () => {
  const cache = new BoundedCache<number>(1);
  cache.set('a', 1);
  cache.clear();
  assert.equal(cache.size, 0);
  assert.throws(() => new BoundedCache<number>(0), RangeError);
});

test('evicts in insertion order across many turns of the ring', () => {
  const cache = new BoundedCache<number>(3);
  for (let i = 0; i < 10; i++) cache.set(`k${i}`, i);
  assert.equal(cache.size, 3);
  assert.deepEqual(
    ['k6', 'k7', 'k8', 'k9'].map((k) => cache.get(k)),
    [undefined, 7, 8, 9],
  );
});

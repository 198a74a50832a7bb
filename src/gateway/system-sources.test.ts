import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { UUID_V7 } from '../../test/helpers/sending.js';
import { randomIds } from './system-sources.js';

/** The first 48 bits of a version 7 UUID: when it was made, in ms. */
const madeAt = (id: string) => parseInt(id.replace(/-/g, '').slice(0, 12), 16);

describe('randomIds', () => {
  it('numbers rows by UUIDs of version 7, in the order of the millisecond they were made', () => {
    const from = Date.now();
    const ids = Array.from({ length: 5000 }, () => randomIds.orderedId());
    const to = Date.now();
    for (const id of ids) assert.match(id, UUID_V7);
    assert.equal(new Set(ids).size, ids.length, 'no id twice');
    // Drawn from a pool 256 ids long: each id's random bits are its own, across refills too.
    const tails = new Set(ids.map((id) => id.slice(-12)));
    assert.equal(tails.size, ids.length);
    let last = from;
    for (const id of ids) {
      const at = madeAt(id);
      assert.ok(at >= last && at <= to, `${id} made at ${at}, after ${last}, by ${to}`);
      last = at;
    }
  });

  it('keeps request ids and nonces random (version 4)', () => {
    assert.match(
      randomIds.uuid(),
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });
});

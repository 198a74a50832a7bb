import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { UUID_V7 as V7 } from '../../test/helpers/sending.js';
import { randomIds } from './system-sources.js';

describe('randomIds', () => {
  it('numbers rows by UUIDs of version 7, each sorting after the one made before it', () => {
    const ids = Array.from({ length: 2000 }, () => randomIds.orderedId());
    for (const id of ids) assert.match(id, V7);
    for (let i = 1; i < ids.length; i++) {
      assert.ok((ids[i] as string) > (ids[i - 1] as string), `${ids[i]} after ${ids[i - 1]}`);
    }
    // The first 48 bits are the time they were made, in ms.
    const made = parseInt((ids[0] as string).replace(/-/g, '').slice(0, 12), 16);
    assert.ok(Math.abs(made - Date.now()) < 60_000, `made at ${made}`);
  });

  it('keeps request ids and nonces random (version 4)', () => {
    assert.match(
      randomIds.uuid(),
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });
});

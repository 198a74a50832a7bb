import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KeyUsage } from './api-keys.js';

describe('KeyUsage', () => {
  it('writes each key once per flush, with its latest use, and nothing when idle', async () => {
    const writes: { keyId: string; at: number }[][] = [];
    const usage = new KeyUsage(
      { touchApiKeys: async (uses) => void writes.push([...uses]) },
      60_000,
    );
    usage.note('key_a', 1);
    usage.note('key_b', 2);
    usage.note('key_a', 3);
    await usage.flush();
    await usage.flush();
    usage.note('key_b', 4);
    await usage.close();
    assert.deepEqual(writes, [
      [
        { keyId: 'key_a', at: 3 },
        { keyId: 'key_b', at: 2 },
      ],
      [{ keyId: 'key_b', at: 4 }],
    ]);
  });
});

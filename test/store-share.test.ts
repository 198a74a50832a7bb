import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Worker } from 'node:worker_threads';
import pino from 'pino';
import { resolveGatewaySecret } from '../src/crypto/secret-files.js';
import { loadConfig } from '../src/config/config.js';
import type { Store, StoreShare } from '../src/domain/ports.js';
import { OutboxThreadHost } from '../src/outbox/outbox-host.js';
import { openStore, releaseShareOf, storeShare } from '../src/store/open-store.js';
import { eventually } from './helpers/eventually.js';

/** The write lock's cell as the share carries it: 0 free, else the holder's thread id + 1. */
function lockCell(share: StoreShare): Int32Array {
  assert.ok(share.lockBuffer, 'a SQLite share carries the write lock');
  return new Int32Array(share.lockBuffer);
}

describe('the store share the main thread makes for its threads', () => {
  it('on SQLite carries a write lock that only a dead holder is freed from', () => {
    const share = storeShare(loadConfig({ WIREBIRD_DATA_DIR: '/nonexistent' }));
    const cell = lockCell(share);
    Atomics.store(cell, 0, 8); // held by thread 7
    assert.equal(releaseShareOf(share, 6), false, 'thread 6 never held it');
    assert.equal(Atomics.load(cell, 0), 8);
    assert.equal(releaseShareOf(share, 7), true);
    assert.equal(Atomics.load(cell, 0), 0);
  });

  it('on PostgreSQL carries nothing: the server arbitrates', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test' });
    const share = storeShare(config);
    assert.equal(share.lockBuffer, undefined);
    assert.equal(releaseShareOf(share, 7), false);
  });
});

describe('an outbox thread that dies holding the SQLite write lock', () => {
  let dir: string;
  let store: Store;
  let host: OutboxThreadHost;
  const ended: number[] = [];
  let share: StoreShare;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wb-share-'));
    const config = loadConfig({ WIREBIRD_DATA_DIR: dir, WIREBIRD_LOG_LEVEL: 'silent' });
    share = storeShare(config);
    store = await openStore(config, share);
    host = new OutboxThreadHost({
      config,
      secret: resolveGatewaySecret(config),
      share,
      log: pino({ level: 'silent' }),
      onAttempts: () => undefined,
      onThreadEnded: (threadId) => {
        ended.push(threadId);
        releaseShareOf(share, threadId);
      },
    });
    await host.start();
  });
  after(async () => {
    await host.stop();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('has the lock freed by its host, so the main connection writes at once', async () => {
    const worker = (host as unknown as { worker: Worker }).worker;
    const threadId = worker.threadId;
    const cell = lockCell(share);
    // As if the thread were killed inside a write: the lock names it as the holder.
    Atomics.store(cell, 0, threadId + 1);
    await worker.terminate();
    await eventually(async () => (ended.includes(threadId) ? true : undefined), 'the host told');
    assert.equal(Atomics.load(cell, 0), 0, 'the dead thread no longer holds the lock');
    const started = performance.now();
    assert.equal(await store.ensureAccount(4242, Date.now()), true);
    // The lock's patience is 2 s: a write that waited it out would have taken that long.
    assert.ok(performance.now() - started < 1000, 'the main connection did not wait on the lock');
  });
});

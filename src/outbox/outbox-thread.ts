import { parentPort, workerData } from 'node:worker_threads';
import { secretBox } from '../crypto/secret-box.js';
import { createLogger } from '../logger.js';
import { openStore, THREAD_CACHE_KIB } from '../store/open-store.js';
import type {
  AttemptSummary,
  FromOutboxThread,
  OutboxThreadData,
  ToOutboxThread,
} from './outbox-protocol.js';
import { buildOutbox } from './start-events.js';

/**
 * The outbox thread (docs/events.md): the outbox worker on a store connection of its own, so
 * that signing and HTTP never take the main thread's time from the API and the dispatcher. This
 * file is the thread's composition root: the one place under events/ that opens a store.
 */
const OUTBOX_POOL = 3;
const port = parentPort;
if (!port) throw new Error('outbox-thread runs as a worker thread');
// The main thread starts this worker with exactly this data.
const { config, secret, share } = workerData as OutboxThreadData;
const log = createLogger(config.logLevel).child({ worker: 'events' });
// A claim and a record at a time need few connections: the main thread's pool keeps the rest.
const database = { ...config.database, poolSize: Math.min(OUTBOX_POOL, config.database.poolSize) };
// This connection writes only claims and attempt records. After a power loss the worst such a
// write lost can do is deliver an event again, which at-least-once allows: it commits without
// waiting for the disk, and so holds the write lock the main thread waits for far less.
const store = await openStore({ ...config, database, sqliteSynchronous: 'NORMAL' }, share, {
  cacheKib: THREAD_CACHE_KIB,
  migrated: true,
});
let attempts: AttemptSummary[] = [];
const { worker, sender } = buildOutbox({
  config,
  store,
  box: secretBox(secret),
  clock: { now: () => Date.now() },
  log,
  onAttempt: (a) => attempts.push(a),
});
// Attempts go to the main thread's metrics in batches, not one message each.
const report = setInterval(() => {
  if (attempts.length === 0) return;
  port.postMessage({ kind: 'attempts', list: attempts } satisfies FromOutboxThread);
  attempts = [];
}, 100);

port.on('message', (m: ToOutboxThread) => {
  switch (m.kind) {
    case 'nudge':
      worker.nudge();
      break;
    case 'endpoints':
      worker.endpointsChanged();
      break;
    case 'stop':
      void stop();
      break;
  }
});

async function stop(): Promise<void> {
  await worker.stop();
  clearInterval(report);
  if (attempts.length > 0)
    port?.postMessage({ kind: 'attempts', list: attempts } satisfies FromOutboxThread);
  await sender.close();
  await store.close();
  port?.postMessage({ kind: 'stopped' } satisfies FromOutboxThread);
}

worker.start();
port.postMessage({ kind: 'ready' } satisfies FromOutboxThread);

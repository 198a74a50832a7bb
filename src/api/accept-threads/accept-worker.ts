import { parentPort, workerData } from 'node:worker_threads';
import { smsRouting } from '../../channels/sms-routing.js';
import { countRoutes } from '../../domain/messages/route-counts.js';
import { createLogger } from '../../logger.js';
import { openStore, THREAD_CACHE_KIB } from '../../store/open-store.js';
import { KeyUsage } from '../../core/api-keys.js';
import type { ActionDeps } from '../context.js';
import { runEnvelope } from '../run-envelope.js';
import { randomIds, systemClock } from '../../gateway/system-sources.js';
import {
  carryError,
  OFFLOADED_ACTIONS,
  type AcceptedCounts,
  type RefusedCounts,
  type AcceptJob,
  type AcceptReply,
  type AcceptWorkerData,
  type ToWorker,
} from './protocol.js';
import { fieldsOf } from '../../util/unknown-values.js';

/**
 * An acceptance thread: it reads, checks and stores the requests the main thread hands it, on a
 * store connection of its own, and answers with the fields of the answer. This file is the
 * thread's composition root: the one place under api/ that opens a store, and it does so through
 * the store's own entry (store/open-store.ts) with the share the main thread made.
 */
const port = parentPort;
if (!port) throw new Error('accept-worker runs as a worker thread');
// The main thread starts this worker with exactly this data.
const { config, share } = workerData as AcceptWorkerData;
const store = await openStore(config, share, { cacheKib: THREAD_CACHE_KIB, migrated: true });
const log = createLogger(config.logLevel).child({ worker: 'accept' });
const shared: Omit<ActionDeps, 'metrics'> = {
  store,
  config,
  clock: systemClock,
  ids: randomIds,
  // The main thread nudges its dispatcher when the answer reaches it (`due` in the reply).
  nudges: {
    dispatch: () => undefined,
    reviewTemplates: () => undefined,
    fallbacks: () => undefined,
  },
  routing: smsRouting(config),
  keyUsage: new KeyUsage(store),
};

async function accept(job: AcceptJob): Promise<AcceptReply> {
  const parsed = parsedIfOurs(job.body);
  if (parsed === undefined) return { id: job.id, taken: false };
  const accepted: AcceptedCounts = [];
  const refused: RefusedCounts = [];
  const metrics: ActionDeps['metrics'] = {
    messagesAccepted(kind, routes) {
      for (const [channel, n] of countRoutes(routes)) accepted.push([kind, channel, n]);
    },
    policyRefused(accountId, rule, n) {
      refused.push([accountId, rule, n]);
    },
  };
  // The intake asks for the dispatcher's nudge only for messages due now; the main thread gives it.
  let due = false;
  const nudges = { ...shared.nudges, dispatch: () => (due = true) };
  const headers = {
    authorization: job.authorization,
    idempotencyKey: job.idempotencyKey,
    dialect: job.dialect,
    signer: job.signer,
  };
  try {
    const deps = { ...shared, metrics, nudges };
    const { name, fields } = await runEnvelope(parsed, headers, deps, log);
    return { id: job.id, taken: true, action: name, fields, accepted, refused, due };
  } catch (err) {
    return { id: job.id, taken: true, action: parsed.Action, error: carryError(err), refused };
  }
}

/**
 * The body, parsed, when it names one of OFFLOADED_ACTIONS and holds no key the main thread's
 * parser refuses (`__proto__`, `constructor`): such bodies, and text that is not JSON, go back to
 * the main thread, which refuses them exactly as it refuses any other.
 */
function parsedIfOurs(text: string): { Action: string } | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const action = fieldsOf(body).Action;
  if (typeof action !== 'string' || !OFFLOADED_ACTIONS.has(action)) return undefined;
  // Checked above: an object whose Action is a string.
  return hasPoisonKey(body) ? undefined : (body as { Action: string });
}

/** Walks with a stack of its own: a body nested 20,000 deep must not overflow the thread's. */
function hasPoisonKey(root: unknown): boolean {
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value !== 'object' || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value) pending.push(item);
      continue;
    }
    for (const key of Object.keys(value)) {
      if (key === '__proto__' || key === 'constructor') return true;
      pending.push(fieldsOf(value)[key]);
    }
  }
  return false;
}

/** A fault in here must not end the thread with other requests in hand: it is answered 18004. */
function answer(job: AcceptJob): Promise<AcceptReply> {
  return accept(job).catch((err: unknown) => ({
    id: job.id,
    taken: true as const,
    action: undefined,
    error: carryError(err),
  }));
}

port.on('message', (message: ToWorker) => {
  if ('stop' in message) {
    void shared.keyUsage
      ?.close()
      .catch((err: unknown) => log.warn({ err }, 'key use times not written'))
      .finally(() => {
        void store.close().finally(() => {
          port.postMessage({ stopped: true });
          port.close();
        });
      });
    return;
  }
  void answer(message).then((reply) => port.postMessage(reply));
});
port.postMessage({ ready: true });

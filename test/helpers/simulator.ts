import { setImmediate as tick, setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import type { ClaimedMessage, InboxEntry, Report } from '../../src/domain/messages/message.js';
import type { Store } from '../../src/domain/ports.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { SIMULATOR } from '../../src/channels/simulator/simulator-channel.js';

/** Messages, clocks and waits for the simulator channel's unit tests. */
export const log = pino({ level: 'silent' });

export class ManualClock {
  constructor(public t = 1_700_000_000_000) {}
  now(): number {
    return this.t;
  }
}

export const ORDINARY = '+8613812345678';
export const FAIL = '+8613800000001';
export const REFUSE = '+8613800000002';
export const SILENT = '+8613800000003';

export function sms(
  id: number,
  e164: string,
  body = `Your code is ${id}`,
  senderId = '',
): ClaimedMessage {
  return {
    id,
    kind: 'sms',
    accountId: 1,
    route: SIMULATOR,
    attempts: 1,
    e164,
    senderId,
    extendCode: '',
    body,
    messageId: undefined,
    businessPhone: '',
    type: '',
  };
}

export function business(id: number, e164: string): ClaimedMessage {
  return {
    id,
    kind: 'business',
    accountId: 1,
    route: SIMULATOR,
    attempts: 1,
    e164,
    senderId: '',
    extendCode: '',
    body: JSON.stringify({ body: `hello ${id}` }),
    messageId: `msg-${id}`,
    businessPhone: '+15550001111',
    type: 'text',
  };
}

export { until } from './eventually.js';

/** A few turns of the event loop, so that anything already due has had its chance to run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) {
    await sleep(2);
    await tick();
  }
}

export function collector() {
  const calls: Report[][] = [];
  const listener = async (reports: Report[]) => {
    calls.push(reports);
  };
  return { calls, listener, all: () => calls.flat() };
}

export async function inbox(store: Store): Promise<InboxEntry[]> {
  const entries = await store.listInbox({ limit: 1000 });
  return entries.sort((a, b) => a.messageRef - b.messageRef);
}

export async function withStore(fn: (store: Store) => Promise<void>): Promise<void> {
  const store = openSqliteStore({ path: ':memory:' });
  try {
    await fn(store);
  } finally {
    await store.close();
  }
}

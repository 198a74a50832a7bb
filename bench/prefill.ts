import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { AcceptedBatch, AcceptedSms } from '../src/domain/messages/message.js';
import { costCount } from '../src/domain/segments/segments.js';
import { renderTemplate } from '../src/domain/templates/variables.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { BENCH_TEMPLATE, paramsFor } from './api.js';
import { PhoneSequence } from './numbers.js';

const BATCH = 1000;
/** Batches accepted between two passes that move them to their final, delivered state. */
const FINALISE_EVERY = 100;
const SPREAD_MS = 30 * 24 * 3600 * 1000;

/**
 * What dispatch through the simulator leaves behind for a delivered SMS: the message final with
 * a Success receipt and its upstream id, and its entry in the simulator's inbox, reported.
 */
const FINALISE = `UPDATE messages SET state = 'final', status = 'delivered', attempts = 1,
  due_at = NULL, upstream_id = 'sim-' || id, submitted_at = accepted_at,
  receipt_result = 'Success', receipt_code = 'DELIVRD', receipt_desc = 'delivered to the handset',
  receipt_time = accepted_at / 1000 WHERE id > ? AND state = 'queued'`;
const INBOX = `INSERT INTO sim_inbox (message_ref, route, upstream_id, kind, from_addr, to_addr,
  body, type, segments, encoding, delivered_at, report_status, report_due_at, reported)
  SELECT id, route, 'sim-' || id, 'sms', 'WIREBIRD', e164, body, 'sms', cost_count, 'gsm7',
    accepted_at, 'delivered', accepted_at, 1 FROM messages WHERE id > ?`;

/** Leftovers of earlier runs (e.g. --isolate ones) must not be a backlog for the next one. */
const SETTLE = FINALISE.replace("WHERE id > ? AND state = 'queued'", 'WHERE due_at IS NOT NULL');

export interface PrefillResult {
  before: number;
  stored: number;
  seconds: number;
  perS: number;
  limitHit: boolean;
  dbGb: number;
}

export function storedMessages(dataDir: string): number {
  const db = new Database(join(dataDir, 'wirebird.db'), { readonly: true });
  try {
    return db.prepare('SELECT coalesce(max(id), 0) FROM messages').pluck().get() as number;
  } finally {
    db.close();
  }
}

/** Marks messages still waiting for dispatch as delivered; returns how many there were. */
export function settle(dataDir: string): number {
  const db = new Database(join(dataDir, 'wirebird.db'));
  try {
    return db.prepare(SETTLE).run().changes;
  } finally {
    db.close();
  }
}

function batchOf(
  phones: PhoneSequence,
  templateId: string,
  acceptedAt: number,
  dueAt?: number,
): AcceptedBatch {
  const messages = phones.take(BATCH).map((phone): AcceptedSms => {
    const params = paramsFor(Number(phone.slice(-7)));
    const text = renderTemplate(BENCH_TEMPLATE, params);
    return {
      phone,
      e164: phone,
      route: 'simulator',
      templateId,
      params,
      senderId: '',
      extendCode: '',
      userId: '',
      country: undefined,
      text,
      costCount: costCount(text),
    };
  });
  const due = dueAt === undefined ? {} : { dueAt };
  return { accountId: 1, sessionNo: randomUUID(), acceptedAt, messages, ...due };
}

/**
 * Adds `count` messages held until `dueAt` (ms) to a stopped gateway's store, 1000 a session,
 * through store.acceptBatch as SendAt does; numbers from `firstPhone` of the 139 range.
 */
export async function holdMessages(
  dataDir: string,
  o: { count: number; dueAt: number; firstPhone: number },
): Promise<{ sessions: { sessionNo: string; accepted: number }[]; seconds: number }> {
  const store = openSqliteStore({ path: join(dataDir, 'wirebird.db'), synchronous: 'NORMAL' });
  const phones = new PhoneSequence('139', o.firstPhone);
  const sessions: { sessionNo: string; accepted: number }[] = [];
  const t0 = performance.now();
  try {
    for (let n = 0; n < o.count; n += BATCH) {
      const batch = batchOf(phones, 'UTABENCHHELD', Date.now(), o.dueAt);
      await store.acceptBatch(batch);
      sessions.push({ sessionNo: batch.sessionNo, accepted: batch.messages.length });
    }
  } finally {
    await store.close();
  }
  return { sessions, seconds: (performance.now() - t0) / 1000 };
}

/**
 * Fills the gateway's store (gateway stopped) up to `target` messages through the store's own
 * write path, store.acceptBatch, 1000 per session, finalising them as delivered as it goes.
 * Stops early at the time limit and reports how many it reached.
 */
export async function prefill(
  dataDir: string,
  target: number,
  limitS: number,
): Promise<PrefillResult> {
  const path = join(dataDir, 'wirebird.db');
  const before = storedMessages(dataDir);
  const store = openSqliteStore({ path, synchronous: 'NORMAL' });
  const db = new Database(path);
  db.pragma('synchronous = NORMAL');
  const finalise = db.transaction((after: number) => {
    db.prepare(INBOX).run(after);
    db.prepare(FINALISE).run(after);
  });
  const phones = new PhoneSequence('139', before + 10_000);
  const t0 = performance.now();
  const deadline = t0 + limitS * 1000;
  const firstAt = Date.now() - SPREAD_MS;
  let stored = before;
  let finalisedTo = before;
  let lastLog = t0;
  while (stored < target && performance.now() < deadline) {
    const at = firstAt + Math.floor((SPREAD_MS * stored) / Math.max(target, 1));
    await store.acceptBatch(batchOf(phones, 'UTABENCHPREFILL', at));
    stored += BATCH;
    if ((stored - before) % (BATCH * FINALISE_EVERY) === 0 || stored >= target) {
      finalise(finalisedTo);
      finalisedTo = stored;
    }
    if (performance.now() - lastLog > 10_000) {
      lastLog = performance.now();
      const rate = (stored - before) / ((lastLog - t0) / 1000);
      console.error(`prefill: ${stored.toLocaleString('en-US')} stored, ${Math.round(rate)}/s`);
    }
  }
  finalise(finalisedTo);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  await store.close();
  const seconds = (performance.now() - t0) / 1000;
  return {
    before,
    stored,
    seconds,
    perS: (stored - before) / seconds,
    limitHit: stored < target,
    dbGb: statSync(path).size / 1024 ** 3,
  };
}

/**
 * Rows as a submit recorded them before the issuer was split (SQLite version 23, PostgreSQL 21):
 * the route overwritten with 'smpp:<smsc>'. Both stores' migration tests write these into a
 * database at the version before, open it with today's code and check the same things. Plain SQL
 * with literal values, so that one text runs on both.
 */
import assert from 'node:assert/strict';
import type { Store } from '../../domain/ports.js';
import { INSERT_COLUMNS } from '../rows/messages.js';
import { LEASE, NOW, batch, only, receiptOf, report, sms } from './fixtures.js';

const OLD = "'smpp:carrier'";
const row = (phone: string, body: string) =>
  `('sms', 7, 'old-session', NULL, '${phone}', '${phone}', ${OLD}, 't', '[]', 'S', '', '', '${body}',
    '', '', 1, 'submitted', 'accepted', NULL, ${NOW})`;

export const ROWS_BEFORE_THE_SPLIT: readonly string[] = [
  `INSERT INTO messages (${INSERT_COLUMNS}) VALUES ${row('+447700900001', 'one')},
     ${row('+447700900002', 'two parts')}`,
  `UPDATE messages SET upstream_id = 'u1', submitted_at = ${NOW} WHERE phone = '+447700900001'`,
  `UPDATE messages SET upstream_id = 'p1', parts = 2, submitted_at = ${NOW}
   WHERE phone = '+447700900002'`,
  ...[1, 2].map(
    (n) => `INSERT INTO message_parts (route, upstream_id, message_ref, part_no)
     SELECT ${OLD}, 'p${n}', id, ${n} FROM messages WHERE phone = '+447700900002'`,
  ),
  `INSERT INTO early_reports (route, upstream_id, status, code, descr, at, received_at)
   VALUES (${OLD}, 'u9', 'delivered', 'DELIVRD', 'delivered early', ${NOW}, ${NOW})`,
];

/** What the migrated rows say, read by each store's own driver. */
export const ISSUERS_SQL = 'SELECT phone, route, upstream, state FROM messages ORDER BY id';

const fromCarrier = { route: 'smpp', upstream: 'carrier' };

/**
 * After the migration: reports naming the route and the SMSC find the one-part message and both
 * parts, and the early report waits under the split issuer for a submit from that SMSC.
 */
export async function checkSplitIssuers(store: Store): Promise<void> {
  const reports = ['u1', 'p1', 'p2'].map((id) =>
    report(id, 'delivered', NOW + 1000, { ...fromCarrier }),
  );
  assert.deepEqual(await store.applyReports(reports, NOW + 1000), { unmatched: 0 });
  const b = batch([sms({ route: 'smpp' })]);
  await store.acceptBatch(b);
  const claimed = only(await store.claimDue(NOW, 10, LEASE));
  const submitted = { id: claimed.id, attempt: claimed.attempts, kind: 'submitted' as const };
  await store.recordOutcomes([{ ...submitted, ...fromCarrier, upstreamId: 'u9' }], NOW + 2000);
  assert.equal((await receiptOf(store, b.sessionNo)).ReceiptDesc, 'delivered early');
}

/** The rows ISSUERS_SQL reads once checkSplitIssuers has run. */
export const SPLIT_ISSUERS = [
  { phone: '+447700900001', route: 'smpp', upstream: 'carrier', state: 'final' },
  { phone: '+447700900002', route: 'smpp', upstream: 'carrier', state: 'final' },
  { phone: '(0)7700 900123', route: 'smpp', upstream: 'carrier', state: 'final' },
];

import type { IssuedId, Report } from '../../domain/messages/message.js';
import { applyReport } from '../../domain/receipts/apply-report.js';
import { inTransaction, type Pool, type Queryable } from './database.js';
import { anyUnknown, earlyReportsLock, keepEarly, takeEarly } from './early-reports.js';
import { addEvents, type EventInput } from './events.js';
import type { MessageChange } from '../rows/outbox.js';
import { messagesChanged } from './outbox.js';
import { lockTargets, writeParts } from './message-parts.js';

/** What a run of reports does to one message, folded in memory and written once. */
interface Change {
  id: number;
  status: string;
  final?: { result: string; code: string; desc: string; time: number };
}

export type PostgresReports = ReturnType<typeof postgresReports>;

/**
 * Locks the messages the reports name, then applies every report in order as the SQLite adapter
 * does one by one: the first final report makes the receipt (of a multipart message, once every
 * part has one, combined), later ones only move the status forward, business messages keep every
 * report in their history. Answers the reports that matched no message.
 */
async function applyAll(c: Queryable, reports: readonly Report[], now: number): Promise<Report[]> {
  if (reports.length === 0) return [];
  const targets = await lockTargets(c, reports);
  const changes = new Map<number, Change>();
  const events: EventInput[] = [];
  const said: MessageChange[] = [];
  const unmatched: Report[] = [];
  for (const rep of reports) {
    const found = targets.locate(rep);
    if (!found) {
      unmatched.push(rep);
      continue;
    }
    const { m } = found;
    if (m.kind === 'business')
      events.push({ id: m.id, status: rep.status, code: rep.code, desc: rep.desc, at: rep.at });
    // A part's final report finishes the message only together with all the other parts'.
    const speaking = m.parts > 1 ? targets.settle(rep, found) : rep;
    const { status, receipt } = applyReport(m, speaking, rep);
    // An SMS speaks once, with its receipt; a business message at each new status.
    if (m.kind === 'sms' ? receipt : status !== m.status) {
      const { code, desc } = speaking ?? rep;
      said.push({ id: m.id, status, code, desc, at: rep.at });
    }
    const change = changes.get(m.id) ?? { id: m.id, status: m.status };
    if (receipt) {
      m.state = 'final';
      change.final = receipt;
    }
    m.status = status;
    change.status = status;
    changes.set(m.id, change);
  }
  await writeParts(c, targets.settled());
  await writeChanges(c, [...changes.values()]);
  await addEvents(c, events, 0);
  await messagesChanged(c, said, now);
  return unmatched;
}

async function writeChanges(c: Queryable, changes: readonly Change[]): Promise<void> {
  const finals = changes.filter((x) => x.final);
  const moved = changes.filter((x) => !x.final);
  if (finals.length > 0) {
    await c.query(
      `UPDATE messages m SET state = 'final', due_at = NULL, status = f.status,
         receipt_result = f.result, receipt_code = f.code, receipt_desc = f.descr, receipt_time = f.time
       FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[])
         AS f(id, status, result, code, descr, time)
       WHERE m.id = f.id AND m.state <> 'final'`,
      [
        finals.map((x) => x.id),
        finals.map((x) => x.status),
        finals.map((x) => x.final?.result),
        finals.map((x) => x.final?.code),
        finals.map((x) => x.final?.desc),
        finals.map((x) => x.final?.time),
      ],
    );
  }
  if (moved.length > 0) {
    await c.query(
      `UPDATE messages m SET status = s.status
       FROM unnest($1::bigint[], $2::text[]) AS s(id, status)
       WHERE m.id = s.id AND m.status <> s.status`,
      [moved.map((x) => x.id), moved.map((x) => x.status)],
    );
  }
}

export function postgresReports(pool: Pool) {
  return {
    async applyReports(reports: readonly Report[], now: number) {
      return inTransaction(pool, async (c) => {
        if (await anyUnknown(c, reports)) await earlyReportsLock(c, 'exclusive');
        const unmatched = await applyAll(c, reports, now);
        await keepEarly(c, unmatched, now);
        return { unmatched: unmatched.length };
      });
    },
    /** Reports that came before their submit answer are applied once the upstream id is known. */
    async applyEarlyReports(c: Queryable, list: readonly IssuedId[], now: number) {
      if (list.length === 0) return;
      // Early reports are rare: one look at the table spares a lookup per submitted message.
      const any = await c.query('SELECT 1 FROM early_reports LIMIT 1');
      if (any.rowCount === 0) return;
      await applyAll(c, await takeEarly(c, list), now);
    },
    async expireAwaiting(cutoff: number, now: number, limit: number) {
      return inTransaction(pool, async (c) => {
        const r = await c.query<{ id: number; kind: string }>(
          `WITH due AS (
             SELECT id FROM messages WHERE state = 'submitted' AND submitted_at <= $2
             ORDER BY submitted_at LIMIT $3 FOR UPDATE SKIP LOCKED)
           UPDATE messages m SET state = 'final', status = 'unknown', receipt_result = 'Unknow',
             receipt_code = 'TIMEOUT',
             receipt_desc = 'no delivery report arrived before the receipt timeout', receipt_time = $1
           FROM due WHERE m.id = due.id RETURNING m.id, m.kind`,
          [Math.floor(now / 1000), cutoff, limit],
        );
        const business = r.rows.filter((m) => m.kind === 'business');
        const desc = 'no status before the receipt timeout';
        await addEvents(
          c,
          business.map((m) => ({ id: m.id, status: 'unknown', code: 'TIMEOUT', desc })),
          now,
        );
        const expired = r.rows.map((m) => ({ id: m.id, status: 'unknown', code: 'TIMEOUT', desc }));
        await messagesChanged(
          c,
          expired.map((m) => ({ ...m, at: now })),
          now,
        );
        // A report nobody claimed within the receipt timeout belongs to no message we will see.
        await c.query('DELETE FROM early_reports WHERE received_at <= $1', [cutoff]);
        return r.rowCount ?? 0;
      });
    },
  };
}

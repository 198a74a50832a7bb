import type { IssuedId, SubmitOutcome } from '../../domain/messages/message.js';
import type { MessageStore } from '../../domain/ports.js';
import type { Db } from './database.js';
import type { SqliteOutbox } from './outbox.js';
import type { sqliteReports } from './reports.js';
import type { SqliteWriter } from './writer.js';

/** Submit outcomes recorded in one transaction: submitted (with parts), retried, failed. */
export function sqliteOutcomes(
  db: Db,
  writer: SqliteWriter,
  reports: ReturnType<typeof sqliteReports>,
  outbox: SqliteOutbox,
): Pick<MessageStore, 'recordOutcomes'> {
  const outcomes = outcomeStatements(db, reports, outbox);
  return {
    async recordOutcomes(list, now) {
      await writer.run(() => outcomes(list, now));
    },
  };
}

interface Changed {
  kind: string;
  account_id: number;
  receipt_to: string | null;
}

function outcomeStatements(
  db: Db,
  reports: ReturnType<typeof sqliteReports>,
  outbox: SqliteOutbox,
) {
  const sent = submittedRecorders(db);
  const unsent = unsentRecorders(db, outbox);
  return db.transaction((list: readonly SubmitOutcome[], now: number) => {
    const late: Late[] = [];
    const single: Submitted[] = [];
    for (const o of list) {
      if (o.kind === 'submitted' && !(o.parts && o.parts.length > 1)) single.push(o);
      else if (o.kind === 'submitted') sent.recordMultipart(o, now, late);
      else if (o.kind === 'retry') unsent.recordRetry(o, now);
      else unsent.recordFailed(o, now);
    }
    sent.recordSingle(single, now, late);
    reports.applyEarlyReports(late, now);
  });
}

/** Business messages keep a status history; an SMS has its receipt. */
function eventWriter(db: Db) {
  const insertEvent = db.prepare(
    'INSERT INTO message_events (message_ref, status, at, code, descr) VALUES (?,?,?,?,?)',
  );
  // `changed` is the outcome UPDATE's RETURNING row, absent when the claim was stale.
  const event = (
    changed: { kind: string } | undefined,
    ...values: [number, string, number, string, string]
  ) => {
    if (changed?.kind === 'business') insertEvent.run(...values);
  };
  return { insertEvent, event };
}

/** Submits that an upstream took: single-part ones in one statement, multipart with their parts. */
function submittedRecorders(db: Db) {
  const submitted = db.prepare<unknown[], { kind: string }>(
    `UPDATE messages SET state = 'submitted', due_at = NULL, upstream = ?, upstream_id = ?,
       submitted_at = ?, parts = ? WHERE id = ? AND state = 'submitting' AND attempts = ?
     RETURNING kind`,
  );
  // Single-part submits, the bulk of every pass, as one statement over the pass's JSON.
  const submittedMany = db.prepare<unknown[], [number, string]>(
    `UPDATE messages SET state = 'submitted', due_at = NULL, upstream = o.value ->> 1,
       upstream_id = o.value ->> 2, submitted_at = ?, parts = 1 FROM json_each(?) AS o
     WHERE messages.id = o.value ->> 0 AND messages.state = 'submitting'
       AND messages.attempts = o.value ->> 3 RETURNING messages.id, messages.kind`,
  );
  submittedMany.raw(true);
  // An SMSC may hand out an id again after wrapping around: the newest message owns it.
  const part = db.prepare(
    `INSERT INTO message_parts (route, upstream, upstream_id, message_ref, part_no)
     VALUES (?,?,?,?,?)
     ON CONFLICT (route, upstream, upstream_id) DO UPDATE SET message_ref = excluded.message_ref,
       part_no = excluded.part_no, status = NULL, code = NULL, descr = NULL`,
  );
  const { insertEvent, event } = eventWriter(db);
  return {
    /** Records single-part submits; those whose claim still held join `late`. */
    recordSingle(single: readonly Submitted[], now: number, late: Late[]) {
      if (single.length === 0) return;
      const pass = JSON.stringify(single.map((o) => [o.id, o.upstream, o.upstreamId, o.attempt]));
      const changed = submittedMany.all(now, pass);
      const byId = new Map(single.map((o) => [o.id, o]));
      for (const [id, kind] of changed) {
        // RETURNING answers only ids of this pass.
        const o = byId.get(id) as Submitted;
        late.push(o);
        if (kind === 'business') insertEvent.run(id, 'submitted', now, '', o.upstreamId);
      }
    },
    /** A multipart message: its row, and a row per part that reports will name. */
    recordMultipart(o: Submitted, now: number, late: Late[]) {
      const parts = o.parts ?? [];
      const row = submitted.get(o.upstream, o.upstreamId, now, parts.length, o.id, o.attempt);
      if (!row) return;
      parts.forEach((upstreamId, i) => {
        part.run(o.route, o.upstream, upstreamId, o.id, i + 1);
        late.push({ route: o.route, upstream: o.upstream, upstreamId });
      });
      event(row, o.id, 'submitted', now, '', o.upstreamId);
    },
  };
}

/** Submits that failed: queued again for a retry, or failed for good (with its event). */
function unsentRecorders(db: Db, outbox: SqliteOutbox) {
  const retry = db.prepare<unknown[], { kind: string }>(
    `UPDATE messages SET state = 'queued', due_at = ?, last_error = ?
     WHERE id = ? AND state = 'submitting' AND attempts = ? RETURNING kind`,
  );
  const failed = db.prepare<unknown[], Changed>(
    `UPDATE messages SET state = 'final', due_at = NULL, status = 'failed', receipt_result = 'SubmitFail',
       receipt_code = ?, receipt_desc = ?, receipt_time = ?
     WHERE id = ? AND state = 'submitting' AND attempts = ? RETURNING kind, account_id, receipt_to`,
  );
  const { event } = eventWriter(db);
  return {
    recordRetry(o: Extract<SubmitOutcome, { kind: 'retry' }>, now: number) {
      const row = retry.get(o.dueAt, `${o.code} ${o.desc}`, o.id, o.attempt);
      event(row, o.id, 'retry', now, o.code, o.desc);
    },
    recordFailed(o: Extract<SubmitOutcome, { kind: 'failed' }>, now: number) {
      const row = failed.get(o.code, o.desc, Math.floor(now / 1000), o.id, o.attempt);
      event(row, o.id, 'failed', now, o.code, o.desc);
      if (!row) return;
      const change = {
        ...{ id: o.id, accountId: row.account_id, kind: row.kind, status: 'failed' },
        receiptTo: row.receipt_to,
      };
      outbox.messageChanged({ ...change, code: o.code, desc: o.desc, at: now }, now);
    },
  };
}

type Submitted = Extract<SubmitOutcome, { kind: 'submitted' }>;
/** Upstream ids whose reports may have come before their submit was recorded. */
type Late = IssuedId;

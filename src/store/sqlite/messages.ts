import type { IdempotencyRecord, SubmitOutcome } from '../../domain/messages/message.js';
import { idempotencyWindowStart } from '../../domain/messages/idempotency-window.js';
import type { MessageStore } from '../../domain/ports.js';
import {
  CLAIM_COLUMNS,
  INSERT_COLUMNS,
  fromClaimValues,
  fromIdemRow,
  type IdemRow,
} from '../rows/messages.js';
import type { Db } from './database.js';
import { groupCommit } from './group-commit.js';
import { smsInserter } from './insert-sms.js';
import { relaxed } from './relaxed.js';
import { sqliteReports } from './reports.js';
import { sqliteReceipts } from './receipts.js';

type AcceptPart = Pick<
  MessageStore,
  | 'acceptBatch'
  | 'acceptBusinessMessage'
  | 'findIdempotency'
  | 'claimDue'
  | 'recordOutcomes'
  | 'extendLeases'
>;

const INSERT_MESSAGE = `INSERT INTO messages (${INSERT_COLUMNS})
  VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,'queued','accepted',?,?)`;

export function sqliteMessages(db: Db): MessageStore {
  const reports = sqliteReports(db);
  return { ...acceptance(db, reports), ...reports, ...sqliteReceipts(db) };
}

function acceptance(db: Db, reports: ReturnType<typeof sqliteReports>): AcceptPart {
  const insertMessage = db.prepare(INSERT_MESSAGE);
  const insertSms = smsInserter(db);
  const insertEvent = db.prepare(
    'INSERT INTO message_events (message_ref, status, at, code, descr) VALUES (?,?,?,?,?)',
  );
  const insertSession = db.prepare(
    'INSERT INTO sessions (session_no, account_id, accepted_count, created_at) VALUES (?,?,?,?)',
  );
  const selectIdem = db.prepare(
    'SELECT account_id, idem_key, request_hash, response, created_at FROM idempotency_keys WHERE account_id = ? AND idem_key = ? AND created_at >= ?',
  );
  const upsertIdem = db.prepare(
    `INSERT INTO idempotency_keys (account_id, idem_key, request_hash, response, created_at) VALUES (?,?,?,?,?)
     ON CONFLICT (account_id, idem_key) DO UPDATE SET request_hash = excluded.request_hash,
       response = excluded.response, created_at = excluded.created_at`,
  );
  const findIdem = (accountId: number, key: string, notBefore: number) => {
    const row = selectIdem.get(accountId, key, notBefore) as IdemRow | undefined;
    return row && fromIdemRow(row);
  };
  const commit = groupCommit(db);
  /**
   * Runs `write` all or nothing, unless the idempotency key is taken within its window, and
   * settles once it is committed (with the other acceptances of the same moment).
   */
  const guarded = (idem: IdempotencyRecord | undefined, notBefore: number, write: () => void) =>
    commit((): IdempotencyRecord | undefined => {
      if (idem) {
        const existing = findIdem(idem.accountId, idem.key, notBefore);
        if (existing) return existing;
        upsertIdem.run(idem.accountId, idem.key, idem.requestHash, idem.response, idem.createdAt);
      }
      write();
      return undefined;
    });

  const claim = db.prepare(
    `UPDATE messages SET state = 'submitting', attempts = attempts + 1, due_at = ?
     WHERE id IN (SELECT id FROM messages WHERE due_at <= ? ORDER BY due_at LIMIT ?)
     RETURNING ${CLAIM_COLUMNS}`,
  );
  // Arrays, not objects: better-sqlite3 builds an object a property at a time.
  claim.raw(true);
  const outcomes = outcomeStatements(db, reports);
  const extendOne = db.prepare(
    `UPDATE messages SET due_at = ? WHERE id = ? AND state = 'submitting' AND attempts = ?`,
  );
  // A lost claim or renewal only makes its messages due sooner; the outcome's commit is durable.
  const claimRows = relaxed(
    db,
    (until: number, now: number, limit: number) => claim.all(until, now, limit) as unknown[][],
  );
  const extend = relaxed(db, (claims: readonly { id: number; attempt: number }[], until) => {
    for (const c of claims) extendOne.run(until, c.id, c.attempt);
  });

  return {
    async acceptBatch(batch, idem) {
      return guarded(idem, idemWindowStart(idem), () => {
        insertSession.run(
          batch.sessionNo,
          batch.accountId,
          batch.messages.length,
          batch.acceptedAt,
        );
        insertSms(batch);
      });
    },
    async acceptBusinessMessage(m, idem) {
      return guarded(idem, idemWindowStart(idem), () => {
        const { lastInsertRowid } = insertMessage.run(
          'business',
          m.accountId,
          null,
          m.messageId,
          m.to,
          m.e164,
          m.route,
          null,
          null,
          '',
          '',
          '',
          m.content,
          m.type,
          m.businessPhone,
          1,
          m.acceptedAt,
          m.acceptedAt,
        );
        insertEvent.run(lastInsertRowid, 'accepted', m.acceptedAt, '', '');
      });
    },
    async findIdempotency(accountId, key, notBefore) {
      return findIdem(accountId, key, notBefore);
    },
    async claimDue(now, limit, leaseMs) {
      return claimRows(now + leaseMs, now, limit).map(fromClaimValues);
    },
    async recordOutcomes(list, now) {
      outcomes(list, now);
    },
    async extendLeases(claims, until) {
      extend(claims, until);
    },
  };
}

interface Changed {
  kind: string;
}

/** The window is carried on the record: it was created at `now`. */
function idemWindowStart(idem: IdempotencyRecord | undefined): number {
  return idem ? idempotencyWindowStart(idem.createdAt) : 0;
}

function outcomeStatements(db: Db, reports: ReturnType<typeof sqliteReports>) {
  const submitted = db.prepare(
    `UPDATE messages SET state = 'submitted', due_at = NULL, route = ?, upstream_id = ?, submitted_at = ?,
       parts = ? WHERE id = ? AND state = 'submitting' AND attempts = ? RETURNING kind`,
  );
  // Single-part submits, the bulk of every pass, as one statement over the pass's JSON.
  const submittedMany = db.prepare(
    `UPDATE messages SET state = 'submitted', due_at = NULL, route = o.value ->> 1,
       upstream_id = o.value ->> 2, submitted_at = ?, parts = 1 FROM json_each(?) AS o
     WHERE messages.id = o.value ->> 0 AND messages.state = 'submitting'
       AND messages.attempts = o.value ->> 3 RETURNING messages.id, messages.kind`,
  );
  submittedMany.raw(true);
  // An SMSC may hand out an id again after wrapping around: the newest message owns it.
  const part = db.prepare(
    `INSERT INTO message_parts (route, upstream_id, message_ref, part_no) VALUES (?,?,?,?)
     ON CONFLICT (route, upstream_id) DO UPDATE SET message_ref = excluded.message_ref,
       part_no = excluded.part_no, status = NULL, code = NULL, descr = NULL`,
  );
  const retry = db.prepare(
    `UPDATE messages SET state = 'queued', due_at = ?, last_error = ?
     WHERE id = ? AND state = 'submitting' AND attempts = ? RETURNING kind`,
  );
  const failed = db.prepare(
    `UPDATE messages SET state = 'final', due_at = NULL, status = 'failed', receipt_result = 'SubmitFail',
       receipt_code = ?, receipt_desc = ?, receipt_time = ?
     WHERE id = ? AND state = 'submitting' AND attempts = ? RETURNING kind`,
  );
  const insertEvent = db.prepare(
    'INSERT INTO message_events (message_ref, status, at, code, descr) VALUES (?,?,?,?,?)',
  );
  // Only business messages keep a status history; an SMS has its receipt.
  // `changed` is the outcome UPDATE's RETURNING row, absent when the claim was stale.
  const event = (changed: unknown, ...values: [number, string, number, string, string]) => {
    if ((changed as Changed | undefined)?.kind === 'business') insertEvent.run(...values);
  };
  /** Records single-part submits; those whose claim still held join `late`. */
  const recordSingle = (single: readonly Submitted[], now: number, late: Late[]) => {
    if (single.length === 0) return;
    const pass = JSON.stringify(single.map((o) => [o.id, o.route, o.upstreamId, o.attempt]));
    const changed = submittedMany.all(now, pass) as [number, string][];
    const byId = new Map(single.map((o) => [o.id, o]));
    for (const [id, kind] of changed) {
      const o = byId.get(id) as Submitted;
      late.push(o);
      if (kind === 'business') insertEvent.run(id, 'submitted', now, '', o.upstreamId);
    }
  };
  return db.transaction((list: readonly SubmitOutcome[], now: number) => {
    const late: Late[] = [];
    const single: Submitted[] = [];
    for (const o of list) {
      if (o.kind === 'submitted' && !(o.parts && o.parts.length > 1)) {
        single.push(o);
      } else if (o.kind === 'submitted') {
        // A multipart message: its row, and a row per part that reports will name.
        const parts = o.parts ?? [];
        const row = submitted.get(o.route, o.upstreamId, now, parts.length, o.id, o.attempt);
        if (row) {
          parts.forEach((upstreamId, i) => {
            part.run(o.route, upstreamId, o.id, i + 1);
            late.push({ route: o.route, upstreamId });
          });
          event(row, o.id, 'submitted', now, '', o.upstreamId);
        }
      } else if (o.kind === 'retry') {
        const row = retry.get(o.dueAt, `${o.code} ${o.desc}`, o.id, o.attempt);
        event(row, o.id, 'retry', now, o.code, o.desc);
      } else {
        const row = failed.get(o.code, o.desc, Math.floor(now / 1000), o.id, o.attempt);
        event(row, o.id, 'failed', now, o.code, o.desc);
      }
    }
    recordSingle(single, now, late);
    reports.applyEarlyReports(late);
  });
}

type Submitted = Extract<SubmitOutcome, { kind: 'submitted' }>;
/** Upstream ids whose reports may have come before their submit was recorded. */
type Late = { route: string; upstreamId: string };

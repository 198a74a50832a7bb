import type { IdempotencyRecord, SubmitOutcome } from '../../domain/messages/message.js';
import type { MessageStore } from '../../domain/ports.js';
import { fromClaimRow, fromIdemRow, type ClaimRow, type IdemRow } from '../rows/messages.js';
import type { Db } from './database.js';
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

const INSERT_MESSAGE = `INSERT INTO messages (kind, account_id, session_no, message_id, phone, e164, route,
  template_id, params, sender_id, extend_code, user_id, body, type, business_phone, cost_count,
  state, status, due_at, accepted_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,'queued','accepted',?,?)`;

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
  /** Runs `write` in one transaction unless the idempotency key is taken within its window. */
  const guarded = (idem: IdempotencyRecord | undefined, notBefore: number, write: () => void) =>
    db.transaction((): IdempotencyRecord | undefined => {
      if (idem) {
        const existing = findIdem(idem.accountId, idem.key, notBefore);
        if (existing) return existing;
        upsertIdem.run(idem.accountId, idem.key, idem.requestHash, idem.response, idem.createdAt);
      }
      write();
      return undefined;
    })();

  const claim = db.prepare(
    `UPDATE messages SET state = 'submitting', attempts = attempts + 1, due_at = ?
     WHERE id IN (SELECT id FROM messages WHERE due_at <= ? ORDER BY due_at LIMIT ?)
     RETURNING id, kind, account_id, route, attempts, e164, sender_id, extend_code, body,
       message_id, business_phone, type`,
  );
  const outcomes = outcomeStatements(db, reports);
  const extendOne = db.prepare(
    `UPDATE messages SET due_at = ? WHERE id = ? AND state = 'submitting' AND attempts = ?`,
  );
  // A lost claim or renewal only makes its messages due sooner; the outcome's commit is durable.
  const claimRows = relaxed(
    db,
    (until: number, now: number, limit: number) => claim.all(until, now, limit) as ClaimRow[],
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
      return claimRows(now + leaseMs, now, limit).map(fromClaimRow);
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

/** The window is carried on the record: it was created at `now`, and keys live 24 hours. */
const IDEMPOTENCY_WINDOW_MS = 24 * 3600 * 1000;
function idemWindowStart(idem: IdempotencyRecord | undefined): number {
  return idem ? idem.createdAt - IDEMPOTENCY_WINDOW_MS : 0;
}

function outcomeStatements(db: Db, reports: ReturnType<typeof sqliteReports>) {
  const submitted = db.prepare(
    `UPDATE messages SET state = 'submitted', due_at = NULL, route = ?, upstream_id = ?, submitted_at = ?,
       parts = ? WHERE id = ? AND state = 'submitting' AND attempts = ? RETURNING kind`,
  );
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
  return db.transaction((list: readonly SubmitOutcome[], now: number) => {
    const late: { route: string; upstreamId: string }[] = [];
    for (const o of list) {
      if (o.kind === 'submitted') {
        const parts = o.parts && o.parts.length > 1 ? o.parts : [];
        const count = Math.max(1, parts.length);
        const row = submitted.get(o.route, o.upstreamId, now, count, o.id, o.attempt);
        if (row) {
          if (count === 1) late.push(o);
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
    reports.applyEarlyReports(late);
  });
}

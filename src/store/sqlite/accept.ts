import { idempotencyWindowStart } from '../../domain/messages/idempotency-window.js';
import type { AcceptedBusinessMessage } from '../../domain/messages/message.js';
import type { IdempotencyRecord } from '../../domain/messages/message.js';
import type { MessageStore } from '../../domain/ports.js';
import type { IdempotencyDraft } from '../../domain/accounts/policy-ports.js';
import { INSERT_COLUMNS, fromIdemRow, type IdemRow } from '../rows/messages.js';
import type { Db } from './database.js';
import { SCHEDULED } from '../../domain/messages/schedule.js';
import { smsInserter } from './insert-sms.js';
import type { SqliteOutbox } from './outbox.js';
import { INSERT_FALLBACK_COLUMNS, fallbackValues } from '../rows/conversations.js';
import { settledRecord } from '../rows/policy.js';
import { sqlitePolicyGuard } from './policy.js';
import type { SqliteWriter } from './writer.js';

const INSERT_MESSAGE = `INSERT INTO messages (${INSERT_COLUMNS}, expires_at)
  VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,'queued','accepted',?,?,?)`;

/**
 * Acceptance: a batch or a business message stored all or nothing, once per Idempotency-Key,
 * committed with the other acceptances of the same moment (group commit).
 */
export function sqliteAcceptance(
  db: Db,
  writer: SqliteWriter,
  outbox: SqliteOutbox,
): Pick<MessageStore, 'acceptBatch' | 'acceptBusinessMessage' | 'findIdempotency'> {
  const insertSms = smsInserter(db);
  const insertBusiness = businessInserter(db, outbox);
  const insertSession = db.prepare(
    'INSERT INTO sessions (session_no, account_id, accepted_count, created_at) VALUES (?,?,?,?)',
  );
  const { guarded, findIdem, takeIdem } = idempotencyGuard(db, writer);
  const policy = sqlitePolicyGuard(db, outbox);

  return {
    async acceptBatch(batch, idem) {
      return writer.run(() => {
        const raced = idem && findIdem(idem.accountId, idem.key, idemWindowStart(idem));
        if (raced) return { raced };
        const w = policy.decide(batch);
        const accepted = w ? w.batch : batch;
        const refused = w ? w.decision.refused : [];
        if (w) policy.write(w);
        if (accepted.messages.length === 0) return { refused };
        if (idem) takeIdem(settledRecord(idem, refused));
        insertSession.run(
          accepted.sessionNo,
          accepted.accountId,
          accepted.messages.length,
          accepted.acceptedAt,
        );
        insertSms(accepted);
        return { refused };
      });
    },
    async acceptBusinessMessage(m, idem) {
      return guarded(idem, idemWindowStart(idem), () => {
        insertBusiness(m);
      });
    },
    async findIdempotency(accountId, key, notBefore) {
      return findIdem(accountId, key, notBefore);
    },
  };
}

/**
 * Runs a write all or nothing, unless the idempotency key is taken within its window, and
 * settles once it is committed with the other acceptances of the same moment (group commit).
 */
function idempotencyGuard(db: Db, writer: SqliteWriter) {
  const selectIdem = db.prepare<unknown[], IdemRow>(
    'SELECT account_id, idem_key, request_hash, response, created_at FROM idempotency_keys WHERE account_id = ? AND idem_key = ? AND created_at >= ?',
  );
  const upsertIdem = db.prepare(
    `INSERT INTO idempotency_keys (account_id, idem_key, request_hash, response, created_at) VALUES (?,?,?,?,?)
     ON CONFLICT (account_id, idem_key) DO UPDATE SET request_hash = excluded.request_hash,
       response = excluded.response, created_at = excluded.created_at`,
  );
  const findIdem = (accountId: number, key: string, notBefore: number) => {
    const row = selectIdem.get(accountId, key, notBefore);
    return row && fromIdemRow(row);
  };
  /**
   * Runs `write` all or nothing, unless the idempotency key is taken within its window, and
   * settles once it is committed (with the other acceptances of the same moment).
   */
  const takeIdem = (idem: IdempotencyRecord) =>
    upsertIdem.run(idem.accountId, idem.key, idem.requestHash, idem.response, idem.createdAt);
  const guarded = (idem: IdempotencyRecord | undefined, notBefore: number, write: () => void) =>
    writer.run((): IdempotencyRecord | undefined => {
      if (idem) {
        const existing = findIdem(idem.accountId, idem.key, notBefore);
        if (existing) return existing;
        takeIdem(idem);
      }
      write();
      return undefined;
    });

  return { guarded, findIdem, takeIdem };
}

/**
 * A business message's row and its first event; its fallback's row, if it has one; and, for one
 * accepted already failed (outside the window, with a fallback), its failure and event at once.
 */
function businessInserter(db: Db, outbox: SqliteOutbox): (m: AcceptedBusinessMessage) => void {
  const insertMessage = db.prepare(INSERT_MESSAGE);
  const insertEvent = db.prepare(
    'INSERT INTO message_events (message_ref, status, at, code, descr) VALUES (?,?,?,?,?)',
  );
  const insertFallback = db.prepare(
    `INSERT INTO business_fallbacks (${INSERT_FALLBACK_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?)`,
  );
  const fail = db.prepare(
    `UPDATE messages SET state = 'final', due_at = NULL, status = 'failed', receipt_result = 'SubmitFail',
       receipt_code = ?, receipt_desc = ?, receipt_time = ? WHERE id = ?`,
  );
  /** One accepted for a later SendAt is told as scheduled: its history and its event. */
  const held = (id: number, m: AcceptedBusinessMessage) => {
    const at = m.acceptedAt;
    insertEvent.run(id, SCHEDULED, at, '', '');
    const change = { id, accountId: m.accountId, kind: 'business', status: SCHEDULED };
    outbox.messageChanged({ ...change, receiptTo: null, code: '', desc: '', at }, at);
  };
  return (m) => {
    const { lastInsertRowid } = insertMessage.run(
      ...['business', m.accountId, null, m.messageId, m.to, m.e164, m.route, null, null],
      ...['', '', '', m.content, m.type, m.businessPhone, 1, m.dueAt ?? m.acceptedAt],
      ...[m.acceptedAt, m.expiresAt ?? null],
    );
    insertEvent.run(lastInsertRowid, 'accepted', m.acceptedAt, '', '');
    if (m.fallback) insertFallback.run(...fallbackValues(m, m.fallback));
    if (!m.failure) {
      if (m.dueAt !== undefined) held(Number(lastInsertRowid), m);
      return;
    }
    const { code, desc } = m.failure;
    const id = Number(lastInsertRowid);
    fail.run(code, desc, Math.floor(m.acceptedAt / 1000), id);
    insertEvent.run(id, 'failed', m.acceptedAt, code, desc);
    const change = { id, accountId: m.accountId, kind: 'business', status: 'failed' };
    const at = m.acceptedAt;
    outbox.messageChanged({ ...change, receiptTo: null, code, desc, at }, at);
  };
}

/** The window is carried on the record: it was created at `now`. */
function idemWindowStart(idem: Pick<IdempotencyDraft, 'createdAt'> | undefined): number {
  return idem ? idempotencyWindowStart(idem.createdAt) : 0;
}

import { idempotencyWindowStart } from '../../domain/messages/idempotency-window.js';
import type {
  AcceptedBatch,
  AcceptedBusinessMessage,
  IdempotencyRecord,
} from '../../domain/messages/message.js';
import type { MessageStore } from '../../domain/ports.js';
import type { AcceptOutcome } from '../../domain/accounts/policy-ports.js';
import { settledRecord } from '../rows/policy.js';
import { decidePolicy, writePolicy } from './policy.js';
import { INSERT_COLUMNS, fromIdemRow, type IdemRow } from '../rows/messages.js';
import { inTransaction, type Pool, type Queryable } from './database.js';
import { insertSms } from './insert-sms.js';
import { messagesChanged } from './outbox.js';
import { INSERT_FALLBACK_COLUMNS, fallbackValues } from '../rows/conversations.js';
import { SCHEDULED } from '../../domain/messages/schedule.js';

/** Acceptance: a batch or a business message stored all or nothing, once per Idempotency-Key. */
export function postgresAcceptance(
  pool: Pool,
): Pick<MessageStore, 'acceptBatch' | 'acceptBusinessMessage' | 'findIdempotency'> {
  return {
    async acceptBatch(batch, idem) {
      return inTransaction(pool, async (c): Promise<AcceptOutcome> => {
        if (idem && !(await takeKey(c, settledRecord(idem, [])))) {
          const notBefore = idempotencyWindowStart(idem.createdAt);
          const raced = await findIdem(c, idem.accountId, idem.key, notBefore);
          // The key's holder is in the window: takeKey only loses to a row within it.
          if (raced) return { raced };
        }
        // Stored before the policy's lock is taken, so that the lock, which every acceptance of
        // the account waits for, is held for the counters and the commit, not for the rows.
        await insertSession(c, batch, batch.messages.length);
        await insertSms(c, batch);
        const w = await decidePolicy(c, batch);
        if (!w) return { refused: [] };
        await writePolicy(c, w);
        if (w.batch !== batch)
          await keepOnly(c, w.batch, idem && settledRecord(idem, w.decision.refused));
        return { refused: w.decision.refused };
      });
    },
    async acceptBusinessMessage(m, idem) {
      return guarded(pool, idem, async (c) => {
        await insertBusiness(c, m);
      });
    },
    async findIdempotency(accountId, key, notBefore) {
      return findIdem(pool, accountId, key, notBefore);
    },
  };
}

async function insertSession(c: Queryable, b: AcceptedBatch, count: number): Promise<void> {
  await c.query(
    'INSERT INTO sessions (session_no, account_id, accepted_count, created_at) VALUES ($1,$2,$3,$4)',
    [b.sessionNo, b.accountId, count, b.acceptedAt],
  );
}

/**
 * The policy refused some of the batch or paced it: its rows, stored whole before the decision,
 * are stored again as decided (rare: a limit reached, or a MaxPerSecond account). With nothing
 * accepted nothing is kept, not even the idempotency key; else the key answers the decision.
 */
async function keepOnly(
  c: Queryable,
  accepted: AcceptedBatch,
  record: IdempotencyRecord | undefined,
): Promise<void> {
  const { sessionNo, accountId } = accepted;
  await c.query('DELETE FROM messages WHERE session_no = $1 AND account_id = $2', [
    sessionNo,
    accountId,
  ]);
  await c.query('DELETE FROM sessions WHERE session_no = $1', [sessionNo]);
  if (accepted.messages.length > 0) {
    await insertSession(c, accepted, accepted.messages.length);
    await insertSms(c, accepted);
    // This transaction holds the key: its answer now says what was refused.
    if (record) {
      await c.query(
        'UPDATE idempotency_keys SET response = $3 WHERE account_id = $1 AND idem_key = $2',
        [record.accountId, record.key, record.response],
      );
    }
  } else if (record) {
    await c.query('DELETE FROM idempotency_keys WHERE account_id = $1 AND idem_key = $2', [
      record.accountId,
      record.key,
    ]);
  }
}

/**
 * A business message's row and its first event; its fallback's row, if it has one; and, for one
 * accepted already failed (outside the window, with a fallback), its failure and event at once.
 */
async function insertBusiness(c: Queryable, m: AcceptedBusinessMessage): Promise<void> {
  const r = await c.query<{ id: number }>(
    `WITH m AS (
       INSERT INTO messages (${INSERT_COLUMNS}, expires_at)
       VALUES ('business', $1, NULL, $2, $3, $4, $5, NULL, NULL, '', '', '', $6, $7, $8, 1,
         'queued', 'accepted', $10, $9, $11)
       RETURNING id),
     e AS (INSERT INTO message_events (message_ref, status, at, code, descr)
       SELECT id, 'accepted', $9, '', '' FROM m)
     SELECT id FROM m`,
    [
      m.accountId,
      m.messageId,
      m.to,
      m.e164,
      m.route,
      m.content,
      m.type,
      m.businessPhone,
      m.acceptedAt,
      m.dueAt ?? m.acceptedAt,
      m.expiresAt ?? null,
    ],
  );
  if (m.fallback) {
    await c.query(
      `INSERT INTO business_fallbacks (${INSERT_FALLBACK_COLUMNS}) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9)`,
      fallbackValues(m, m.fallback),
    );
  }
  const id = r.rows[0]?.id;
  if (id === undefined) return;
  if (m.failure) await failAtOnce(c, id, m.failure, m.acceptedAt);
  else if (m.dueAt !== undefined) await heldAtOnce(c, id, m.acceptedAt);
}

/** One accepted for a later SendAt is told as scheduled: its history and its event. */
async function heldAtOnce(c: Queryable, id: number, at: number): Promise<void> {
  await c.query(
    'INSERT INTO message_events (message_ref, status, at, code, descr) VALUES ($1,$2,$3,$4,$5)',
    [id, SCHEDULED, at, '', ''],
  );
  await messagesChanged(c, [{ id, status: SCHEDULED, code: '', desc: '', at }], at);
}

async function failAtOnce(
  c: Queryable,
  id: number,
  failure: { code: string; desc: string },
  at: number,
): Promise<void> {
  const { code, desc } = failure;
  await c.query(
    `UPDATE messages SET state = 'final', due_at = NULL, status = 'failed', receipt_result = 'SubmitFail',
       receipt_code = $1, receipt_desc = $2, receipt_time = $3 WHERE id = $4`,
    [code, desc, Math.floor(at / 1000), id],
  );
  await c.query(
    'INSERT INTO message_events (message_ref, status, at, code, descr) VALUES ($1,$2,$3,$4,$5)',
    [id, 'failed', at, code, desc],
  );
  await messagesChanged(c, [{ id, status: 'failed', code, desc, at }], at);
}

const IDEM_COLUMNS = 'account_id, idem_key, request_hash, response, created_at';

async function findIdem(
  db: Queryable,
  accountId: number,
  key: string,
  notBefore: number,
): Promise<IdempotencyRecord | undefined> {
  const r = await db.query<IdemRow>(
    `SELECT ${IDEM_COLUMNS} FROM idempotency_keys
     WHERE account_id = $1 AND idem_key = $2 AND created_at >= $3`,
    [accountId, key, notBefore],
  );
  const row = r.rows[0];
  return row && fromIdemRow(row);
}

/**
 * Takes the key for this request unless a record within its window holds it. A concurrent twin
 * inserting the same key makes this statement wait for the twin's commit, then see its row: of
 * two racing requests exactly one stores its messages.
 */
async function takeKey(db: Queryable, idem: IdempotencyRecord): Promise<boolean> {
  const r = await db.query(
    `INSERT INTO idempotency_keys AS k (${IDEM_COLUMNS}) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (account_id, idem_key) DO UPDATE SET request_hash = excluded.request_hash,
       response = excluded.response, created_at = excluded.created_at
     WHERE k.created_at < $6`,
    [
      idem.accountId,
      idem.key,
      idem.requestHash,
      idem.response,
      idem.createdAt,
      idempotencyWindowStart(idem.createdAt),
    ],
  );
  return r.rowCount === 1;
}

/** Runs `write` in one transaction unless the idempotency key is taken within its window. */
async function guarded(
  pool: Pool,
  idem: IdempotencyRecord | undefined,
  write: (db: Queryable) => Promise<void>,
): Promise<IdempotencyRecord | undefined> {
  return inTransaction(pool, async (c) => {
    if (idem && !(await takeKey(c, idem))) {
      const notBefore = idempotencyWindowStart(idem.createdAt);
      return findIdem(c, idem.accountId, idem.key, notBefore);
    }
    await write(c);
    return undefined;
  });
}

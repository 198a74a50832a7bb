import { fallbackEvent } from '../../domain/events/payloads.js';
import type { ConversationStore } from '../../domain/ports.js';
import {
  dueFallbacksQuery,
  settledValues,
  toDueFallback,
  windowUpsert,
  type DueFallbackRow,
} from '../rows/conversations.js';
import type { Db } from './database.js';
import { smsInserter } from './insert-sms.js';
import type { SqliteOutbox } from './outbox.js';
import { sqlitePolicyGuard } from './policy.js';
import { policedFallback } from '../rows/policy.js';

const Q = () => '?';

/** The window a contact's message opens: written in the inbound message's own transaction. */
export function sqliteWindows(
  db: Db,
): (businessPhone: string, contact: string, at: number) => void {
  const upsert = db.prepare(windowUpsert(Q, 'max'));
  return (businessPhone, contact, at) => upsert.run(businessPhone, contact, at);
}

/** The 24-hour window's reads, and business messages' SMS fallbacks. */
export function sqliteConversations(db: Db, outbox: SqliteOutbox): ConversationStore {
  const lastAt = db
    .prepare<unknown[], number>(
      'SELECT last_inbound_at FROM conversation_windows WHERE business_phone = ? AND contact = ?',
    )
    .pluck();
  const due = db.prepare<unknown[], DueFallbackRow>(dueFallbacksQuery(Q));
  const settle = db.prepare(
    `UPDATE business_fallbacks SET state = ?, session_no = ?, phone = ?, reason = ?, settled_at = ?
     WHERE message_id = ? AND state = 'pending'`,
  );
  const insertSession = db.prepare(
    'INSERT INTO sessions (session_no, account_id, accepted_count, created_at) VALUES (?,?,?,?)',
  );
  const insertSms = smsInserter(db);
  const policy = sqlitePolicyGuard(db, outbox);
  const settleOne: ConversationStore['settleFallback'] = async (d, proposed, now) =>
    db.transaction(() => {
      const w = proposed.state === 'sent' ? policy.decide(proposed.batch) : undefined;
      const outcome = proposed.state === 'sent' ? policedFallback(proposed, w) : proposed;
      const values = settledValues(outcome);
      if (settle.run(...values, now, d.messageId).changes === 0) return undefined;
      if (w) policy.write(w);
      if (outcome.state === 'unneeded') return outcome;
      if (outcome.state === 'sent') {
        const b = outcome.batch;
        insertSession.run(b.sessionNo, b.accountId, b.messages.length, b.acceptedAt);
        insertSms(b);
      }
      outbox.emit(fallbackEvent(d, outcome, now), now);
      return outcome;
    })();
  return {
    async lastInbound(businessPhone, contact) {
      return lastAt.get(businessPhone, contact);
    },
    async dueFallbacks(now, limit) {
      return due.all(now, limit).map(toDueFallback);
    },
    settleFallback: settleOne,
  };
}

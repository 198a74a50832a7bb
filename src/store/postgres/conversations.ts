import { fallbackEvent } from '../../domain/events/payloads.js';
import type { ConversationStore } from '../../domain/ports.js';
import {
  dueFallbacksQuery,
  settledValues,
  toDueFallback,
  windowUpsert,
  type DueFallbackRow,
} from '../rows/conversations.js';
import { decidePolicy, writePolicy } from './policy.js';
import { policedFallback } from '../rows/policy.js';
import { inTransaction, type Pool, type Queryable } from './database.js';
import { insertSms } from './insert-sms.js';
import { emitEvents } from './outbox.js';

const P = (n: number) => `$${n}`;

/** The window a contact's message opens: written in the inbound message's own transaction. */
export async function noteWindow(
  c: Queryable,
  businessPhone: string,
  contact: string,
  at: number,
): Promise<void> {
  await c.query(windowUpsert(P, 'GREATEST'), [businessPhone, contact, at]);
}

/** The 24-hour window's reads, and business messages' SMS fallbacks. */
export function postgresConversations(pool: Pool): ConversationStore {
  return {
    async lastInbound(businessPhone, contact) {
      const r = await pool.query<{ last_inbound_at: number }>(
        'SELECT last_inbound_at FROM conversation_windows WHERE business_phone = $1 AND contact = $2',
        [businessPhone, contact],
      );
      return r.rows[0]?.last_inbound_at;
    },
    async dueFallbacks(now, limit) {
      const r = await pool.query<DueFallbackRow>(dueFallbacksQuery(P), [now, limit]);
      return r.rows.map(toDueFallback);
    },
    async settleFallback(d, proposed, now) {
      return inTransaction(pool, async (c) => {
        const w = proposed.state === 'sent' ? await decidePolicy(c, proposed.batch) : undefined;
        const outcome = proposed.state === 'sent' ? policedFallback(proposed, w) : proposed;
        // Of two nodes settling one fallback, the second waits for the first's row lock, then
        // finds it no longer pending: a fallback is sent at most once.
        const r = await c.query(
          `UPDATE business_fallbacks SET state = $1, session_no = $2, phone = $3, reason = $4,
             settled_at = $5 WHERE message_id = $6 AND state = 'pending'`,
          [...settledValues(outcome), now, d.messageId],
        );
        if (r.rowCount !== 1) return undefined;
        if (w) await writePolicy(c, w);
        if (outcome.state === 'unneeded') return outcome;
        if (outcome.state === 'sent') {
          const b = outcome.batch;
          await c.query(
            'INSERT INTO sessions (session_no, account_id, accepted_count, created_at) VALUES ($1,$2,$3,$4)',
            [b.sessionNo, b.accountId, b.messages.length, b.acceptedAt],
          );
          await insertSms(c, b);
        }
        await emitEvents(c, [fallbackEvent(d, outcome, now)], now);
        return outcome;
      });
    },
  };
}

import type { MessageStore } from '../../domain/ports.js';
import { fromClaimRow, notExpired, type ClaimRow } from '../rows/messages.js';
import type { Pool } from './database.js';

const CLAIM = `WITH due AS (
    SELECT id FROM messages WHERE due_at <= $1 AND ${notExpired('$1')}
    ORDER BY due_at LIMIT $2 FOR UPDATE SKIP LOCKED
  )
  UPDATE messages m SET state = 'submitting', attempts = m.attempts + 1, due_at = $3
  FROM due WHERE m.id = due.id
  RETURNING m.id, m.kind, m.account_id, m.route, m.attempts, m.e164, m.sender_id, m.extend_code,
    m.body, m.message_id, m.business_phone, m.type, m.concat, m.expires_at`;

/** Claims: due messages taken under a lease, and leases renewed while their submit runs. */
export function postgresClaims(pool: Pool): Pick<MessageStore, 'claimDue' | 'extendLeases'> {
  return {
    async claimDue(now, limit, leaseMs) {
      // SKIP LOCKED: nodes claiming at once take disjoint rows instead of queueing on each other.
      const r = await pool.query<ClaimRow>(CLAIM, [now, limit, now + leaseMs]);
      return r.rows.map(fromClaimRow);
    },
    async extendLeases(claims, until) {
      if (claims.length === 0) return;
      await pool.query(
        `UPDATE messages m SET due_at = $1
         FROM unnest($2::bigint[], $3::int[]) AS c(id, attempt)
         WHERE m.id = c.id AND m.state = 'submitting' AND m.attempts = c.attempt`,
        [until, claims.map((c) => c.id), claims.map((c) => c.attempt)],
      );
    },
  };
}

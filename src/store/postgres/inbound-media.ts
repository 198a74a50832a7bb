import { inboundEvent } from '../../domain/events/payloads.js';
import {
  settledMedia,
  type InboundMedia,
  type SettledMedia,
} from '../../domain/inbound/inbound-media.js';
import type { InboundMediaStore } from '../../domain/ports.js';
import { INBOUND_COLUMNS, toInbound, type InboundRow } from '../rows/inbound.js';
import {
  PENDING_MEDIA_SQL,
  SETTLE_MEDIA_SQL,
  claimMediaSql,
  toPendingMedia,
  withError,
  type PendingMediaRow,
} from '../rows/inbound-media.js';
import { MEDIA_FILE_COLUMNS, mediaFileArgs } from '../rows/media.js';
import { inTransaction, type Pool, type Queryable } from './database.js';
import { emitEvents } from './outbox.js';

const P = (n: number) => `$${n}`;

async function pendingMedia(c: Queryable, inboundId: string): Promise<string | undefined> {
  const r = await c.query<{ media: string }>(PENDING_MEDIA_SQL(P, true), [inboundId]);
  return r.rows[0]?.media;
}

async function settleWith(c: Queryable, inboundId: string, outcome: SettledMedia, at: number) {
  const json = await pendingMedia(c, inboundId);
  if (json === undefined) return false;
  // The pending media JSON is what the inbound store wrote for this message.
  const media = settledMedia(JSON.parse(json) as InboundMedia, outcome);
  if (outcome.state === 'stored') {
    await c.query(
      `INSERT INTO media (${MEDIA_FILE_COLUMNS}) VALUES ($1,$2,$3,$4,$5,$6,$7,$8)`,
      mediaFileArgs(outcome.file),
    );
  }
  await c.query(SETTLE_MEDIA_SQL(P), [JSON.stringify(media), media.state, inboundId]);
  const r = await c.query<InboundRow>(
    `SELECT ${INBOUND_COLUMNS} FROM inbound_messages WHERE inbound_id = $1`,
    [inboundId],
  );
  // UPDATE … RETURNING on a row found pending in this transaction answers that row.
  const message = toInbound(r.rows[0] as InboundRow);
  // Only routed messages are ever pending: the account is there.
  await emitEvents(c, [inboundEvent({ ...message, accountId: message.accountId as number })], at);
  return true;
}

export function postgresInboundMedia(pool: Pool): InboundMediaStore {
  return {
    async claimInboundMedia(now, leaseUntil, limit) {
      const r = await pool.query<PendingMediaRow>(claimMediaSql(P, true), [leaseUntil, now, limit]);
      return r.rows.map(toPendingMedia);
    },
    async postponeInboundMedia(inboundId, dueAt, error) {
      await inTransaction(pool, async (c) => {
        const json = await pendingMedia(c, inboundId);
        if (json === undefined) return;
        await c.query(
          `UPDATE inbound_messages SET media = $1, media_due_at = $2 WHERE inbound_id = $3`,
          [withError(json, error), dueAt, inboundId],
        );
      });
    },
    async settleInboundMedia(inboundId, outcome, at) {
      return inTransaction(pool, (c) => settleWith(c, inboundId, outcome, at));
    },
  };
}

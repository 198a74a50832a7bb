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
import type { Db } from './database.js';
import type { SqliteOutbox } from './outbox.js';

const Q = () => '?';

export function sqliteInboundMedia(db: Db, outbox: SqliteOutbox): InboundMediaStore {
  const claim = db.prepare<unknown[], PendingMediaRow>(claimMediaSql(Q, false));
  // As the dispatcher's claim: a poll that finds nothing due takes no write lock (WAL reads).
  const anyDue = db
    .prepare<unknown[], number>(
      "SELECT 1 FROM inbound_messages WHERE media_state = 'pending' AND media_due_at <= ? LIMIT 1",
    )
    .pluck();
  const pending = db.prepare<unknown[], string>(PENDING_MEDIA_SQL(Q, false)).pluck();
  const postpone = db.prepare(
    `UPDATE inbound_messages SET media = ?, media_due_at = ?
     WHERE inbound_id = ? AND media_state = 'pending'`,
  );
  const settle = db.prepare(SETTLE_MEDIA_SQL(Q));
  const read = db.prepare<unknown[], InboundRow>(
    `SELECT ${INBOUND_COLUMNS} FROM inbound_messages WHERE inbound_id = ?`,
  );
  const insertFile = db.prepare(
    `INSERT INTO media (${MEDIA_FILE_COLUMNS}) VALUES (?,?,?,?,?,?,?,?)`,
  );

  const settleOne = db.transaction((inboundId: string, outcome: SettledMedia, at: number) => {
    const json = pending.get(inboundId);
    if (json === undefined) return false;
    // The pending media JSON is what the inbound store wrote for this message.
    const media = settledMedia(JSON.parse(json) as InboundMedia, outcome);
    if (outcome.state === 'stored') insertFile.run(...mediaFileArgs(outcome.file));
    settle.run(JSON.stringify(media), media.state, inboundId);
    // Read in the transaction that found it pending: the row is there.
    const message = toInbound(read.get(inboundId) as InboundRow);
    // Only routed messages are ever pending: the account is there.
    const accountId = message.accountId as number;
    outbox.emit(inboundEvent({ ...message, accountId }), at);
    return true;
  });

  const postponeOne = db.transaction((inboundId: string, dueAt: number, error: string) => {
    const json = pending.get(inboundId);
    if (json !== undefined) postpone.run(withError(json, error), dueAt, inboundId);
  });

  return {
    async claimInboundMedia(now, leaseUntil, limit) {
      if (anyDue.get(now) === undefined) return [];
      return claim.all(leaseUntil, now, limit).map(toPendingMedia);
    },
    async postponeInboundMedia(inboundId, dueAt, error) {
      postponeOne(inboundId, dueAt, error);
    },
    async settleInboundMedia(inboundId, outcome, at) {
      return settleOne(inboundId, outcome, at);
    },
  };
}

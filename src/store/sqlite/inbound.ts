import type { ArrivedMessage, ArrivedPart, InboundMessage } from '../../domain/inbound/inbound.js';
import { routingChannels } from '../../domain/inbound/inbound.js';
import type { InboundStore } from '../../domain/ports.js';
import {
  INBOUND_COLUMNS,
  INBOUND_INSERT_COLUMNS,
  arrivalOfParts,
  inboundConditions,
  inboundValues,
  inboundPage,
  replyLinkQuery,
  toInbound,
  type InboundRow,
  type PartRow,
} from '../rows/inbound.js';
import { inboundEvent } from '../../domain/events/payloads.js';
import type { Db } from './database.js';
import { sqliteWindows } from './conversations.js';
import type { SqliteOptOuts } from './opt-outs.js';
import type { SqliteOutbox } from './outbox.js';
import type { SqliteWriter } from './writer.js';
import { smppAccountEndpointId } from '../../domain/smpp-server/receipt-endpoint.js';

/** The latest message this account sent to a phone, for a reply's conversation link. */
type LinkRow = { session_no: string | null; message_id: string | null };

const Q = () => '?';

/** Who owns a number, and the latest message an account sent to the phone (the reply link). */
function sqliteRouting(db: Db) {
  // The newest registration wins where two accounts registered one WhatsApp number; an SMS
  // number belongs to one account (a unique index).
  const owner = db
    .prepare<unknown[], number>(
      `SELECT account_id FROM business_phones WHERE business_phone = ? AND channel IN (?, ?)
       ORDER BY created_at DESC LIMIT 1`,
    )
    .pluck();
  const smsLink = db.prepare<unknown[], LinkRow>(replyLinkQuery('sms', Q));
  const businessLink = db.prepare<unknown[], LinkRow>(replyLinkQuery('whatsapp', Q));
  const ownerOf = (channel: ArrivedMessage['channel'], number: string) => {
    const [a, b] = routingChannels(channel);
    return owner.get(number, a, b ?? a);
  };
  const linkOf = (m: ArrivedMessage, accountId: number) => {
    const row =
      m.channel === 'sms'
        ? smsLink.get(m.from, accountId)
        : businessLink.get(m.from, accountId, m.to);
    return row ? [row.session_no, row.message_id] : [null, null];
  };
  return { ownerOf, linkOf };
}

export function sqliteInbound(
  db: Db,
  writer: SqliteWriter,
  outbox: SqliteOutbox,
  optOuts: Pick<SqliteOptOuts, 'keywordReply'>,
): InboundStore {
  const { ownerOf, linkOf } = sqliteRouting(db);
  const insert = db.prepare<unknown[], InboundRow>(
    `INSERT INTO inbound_messages (${INBOUND_INSERT_COLUMNS})
     VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT (channel, dedupe_key) DO NOTHING
     RETURNING ${INBOUND_COLUMNS}`,
  );
  const announce = announcer(db, outbox, optOuts);
  const noteWindow = sqliteWindows(db);
  const existing = db.prepare<unknown[], InboundRow>(
    `SELECT ${INBOUND_COLUMNS} FROM inbound_messages WHERE channel = ? AND dedupe_key = ?`,
  );

  const store = db.transaction((m: ArrivedMessage, inboundId: string) => {
    const accountId = ownerOf(m.channel, m.to);
    const link = accountId === undefined ? [] : linkOf(m, accountId);
    const values = inboundValues({ arrived: m, inboundId, accountId }, link, (b) => (b ? 1 : 0));
    const row = insert.get(...values);
    if (row) {
      const message = toInbound(row);
      // The contact's message opens the business phone's 24-hour window, routed or not.
      if (m.channel === 'whatsapp') noteWindow(m.to, m.from, m.receivedAt);
      // An unrouted message is the operator's: no event, no keyword.
      if (accountId !== undefined) announce(m, message, accountId);
      return { message, stored: true };
    }
    // The INSERT was ignored on this key, so the row that holds it is there.
    const first = existing.get(m.channel, m.dedupeKey) as InboundRow;
    return { message: toInbound(first), stored: false };
  });

  const parts = sqliteParts(db, writer, store);
  return {
    async storeInbound(arrived, inboundId): Promise<{ message: InboundMessage; stored: boolean }> {
      return writer.run(() => store(arrived, inboundId));
    },
    ...parts,
    async listInbound(filter) {
      const { where, values } = inboundConditions(filter, Q);
      const rows = db
        .prepare<unknown[], InboundRow>(
          `SELECT ${INBOUND_COLUMNS} FROM inbound_messages WHERE ${where} ORDER BY seq DESC LIMIT ?`,
        )
        .all(...values, filter.limit + 1);
      return inboundPage(rows, filter.limit);
    },
    async numberOwner(channel, number) {
      return ownerOf(channel, number);
    },
  };
}

/**
 * What a routed message sets off in its transaction: its event (once its file is fetched, for a
 * message with one; also to the account's SMPP binds for an SMS reply, when it has any
 * credential), and the opt-out keyword it may be.
 */
function announcer(db: Db, outbox: SqliteOutbox, optOuts: Pick<SqliteOptOuts, 'keywordReply'>) {
  const hasSmpp = db.prepare('SELECT 1 FROM smpp_credentials WHERE account_id = ? LIMIT 1');
  return (m: ArrivedMessage, message: InboundMessage, accountId: number) => {
    if (message.media?.state !== 'pending') {
      const sms = m.channel === 'sms' && hasSmpp.get(accountId) !== undefined;
      const binds = sms ? [smppAccountEndpointId(accountId)] : [];
      outbox.emitWith(inboundEvent({ ...message, accountId }), m.receivedAt, binds);
    }
    if (m.type === 'text') {
      optOuts.keywordReply({ accountId, from: m.from, body: m.body, at: m.receivedAt });
    }
  };
}

type StoreOne = (
  m: ArrivedMessage,
  inboundId: string,
) => { message: InboundMessage; stored: boolean };

/** Parts of concatenated replies: kept until whole, then stored as one message (same transaction). */
function sqliteParts(
  db: Db,
  writer: SqliteWriter,
  store: StoreOne,
): Pick<InboundStore, 'storeInboundPart' | 'flushInboundParts'> {
  const keep = db.prepare(
    `INSERT INTO inbound_parts (group_key, part_no, total, body, from_addr, to_addr, received_at)
     VALUES (?,?,?,?,?,?,?) ON CONFLICT DO NOTHING`,
  );
  const partsOf = db.prepare<unknown[], PartRow>(
    `SELECT part_no, total, body, from_addr, to_addr, received_at FROM inbound_parts
     WHERE group_key = ? ORDER BY part_no`,
  );
  const drop = db.prepare('DELETE FROM inbound_parts WHERE group_key = ?');
  const stale = db
    .prepare<unknown[], string>(
      'SELECT group_key FROM inbound_parts GROUP BY group_key HAVING min(received_at) <= ?',
    )
    .pluck();
  const whole = (groupKey: string, inboundId: string) => {
    const rows = partsOf.all(groupKey);
    drop.run(groupKey);
    return store(arrivalOfParts(groupKey, rows), inboundId);
  };
  const part = db.transaction((p: ArrivedPart, inboundId: string) => {
    const a = p.arrived;
    keep.run(p.groupKey, p.partNo, p.total, p.text, a.from, a.to, a.receivedAt);
    const count = partsOf.all(p.groupKey).length;
    return count >= p.total ? whole(p.groupKey, inboundId) : undefined;
  });
  const flush = db.transaction((cutoff: number, newId: () => string) => {
    const groups = stale.all(cutoff);
    for (const g of groups) whole(g, newId());
    return groups.length;
  });
  return {
    async storeInboundPart(p, inboundId) {
      return writer.run(() => part(p, inboundId));
    },
    async flushInboundParts(cutoff, newId) {
      return writer.run(() => flush(cutoff, newId));
    },
  };
}

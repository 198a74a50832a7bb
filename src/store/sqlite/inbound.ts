import type { ArrivedMessage, InboundMessage } from '../../domain/inbound/inbound.js';
import { routingChannels } from '../../domain/inbound/inbound.js';
import type { InboundStore } from '../../domain/ports.js';
import {
  INBOUND_COLUMNS,
  INBOUND_INSERT_COLUMNS,
  inboundConditions,
  inboundValues,
  inboundPage,
  replyLinkQuery,
  toInbound,
  type InboundRow,
} from '../rows/inbound.js';
import type { Db } from './database.js';

const Q = () => '?';

export function sqliteInbound(db: Db): InboundStore {
  // The newest registration wins where two accounts registered one WhatsApp number; an SMS
  // number belongs to one account (a unique index).
  const owner = db
    .prepare(
      `SELECT account_id FROM business_phones WHERE business_phone = ? AND channel IN (?, ?)
       ORDER BY created_at DESC LIMIT 1`,
    )
    .pluck();
  const smsLink = db.prepare(replyLinkQuery('sms', Q));
  const businessLink = db.prepare(replyLinkQuery('whatsapp', Q));
  const insert = db.prepare(
    `INSERT INTO inbound_messages (${INBOUND_INSERT_COLUMNS})
     VALUES (?,?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT (channel, dedupe_key) DO NOTHING
     RETURNING ${INBOUND_COLUMNS}`,
  );
  const existing = db.prepare(
    `SELECT ${INBOUND_COLUMNS} FROM inbound_messages WHERE channel = ? AND dedupe_key = ?`,
  );

  const ownerOf = (channel: ArrivedMessage['channel'], number: string) => {
    const [a, b] = routingChannels(channel);
    return owner.get(number, a, b ?? a) as number | undefined;
  };
  const linkOf = (m: ArrivedMessage, accountId: number) => {
    const row = (
      m.channel === 'sms'
        ? smsLink.get(m.from, accountId)
        : businessLink.get(m.from, accountId, m.to)
    ) as { session_no: string | null; message_id: string | null } | undefined;
    return row ? [row.session_no, row.message_id] : [null, null];
  };
  const store = db.transaction((m: ArrivedMessage, inboundId: string) => {
    const accountId = ownerOf(m.channel, m.to);
    const link = accountId === undefined ? [] : linkOf(m, accountId);
    const values = inboundValues({ arrived: m, inboundId, accountId }, link, (b) => (b ? 1 : 0));
    const row = insert.get(...values) as InboundRow | undefined;
    if (row) return { message: toInbound(row), stored: true };
    const first = existing.get(m.channel, m.dedupeKey) as InboundRow;
    return { message: toInbound(first), stored: false };
  });

  return {
    async storeInbound(arrived, inboundId): Promise<{ message: InboundMessage; stored: boolean }> {
      return store(arrived, inboundId);
    },
    async listInbound(filter) {
      const { where, values } = inboundConditions(filter, Q);
      const rows = db
        .prepare(
          `SELECT ${INBOUND_COLUMNS} FROM inbound_messages WHERE ${where} ORDER BY seq DESC LIMIT ?`,
        )
        .all(...values, filter.limit + 1) as InboundRow[];
      return inboundPage(rows, filter.limit);
    },
    async numberOwner(channel, number) {
      return ownerOf(channel, number);
    },
  };
}

import type { ArrivedMessage, InboundChannel } from '../../domain/inbound/inbound.js';
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
import { inTransaction, type Pool, type Queryable } from './database.js';
import { keywordReply } from './opt-outs.js';
import { noteWindow } from './conversations.js';
import { emitEvents, emitToSmpp } from './outbox.js';
import { smppAccountEndpointId } from '../../domain/smpp-server/receipt-endpoint.js';

async function hasSmppCredential(c: Queryable, accountId: number): Promise<boolean> {
  const r = await c.query('SELECT 1 FROM smpp_credentials WHERE account_id = $1 LIMIT 1', [
    accountId,
  ]);
  return r.rows.length > 0;
}

const P = (n: number) => `$${n}`;

async function ownerOf(
  db: Queryable,
  channel: InboundChannel,
  number: string,
): Promise<number | undefined> {
  // The newest registration wins where two accounts registered one WhatsApp number; an SMS
  // number belongs to one account (a unique index).
  const r = await db.query<{ account_id: number }>(
    `SELECT account_id FROM business_phones WHERE business_phone = $1 AND channel = ANY($2)
     ORDER BY created_at DESC LIMIT 1`,
    [number, routingChannels(channel)],
  );
  const row = r.rows[0];
  return row?.account_id;
}

async function linkOf(db: Queryable, m: ArrivedMessage, accountId: number) {
  const values = m.channel === 'sms' ? [m.from, accountId] : [m.from, accountId, m.to];
  const r = await db.query<{ session_no: string | null; message_id: string | null }>(
    replyLinkQuery(m.channel, P),
    values,
  );
  const row = r.rows[0];
  return row ? [row.session_no, row.message_id] : [null, null];
}

async function storeWith(c: Queryable, m: ArrivedMessage, inboundId: string) {
  const accountId = await ownerOf(c, m.channel, m.to);
  const link = accountId === undefined ? [] : await linkOf(c, m, accountId);
  const r = await c.query<InboundRow>(
    `INSERT INTO inbound_messages (${INBOUND_INSERT_COLUMNS})
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15) ON CONFLICT (channel, dedupe_key) DO NOTHING
     RETURNING ${INBOUND_COLUMNS}`,
    inboundValues({ arrived: m, inboundId, accountId }, link, (b) => b),
  );
  const row = r.rows[0];
  if (row) {
    const message = toInbound(row);
    // The contact's message opens the business phone's 24-hour window, routed or not.
    if (m.channel === 'whatsapp') await noteWindow(c, m.to, m.from, m.receivedAt);
    // A routed message is an event of its account's, and may be an opt-out keyword; an
    // unrouted one is the operator's.
    if (accountId !== undefined) {
      // A message with a file is announced once the file is fetched (settleInboundMedia).
      if (message.media?.state !== 'pending') {
        const event = inboundEvent({ ...message, accountId });
        await emitEvents(c, [event], m.receivedAt);
        // An SMS reply also goes to the account's SMPP binds, when it has any credential.
        if (m.channel === 'sms' && (await hasSmppCredential(c, accountId))) {
          const endpointId = smppAccountEndpointId(accountId);
          await emitToSmpp(c, [{ e: event, endpointId }], m.receivedAt);
        }
      }
      if (m.type === 'text') {
        await keywordReply(c, { accountId, from: m.from, body: m.body, at: m.receivedAt });
      }
    }
    return { message, stored: true };
  }
  const first = await c.query<InboundRow>(
    `SELECT ${INBOUND_COLUMNS} FROM inbound_messages WHERE channel = $1 AND dedupe_key = $2`,
    [m.channel, m.dedupeKey],
  );
  // The INSERT was ignored on this key, so the row that holds it is there.
  return { message: toInbound(first.rows[0] as InboundRow), stored: false };
}

async function partsOf(c: Queryable, groupKey: string): Promise<PartRow[]> {
  const r = await c.query<PartRow>(
    `SELECT part_no, total, body, from_addr, to_addr, received_at FROM inbound_parts
     WHERE group_key = $1 ORDER BY part_no`,
    [groupKey],
  );
  return r.rows;
}

/** The message the parts make, stored; the parts let go. */
async function whole(c: Queryable, groupKey: string, rows: PartRow[], inboundId: string) {
  await c.query('DELETE FROM inbound_parts WHERE group_key = $1', [groupKey]);
  return storeWith(c, arrivalOfParts(groupKey, rows), inboundId);
}

export function postgresInbound(pool: Pool): InboundStore {
  return {
    async storeInbound(m, inboundId) {
      return inTransaction(pool, (c) => storeWith(c, m, inboundId));
    },
    async storeInboundPart(p, inboundId) {
      return inTransaction(pool, async (c) => {
        // Parts of one message may come at once on two binds or nodes: one at a time sees them.
        await c.query('SELECT pg_advisory_xact_lock(hashtext($1))', [p.groupKey]);
        const a = p.arrived;
        await c.query(
          `INSERT INTO inbound_parts (group_key, part_no, total, body, from_addr, to_addr, received_at)
           VALUES ($1,$2,$3,$4,$5,$6,$7) ON CONFLICT DO NOTHING`,
          [p.groupKey, p.partNo, p.total, p.text, a.from, a.to, a.receivedAt],
        );
        const rows = await partsOf(c, p.groupKey);
        return rows.length >= p.total ? whole(c, p.groupKey, rows, inboundId) : undefined;
      });
    },
    async flushInboundParts(cutoff, newId) {
      return inTransaction(pool, async (c) => {
        const r = await c.query<{ group_key: string }>(
          `SELECT group_key FROM inbound_parts GROUP BY group_key HAVING min(received_at) <= $1`,
          [cutoff],
        );
        for (const { group_key } of r.rows) {
          await c.query('SELECT pg_advisory_xact_lock(hashtext($1))', [group_key]);
          await whole(c, group_key, await partsOf(c, group_key), newId());
        }
        return r.rows.length;
      });
    },
    async listInbound(filter) {
      const { where, values } = inboundConditions(filter, P);
      const r = await pool.query<InboundRow>(
        `SELECT ${INBOUND_COLUMNS} FROM inbound_messages WHERE ${where}
         ORDER BY seq DESC LIMIT $${values.length + 1}`,
        [...values, filter.limit + 1],
      );
      return inboundPage(r.rows, filter.limit);
    },
    async numberOwner(channel, number) {
      return ownerOf(pool, channel, number);
    },
  };
}

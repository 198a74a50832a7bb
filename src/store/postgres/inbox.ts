import type { InboxEntry } from '../../domain/messages/message.js';
import type { InboxStore } from '../../domain/ports.js';
import { INBOX_COLUMNS, fromRow, type InboxRow } from '../rows/inbox.js';
import { inTransaction, type Pool, type Queryable } from './database.js';

/**
 * New deliveries in one statement; a message delivered before (by any node) is counted as a
 * resubmission on its first entry instead, so the inbox tells how often each was handed over.
 */
async function deliver(c: Queryable, entries: readonly InboxEntry[]) {
  const fresh = new Map<number, InboxEntry>();
  const repeats = new Map<number, { times: number; attempt: number }>();
  for (const e of entries) {
    if (!fresh.has(e.messageRef)) fresh.set(e.messageRef, e);
    else {
      const r = repeats.get(e.messageRef) ?? { times: 0, attempt: 0 };
      repeats.set(e.messageRef, {
        times: r.times + 1,
        attempt: Math.max(r.attempt, e.lastAttempt),
      });
    }
  }
  const list = [...fresh.values()];
  const inserted = await c.query<InboxRow>(
    `INSERT INTO sim_inbox (message_ref, route, upstream_id, kind, from_addr, to_addr, body, type,
       segments, encoding, delivered_at, report_status, report_due_at, reported, submissions, last_attempt)
     SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[],
       $7::text[], $8::text[], $9::int[], $10::text[], $11::bigint[], $12::text[], $13::bigint[],
       $14::boolean[], $15::int[], $16::int[])
     ON CONFLICT (message_ref) DO NOTHING RETURNING ${INBOX_COLUMNS}`,
    columnsOf(list),
  );
  const fresher = new Set(inserted.rows.map((r) => r.message_ref));
  for (const e of list) {
    if (fresher.has(e.messageRef)) continue;
    const r = repeats.get(e.messageRef) ?? { times: 0, attempt: 0 };
    repeats.set(e.messageRef, { times: r.times + 1, attempt: Math.max(r.attempt, e.lastAttempt) });
  }
  const counted = await countRepeats(c, repeats);
  return {
    inserted: new Map(inserted.rows.map((r) => [r.message_ref, r])),
    counted: new Map(counted.map((r) => [r.message_ref, r])),
  };
}

async function countRepeats(
  c: Queryable,
  repeats: Map<number, { times: number; attempt: number }>,
) {
  if (repeats.size === 0) return [];
  const refs = [...repeats.keys()];
  const r = await c.query<InboxRow>(
    `UPDATE sim_inbox i SET submissions = i.submissions + r.times,
       last_attempt = greatest(i.last_attempt, r.attempt)
     FROM unnest($1::bigint[], $2::int[], $3::int[]) AS r(message_ref, times, attempt)
     WHERE i.message_ref = r.message_ref RETURNING ${INBOX_COLUMNS.replace(/(\w+)/g, 'i.$1')}`,
    [refs, refs.map((k) => repeats.get(k)?.times), refs.map((k) => repeats.get(k)?.attempt)],
  );
  return r.rows;
}

function columnsOf(list: readonly InboxEntry[]): unknown[][] {
  const pick = <T>(f: (e: InboxEntry) => T) => list.map(f);
  return [
    pick((e) => e.messageRef),
    pick((e) => e.route),
    pick((e) => e.upstreamId),
    pick((e) => e.kind),
    pick((e) => e.from),
    pick((e) => e.to),
    pick((e) => e.body),
    pick((e) => e.type),
    pick((e) => e.segments),
    pick((e) => e.encoding),
    pick((e) => e.deliveredAt),
    pick((e) => e.reportStatus),
    pick((e) => e.reportDueAt),
    pick((e) => e.reported),
    pick((e) => e.submissions),
    pick((e) => e.lastAttempt),
  ];
}

export function postgresInbox(pool: Pool): InboxStore {
  const deliverMany = (entries: readonly InboxEntry[]) =>
    inTransaction(pool, async (c) => {
      const { inserted, counted } = await deliver(c, entries);
      const seen = new Set<number>();
      return entries.map((e) => {
        const first = inserted.has(e.messageRef) && !seen.has(e.messageRef);
        seen.add(e.messageRef);
        const row = first ? inserted.get(e.messageRef) : counted.get(e.messageRef);
        // Each entry was either inserted or counted on its first: its row is in one of the maps.
        return { entry: fromRow(row as InboxRow), duplicate: !first };
      });
    });
  return {
    async deliverToInbox(e) {
      // One entry in, one delivery out.
      return (await deliverMany([e]))[0] as { entry: InboxEntry; duplicate: boolean };
    },
    async deliverManyToInbox(entries) {
      return entries.length === 0 ? [] : deliverMany(entries);
    },
    async pendingInboxReports() {
      const r = await pool.query<InboxRow>(
        `SELECT ${INBOX_COLUMNS} FROM sim_inbox WHERE NOT reported ORDER BY report_due_at`,
      );
      return r.rows.map(fromRow);
    },
    async markInboxReported(ids) {
      if (ids.length === 0) return;
      await pool.query('UPDATE sim_inbox SET reported = true WHERE id = ANY($1::bigint[])', [ids]);
    },
    async listInbox(filter) {
      const r = filter.phone
        ? await pool.query<InboxRow>(
            `SELECT ${INBOX_COLUMNS} FROM sim_inbox WHERE to_addr = $1 ORDER BY id DESC LIMIT $2`,
            [filter.phone, filter.limit],
          )
        : await pool.query<InboxRow>(
            `SELECT ${INBOX_COLUMNS} FROM sim_inbox ORDER BY id DESC LIMIT $1`,
            [filter.limit],
          );
      return r.rows.map(fromRow);
    },
  };
}

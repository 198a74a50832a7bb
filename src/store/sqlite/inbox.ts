import type { InboxEntry } from '../../domain/messages/message.js';
import type { InboxStore } from '../../domain/ports.js';
import { INBOX_COLUMNS, fromRow, type InboxRow } from '../rows/inbox.js';
import type { Db } from './database.js';
import { multiRowInsert, ROWS_PER_INSERT as CHUNK } from './multi-row.js';
import type { SqliteWriter } from './writer.js';

const INSERT = `INSERT INTO sim_inbox (message_ref, route, upstream_id, kind, from_addr, to_addr, body,
  type, segments, encoding, delivered_at, report_status, report_due_at, reported, submissions,
  last_attempt) VALUES `;
const ROW = '(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)';

function pushValues(values: unknown[], e: InboxEntry): void {
  values.push(
    e.messageRef,
    e.route,
    e.upstreamId,
    e.kind,
    e.from,
    e.to,
    e.body,
    e.type,
    e.segments,
    e.encoding,
    e.deliveredAt,
    e.reportStatus,
    e.reportDueAt,
    e.reported ? 1 : 0,
    e.submissions,
    e.lastAttempt,
  );
}

type Delivery = { entry: InboxEntry; duplicate: boolean };

export function sqliteInbox(db: Db, writer: SqliteWriter): InboxStore {
  const pending = db.prepare<unknown[], InboxRow>(
    `SELECT ${INBOX_COLUMNS} FROM sim_inbox WHERE reported = 0 ORDER BY report_due_at`,
  );
  const markReportedStatement = db.prepare(
    'UPDATE sim_inbox SET reported = 1 WHERE id IN (SELECT value FROM json_each(?))',
  );

  const deliverMany = inboxDeliverer(db);

  return {
    async deliverToInbox(e) {
      const [one] = await writer.run(() => deliverMany([e]), 'relaxed');
      // One entry in, one delivery out.
      return one as Delivery;
    },
    async deliverManyToInbox(entries) {
      return writer.run(() => deliverMany(entries), 'relaxed');
    },
    async pendingInboxReports() {
      return pending.all().map(fromRow);
    },
    async markInboxReported(ids) {
      const list = JSON.stringify(ids);
      // A report marked and then lost is sent again: relaxed, as the inbox's deliveries.
      await writer.run(() => markReportedStatement.run(list), 'relaxed');
    },
    async listInbox(filter) {
      const rows = filter.phone
        ? db
            .prepare<unknown[], InboxRow>(
              `SELECT ${INBOX_COLUMNS} FROM sim_inbox WHERE to_addr = ? ORDER BY id DESC LIMIT ?`,
            )
            .all(filter.phone, filter.limit)
        : db
            .prepare<unknown[], InboxRow>(
              `SELECT ${INBOX_COLUMNS} FROM sim_inbox ORDER BY id DESC LIMIT ?`,
            )
            .all(filter.limit);
      return rows.map(fromRow);
    },
  };
}

/** Delivers entries in chunks of one multi-row INSERT; a message's repeat counts on its first. */
function inboxDeliverer(db: Db): (entries: readonly InboxEntry[]) => Delivery[] {
  const insertFor = multiRowInsert(
    db,
    INSERT,
    ROW,
    'ON CONFLICT (message_ref) DO NOTHING RETURNING id, message_ref',
  );
  // A resubmission is not delivered again, only counted on the first entry.
  const resubmitted = db.prepare<unknown[], InboxRow>(
    `UPDATE sim_inbox SET submissions = submissions + 1, last_attempt = max(last_attempt, ?)
     WHERE message_ref = ? RETURNING ${INBOX_COLUMNS}`,
  );
  const deliverChunk = (chunk: readonly InboxEntry[], out: Delivery[]) => {
    const values: unknown[] = [];
    for (const e of chunk) pushValues(values, e);
    // The INSERT's RETURNING clause, written just above.
    const rows = insertFor(chunk.length).all(values) as {
      id: number;
      message_ref: number;
    }[];
    const inserted = new Map(rows.map((r) => [r.message_ref, r.id]));
    for (const e of chunk) {
      const id = inserted.get(e.messageRef);
      // The first of a message's entries in the chunk is the one inserted; any other repeats it.
      if (id !== undefined) {
        inserted.delete(e.messageRef);
        out.push({ entry: { ...e, id }, duplicate: false });
      } else {
        // Not inserted because its message_ref was there: the UPDATE finds that row.
        const first = resubmitted.get(e.lastAttempt, e.messageRef) as InboxRow;
        out.push({ entry: fromRow(first), duplicate: true });
      }
    }
  };
  // The dispatcher's durable commit of the submit outcome follows each delivery, and a report lost
  // with `reported = 1` is sent again from the pending list, which the final receipt ignores.
  return (entries: readonly InboxEntry[]) => {
    const out: Delivery[] = [];
    for (let i = 0; i < entries.length; i += CHUNK) deliverChunk(entries.slice(i, i + CHUNK), out);
    return out;
  };
}

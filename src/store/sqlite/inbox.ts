import type { InboxEntry } from '../../domain/messages/message.js';
import type { InboxStore } from '../../domain/ports.js';
import { INBOX_COLUMNS, fromRow, type InboxRow } from '../rows/inbox.js';
import type { Db } from './database.js';

export function sqliteInbox(db: Db): InboxStore {
  const insert = db.prepare(
    `INSERT INTO sim_inbox (message_ref, route, upstream_id, kind, from_addr, to_addr, body, type,
       segments, encoding, delivered_at, report_status, report_due_at, reported, submissions,
       last_attempt)
     VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT (message_ref) DO NOTHING RETURNING ${INBOX_COLUMNS}`,
  );
  // A resubmission is not delivered again, only counted on the first entry.
  const resubmitted = db.prepare(
    `UPDATE sim_inbox SET submissions = submissions + 1, last_attempt = max(last_attempt, ?)
     WHERE message_ref = ? RETURNING ${INBOX_COLUMNS}`,
  );
  const pending = db.prepare(
    `SELECT ${INBOX_COLUMNS} FROM sim_inbox WHERE reported = 0 ORDER BY report_due_at`,
  );
  const markReported = db.prepare('UPDATE sim_inbox SET reported = 1 WHERE id = ?');
  const markMany = db.transaction((ids: readonly number[]) => {
    for (const id of ids) markReported.run(id);
  });

  const deliverOne = (e: InboxEntry) => {
    const row = insert.get(
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
    ) as InboxRow | undefined;
    if (row) return { entry: fromRow(row), duplicate: false };
    const first = resubmitted.get(e.lastAttempt, e.messageRef) as InboxRow;
    return { entry: fromRow(first), duplicate: true };
  };
  const deliverMany = db.transaction((entries: readonly InboxEntry[]) => entries.map(deliverOne));

  return {
    async deliverToInbox(e) {
      return deliverOne(e);
    },
    async deliverManyToInbox(entries) {
      return deliverMany(entries);
    },
    async pendingInboxReports() {
      return (pending.all() as InboxRow[]).map(fromRow);
    },
    async markInboxReported(ids) {
      markMany(ids);
    },
    async listInbox(filter) {
      const rows = filter.phone
        ? db
            .prepare(
              `SELECT ${INBOX_COLUMNS} FROM sim_inbox WHERE to_addr = ? ORDER BY id DESC LIMIT ?`,
            )
            .all(filter.phone, filter.limit)
        : db
            .prepare(`SELECT ${INBOX_COLUMNS} FROM sim_inbox ORDER BY id DESC LIMIT ?`)
            .all(filter.limit);
      return (rows as InboxRow[]).map(fromRow);
    },
  };
}

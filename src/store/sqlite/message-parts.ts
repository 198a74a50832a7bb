import type { Issuer, Report } from '../../domain/messages/message.js';
import type { PartReport } from '../../domain/messages/parts.js';
import { receiptResultOf } from '../../domain/receipts/receipt.js';
import { combinedReport, type PartRow, type TargetRow as Target } from '../rows/message-parts.js';
import type { Db } from './database.js';

/** The parts of multipart messages: each part's final report, and the message's once all are in. */
export function sqliteParts(db: Db) {
  const owner = db.prepare<unknown[], Target>(
    `SELECT m.id, m.kind, m.account_id, m.state, m.status, m.parts, m.receipt_to
     FROM message_parts p
     JOIN messages m ON m.id = p.message_ref
     WHERE p.route = ? AND p.upstream = ? AND p.upstream_id = ?`,
  );
  const record = db.prepare(
    `UPDATE message_parts SET status = ?, code = ?, descr = ?
     WHERE route = ? AND upstream = ? AND upstream_id = ? AND status IS NULL`,
  );
  const all = db.prepare<unknown[], PartRow>(
    'SELECT part_no, status, code, descr FROM message_parts WHERE message_ref = ? ORDER BY part_no',
  );
  return {
    owner(issuer: Issuer, upstreamId: string): Target | undefined {
      return owner.get(issuer.route, issuer.upstream, upstreamId);
    },
    /**
     * Records a part's final report (the first one; duplicates change nothing) and answers the
     * message's combined report once every part has one, else undefined.
     */
    settle(r: Report, upstreamId: string, messageRef: number): PartReport | undefined {
      if (!receiptResultOf(r.status)) return undefined;
      if (!record.run(r.status, r.code, r.desc, r.route, r.upstream, upstreamId).changes)
        return undefined;
      return combinedReport(all.all(messageRef));
    },
  };
}

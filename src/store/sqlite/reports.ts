import { advanceStatus, byOccurrence } from '../../domain/messages/status.js';
import type { IssuedId, Issuer, Report } from '../../domain/messages/message.js';
import { upstreamIdReadings } from '../../domain/messages/upstream-ids.js';
import { applyReport } from '../../domain/receipts/apply-report.js';
import { receiptResultOf } from '../../domain/receipts/receipt.js';
import type { TargetRow as Target } from '../rows/message-parts.js';
import type { Db } from './database.js';
import type { SqliteOutbox } from './outbox.js';
import { MESSAGE_EVENT_COLUMNS, type MessageEventRow } from '../rows/outbox.js';
import { sqliteParts } from './message-parts.js';
import type { SqliteWriter } from './writer.js';

export function sqliteReports(db: Db, writer: SqliteWriter, outbox: SqliteOutbox) {
  const keepEarly = db.prepare(
    `INSERT INTO early_reports (route, upstream, upstream_id, status, code, descr, at, received_at)
     VALUES (?,?,?,?,?,?,?,?) ON CONFLICT DO NOTHING`,
  );
  const takeEarly = db.prepare<unknown[], EarlyRow>(
    `DELETE FROM early_reports WHERE route = ? AND upstream = ? AND upstream_id = ?
     RETURNING status, code, descr, at`,
  );
  const applyOne = reportApplier(db, outbox);
  const expireAwaiting = receiptExpiry(db, outbox);

  const applyReports = db.transaction((reports: readonly Report[], now: number) => {
    let unmatched = 0;
    for (const r of reports) {
      if (applyOne(r, now)) continue;
      unmatched++;
      keepEarly.run(r.route, r.upstream, r.upstreamId, r.status, r.code, r.desc, r.at, now);
    }
    return { unmatched };
  });

  const anyEarly = db.prepare('SELECT EXISTS (SELECT 1 FROM early_reports)').pluck();
  /** Reports that came before their submit answer are applied once the upstream id is known. */
  const applyEarlyReports = (list: readonly IssuedId[], now: number) => {
    // Early reports are rare: one look at the table spares a lookup per submitted message.
    if (list.length === 0 || !anyEarly.get()) return;
    for (const { route, upstream, upstreamId } of list) {
      const early = upstreamIdReadings(upstreamId).flatMap((reading) =>
        takeEarly.all(route, upstream, reading),
      );
      early.sort(byOccurrence);
      const issued = { route, upstream, upstreamId };
      for (const e of early)
        applyOne({ ...issued, status: e.status, code: e.code, desc: e.descr, at: e.at }, now);
    }
  };

  return {
    /** For the outcomes' transaction: reports that came before their submit's answer. */
    applyEarlyReports,
    store: {
      async applyReports(reports: readonly Report[], now: number) {
        return writer.run(() => applyReports(reports, now));
      },
      async expireAwaiting(cutoff: number, now: number, limit: number) {
        return writer.run(() => expireAwaiting(cutoff, now, limit));
      },
    },
  };
}

/** Applies one report; the final report of a one-part SMS the short way (the common case). */
function reportApplier(db: Db, outbox: SqliteOutbox) {
  const quiet = quietFinaliser(db);
  const told = toldFinaliser(db);
  const applyFound = foundReportApplier(db, outbox);

  /** Applies one report to its message; false when no message carries that upstream id yet. */
  const applyOne = (r: Report, now: number): boolean => {
    const result = receiptResultOf(r.status);
    if (result && advanceStatus('sent', r.status)) {
      const at = Math.floor(r.at / 1000);
      const speaking = outbox.anySubscriber('message.receipt');
      const values: FinalValues = [r.status, result, r.code, r.desc, at];
      const where = [r.route, r.upstream, r.upstreamId];
      if (!speaking && quiet.apply(values, where)) return true;
      const done = told(values, where, speaking);
      if (done) {
        const change = {
          ...{ id: done.id, accountId: done.account_id, kind: 'sms', status: r.status },
          receiptTo: done.receipt_to,
        };
        outbox.messageChanged({ ...change, code: r.code, desc: r.desc, at: r.at }, now, done);
        return true;
      }
    }
    return applyFound(r, now);
  };

  return applyOne;
}

/** The values FINAL_SET takes, in its order. */
type FinalValues = [status: string, result: string, code: string, desc: string, at: number];

/** The columns a final receipt sets, and the rows the short path may finish. */
const FINAL_SET = `state = 'final', status = ?, receipt_result = ?, receipt_code = ?,
  receipt_desc = ?, receipt_time = ?`;
const FINAL_WHERE = `route = ? AND upstream = ? AND upstream_id = ? AND kind = 'sms' AND parts = 1
  AND state = 'submitted' AND status IN ('accepted', 'sent')`;

/**
 * The final receipt of a message someone may hear of (a subscriber, or the ESME that asked:
 * receipt_to): its event's columns read first, then the row finished by rowid, with the receipt
 * counted in its event sequence. One UPDATE … RETURNING did both at 14 µs against 10 (measured
 * in bench/RESULTS.md, session 29): SQLite gathers a RETURNING statement's rows in a table of
 * their own. Answers the row as it now is, or undefined when no message awaits this receipt. One
 * report finishes one message: of two an upstream gave the same id (one handed out again after
 * wrapping around), the newest owns it, as everywhere (the UPDATE had finished them all). (An
 * ESME that asked for failures only counts a delivered receipt it is not sent: a gap in Sequence,
 * which only orders.)
 */
function toldFinaliser(db: Db) {
  const find = db.prepare<unknown[], MessageEventRow>(
    `SELECT ${MESSAGE_EVENT_COLUMNS} FROM messages WHERE ${FINAL_WHERE} ORDER BY id DESC LIMIT 1`,
  );
  const finish = db.prepare(`UPDATE messages SET ${FINAL_SET}, event_seq = ? WHERE id = ?`);
  return (values: FinalValues, where: unknown[], speaking: boolean) => {
    const row = find.get(...where);
    if (!row) return undefined;
    const seq = row.event_seq + (speaking || row.receipt_to !== null ? 1 : 0);
    finish.run(...values, seq, row.id);
    const [status, result, code, desc, at] = values;
    const receipt = { receipt_result: result, receipt_code: code, receipt_desc: desc };
    return { ...row, ...receipt, status, receipt_time: at, event_seq: seq };
  };
}

/** Reports after a miss that skip the quiet statement: an ESME's messages all miss it. */
const QUIET_BACKOFF = 64;

/**
 * The final receipt of a message nobody hears of (no subscriber, no receipt_to), in one UPDATE
 * that returns nothing: with no one to tell, the row is not needed. It finishes the message the
 * told path would (the newest that awaits the receipt), and only when no bind asked for it.
 * A miss (an ESME's message, or no such message yet) goes the told or the general way; after one,
 * the next QUIET_BACKOFF reports go there at once, so a bind's receipts do not pay for two
 * lookups.
 */
function quietFinaliser(db: Db) {
  const finalise = db.prepare(
    `UPDATE messages SET ${FINAL_SET} WHERE id = (SELECT id FROM messages WHERE ${FINAL_WHERE}
       ORDER BY id DESC LIMIT 1) AND receipt_to IS NULL`,
  );
  let skip = 0;
  return {
    /** True when it finished the message. */
    apply(values: unknown[], where: unknown[]): boolean {
      if (skip > 0) {
        skip--;
        return false;
      }
      if (finalise.run(...values, ...where).changes > 0) return true;
      skip = QUIET_BACKOFF;
      return false;
    },
  };
}

/** Applies a report to the message or part its upstream id names, when one does. */
function foundReportApplier(db: Db, outbox: SqliteOutbox) {
  const find = db.prepare<unknown[], Target>(
    `SELECT id, kind, account_id, state, status, parts, receipt_to FROM messages
     WHERE route = ? AND upstream = ? AND upstream_id = ? ORDER BY id DESC LIMIT 1`,
  );
  const event = db.prepare(
    'INSERT INTO message_events (message_ref, status, at, code, descr) VALUES (?,?,?,?,?)',
  );
  const finalise = db.prepare(
    `UPDATE messages SET state = 'final', due_at = NULL, status = ?, receipt_result = ?,
       receipt_code = ?, receipt_desc = ?, receipt_time = ? WHERE id = ? AND state != 'final'`,
  );
  const setStatus = db.prepare('UPDATE messages SET status = ? WHERE id = ?');
  const parts = sqliteParts(db);

  /** The message (and, for a multipart one, the part) an upstream id names, in any reading. */
  const locate = (issuer: Issuer, upstreamId: string) => {
    for (const reading of upstreamIdReadings(upstreamId)) {
      const m = find.get(issuer.route, issuer.upstream, reading);
      if (m) return { m, partId: m.parts > 1 ? reading : undefined };
      const owner = parts.owner(issuer, reading);
      if (owner) return { m: owner, partId: reading };
    }
    return undefined;
  };

  /** Any report: to a message or a part, final or not, first or repeated. */
  const applyFound = (r: Report, now: number): boolean => {
    const found = locate(r, r.upstreamId);
    if (!found) return false;
    const { m, partId } = found;
    if (m.kind === 'business') event.run(m.id, r.status, r.at, r.code, r.desc);
    // A part's final report finishes the message only together with all the other parts'.
    const speaking = partId === undefined ? r : parts.settle(r, partId, m.id);
    const { status, receipt } = applyReport(m, speaking, r);
    if (receipt) {
      finalise.run(status, receipt.result, receipt.code, receipt.desc, receipt.time, m.id);
    } else if (status !== m.status) {
      setStatus.run(status, m.id);
    }
    // An SMS speaks once, with its receipt; a business message at each new status.
    if (m.kind === 'sms' ? receipt : status !== m.status) {
      const said = speaking ?? r;
      const change = {
        id: m.id,
        accountId: m.account_id,
        kind: m.kind,
        status,
        receiptTo: m.receipt_to,
      };
      outbox.messageChanged({ ...change, code: said.code, desc: said.desc, at: r.at }, now);
    }
    return true;
  };

  return applyFound;
}

/** Ends the messages that waited for a receipt past the timeout, and early reports as old. */
function receiptExpiry(db: Db, outbox: SqliteOutbox) {
  const event = db.prepare(
    'INSERT INTO message_events (message_ref, status, at, code, descr) VALUES (?,?,?,?,?)',
  );
  const expire = db.prepare<
    unknown[],
    { id: number; kind: string; account_id: number; receipt_to: string | null }
  >(
    `UPDATE messages SET state = 'final', status = 'unknown', receipt_result = 'Unknow',
       receipt_code = 'TIMEOUT', receipt_desc = 'no delivery report arrived before the receipt timeout',
       receipt_time = ? WHERE id IN (SELECT id FROM messages WHERE state = 'submitted' AND submitted_at <= ? LIMIT ?)
     RETURNING id, kind, account_id, receipt_to`,
  );
  const purgeEarly = db.prepare('DELETE FROM early_reports WHERE received_at <= ?');
  const expireAwaiting = db.transaction((cutoff: number, now: number, limit: number) => {
    const expired = expire.all(Math.floor(now / 1000), cutoff, limit);
    const desc = 'no status before the receipt timeout';
    for (const m of expired) {
      if (m.kind === 'business') event.run(m.id, 'unknown', now, 'TIMEOUT', desc);
      const change = {
        ...{ id: m.id, accountId: m.account_id, kind: m.kind, status: 'unknown' },
        receiptTo: m.receipt_to,
      };
      outbox.messageChanged({ ...change, code: 'TIMEOUT', desc, at: now }, now);
    }
    // A report nobody claimed within the receipt timeout belongs to no message we will see.
    purgeEarly.run(cutoff);
    return expired.length;
  });

  return expireAwaiting;
}

interface EarlyRow {
  status: Report['status'];
  code: string;
  descr: string;
  at: number;
}

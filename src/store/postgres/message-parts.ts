import type { IssuedId, Report } from '../../domain/messages/message.js';
import type { PartReport } from '../../domain/messages/parts.js';
import { issuedKey, upstreamIdReadings } from '../../domain/messages/upstream-ids.js';
import { receiptResultOf } from '../../domain/receipts/receipt.js';
import { combinedReport, type PartRow, type TargetRow } from '../rows/message-parts.js';
import type { Queryable } from './database.js';
import { readingsOf } from './early-reports.js';

export interface Target extends TargetRow {
  route: string;
  upstream: string;
  upstream_id: string;
}

interface StoredPart extends PartRow {
  message_ref: number;
  route: string;
  upstream: string;
  upstream_id: string;
}

/** What a report names: its message and, for a multipart message, the part. */
export interface Located {
  m: Target;
  part: StoredPart | undefined;
}

/**
 * The messages that the reports' upstream ids name in any reading (as a message's id or as one of
 * its parts'), locked in id order so that two nodes applying reports for one message take turns,
 * with the parts of the multipart ones. Reports are then matched and parts settled in memory.
 */
export async function lockTargets(c: Queryable, keys: readonly IssuedId[]) {
  const k = readingsOf(keys);
  const r = await c.query<Target>(
    `WITH k AS (SELECT DISTINCT * FROM unnest($1::text[], $2::text[], $3::text[])
       AS k(route, upstream, upstream_id))
     SELECT m.id, m.kind, m.account_id, m.state, m.status, m.parts, m.receipt_to, m.route,
       m.upstream, m.upstream_id FROM messages m
     WHERE m.id IN (
       SELECT n.id FROM messages n JOIN k ON n.route = k.route AND n.upstream = k.upstream
         AND n.upstream_id = k.upstream_id
       UNION
       SELECT p.message_ref FROM message_parts p JOIN k ON p.route = k.route
         AND p.upstream = k.upstream AND p.upstream_id = k.upstream_id)
     ORDER BY m.id FOR UPDATE OF m`,
    [k.route, k.upstream, k.reading],
  );
  const multipart = r.rows.filter((m) => m.parts > 1).map((m) => m.id);
  const parts =
    multipart.length === 0
      ? []
      : (
          await c.query<StoredPart>(
            `SELECT message_ref, route, upstream, upstream_id, part_no, status, code, descr
             FROM message_parts
             WHERE message_ref = ANY($1::bigint[]) ORDER BY message_ref, part_no`,
            [multipart],
          )
        ).rows;
  return targets(r.rows, parts);
}

function targets(messages: readonly Target[], parts: readonly StoredPart[]) {
  const byId = new Map(messages.map((m) => [m.id, { ...m }]));
  const byUpstreamId = new Map<string, Target>();
  // Ordered by id: an id handed out again belongs to the newest message that carries it.
  for (const m of byId.values()) byUpstreamId.set(issuedKey(m, m.upstream_id), m);
  const partById = new Map(parts.map((p) => [issuedKey(p, p.upstream_id), { ...p }]));
  const partsOf = new Map<number, StoredPart[]>();
  for (const p of partById.values())
    partsOf.set(p.message_ref, [...(partsOf.get(p.message_ref) ?? []), p]);
  const settled: StoredPart[] = [];
  return {
    /** The message a report's upstream id names: the first reading that names one decides. */
    locate(r: Report): Located | undefined {
      for (const reading of upstreamIdReadings(r.upstreamId)) {
        const key = issuedKey(r, reading);
        const part = partById.get(key);
        const owner = part && byId.get(part.message_ref);
        const carrier = byUpstreamId.get(key);
        const m = owner && (!carrier || owner.id > carrier.id) ? owner : carrier;
        if (m) return { m, part: m.parts > 1 && part?.message_ref === m.id ? part : undefined };
      }
      return undefined;
    },
    /**
     * Records a part's first final report (duplicates change nothing) and answers the message's
     * combined report once every part has one, else undefined.
     */
    settle(r: Report, { m, part }: Located): PartReport | undefined {
      if (!part || part.status !== null || !receiptResultOf(r.status)) return undefined;
      Object.assign(part, { status: r.status, code: r.code, descr: r.desc });
      settled.push(part);
      return combinedReport(partsOf.get(m.id) ?? []);
    },
    /** The parts that got their final report. */
    settled(): readonly StoredPart[] {
      return settled;
    },
  };
}

/** Records the parts' final reports, one statement for all. */
export async function writeParts(c: Queryable, parts: readonly StoredPart[]): Promise<void> {
  if (parts.length === 0) return;
  await c.query(
    `UPDATE message_parts p SET status = s.status, code = s.code, descr = s.descr
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
       AS s(route, upstream, upstream_id, status, code, descr)
     WHERE p.route = s.route AND p.upstream = s.upstream AND p.upstream_id = s.upstream_id
       AND p.status IS NULL`,
    [
      parts.map((p) => p.route),
      parts.map((p) => p.upstream),
      parts.map((p) => p.upstream_id),
      parts.map((p) => p.status),
      parts.map((p) => p.code),
      parts.map((p) => p.descr),
    ],
  );
}

/**
 * Writes the parts of messages just submitted as several submits. An SMSC may hand out an id
 * again after wrapping around: the newest message owns it, its earlier reports forgotten.
 */
export async function insertParts(
  c: Queryable,
  submitted: readonly { id: number; route: string; upstream: string; parts: readonly string[] }[],
): Promise<void> {
  const rows = new Map<string, IssuedId & { id: number; no: number }>();
  for (const o of [...submitted].sort((a, b) => a.id - b.id))
    o.parts.forEach((upstreamId, i) => {
      const row = { route: o.route, upstream: o.upstream, upstreamId, id: o.id, no: i + 1 };
      rows.set(issuedKey(o, upstreamId), row);
    });
  if (rows.size === 0) return;
  const list = [...rows.values()];
  await c.query(
    `INSERT INTO message_parts (route, upstream, upstream_id, message_ref, part_no)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::int[])
     ON CONFLICT (route, upstream, upstream_id) DO UPDATE SET message_ref = excluded.message_ref,
       part_no = excluded.part_no, status = NULL, code = NULL, descr = NULL`,
    [
      list.map((p) => p.route),
      list.map((p) => p.upstream),
      list.map((p) => p.upstreamId),
      list.map((p) => p.id),
      list.map((p) => p.no),
    ],
  );
}

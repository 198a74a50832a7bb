import type { Queryable } from './database.js';

export interface EventInput {
  id: number;
  status: string;
  code: string;
  desc: string;
  at?: number;
}

/** A business message's history rows, in the order given. */
export async function addEvents(db: Queryable, events: readonly EventInput[], now: number) {
  if (events.length === 0) return;
  await db.query(
    `INSERT INTO message_events (message_ref, status, at, code, descr)
     SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::text[], $5::text[])`,
    [
      events.map((e) => e.id),
      events.map((e) => e.status),
      events.map((e) => e.at ?? now),
      events.map((e) => e.code),
      events.map((e) => e.desc),
    ],
  );
}

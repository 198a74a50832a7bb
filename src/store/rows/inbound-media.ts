/**
 * The queue of files to fetch for inbound WhatsApp messages, as both adapters run it: rows of
 * inbound_messages with media_state 'pending', claimed by media_due_at under a lease.
 */
import type { InboundMedia, PendingMedia } from '../../domain/inbound/inbound-media.js';

export interface PendingMediaRow {
  inbound_id: string;
  account_id: number;
  to_addr: string;
  media: string;
  media_attempts: number;
}

/**
 * Takes up to `limit` due files and holds them until the lease ends, counting the attempt.
 * Parameters: the lease's end, now, the limit. PostgreSQL skips rows another node is claiming.
 */
export function claimMediaSql(p: (n: number) => string, skipLocked: boolean): string {
  return `UPDATE inbound_messages SET media_due_at = ${p(1)}, media_attempts = media_attempts + 1
    WHERE seq IN (
      SELECT seq FROM inbound_messages WHERE media_state = 'pending' AND media_due_at <= ${p(2)}
      ORDER BY media_due_at LIMIT ${p(3)}${skipLocked ? ' FOR UPDATE SKIP LOCKED' : ''})
    RETURNING inbound_id, account_id, to_addr, media, media_attempts`;
}

/** The message's media while still pending (parameter: the inbound id). */
export const PENDING_MEDIA_SQL = (p: (n: number) => string, lock: boolean) =>
  `SELECT media FROM inbound_messages WHERE inbound_id = ${p(1)} AND media_state = 'pending'${
    lock ? ' FOR UPDATE' : ''
  }`;

/** Settles the media (parameters: its JSON, its state, the inbound id). */
export const SETTLE_MEDIA_SQL = (p: (n: number) => string) =>
  `UPDATE inbound_messages SET media = ${p(1)}, media_state = ${p(2)}, media_due_at = NULL
    WHERE inbound_id = ${p(3)} AND media_state = 'pending'`;

export function toPendingMedia(r: PendingMediaRow): PendingMedia {
  // The media JSON is what the inbound store wrote (InboundMedia).
  const { ref, fileName } = JSON.parse(r.media) as InboundMedia;
  return {
    inboundId: r.inbound_id,
    accountId: r.account_id,
    to: r.to_addr,
    ref,
    ...(fileName === undefined ? {} : { fileName }),
    attempts: r.media_attempts,
  };
}

/** The media JSON with the last attempt's error noted, still pending. */
export function withError(mediaJson: string, error: string): string {
  // (the same JSON, as the store wrote it)
  return JSON.stringify({ ...(JSON.parse(mediaJson) as InboundMedia), error });
}

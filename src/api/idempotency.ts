import { createHash } from 'node:crypto';
import { invalid } from '../domain/errors.js';
import {
  idempotencyWindowStart,
  replay as replayFirst,
} from '../domain/messages/idempotency-window.js';
import type { IdempotencyRecord } from '../domain/messages/message.js';
import type { ActionContext } from './context.js';
import type { PolicyRefusal } from '../domain/accounts/policy.js';
import type { IdempotencyDraft } from '../domain/accounts/policy-ports.js';
import { fieldsOf } from '../util/unknown-values.js';

/** The header a client names a send with, so that a retry is answered, not sent twice. */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

export interface Idempotency {
  key: string;
  requestHash: string;
}

/** The Idempotency-Key header and a hash of the request it came with, if the client sent one. */
export function idempotencyOf(ctx: ActionContext, input: unknown): Idempotency | undefined {
  const key = ctx.idempotencyKey;
  if (key === undefined) return undefined;
  checkKey(key);
  // AccountId is compared as the account it names: "1", 1 and accountId:1 are one request.
  const request = { ...(input as object), AccountId: ctx.accountId, accountId: undefined };
  return { key, requestHash: hashOf(request) };
}

function checkKey(key: string): void {
  if (!/^[\x21-\x7e]{1,255}$/.test(key)) {
    throw invalid('Idempotency-Key', 'must be 1 to 255 visible ASCII characters');
  }
}

/** The header of a request that is not an Action (an admin route), checked; undefined if absent. */
export function idempotencyKeyOf(headers: Record<string, unknown>): string | undefined {
  const raw = headers[IDEMPOTENCY_HEADER.toLowerCase()];
  if (raw === undefined) return undefined;
  // Node gives a header once as a string; sent twice, its values joined (never an object).
  const key = typeof raw === 'string' ? raw : Array.isArray(raw) ? raw.join(',') : '';
  checkKey(key);
  return key;
}

/** A request as compared with a retry: its fields in any order hash the same. */
export function hashOf(request: unknown): string {
  return createHash('sha256').update(canonicalJson(request)).digest('hex');
}

/** JSON with object keys sorted, so the same request with its fields reordered hashes the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(fieldsOf(value))
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The first answer to this key, or a conflict when the key came with another request. */
export function replay(idem: Idempotency, seen: IdempotencyRecord): Record<string, unknown> {
  return replayFirst(idem.requestHash, seen);
}

export async function findReplay(
  ctx: ActionContext,
  idem: Idempotency | undefined,
): Promise<Record<string, unknown> | undefined> {
  if (!idem) return undefined;
  const now = ctx.deps.clock.now();
  const seen = await ctx.deps.store.findIdempotency(
    ctx.accountId,
    idem.key,
    idempotencyWindowStart(now),
  );
  return seen && replay(idem, seen);
}

/**
 * Stores an accepted request with its idempotency record (one transaction) and answers it; when
 * a concurrent twin with the same key won the race, answers the twin's first answer instead.
 */
export async function acceptOnce(
  ctx: ActionContext,
  idem: Idempotency | undefined,
  accepted: {
    answer: Record<string, unknown>;
    /** Stores the messages with the record, all or nothing; answers a twin's record if it won. */
    store: (record: IdempotencyRecord | undefined) => Promise<IdempotencyRecord | undefined>;
  },
): Promise<Record<string, unknown>> {
  const { answer } = accepted;
  const raced = await accepted.store(recordFor(ctx, idem, answer));
  if (raced && idem) return replay(idem, raced);
  return answer;
}

/**
 * The record the store writes with an accepted request whose answer depends on what the
 * account's policy refuses: `answerFor` is called in the store's transaction, once it decided.
 */
export function draftFor(
  ctx: ActionContext,
  idem: Idempotency | undefined,
  answerFor: (refused: readonly PolicyRefusal[]) => Record<string, unknown>,
): IdempotencyDraft | undefined {
  return (
    idem && {
      accountId: ctx.accountId,
      key: idem.key,
      requestHash: idem.requestHash,
      response: (refused) => JSON.stringify(answerFor(refused)),
      createdAt: ctx.deps.clock.now(),
    }
  );
}

function recordFor(
  ctx: ActionContext,
  idem: Idempotency | undefined,
  answer: Record<string, unknown>,
): IdempotencyRecord | undefined {
  return (
    idem && {
      accountId: ctx.accountId,
      key: idem.key,
      requestHash: idem.requestHash,
      response: JSON.stringify(answer),
      createdAt: ctx.deps.clock.now(),
    }
  );
}

import { Type } from '@sinclair/typebox';
import type { HeldView } from '../../domain/views/views.js';
import { defineAction } from '../context.js';
import { IntegerLike, pageLimit } from './schema-types.js';
import { Obj, ScheduledMessage } from '../answer-schemas.js';

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;

const Input = Type.Object({
  SessionNo: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  Cursor: Type.Optional(
    Type.String({ pattern: '^[0-9]{1,15}\\.[0-9]{1,15}$', description: 'NextCursor of a page' }),
  ),
  Limit: Type.Optional(IntegerLike),
});

/** A held message as Wirebird's own Actions show it (GetUSMSSendReceipt's HeldSet too). */
export function scheduledView(m: HeldView) {
  return {
    SessionNo: m.sessionNo ?? '',
    MessageId: m.messageId ?? '',
    Phone: m.phone,
    SendAt: Math.floor(m.dueAt / 1000),
    ExpireTime: m.expiresAt === undefined ? 0 : Math.floor(m.expiresAt / 1000),
    CreateTime: Math.floor(m.acceptedAt / 1000),
  };
}

/**
 * Wirebird's own Action (docs/api.md): the account's messages held for a later SendAt, soonest
 * due first, a page at a time, as the console's Scheduled page lists them. NextCursor ("" on the
 * last page) asks for the next one.
 */
export const listScheduledMessages = defineAction(
  {
    scope: 'read',
    repeatable: 'safe',
    summary: "The account's messages held for a later SendAt, soonest first; NextCursor pages on.",
    request: Input,
    answer: Obj({ Data: Type.Array(ScheduledMessage), NextCursor: Type.String() }),
  },
  async ({ accountId, deps }, input) => {
    const limit = pageLimit(input.Limit, MAX_LIMIT, DEFAULT_LIMIT);
    const [dueAt, id] = (input.Cursor ?? '').split('.').map(Number);
    const after =
      dueAt !== undefined && id !== undefined && input.Cursor ? { dueAt, id } : undefined;
    const held = await deps.store.heldMessages({
      now: deps.clock.now(),
      accountId,
      ...(input.SessionNo ? { sessionNo: input.SessionNo } : {}),
      ...(after ? { after } : {}),
      limit,
    });
    const last = held.length === limit ? held.at(-1) : undefined;
    return {
      Data: held.map(scheduledView),
      NextCursor: last ? `${last.dueAt}.${last.id}` : '',
    };
  },
);

import { Type, type TSchema } from '@sinclair/typebox';
import { EVENT_SCHEMA_VERSION, TEST_EVENT, type AnyEventType } from '../../domain/events/event.js';
import {
  InboundMessage,
  Obj,
  OptOutSource,
  OutTemplate,
  ReceiptResult,
} from '../answer-schemas.js';

/**
 * What each webhook event's `data` holds (docs/events.md), published as the OpenAPI document's
 * `webhooks`. The tests hold every event a receiver gets to these schemas.
 */
const Unix = Type.Integer({ minimum: 0, description: 'Unix seconds' });
const Sequence = Type.Integer({
  minimum: 1,
  description: "the message's own count of events: keep the highest per message",
});
const Version = { SchemaVersion: Type.Literal(EVENT_SCHEMA_VERSION) };

const Receipt = Obj({
  ...Version,
  SessionNo: Type.String(),
  Phone: Type.String({ description: 'as the request wrote it' }),
  UserId: Type.String(),
  ReceiptResult,
  ReceiptCode: Type.String(),
  ReceiptDesc: Type.String(),
  CostCount: Type.Integer({ minimum: 0 }),
  SendTime: Unix,
  SubmitTime: Type.Union([Unix, Type.Null()], { description: 'null when never submitted' }),
  ReceiptTime: Unix,
  Sequence,
});

const Status = Obj({
  ...Version,
  MessageId: Type.String(),
  Phone: Type.String(),
  BusinessPhone: Type.String(),
  Status: Type.Union(
    ['scheduled', 'sent', 'delivered', 'read', 'failed', 'unknown'].map((s) => Type.Literal(s)),
  ),
  StatusTime: Unix,
  SendAt: Type.Optional(
    Type.Integer({ minimum: 0, description: 'Unix seconds: when a scheduled one is due' }),
  ),
  Error: Type.Union([Obj({ Code: Type.String(), Desc: Type.String() }), Type.Null()]),
  Sequence,
});

const Fallback = Obj({
  ...Version,
  MessageId: Type.String({ description: 'the business message' }),
  BusinessPhone: Type.String(),
  Phone: Type.String({ description: "the business message's To, as the request wrote it" }),
  State: Type.Union([Type.Literal('sent'), Type.Literal('failed')], {
    description: 'sent: the SMS was accepted; failed: it could not be (Reason says why)',
  }),
  Reason: Type.String(),
  SessionNo: Type.Union([Type.String(), Type.Null()], {
    description: "the SMS's session (GetUSMSSendReceipt takes it); null when none was accepted",
  }),
  FallbackTime: Unix,
});

const Contact = Obj({
  ...Version,
  Phone: Type.String({ description: 'E.164' }),
  Source: OptOutSource,
  Keyword: Type.String({ description: 'the word that opted out or in; "" otherwise' }),
  Time: Unix,
});

const versioned = (view: TSchema) => Type.Intersect([Obj(Version), view]);

export const EVENT_DATA: Record<AnyEventType, { when: string; data: TSchema }> = {
  'message.receipt': {
    when: 'An SMS got its receipt (delivered, failed, expired, refused).',
    data: Receipt,
  },
  'message.status': { when: 'A business (WhatsApp) message moved to a new status.', data: Status },
  'message.inbound': {
    when: "A reply or WhatsApp message to one of the account's numbers was stored.",
    data: versioned(InboundMessage),
  },
  'message.fallback': {
    when: "A business message's SMS fallback fired: its SMS accepted, or why it could not be.",
    data: Fallback,
  },
  'contact.opted_out': { when: 'A number opted out.', data: Contact },
  'contact.opted_in': { when: 'A number opted back in.', data: Contact },
  'template.reviewed': {
    when: "A template's review decided (approved, or failed review).",
    data: versioned(OutTemplate),
  },
  'account.limit_reached': {
    when: "The account's policy refused a number for DailyLimit, RecipientHourlyLimit or Prepaid: once per rule and UTC day.",
    data: Obj({
      ...Version,
      Rule: Type.Union(
        ['DailyLimit', 'RecipientHourlyLimit', 'Prepaid'].map((r) => Type.Literal(r)),
      ),
      Limit: Type.Optional(
        Type.Integer({ description: 'the limit reached (DailyLimit, RecipientHourlyLimit)' }),
      ),
      Balance: Type.Optional(
        Type.Integer({ description: 'Prepaid: the balance left, in CostCount' }),
      ),
      Day: Type.String({ description: 'the UTC day, as 2026-11-28' }),
    }),
  },
  [TEST_EVENT]: {
    when: 'SendWebhookTestEvent: to that endpoint only, whatever its filter.',
    data: Obj({ ...Version, EndpointId: Type.String(), Message: Type.String() }),
  },
};

/** The body of an event's POST: its type, when it happened, and its data. */
export function eventBody(type: string, data: TSchema): TSchema {
  return Obj({
    type: Type.Literal(type),
    timestamp: Type.String({ format: 'date-time', description: 'when it happened' }),
    data,
  });
}

/** `message.receipt` → MessageReceiptEvent: the component an event's body is published as. */
export function eventSchemaName(type: string): string {
  const words = type.split(/[._]/).map((w) => (w[0]?.toUpperCase() ?? '') + w.slice(1));
  return `${words.join('')}Event`;
}

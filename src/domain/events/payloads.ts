import type { DueFallback, FallbackOutcome } from '../business-messages/conversation.js';
import type { InboundMessage } from '../inbound/inbound.js';
import { inboundView } from '../inbound/inbound-view.js';
import { outTemplate } from '../templates/out-template.js';
import { TemplateStatus, type Template } from '../templates/template.js';
import type { NewEvent } from './event.js';
import { SCHEDULED } from '../messages/schedule.js';

/** What an event about a message says of it, as both stores read it from the message's row. */
export interface MessageEventSource {
  kind: string;
  accountId: number;
  sessionNo: string | null;
  messageId: string | null;
  phone: string;
  userId: string;
  businessPhone: string;
  costCount: number;
  status: string;
  receipt: { result: string; code: string; desc: string; time: number } | undefined;
  /** Unix ms. */
  acceptedAt: number;
  submittedAt: number | null;
  /** Unix ms: when it is next due (a held message's SendAt); null once final. */
  dueAt: number | null;
  /** The message's own event count, this one included: a receiver keeps the highest. */
  sequence: number;
}

/**
 * The event a change of a message makes, if any: an SMS's receipt once it has one
 * (`message.receipt`), each new status of a business message (`message.status`), with the
 * report's code and description (the error of a failure).
 */
export function messageEvent(
  m: MessageEventSource,
  report: { code: string; desc: string },
  at: number,
): NewEvent | undefined {
  if (m.kind === 'sms') {
    if (!m.receipt) return undefined;
    return { accountId: m.accountId, type: 'message.receipt', at, data: receiptData(m) };
  }
  return { accountId: m.accountId, type: 'message.status', at, data: statusData(m, report, at) };
}

function receiptData(m: MessageEventSource): Record<string, unknown> {
  const r = m.receipt;
  return {
    SessionNo: m.sessionNo ?? '',
    Phone: m.phone,
    UserId: m.userId,
    ReceiptResult: r?.result,
    ReceiptCode: r?.code,
    ReceiptDesc: r?.desc,
    CostCount: m.costCount,
    SendTime: Math.floor(m.acceptedAt / 1000),
    SubmitTime: m.submittedAt === null ? null : Math.floor(m.submittedAt / 1000),
    ReceiptTime: r?.time,
    Sequence: m.sequence,
  };
}

function statusData(
  m: MessageEventSource,
  report: { code: string; desc: string },
  at: number,
): Record<string, unknown> {
  const failed = m.status === 'failed' || m.status === 'unknown';
  return {
    MessageId: m.messageId ?? '',
    Phone: m.phone,
    BusinessPhone: m.businessPhone,
    Status: m.status,
    StatusTime: Math.floor(at / 1000),
    Error: failed ? { Code: report.code, Desc: report.desc } : null,
    // A held message says when it goes: the SendAt it was accepted with.
    ...(m.status === SCHEDULED && m.dueAt !== null ? { SendAt: Math.floor(m.dueAt / 1000) } : {}),
    Sequence: m.sequence,
  };
}

/** `message.inbound`: the message as ListInboundMessages answers it. */
export function inboundEvent(m: InboundMessage & { accountId: number }): NewEvent {
  return {
    accountId: m.accountId,
    type: 'message.inbound',
    at: m.receivedAt,
    data: inboundView(m),
  };
}

/**
 * `template.reviewed` when a review step decided (approved or failed review): the template as
 * QueryUSMSTemplate answers it. A step that only starts a review says nothing.
 */
export function templateReviewedEvent(t: Template, at: number): NewEvent | undefined {
  if (t.status !== TemplateStatus.Approved && t.status !== TemplateStatus.FailedReview) {
    return undefined;
  }
  return { accountId: t.accountId, type: 'template.reviewed', at, data: outTemplate(t) };
}

/**
 * `message.fallback`: a business message's fallback fired. Names both messages: the business
 * MessageId and, when the SMS was accepted, its SessionNo; else why none was (Reason).
 */
export function fallbackEvent(due: DueFallback, outcome: FallbackOutcome, at: number): NewEvent {
  const sent = outcome.state === 'sent' ? outcome.batch : undefined;
  return {
    accountId: due.accountId,
    type: 'message.fallback',
    at,
    data: {
      MessageId: due.messageId,
      BusinessPhone: due.businessPhone,
      Phone: due.to,
      State: outcome.state,
      Reason: outcome.reason,
      SessionNo: sent?.sessionNo ?? null,
      FallbackTime: Math.floor(at / 1000),
    },
  };
}

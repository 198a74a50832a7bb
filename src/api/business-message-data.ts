import type { BusinessMessageView } from '../domain/messages/message.js';

/** A business message as the API answers it (answer-schemas.ts: BusinessMessageData). */
export function businessMessageData(m: BusinessMessageView): Record<string, unknown> {
  return {
    MessageId: m.messageId,
    AccountId: m.accountId,
    BusinessPhone: m.businessPhone,
    To: m.to,
    Type: m.type,
    // The content is stored as the JSON the API validated; answered as it was sent.
    Content: JSON.parse(m.content) as unknown,
    Route: m.route,
    UpstreamId: m.upstreamId ?? '',
    Status: m.status,
    Attempts: m.attempts,
    AcceptedAt: Math.floor(m.acceptedAt / 1000),
    History: m.history.map((e) => ({
      Status: e.status,
      Time: Math.floor(e.at / 1000),
      Code: e.code,
      Desc: e.desc,
    })),
    ...(m.fallback
      ? {
          Fallback: {
            State: m.fallback.state,
            Reason: m.fallback.reason,
            ...(m.fallback.sessionNo === undefined ? {} : { SessionNo: m.fallback.sessionNo }),
            ...(m.fallback.phone === undefined ? {} : { Phone: m.fallback.phone }),
          },
        }
      : {}),
  };
}

import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { WirebirdError } from '../../domain/errors.js';
import type { BusinessMessageView } from '../../domain/messages/message.js';
import { normalizePhone } from '../../domain/phones/phones.js';
import { Obj } from '../answer-schemas.js';
import type { ApiDeps } from '../context.js';
import { serveAdmin, type AdminRoute } from './admin-route.js';

const Unix = Type.Integer({ minimum: 0, description: 'Unix seconds' });

export const MESSAGE_ROUTES = {
  businessMessage: {
    method: 'GET',
    url: '/admin/messages/:messageId',
    summary: 'A business message of any account, with its status history.',
    params: { messageId: { description: 'the MessageId SendMessage answered' } },
    answer: Obj({
      Data: Obj({
        MessageId: Type.String(),
        AccountId: Type.Integer(),
        BusinessPhone: Type.String(),
        To: Type.String(),
        Type: Type.String(),
        Content: Type.Unknown(),
        Route: Type.String(),
        UpstreamId: Type.String(),
        Status: Type.String(),
        Attempts: Type.Integer({ minimum: 0 }),
        AcceptedAt: Unix,
        History: Type.Array(
          Obj({ Status: Type.String(), Time: Unix, Code: Type.String(), Desc: Type.String() }),
        ),
      }),
    }),
  },
  inbox: {
    method: 'GET',
    url: '/admin/inbox',
    summary: "The simulator's inbox: what the simulated phones received, newest first.",
    query: Type.Object({
      phone: Type.Optional(Type.String({ description: 'one phone only' })),
      limit: Type.Optional(Type.String({ description: '1 to 1000 (default 100)' })),
    }),
    answer: Obj({
      DataSet: Type.Array(
        Obj({
          Kind: Type.String(),
          From: Type.String(),
          To: Type.String(),
          Type: Type.String(),
          Body: Type.Unknown(),
          Segments: Type.Integer(),
          Encoding: Type.String(),
          DeliveredAt: Unix,
          Report: Type.String({
            description: 'the outcome it will report; none for the silent test number',
          }),
          Reported: Type.Boolean(),
          Submissions: Type.Integer(),
          LastAttempt: Type.Integer(),
        }),
      ),
    }),
  },
} satisfies Record<string, AdminRoute>;

export function registerMessageAdmin(app: FastifyInstance, deps: ApiDeps): void {
  serveAdmin(app, deps, MESSAGE_ROUTES.businessMessage, async ({ params }) => {
    const id = params.messageId ?? '';
    const m = await deps.store.getBusinessMessage(id);
    if (!m) throw new WirebirdError('NotFound', `MessageId ${id} not found`);
    return { Data: messageView(m) };
  });
  serveAdmin(app, deps, MESSAGE_ROUTES.inbox, async ({ query }) => {
    const limit = Math.min(1000, Math.max(1, Number(query.limit) || 100));
    // The inbox query's schema declares phone an optional string.
    const raw = query.phone as string | undefined;
    const parsed = raw ? normalizePhone(raw, deps.config.defaultRegion) : undefined;
    const phone = parsed?.ok ? parsed.e164 : raw;
    const entries = await deps.store.listInbox({ phone, limit });
    return {
      DataSet: entries.map((e) => ({
        Kind: e.kind,
        From: e.from,
        To: e.to,
        Type: e.type,
        // Business bodies are stored as the JSON the API validated; answered as they were sent.
        Body: e.kind === 'sms' ? e.body : (JSON.parse(e.body) as unknown),
        Segments: e.segments,
        Encoding: e.encoding,
        DeliveredAt: Math.floor(e.deliveredAt / 1000),
        Report: e.reportStatus,
        Reported: e.reported,
        Submissions: e.submissions,
        LastAttempt: e.lastAttempt,
      })),
    };
  });
}

function messageView(m: BusinessMessageView): Record<string, unknown> {
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
  };
}

import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { WirebirdError } from '../../domain/errors.js';
import { normalizePhone } from '../../domain/phones/phones.js';
import { BusinessMessageData, Obj } from '../answer-schemas.js';
import { businessMessageData } from '../business-message-data.js';
import type { ApiDeps } from '../context.js';
import { serveAdmin, type AdminRoute } from './admin-route.js';

const Unix = Type.Integer({ minimum: 0, description: 'Unix seconds' });

export const MESSAGE_ROUTES = {
  businessMessage: {
    method: 'GET',
    url: '/admin/messages/:messageId',
    summary: 'A business message of any account, with its status history.',
    params: { messageId: { description: 'the MessageId SendMessage answered' } },
    answer: Obj({ Data: BusinessMessageData }),
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
    const m = await deps.store.getBusinessMessage(id, 'any');
    if (!m) throw new WirebirdError('NotFound', `MessageId ${id} not found`);
    return { Data: businessMessageData(m) };
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

import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { testPhoneReply } from '../../domain/inbound/test-phone.js';
import type { ApiDeps } from '../context.js';
import { inboundView } from '../../domain/inbound/inbound-view.js';
import { InboundMessage, Obj } from '../answer-schemas.js';
import { serveAdmin, type AdminRoute } from './admin-route.js';

export const INBOUND_ROUTES = {
  simulateReply: {
    method: 'POST',
    url: '/admin/simulator/inbound',
    summary: 'Makes a simulated phone send a message, stored and routed as a real reply would be.',
    body: Type.Object({
      From: Type.String({ minLength: 1, maxLength: 32 }),
      To: Type.String({ minLength: 1, maxLength: 32 }),
      Text: Type.String({ minLength: 1, maxLength: 4096 }),
      Channel: Type.Optional(Type.Union([Type.Literal('sms'), Type.Literal('whatsapp')])),
    }),
    answer: Type.Intersect([
      InboundMessage,
      Obj({
        AccountId: Type.Union([Type.Integer(), Type.Null()], { description: 'null: unrouted' }),
      }),
    ]),
    creates: true,
  },
  unrouted: {
    method: 'GET',
    url: '/admin/inbound/unrouted',
    summary: 'Messages to numbers no account registered, newest first.',
    query: Type.Object({
      limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,4}$' })),
      before: Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$' })),
    }),
    answer: Obj({ DataSet: Type.Array(InboundMessage), NextCursor: Type.String() }),
  },
} satisfies Record<string, AdminRoute>;

/**
 * POST /admin/simulator/inbound makes a test phone answer: the reply is stored as a real one
 * would be (docs/inbound.md). GET /admin/inbound/unrouted lists replies to numbers no account
 * registered.
 */
export function registerInboundAdmin(app: FastifyInstance, deps: ApiDeps): void {
  serveAdmin(app, deps, INBOUND_ROUTES.simulateReply, async ({ body }) => {
    // Validated against the simulated reply schema by serveAdmin before this runs.
    const input = body as { From: string; To: string; Text: string; Channel?: 'sms' | 'whatsapp' };
    const said = {
      channel: input.Channel ?? 'sms',
      from: input.From,
      to: input.To,
      text: input.Text,
    };
    // Each call is a new reply: the simulator has no network id to repeat.
    const at = {
      region: deps.config.defaultRegion,
      now: deps.clock.now(),
      nonce: deps.ids.uuid(),
    };
    const arrived = testPhoneReply(said, at, { from: 'From', to: 'To' });
    const { message } = await deps.inbound.receive(arrived);
    return { AccountId: message.accountId ?? null, ...inboundView(message) };
  });
  serveAdmin(app, deps, INBOUND_ROUTES.unrouted, async ({ query }) => {
    const limit = Math.min(1000, Math.max(1, Number(query.limit ?? 100)));
    const before = query.before === undefined ? undefined : Number(query.before);
    const page = await deps.store.listInbound({ accountId: null, limit, before });
    return {
      DataSet: page.messages.map(inboundView),
      NextCursor: page.nextCursor === undefined ? '' : String(page.nextCursor),
    };
  });
}

import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { testPhoneReply } from '../../domain/inbound/test-phone.js';
import type { ApiDeps } from '../context.js';
import { inboundView } from '../../domain/inbound/inbound-view.js';
import { validator } from '../validate.js';
import { ok, sendAdminError } from './guard.js';

const SimulatedReply = Type.Object({
  From: Type.String({ minLength: 1, maxLength: 32 }),
  To: Type.String({ minLength: 1, maxLength: 32 }),
  Text: Type.String({ minLength: 1, maxLength: 4096 }),
  Channel: Type.Optional(Type.Union([Type.Literal('sms'), Type.Literal('whatsapp')])),
});
const readReply = validator(SimulatedReply);

const UnroutedQuery = Type.Object({
  limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,4}$' })),
  before: Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$' })),
});
const readUnrouted = validator(UnroutedQuery);

/**
 * POST /admin/simulator/inbound makes a test phone answer: the reply is stored as a real one
 * would be (docs/inbound.md). GET /admin/inbound/unrouted lists replies to numbers no account
 * registered.
 */
export function registerInboundAdmin(app: FastifyInstance, deps: ApiDeps): void {
  app.post('/admin/simulator/inbound', async (request, reply) => {
    try {
      const input = readReply(request.body ?? {});
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
      return reply
        .code(201)
        .send(ok({ AccountId: message.accountId ?? null, ...inboundView(message) }));
    } catch (err) {
      return sendAdminError(reply, err);
    }
  });
  app.get('/admin/inbound/unrouted', async (request, reply) => {
    try {
      const query = readUnrouted(request.query ?? {});
      const limit = Math.min(1000, Math.max(1, Number(query.limit ?? 100)));
      const before = query.before === undefined ? undefined : Number(query.before);
      const page = await deps.store.listInbound({ accountId: null, limit, before });
      return ok({
        DataSet: page.messages.map(inboundView),
        NextCursor: page.nextCursor === undefined ? '' : String(page.nextCursor),
      });
    } catch (err) {
      return sendAdminError(reply, err);
    }
  });
}

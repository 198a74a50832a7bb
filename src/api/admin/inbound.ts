import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { invalid } from '../../domain/errors.js';
import { smsNumberOf } from '../../domain/inbound/sms-number.js';
import { normalizePhone } from '../../domain/phones/phones.js';
import type { ApiDeps } from '../context.js';
import { inboundView } from '../inbound-view.js';
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
      const channel = input.Channel ?? 'sms';
      const region = deps.config.defaultRegion;
      const from = normalizePhone(input.From, region);
      if (!from.ok) throw invalid('From', from.reason);
      const to =
        channel === 'sms' ? smsNumberOf(input.To, region, 'To') : businessPhone(input.To, region);
      const { message } = await deps.inbound.receive({
        channel,
        from: from.e164,
        to,
        type: 'text',
        body: input.Text,
        // Each call is a new reply: the simulator has no network id to repeat.
        dedupeKey: `simulator:${deps.ids.uuid()}`,
        complete: true,
        receivedAt: deps.clock.now(),
      });
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

function businessPhone(raw: string, region: string): string {
  const phone = normalizePhone(raw, region);
  if (!phone.ok) throw invalid('To', phone.reason);
  return phone.e164;
}

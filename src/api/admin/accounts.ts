import type { FastifyInstance, FastifyReply } from 'fastify';
import { checkSenderId } from '../../domain/accounts/sender-id.js';
import { invalid, missing } from '../../domain/errors.js';
import { normalizePhone } from '../../domain/phones/phones.js';
import { hashKey, newApiKey } from '../auth.js';
import type { ApiDeps } from '../context.js';
import { accountIdParam, ok, sendAdminError } from './guard.js';

type AccountRoute = { Params: { accountId: string }; Body: Record<string, unknown> | undefined };

export function registerAccountAdmin(app: FastifyInstance, deps: ApiDeps): void {
  const { store, clock } = deps;
  const route = (
    path: string,
    run: (accountId: number, body: Record<string, unknown>) => Promise<object>,
  ) =>
    app.post<AccountRoute>(
      `/admin/accounts/:accountId${path}`,
      async (request, reply: FastifyReply) => {
        try {
          const accountId = accountIdParam(request.params.accountId);
          const result = await run(accountId, request.body ?? {});
          return reply.code(201).send(ok({ AccountId: accountId, ...result }));
        } catch (err) {
          return sendAdminError(reply, err);
        }
      },
    );

  route('/keys', async (accountId) => {
    const key = newApiKey();
    await store.ensureAccount(accountId, clock.now());
    await store.addApiKey(accountId, hashKey(key), clock.now());
    return { Key: key };
  });
  route('/sender-ids', async (accountId, body) => {
    const senderId = checkSenderId(requireString(body, 'SenderId'));
    await store.ensureAccount(accountId, clock.now());
    await store.addSenderId(accountId, senderId, clock.now());
    return { SenderId: senderId };
  });
  route('/business-phones', async (accountId, body) => {
    const raw = requireString(body, 'BusinessPhone');
    const phone = normalizePhone(raw, deps.config.defaultRegion);
    if (!phone.ok) throw invalid('BusinessPhone', phone.reason);
    const channel = body.Channel === undefined ? 'simulator' : requireString(body, 'Channel');
    if (channel !== 'simulator')
      throw invalid('Channel', 'must be "simulator" (no other channel is configured)');
    await store.ensureAccount(accountId, clock.now());
    await store.addBusinessPhone({
      accountId,
      businessPhone: phone.e164,
      channel,
      createdAt: clock.now(),
    });
    return { BusinessPhone: phone.e164, Channel: channel };
  });
}

function requireString(body: Record<string, unknown>, field: string): string {
  const v = body[field];
  if (v === undefined || v === null || v === '') throw missing(field);
  if (typeof v !== 'string') throw invalid(field, 'must be a string');
  return v;
}

import type { FastifyInstance, FastifyReply } from 'fastify';
import { checkSenderId } from '../../domain/accounts/sender-id.js';
import { WirebirdError, invalid, missing } from '../../domain/errors.js';
import { smsNumberOf } from '../../domain/inbound/sms-number.js';
import { e164Of, isKnownRegion } from '../../domain/phones/phones.js';
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
    const region = (await store.accountRegion(accountId)) ?? deps.config.defaultRegion;
    const channel = channelOf(body);
    const number = await registrableNumber(deps, {
      raw,
      region,
      channel: channel.channel,
      accountId,
    });
    await store.ensureAccount(accountId, clock.now());
    await store.addBusinessPhone({
      accountId,
      businessPhone: number,
      createdAt: clock.now(),
      ...channel,
    });
    // The access token goes to the store and to Meta only: never back in an answer.
    return {
      BusinessPhone: number,
      Channel: channel.channel,
      ...(channel.phoneNumberId ? { PhoneNumberId: channel.phoneNumberId } : {}),
    };
  });
  registerRegionAdmin(app, deps);
}

/**
 * PUT /admin/accounts/:accountId/default-region: the region the account's numbers without a
 * country code are read in. `DefaultRegion: null` goes back to the gateway's (config).
 */
function registerRegionAdmin(app: FastifyInstance, deps: ApiDeps): void {
  app.put<AccountRoute>('/admin/accounts/:accountId/default-region', async (request, reply) => {
    try {
      const accountId = accountIdParam(request.params.accountId);
      const region = regionOf(request.body ?? {});
      if (!(await deps.store.setAccountRegion(accountId, region))) {
        throw new WirebirdError('NotFound', `no account ${accountId}: create it with a key first`);
      }
      const effective = region ?? deps.config.defaultRegion;
      return reply.send(
        ok({ AccountId: accountId, DefaultRegion: region ?? null, EffectiveRegion: effective }),
      );
    } catch (err) {
      return sendAdminError(reply, err);
    }
  });
}

function regionOf(body: Record<string, unknown>): string | undefined {
  if (!('DefaultRegion' in body)) throw missing('DefaultRegion');
  const value = body.DefaultRegion;
  if (value === null) return undefined;
  if (typeof value !== 'string' || !isKnownRegion(value.toUpperCase())) {
    throw invalid(
      'DefaultRegion',
      'must be a two-letter region code such as "US" or "CN", or null for the gateway\'s default',
    );
  }
  return value.toUpperCase();
}

/**
 * The number as stored: E.164 for a business phone; for an SMS number (replies come to it) a
 * short code or E.164, which no other account may hold, or replies would have two owners.
 */
async function registrableNumber(
  deps: ApiDeps,
  p: { raw: string; region: string; channel: string; accountId: number },
): Promise<string> {
  if (p.channel !== 'sms') {
    return e164Of(p.raw, p.region, 'BusinessPhone');
  }
  const number = smsNumberOf(p.raw, p.region, 'BusinessPhone');
  const owner = await deps.store.numberOwner('sms', number);
  if (owner !== undefined && owner !== p.accountId) {
    throw new WirebirdError(
      'StateConflict',
      `SMS number ${number} is registered by another account; replies to a number go to one account`,
    );
  }
  return number;
}

const CHANNELS = ['simulator', 'whatsapp', 'sms'];

/** The phone's channel and, for WhatsApp, the Cloud API phone number id and access token. */
function channelOf(body: Record<string, unknown>): {
  channel: string;
  phoneNumberId?: string;
  accessToken?: string;
} {
  const channel = body.Channel === undefined ? 'simulator' : requireString(body, 'Channel');
  if (!CHANNELS.includes(channel))
    throw invalid('Channel', 'must be "simulator", "whatsapp" or "sms" (a number replies come to)');
  if (channel !== 'whatsapp') {
    for (const field of ['PhoneNumberId', 'AccessToken']) {
      if (body[field] !== undefined) throw invalid(field, 'is only taken with Channel "whatsapp"');
    }
    return { channel };
  }
  const phoneNumberId = requireString(body, 'PhoneNumberId');
  if (!/^[0-9]{1,32}$/.test(phoneNumberId)) {
    throw invalid('PhoneNumberId', 'must be the Cloud API phone number id (digits only)');
  }
  const accessToken = requireString(body, 'AccessToken');
  if (accessToken.length > 4096 || /\s/.test(accessToken)) {
    throw invalid(
      'AccessToken',
      'must be a Graph API access token (no spaces, at most 4096 characters)',
    );
  }
  return { channel, phoneNumberId, accessToken };
}

function requireString(body: Record<string, unknown>, field: string): string {
  const v = body[field];
  if (v === undefined || v === null || v === '') throw missing(field);
  if (typeof v !== 'string') throw invalid(field, 'must be a string');
  return v;
}

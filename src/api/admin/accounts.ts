import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { checkSenderId } from '../../domain/accounts/sender-id.js';
import { WirebirdError, invalid, missing } from '../../domain/errors.js';
import { smsNumberOf } from '../../domain/inbound/sms-number.js';
import { e164Of, isKnownRegion } from '../../domain/phones/phones.js';
import type { ApiDeps } from '../context.js';
import { Obj } from '../answer-schemas.js';
import { serveAdmin, type AdminInput, type AdminRoute } from './admin-route.js';
import { accountIdParam } from './guard.js';
import { regionOfAccount } from '../../core/sms-rules.js';
import { windowGuarded } from '../../domain/business-messages/conversation.js';

const REGION_RULE =
  'a two-letter region code such as "US" or "CN", or null for the gateway\'s default';

const AccountParam = {
  accountId: { description: 'the account (a whole number from 1)', pattern: '^[0-9]{1,15}$' },
};

export const ACCOUNT_ROUTES = {
  addSenderId: {
    audit: (_i, a) => ({
      action: 'sender_id.registered',
      target: String(a.SenderId),
      accountId: Number(a.AccountId),
    }),
    method: 'POST',
    url: '/admin/accounts/:accountId/sender-ids',
    summary: 'Registers a SenderId the account may send from.',
    params: AccountParam,
    body: Type.Object({ SenderId: Type.String() }),
    answer: Obj({ AccountId: Type.Integer(), SenderId: Type.String() }),
    creates: true,
  },
  addBusinessPhone: {
    audit: (_i, a) => ({
      action: 'business_phone.registered',
      target: String(a.BusinessPhone),
      accountId: Number(a.AccountId),
      detail: { Channel: a.Channel },
    }),
    method: 'POST',
    url: '/admin/accounts/:accountId/business-phones',
    summary: 'Registers a business phone (simulator or WhatsApp) or an SMS number replies come to.',
    params: AccountParam,
    body: Type.Object({
      BusinessPhone: Type.String(),
      Channel: Type.Optional(
        Type.String({ description: '"simulator" (the default), "whatsapp" or "sms"' }),
      ),
      PhoneNumberId: Type.Optional(
        Type.String({ description: 'WhatsApp: the Cloud API phone number id' }),
      ),
      AccessToken: Type.Optional(
        Type.String({
          description: 'WhatsApp: the Graph API token; stored sealed, never answered',
        }),
      ),
      WindowGuard: Type.Optional(
        Type.Boolean({
          description:
            'free-form messages only within the 24-hour window (default: on for whatsapp, off for simulator)',
        }),
      ),
    }),
    answer: Obj({
      AccountId: Type.Integer(),
      BusinessPhone: Type.String(),
      Channel: Type.String(),
      PhoneNumberId: Type.Optional(Type.String()),
      WindowGuard: Type.Optional(
        Type.Boolean({ description: 'whether the 24-hour window is kept (absent for sms)' }),
      ),
    }),
    creates: true,
  },
  setDefaultRegion: {
    audit: (_i, a) => ({
      action: 'account.region_set',
      target: String(a.AccountId),
      accountId: Number(a.AccountId),
      detail: { DefaultRegion: a.DefaultRegion },
    }),
    method: 'PUT',
    url: '/admin/accounts/:accountId/default-region',
    summary: "Sets the region the account's numbers without a country code are read in.",
    params: AccountParam,
    body: Type.Object({
      DefaultRegion: Type.Union([Type.String(), Type.Null()], {
        description: REGION_RULE,
      }),
    }),
    answer: Obj({
      AccountId: Type.Integer(),
      DefaultRegion: Type.Union([Type.String(), Type.Null()]),
      EffectiveRegion: Type.String(),
    }),
  },
} satisfies Record<string, AdminRoute>;

export function registerAccountAdmin(app: FastifyInstance, deps: ApiDeps): void {
  const { store, clock } = deps;
  const R = ACCOUNT_ROUTES;
  const accountOf = (input: AdminInput) => accountIdParam(input.params.accountId ?? '');
  serveAdmin(app, deps, R.addSenderId, async (input) => {
    const accountId = accountOf(input);
    const senderId = checkSenderId(requireString(input.body, 'SenderId'));
    await store.ensureAccount(accountId, clock.now());
    await store.addSenderId(accountId, senderId, clock.now());
    return { AccountId: accountId, SenderId: senderId };
  });
  serveAdmin(app, deps, R.addBusinessPhone, async (input) =>
    addBusinessPhone(deps, accountOf(input), input.body),
  );
  serveAdmin(app, deps, R.setDefaultRegion, async (input) => {
    const accountId = accountOf(input);
    const region = regionOf(input.body);
    if (!(await deps.store.setAccountRegion(accountId, region))) {
      throw new WirebirdError('NotFound', `no account ${accountId}: create it with a key first`);
    }
    const effective = region ?? deps.config.defaultRegion;
    return { AccountId: accountId, DefaultRegion: region ?? null, EffectiveRegion: effective };
  });
}

async function addBusinessPhone(
  deps: ApiDeps,
  accountId: number,
  body: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const { store, clock } = deps;
  const raw = requireString(body, 'BusinessPhone');
  const region = await regionOfAccount(store, accountId, deps.config.defaultRegion);
  const channel = channelOf(body);
  const number = await registrableNumber(deps, {
    raw,
    region,
    channel: channel.channel,
    accountId,
  });
  await store.ensureAccount(accountId, clock.now());
  const guard = windowGuardOf(body, channel.channel);
  const phone = { accountId, businessPhone: number, createdAt: clock.now(), ...channel, ...guard };
  await store.addBusinessPhone(phone);
  // The access token goes to the store and to Meta only: never back in an answer.
  return {
    AccountId: accountId,
    BusinessPhone: number,
    Channel: channel.channel,
    ...(channel.phoneNumberId ? { PhoneNumberId: channel.phoneNumberId } : {}),
    ...(channel.channel === 'sms' ? {} : { WindowGuard: windowGuarded(phone) }),
  };
}

function regionOf(body: Record<string, unknown>): string | undefined {
  if (!('DefaultRegion' in body)) throw missing('DefaultRegion');
  const value = body.DefaultRegion;
  if (value === null) return undefined;
  if (typeof value !== 'string' || !isKnownRegion(value.toUpperCase())) {
    throw invalid('DefaultRegion', `must be ${REGION_RULE}`);
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

/** WindowGuard, for a business phone; an SMS number has no window. */
function windowGuardOf(body: Record<string, unknown>, channel: string): { windowGuard?: boolean } {
  const v = body.WindowGuard;
  if (v === undefined || v === null) return {};
  if (channel === 'sms') throw invalid('WindowGuard', 'is only taken for a business phone');
  // The route's schema declares WindowGuard a boolean.
  return { windowGuard: v as boolean };
}

function requireString(body: Record<string, unknown>, field: string): string {
  const v = body[field];
  if (v === undefined || v === null || v === '') throw missing(field);
  if (typeof v !== 'string') throw invalid(field, 'must be a string');
  return v;
}

import { Type, type Static } from '@sinclair/typebox';

/** One SMSC Wirebird binds to. Times are in seconds, rates in messages (submit_sm) per second. */
export const SmscSchema = Type.Object(
  {
    name: Type.String({ pattern: '^[a-z0-9][a-z0-9_-]{0,31}$' }),
    host: Type.String({ minLength: 1, default: '127.0.0.1' }),
    port: Type.Integer({ minimum: 1, maximum: 65535, default: 2775 }),
    systemId: Type.String({ maxLength: 15 }),
    password: Type.String({ maxLength: 8, default: '' }),
    systemType: Type.String({ maxLength: 12, default: '' }),
    /** transceiver: one bind both ways; transmitter-receiver: a transmitter plus a receiver. */
    bindMode: Type.Union([Type.Literal('transceiver'), Type.Literal('transmitter-receiver')], {
      default: 'transceiver',
    }),
    binds: Type.Integer({ minimum: 1, maximum: 32, default: 1 }),
    /** Outstanding submit_sm per bind. */
    window: Type.Integer({ minimum: 1, maximum: 1000, default: 10 }),
    /** Shared by all binds of this SMSC. */
    tps: Type.Integer({ minimum: 1, default: 100 }),
    /** How GSM-7 text goes: GSM 03.38 unpacked (data_coding 0) or Latin-1 (data_coding 3). */
    encoding: Type.Union([Type.Literal('gsm'), Type.Literal('latin1')], { default: 'gsm' }),
    /** Whether the SMSC sends replies in data_coding 0 as packed septets (one per octet if not). */
    moPacked: Type.Boolean({ default: false }),
    /** How long text goes: UDH concatenation, SAR TLVs, or whole in message_payload. */
    split: Type.Union([Type.Literal('udh'), Type.Literal('sar'), Type.Literal('payload')], {
      default: 'udh',
    }),
    defaultSender: Type.String({ minLength: 1, maxLength: 20, default: 'WIREBIRD' }),
    enquireLinkS: Type.Integer({ minimum: 1, default: 30 }),
    responseTimeoutS: Type.Integer({ minimum: 1, default: 30 }),
    reconnectMaxS: Type.Integer({ minimum: 1, default: 30 }),
    /** Throttling answers retried on the bind before the message goes back to the dispatcher. */
    throttleRetries: Type.Integer({ minimum: 0, default: 10 }),
  },
  { additionalProperties: false },
);
export type SmscConfig = Static<typeof SmscSchema>;

/** Numbers starting with `prefix` (E.164 with +; "" or "+" is the default route) go to `smscs`, first one up first. */
export const SmsRouteSchema = Type.Object(
  {
    prefix: Type.String({ pattern: '^\\+?[0-9]{0,15}$' }),
    senderId: Type.Optional(Type.String({ minLength: 1 })),
    smscs: Type.Array(Type.String(), { minItems: 1 }),
  },
  { additionalProperties: false },
);
export type SmsRouteConfig = Static<typeof SmsRouteSchema>;

export const SmppSchema = Type.Object(
  {
    smscs: Type.Array(SmscSchema, { default: [] }),
    routes: Type.Array(SmsRouteSchema, { default: [] }),
  },
  { default: {}, additionalProperties: false },
);
export type SmppConfig = Static<typeof SmppSchema>;

const URL_OPTIONS: Record<string, 'int' | 'string'> = {
  window: 'int',
  tps: 'int',
  binds: 'int',
  bindMode: 'string',
  encoding: 'string',
  split: 'string',
  systemType: 'string',
  defaultSender: 'string',
  enquireLinkS: 'int',
  responseTimeoutS: 'int',
};

/**
 * WIREBIRD_SMSC=smpp://system_id:password@host:port?window=10&tps=100: one SMSC named "default"
 * taking every SMS. Errors never echo the URL, which holds a password.
 */
export function smppFromUrl(value: string, fail: (message: string) => Error): SmppConfig {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw fail('WIREBIRD_SMSC must be a URL like smpp://system_id:password@host:2775');
  }
  if (url.protocol !== 'smpp:') throw fail('WIREBIRD_SMSC must start with smpp://');
  if (!url.username) throw fail('WIREBIRD_SMSC needs a system_id: smpp://system_id:password@…');
  const smsc: Record<string, unknown> = {
    name: 'default',
    host: url.hostname || '127.0.0.1',
    port: url.port ? Number(url.port) : 2775,
    systemId: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
  };
  for (const [key, v] of url.searchParams) {
    const kind = URL_OPTIONS[key];
    if (!kind) throw fail(`WIREBIRD_SMSC: unknown option ${key}`);
    if (kind === 'int' && !/^\d{1,9}$/.test(v))
      throw fail(`WIREBIRD_SMSC: ${key} must be a whole number`);
    smsc[key] = kind === 'int' ? Number(v) : v;
  }
  // Every SmscConfig field was filled from its defaults and the URL above.
  return { smscs: [smsc as SmscConfig], routes: [{ prefix: '', smscs: ['default'] }] };
}

/** Cross-field checks the schema cannot make: unique names, routes naming known SMSCs. */
export function checkSmpp(smpp: SmppConfig, fail: (message: string) => Error): void {
  const names = new Set<string>();
  for (const s of smpp.smscs) {
    if (names.has(s.name)) throw fail(`smpp.smscs: the name ${s.name} is used twice`);
    names.add(s.name);
  }
  for (const [i, r] of smpp.routes.entries()) {
    for (const name of r.smscs)
      if (!names.has(name)) throw fail(`smpp.routes/${i}/smscs: no SMSC is named ${name}`);
  }
  if (smpp.smscs.length > 0 && smpp.routes.length === 0)
    throw fail('smpp.routes: SMSCs are declared but no route sends anything to them');
}

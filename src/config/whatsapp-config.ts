import { Type, type Static } from '@sinclair/typebox';

/** The Graph API version Wirebird is written and tested against; pinned so Meta's changes are opt-in. */
export const GRAPH_API_URL = 'https://graph.facebook.com/v24.0';

/** A Cloud API phone number declared in the config file rather than through the admin API. */
export const WhatsAppPhoneSchema = Type.Object(
  {
    accountId: Type.Integer({ minimum: 1 }),
    businessPhone: Type.String({ minLength: 1 }),
    phoneNumberId: Type.String({ pattern: '^[0-9]{1,32}$' }),
    accessToken: Type.String({ minLength: 1 }),
    /** Free-form messages only within the 24-hour window (on unless false: docs/whatsapp.md). */
    windowGuard: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type WhatsAppPhoneConfig = Static<typeof WhatsAppPhoneSchema>;

export const WhatsAppSchema = Type.Object(
  {
    /** The Graph API base, version included; tests and staging point it elsewhere. */
    apiUrl: Type.String({ minLength: 1, default: GRAPH_API_URL }),
    /** Answered to Meta's GET verification handshake; without it the handshake is refused. */
    verifyToken: Type.Optional(Type.String({ minLength: 1 })),
    /** Signs webhook POSTs (X-Hub-Signature-256); without it every POST is refused. */
    appSecret: Type.Optional(Type.String({ minLength: 1 })),
    /** Messages per second per phone number (Meta's default throughput is 80). */
    phoneTps: Type.Integer({ minimum: 1, maximum: 10000, default: 80 }),
    /** How long one Graph API call may take before it is abandoned and retried. */
    timeoutMs: Type.Integer({ minimum: 100, default: 15000 }),
    phones: Type.Array(WhatsAppPhoneSchema, { default: [] }),
  },
  { default: {}, additionalProperties: false },
);
export type WhatsAppConfig = Static<typeof WhatsAppSchema>;

/** The base URL must be http(s); an error never echoes it whole (a staging URL may hold a key). */
export function checkWhatsApp(config: WhatsAppConfig, fail: (message: string) => Error): void {
  let url: URL | undefined;
  try {
    url = new URL(config.apiUrl);
  } catch {
    url = undefined;
  }
  if (!url || !['http:', 'https:'].includes(url.protocol)) {
    throw fail('whatsapp.apiUrl (WIREBIRD_WHATSAPP_API_URL) must be an http:// or https:// URL');
  }
}

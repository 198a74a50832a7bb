import { Type, type TSchema } from '@sinclair/typebox';
import { KEY_KINDS, KEY_SCOPES } from '../domain/keys/key-record.js';
import { EVENT_ID_PATTERN } from '../domain/events/event.js';

/**
 * The shapes Wirebird answers with, as JSON Schema: what the OpenAPI document publishes
 * (docs/openapi.json) and what the end-to-end tests hold every answer to. The request schemas
 * live beside each Action; these are the views several Actions and events share.
 */

const Unix = (description: string) => Type.Integer({ minimum: 0, description });

/** An answer object: the fields below always, others may be added within a version. */
export const Obj = <T extends Record<string, TSchema>>(
  properties: T,
  options: { description?: string; title?: string } = {},
) => Type.Object(properties, { additionalProperties: true, ...options });

export const OutTemplate = Obj(
  {
    TemplateId: Type.String(),
    Purpose: Type.Integer({ description: '1 verification, 2 notification, 3 promotion' }),
    TemplateName: Type.String(),
    Template: Type.String(),
    Status: Type.Integer({
      minimum: 0,
      maximum: 4,
      description: '0 pending, 1 under review, 2 approved, 3 failed review, 4 disabled',
    }),
    Remark: Type.String(),
    ErrDesc: Type.String({ description: 'why a review failed, else ""' }),
    CreateTime: Unix('Unix seconds'),
    Instruction: Type.String(),
  },
  { title: 'OutTemplate' },
);

export const OutSignature = Obj(
  {
    SigId: Type.String(),
    SigContent: Type.String(),
    Status: Type.Integer({ minimum: 0, maximum: 4 }),
    ErrDesc: Type.String(),
    SigType: Type.Integer(),
    SigPurpose: Type.Integer(),
    CertificateType: Type.Integer(),
    International: Type.Boolean(),
    CreateTime: Unix('Unix seconds'),
  },
  { title: 'OutSignature' },
);

export const ReceiptResult = Type.Union(
  ['Success', 'Fail', 'Unknow', 'SubmitFail'].map((r) => Type.Literal(r)),
  { description: "a final message's outcome (Unknow is the specification's spelling)" },
);

export const ReceiptPerPhone = Obj(
  {
    Phone: Type.String({ description: 'as the request wrote it' }),
    CostCount: Type.Integer({ minimum: 0 }),
    ReceiptResult,
    ReceiptCode: Type.String(),
    ReceiptDesc: Type.String(),
    ReceiptTime: Unix('Unix seconds'),
    UserId: Type.String(),
  },
  { title: 'ReceiptPerPhone' },
);

/** A message held for a later SendAt (ListScheduledMessages, GetUSMSSendReceipt's HeldSet). */
export const ScheduledMessage = Obj(
  {
    SessionNo: Type.String({ description: 'the SMS session; "" for a business message' }),
    MessageId: Type.String({ description: 'the business message; "" for an SMS' }),
    Phone: Type.String(),
    SendAt: Type.Integer({ description: 'Unix seconds: when it is due' }),
    ExpireTime: Type.Integer({ description: 'Unix seconds its ValidityPeriod ends; 0: never' }),
    CreateTime: Type.Integer({ description: 'Unix seconds: when it was accepted' }),
  },
  { title: 'ScheduledMessage' },
);

export const ReceiptPerSession = Obj(
  {
    SessionNo: Type.String(),
    ReceiptSet: Type.Array(ReceiptPerPhone),
    HeldSet: Type.Optional(
      Type.Array(ScheduledMessage, {
        description:
          "Wirebird's own: the session's messages held for a later SendAt (no receipt yet); absent when none",
      }),
    ),
  },
  { title: 'ReceiptPerSession' },
);

export const FailPhoneDetail = Obj({
  TemplateParams: Type.Array(Type.String()),
  Phone: Type.String(),
  ExtendCode: Type.String(),
  UserId: Type.String(),
  FailureDetails: Type.String({ description: 'why this number failed; "" when its group did' }),
});

export const BatchInfo = Obj(
  {
    TemplateId: Type.String(),
    SenderId: Type.String(),
    Target: Type.Array(FailPhoneDetail),
    FailureDetails: Type.Optional(Type.String({ description: 'why the whole group failed' })),
  },
  { title: 'BatchInfo' },
);

export const InboundMedia = Obj({
  State: Type.Union([Type.Literal('pending'), Type.Literal('stored'), Type.Literal('failed')]),
  Error: Type.Optional(Type.String()),
  MediaId: Type.Optional(Type.String()),
  Url: Type.Optional(Type.String({ description: 'GET it with the account key' })),
  MimeType: Type.Optional(Type.String()),
  FileName: Type.Optional(Type.String()),
  FileSize: Type.Optional(Type.Integer({ minimum: 0 })),
  Sha256: Type.Optional(Type.String()),
});

export const InboundMessage = Obj(
  {
    InboundId: Type.String(),
    Channel: Type.Union([Type.Literal('sms'), Type.Literal('whatsapp')]),
    From: Type.String(),
    To: Type.String(),
    Type: Type.String({ description: 'text, or a WhatsApp message type' }),
    Text: Type.Optional(Type.String({ description: 'for Type text' })),
    Content: Type.Optional(Type.Unknown({ description: 'for other types: as received' })),
    Complete: Type.Boolean({ description: 'false while parts of a long SMS are missing' }),
    ReceiveTime: Unix('Unix seconds'),
    ReplyTo: Type.Union([Obj({ SessionNo: Type.String(), MessageId: Type.String() }), Type.Null()]),
    Media: Type.Optional(InboundMedia),
  },
  { title: 'InboundMessage' },
);

export const WebhookEndpoint = Obj(
  {
    EndpointId: Type.String(),
    Url: Type.String(),
    Description: Type.String(),
    EventTypes: Type.Array(Type.String(), { description: 'empty: every event type' }),
    Disabled: Type.Boolean(),
    DisabledReason: Type.String(),
    DisabledTime: Unix('Unix seconds; 0 when enabled'),
    FailingSince: Unix('Unix seconds; 0 when not failing'),
    CreateTime: Unix('Unix seconds'),
    UpdateTime: Unix('Unix seconds'),
  },
  { title: 'WebhookEndpoint' },
);

export const WebhookDelivery = Obj(
  {
    EventId: Type.String({ pattern: EVENT_ID_PATTERN }),
    EndpointId: Type.String(),
    Type: Type.String(),
    State: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
    Attempts: Type.Integer({ minimum: 0 }),
    LastStatusCode: Type.Integer({ description: 'HTTP status of the last attempt; 0 for none' }),
    LastError: Type.String(),
    LastAttemptTime: Unix('Unix seconds; 0 for none'),
    LatencyMs: Type.Integer({ minimum: 0 }),
    NextAttemptTime: Unix('Unix seconds; 0 for none'),
    CreateTime: Unix('Unix seconds'),
    DeliveredTime: Unix('Unix seconds; 0 until delivered'),
  },
  { title: 'WebhookDelivery' },
);

export const OptOutSource = Type.Union(
  ['keyword', 'api', 'import', 'console'].map((s) => Type.Literal(s)),
);

export const OptOut = Obj(
  {
    Phone: Type.String({ description: 'E.164' }),
    Source: OptOutSource,
    Keyword: Type.String(),
    CreateTime: Unix('Unix seconds'),
  },
  { title: 'OptOut' },
);

export const OptOutSettings = Obj(
  {
    OptOutKeywords: Type.Array(Type.String()),
    OptInKeywords: Type.Array(Type.String()),
    ExemptVerificationCodes: Type.Boolean(),
  },
  { title: 'OptOutSettings' },
);

const COUNTS = ['Success', 'Failed', 'SubmitFailed', 'Unknown'].flatMap((o) => [
  `${o}Count`,
  `${o}CostCount`,
]);
const counts = (names: readonly string[]) =>
  Object.fromEntries(names.map((n) => [n, Type.Integer({ minimum: 0 })]));

export const StatisticsDataInfo = Obj(
  {
    SendDate: Type.String({ description: 'YYYY-MM-DD (UTC)' }),
    BrevityCode: Type.String({ description: 'ISO 3166 region; ZZ unknown' }),
    ...counts(['Count', 'CostCount', ...COUNTS]),
    SuccessRate: Type.Number({ minimum: 0, maximum: 1 }),
  },
  { title: 'StatisticsDataInfo' },
);

export const StatisticsTotals = Obj(
  counts(
    ['Send', 'Success', 'Fail', 'SubmitFail', 'Unknown'].flatMap((o) => [
      `${o}Count`,
      `${o}CostCount`,
    ]),
  ),
  { title: 'StatisticsData' },
);

/** A credential's key record as every view of it shows it (api-keys.ts recordFields). */
export const KeyRecordFields = {
  KeyId: Type.String({
    pattern: '^key_',
    description: 'its key record: revoked through the keys routes',
  }),
  Name: Type.String(),
  Scopes: Type.Array(Type.Union(KEY_SCOPES.map((s) => Type.Literal(s))), {
    description: 'empty: every Action',
  }),
  State: Type.Union([Type.Literal('active'), Type.Literal('revoked'), Type.Literal('expired')]),
  ExpireTime: Unix('Unix seconds; 0: never'),
};

export const ApiKeyView = Obj(
  {
    ...KeyRecordFields,
    Kind: Type.Union(
      KEY_KINDS.map((k) => Type.Literal(k)),
      {
        description: 'api: an API key; smpp: an SMPP server credential; ucloud: a UCloud key pair',
      },
    ),
    AccountId: Type.Integer(),
    Prefix: Type.String({
      description:
        "an API key's first characters (the key itself is never shown again); an SMPP credential's system_id; a UCloud pair's PublicKey",
    }),
    Source: Type.String({ description: 'admin, cli, env, dev, rotation or console' }),
    CreateTime: Unix('Unix seconds'),
    RevokeTime: Unix('Unix seconds; 0: not revoked'),
    RevokeReason: Type.String(),
    LastUseTime: Unix('Unix seconds, within a minute; 0: never used'),
  },
  { title: 'ApiKey' },
);

/** Views published as components of their own (referenced by name in docs/openapi.json). */
export const NAMED_VIEWS: Record<string, TSchema> = {
  OutTemplate,
  OutSignature,
  ReceiptPerSession,
  ReceiptPerPhone,
  BatchInfo,
  InboundMessage,
  WebhookEndpoint,
  WebhookDelivery,
  OptOut,
  OptOutSettings,
  StatisticsDataInfo,
  StatisticsData: StatisticsTotals,
  ApiKey: ApiKeyView,
};

/** A business message with its status history: GetMessage's Data, and the admin API's. */
export const BusinessMessageData = Obj(
  {
    MessageId: Type.String(),
    AccountId: Type.Integer(),
    BusinessPhone: Type.String(),
    To: Type.String(),
    Type: Type.String(),
    Content: Type.Unknown({ description: 'the content as SendMessage took it' }),
    Route: Type.String({ description: 'the channel that delivers it: "whatsapp" or "simulator"' }),
    UpstreamId: Type.String({ description: 'the WhatsApp wamid once submitted, else ""' }),
    Status: Type.String({
      description: 'accepted, sent, delivered, read, failed or unknown (docs/whatsapp.md)',
    }),
    Attempts: Type.Integer({ minimum: 0 }),
    AcceptedAt: Unix('Unix seconds'),
    History: Type.Array(
      Obj({
        Status: Type.String(),
        Time: Unix('Unix seconds'),
        Code: Type.String({ description: 'the upstream\'s error code, else ""' }),
        Desc: Type.String(),
      }),
    ),
    Fallback: Type.Optional(
      Obj(
        {
          State: Type.Union(
            ['pending', 'sent', 'unneeded', 'failed'].map((s) => Type.Literal(s)),
            { description: 'pending until it fires or the message is delivered' },
          ),
          Reason: Type.String({ description: 'why it fired, or why no SMS was sent' }),
          SessionNo: Type.Optional(Type.String({ description: "the SMS's session, once sent" })),
          Phone: Type.Optional(Type.String({ description: 'the number the SMS went to' })),
        },
        { description: 'the SMS fallback SendMessage was given, if any' },
      ),
    ),
  },
  { title: 'BusinessMessage' },
);

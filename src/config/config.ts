import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DEFAULT_RETRY_SCHEDULE, durationMs, parseRetrySchedule } from '../domain/events/retry.js';
import { isKnownRegion } from '../domain/phones/phones.js';
import { SmppSchema, checkSmpp, smppFromUrl } from './smpp-config.js';
import { SmppServerSchema, parseEsmes } from './smpp-server-config.js';
import { WhatsAppSchema, checkWhatsApp } from './whatsapp-config.js';
import { errorText } from '../util/unknown-values.js';
import { ConfigError } from './config-error.js';

/** Every setting Wirebird reads, in one schema; docs/configuration.md mirrors it. */
export const ConfigSchema = Type.Object(
  {
    port: Type.Integer({ minimum: 0, maximum: 65535, default: 8080 }),
    host: Type.String({ default: '127.0.0.1' }),
    dataDir: Type.String({ default: './data' }),
    /**
     * The gateway's address as applications reach it, for the URLs it hands out (the files of
     * inbound messages); by default the address it listens on.
     */
    publicUrl: Type.Optional(Type.String({ minLength: 1 })),
    /** `AccountId:key` pairs accepted at start. */
    apiKeys: Type.Array(
      Type.Object({ accountId: Type.Integer({ minimum: 1 }), key: Type.String({ minLength: 16 }) }),
      { default: [] },
    ),
    adminKey: Type.Optional(Type.String({ minLength: 16 })),
    /**
     * Seals the secrets the gateway must read back (UCloud private keys). Without it, one is
     * made at first start and kept in <dataDir>/gateway.secret; nodes sharing a database must
     * all be given the same one.
     */
    secret: Type.Optional(Type.String({ minLength: 16 })),
    /** UCloud-dialect key pairs accepted at start (WIREBIRD_UCLOUD_KEYS). */
    ucloudKeys: Type.Array(
      Type.Object({
        accountId: Type.Integer({ minimum: 1 }),
        publicKey: Type.String({ minLength: 8, maxLength: 128, pattern: '^[\\x21-\\x7e]+$' }),
        privateKey: Type.String({ minLength: 16, maxLength: 256, pattern: '^[\\x21-\\x7e]+$' }),
      }),
      { default: [] },
    ),
    templateReview: Type.Union([Type.Literal('auto'), Type.Literal('manual')], { default: 'auto' }),
    bannedWords: Type.Array(Type.String(), { default: [] }),
    reviewMaxLength: Type.Integer({ minimum: 1, maximum: 600, default: 500 }),
    /** Region for national numbers (no + or country code), as ISO 3166 alpha-2. */
    defaultRegion: Type.String({ minLength: 2, maxLength: 2, default: 'CN' }),
    receiptTimeoutS: Type.Integer({ minimum: 1, default: 43200 }),
    /** How long the parts of a concatenated reply are waited for before it is stored without them. */
    inboundPartsWaitS: Type.Integer({ minimum: 1, maximum: 86400, default: 300 }),
    /**
     * The most segments one SMS may be rendered into; longer ones are refused per number. A
     * concatenated SMS counts its parts in one octet, so never more than 255; 10 (1,530 GSM-7
     * characters) is where carriers and hosted APIs commonly stop.
     */
    maxSegments: Type.Integer({ minimum: 1, maximum: 255, default: 10 }),
    /** How far ahead a SendAt may be (docs/api.md, "SendAt and ValidityPeriod"). */
    maxScheduleDays: Type.Integer({ minimum: 1, maximum: 3650, default: 35 }),
    simDelayMs: Type.Integer({ minimum: 0, default: 200 }),
    bodyLimitBytes: Type.Integer({ minimum: 1024, default: 1048576 }),
    /**
     * What a client may hold of the HTTP server: time to send its headers and its whole request,
     * an idle keep-alive socket's life, and connections in total and per address.
     */
    http: Type.Object(
      {
        headersTimeoutMs: Type.Integer({ minimum: 100, default: 10000 }),
        requestTimeoutMs: Type.Integer({ minimum: 100, default: 30000 }),
        keepAliveTimeoutMs: Type.Integer({ minimum: 100, default: 5000 }),
        idleTimeoutMs: Type.Integer({ minimum: 100, default: 60000 }),
        maxConnections: Type.Integer({ minimum: 1, default: 10000 }),
        maxConnectionsPerAddress: Type.Integer({ minimum: 1, default: 256 }),
        /** Failed authentications an address may make in a minute before it is refused. */
        failedAuthPerMinute: Type.Integer({ minimum: 1, default: 20 }),
      },
      { default: {}, additionalProperties: false },
    ),
    sqliteSynchronous: Type.Union([Type.Literal('FULL'), Type.Literal('NORMAL')], {
      default: 'FULL',
    }),
    /**
     * How long a write waits for another process holding the SQLite file (a CLI command, a
     * backup) before it fails; the threads of the gateway take turns without it.
     */
    sqliteBusyTimeoutMs: Type.Integer({ minimum: 0, maximum: 60_000, default: 5000 }),
    logLevel: Type.String({ default: 'info' }),
    /**
     * Threads that take SendBatchUSMSMessage requests off the main thread (SQLite store only):
     * reading, checking and storing a batch there leaves the main thread to dispatch. 0 keeps
     * everything on the main thread.
     */
    acceptThreads: Type.Integer({ minimum: 0, maximum: 8, default: 2 }),
    /** SMSCs and the routes over them; with none, SMS go to the simulator. */
    smpp: SmppSchema,
    /** The SMPP server ESMEs bind to; off unless smppServer.listen is set. */
    smppServer: SmppServerSchema,
    /** The WhatsApp Cloud API channel: Graph API base, webhook secrets, phone numbers. */
    whatsapp: WhatsAppSchema,
    /** With a url, the PostgreSQL store that many nodes share; without, SQLite in dataDir. */
    database: Type.Object(
      {
        url: Type.Optional(Type.String({ minLength: 1 })),
        poolSize: Type.Integer({ minimum: 1, maximum: 100, default: 10 }),
      },
      { default: {}, additionalProperties: false },
    ),
    /** Delivery of events to webhook endpoints (docs/events.md). */
    webhooks: Type.Object(
      {
        /** Waits between attempts, comma-separated durations (5s, 5m, 2h, 1d). */
        retrySchedule: Type.String({ default: DEFAULT_RETRY_SCHEDULE }),
        timeoutMs: Type.Integer({ minimum: 100, maximum: 600000, default: 10000 }),
        /** An endpoint failing every attempt for this long is disabled. */
        disableAfterMs: Type.Integer({ minimum: 1000, default: 5 * 86400 * 1000 }),
        /** Attempts in flight at once to one endpoint; the rest wait their turn in the store. */
        concurrency: Type.Integer({ minimum: 1, maximum: 1024, default: 64 }),
        /** After a rotation, how long the previous secret still signs beside the new one. */
        secretGraceMs: Type.Integer({ minimum: 0, default: 86400 * 1000 }),
        /** Deliver to loopback and private networks too: for development and tests only. */
        allowPrivate: Type.Boolean({ default: false }),
        /**
         * A PEM file of certificate authorities https receivers are trusted by, besides the
         * system's: a private CA, or a receiver's self-signed certificate.
         */
        caFile: Type.Optional(Type.String({ minLength: 1 })),
        pollMs: Type.Integer({ minimum: 1, maximum: 10000, default: 50 }),
        /** How long settled deliveries (delivered, failed) and their events are kept. */
        retentionDays: Type.Integer({ minimum: 1, maximum: 3650, default: 30 }),
        /** Deliver from a thread of its own (signing and HTTP off the main thread). */
        thread: Type.Boolean({ default: true }),
        /** While an endpoint fails, one attempt at a time, this often. */
        probeMs: Type.Integer({ minimum: 10, maximum: 3600000, default: 5000 }),
      },
      { default: {}, additionalProperties: false },
    ),
    dispatch: Type.Object(
      {
        batchSize: Type.Integer({ minimum: 1, default: 500 }),
        leaseMs: Type.Integer({ minimum: 1000, default: 30000 }),
        maxAttempts: Type.Integer({ minimum: 1, default: 8 }),
        pollMs: Type.Integer({ minimum: 1, default: 50 }),
        routeTps: Type.Integer({ minimum: 1, default: 100000 }),
        window: Type.Integer({ minimum: 1, default: 1000 }),
        loops: Type.Integer({ minimum: 1, maximum: 64, default: 2 }),
      },
      { default: {}, additionalProperties: false },
    ),
  },
  // A key the schema does not know is a typo, not something to ignore.
  { additionalProperties: false },
);
export type Config = Static<typeof ConfigSchema>;

const ENV: Record<string, (v: string, name: string) => [string, unknown]> = {
  PORT: (v, name) => ['port', integer(v, name)],
  HOST: (v) => ['host', v],
  WIREBIRD_DATA_DIR: (v) => ['dataDir', v],
  WIREBIRD_PUBLIC_URL: (v) => ['publicUrl', v],
  WIREBIRD_API_KEYS: (v) => ['apiKeys', parseApiKeys(v)],
  WIREBIRD_ADMIN_KEY: (v) => ['adminKey', v],
  WIREBIRD_SECRET: (v) => ['secret', v],
  WIREBIRD_UCLOUD_KEYS: (v) => ['ucloudKeys', parseUcloudKeys(v)],
  WIREBIRD_TEMPLATE_REVIEW: (v) => ['templateReview', v],
  WIREBIRD_BANNED_WORDS: (v) => ['bannedWords', splitList(v)],
  WIREBIRD_DEFAULT_REGION: (v) => ['defaultRegion', v.toUpperCase()],
  WIREBIRD_RECEIPT_TIMEOUT_S: (v, name) => ['receiptTimeoutS', integer(v, name)],
  WIREBIRD_INBOUND_PARTS_WAIT_S: (v, name) => ['inboundPartsWaitS', integer(v, name)],
  WIREBIRD_SIM_DELAY_MS: (v, name) => ['simDelayMs', integer(v, name)],
  WIREBIRD_MAX_SEGMENTS: (v, name) => ['maxSegments', integer(v, name)],
  WIREBIRD_MAX_SCHEDULE_DAYS: (v, name) => ['maxScheduleDays', integer(v, name)],
  WIREBIRD_SQLITE_SYNCHRONOUS: (v) => ['sqliteSynchronous', v.toUpperCase()],
  WIREBIRD_LOG_LEVEL: (v) => ['logLevel', v],
  WIREBIRD_HTTP_REQUEST_TIMEOUT_MS: (v, name) => ['http.requestTimeoutMs', integer(v, name)],
  WIREBIRD_HTTP_MAX_CONNECTIONS_PER_ADDRESS: (v, name) => [
    'http.maxConnectionsPerAddress',
    integer(v, name),
  ],
  WIREBIRD_HTTP_FAILED_AUTH_PER_MINUTE: (v, name) => ['http.failedAuthPerMinute', integer(v, name)],
  WIREBIRD_ACCEPT_THREADS: (v, name) => ['acceptThreads', integer(v, name)],
  WIREBIRD_SMSC: (v) => ['smpp', smppFromUrl(v, (m) => new ConfigError(m))],
  WIREBIRD_SMPP_LISTEN: (v) => ['smppServer.listen', v],
  WIREBIRD_SMPP_TLS_CERT: (v) => ['smppServer.tlsCertFile', v],
  WIREBIRD_SMPP_TLS_KEY: (v) => ['smppServer.tlsKeyFile', v],
  WIREBIRD_SMPP_ESMES: (v) => ['smppServer.esmes', parseEsmes(v, (m) => new ConfigError(m))],
  DATABASE_URL: (v) => ['database.url', v],
  WIREBIRD_WHATSAPP_API_URL: (v) => ['whatsapp.apiUrl', v],
  WIREBIRD_WHATSAPP_VERIFY_TOKEN: (v) => ['whatsapp.verifyToken', v],
  WIREBIRD_WHATSAPP_APP_SECRET: (v) => ['whatsapp.appSecret', v],
  WIREBIRD_WEBHOOK_RETRY_SCHEDULE: (v) => ['webhooks.retrySchedule', v],
  WIREBIRD_WEBHOOK_TIMEOUT_MS: (v, name) => ['webhooks.timeoutMs', integer(v, name)],
  WIREBIRD_WEBHOOK_DISABLE_AFTER: (v, name) => ['webhooks.disableAfterMs', duration(v, name)],
  WIREBIRD_WEBHOOK_CONCURRENCY: (v, name) => ['webhooks.concurrency', integer(v, name)],
  WIREBIRD_WEBHOOK_ALLOW_PRIVATE: (v, name) => ['webhooks.allowPrivate', flag(v, name)],
  WIREBIRD_WEBHOOK_CA_FILE: (v) => ['webhooks.caFile', v],
};

export { ConfigError };

/** Loads the config file (WIREBIRD_CONFIG or the path given), then the environment on top. */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  file = env.WIREBIRD_CONFIG,
): Config {
  const raw: Record<string, unknown> = file ? readConfigFile(file) : {};
  for (const [name, map] of Object.entries(ENV)) {
    const value = env[name];
    if (value !== undefined && value !== '') {
      const [key, parsed] = map(value, name);
      setKey(raw, key, parsed);
    }
  }
  return checkConfig(raw);
}

export function checkConfig(raw: Record<string, unknown>): Config {
  const withDefaults = Value.Default(ConfigSchema, Value.Clone(raw));
  const errors = [...Value.Errors(ConfigSchema, withDefaults)];
  if (errors.length > 0) {
    const lines = errors.slice(0, 5).map((e) => `  ${e.path || '/'}: ${e.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  // Value.Check against ConfigSchema passed just above.
  const config = withDefaults as Config;
  const defaultRegion = config.defaultRegion.toUpperCase();
  if (!isKnownRegion(defaultRegion)) {
    throw new ConfigError(
      `defaultRegion (WIREBIRD_DEFAULT_REGION) ${config.defaultRegion} is not a known region`,
    );
  }
  checkSmpp(config.smpp, (m) => new ConfigError(m));
  checkDatabaseUrl(config.database.url);
  checkWhatsApp(config.whatsapp, (m) => new ConfigError(m));
  const { tlsCertFile, tlsKeyFile } = config.smppServer;
  if ((tlsCertFile === undefined) !== (tlsKeyFile === undefined)) {
    throw new ConfigError(
      'smppServer.tlsCertFile and tlsKeyFile (WIREBIRD_SMPP_TLS_CERT, WIREBIRD_SMPP_TLS_KEY) go together: give both or neither',
    );
  }
  const publicUrl = checkPublicUrl(config.publicUrl);
  try {
    parseRetrySchedule(config.webhooks.retrySchedule);
  } catch (e) {
    throw new ConfigError(
      `webhooks.retrySchedule (WIREBIRD_WEBHOOK_RETRY_SCHEDULE): ${errorText(e)}`,
    );
  }
  // A trailing slash would double in every {apiUrl}/{phone number id}/... path.
  const whatsapp = { ...config.whatsapp, apiUrl: config.whatsapp.apiUrl.replace(/\/+$/, '') };
  return {
    ...config,
    defaultRegion,
    dataDir: resolve(config.dataDir),
    whatsapp,
    ...(publicUrl === undefined ? {} : { publicUrl }),
  };
}

/** An http(s) base without a trailing slash: paths are appended to it. */
function checkPublicUrl(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || !['http:', 'https:'].includes(parsed.protocol) || parsed.search || parsed.hash) {
    throw new ConfigError(
      'publicUrl (WIREBIRD_PUBLIC_URL) must be an http:// or https:// address such as https://sms.example.com',
    );
  }
  return url.replace(/\/+$/, '');
}

/** `a.b` sets b inside a, keeping what the file gave a. */
function setKey(raw: Record<string, unknown>, key: string, value: unknown): void {
  // split answers at least one part.
  const [outer, inner] = key.split('.') as [string, string | undefined];
  if (inner === undefined) raw[outer] = value;
  // A dotted key only extends an object the file gave, or nothing.
  else raw[outer] = { ...(raw[outer] as object | undefined), [inner]: value };
}

function checkDatabaseUrl(url: string | undefined): void {
  if (url === undefined) return;
  // The url holds the database password: an error names what is wrong, never the value.
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || !['postgres:', 'postgresql:'].includes(parsed.protocol) || !parsed.hostname) {
    throw new ConfigError(
      'database.url (DATABASE_URL) must be a PostgreSQL URL such as postgres://user:password@host:5432/wirebird',
    );
  }
}

function readConfigFile(file: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new ConfigError(`cannot read config file ${file}: ${errorText(e)}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError(`config file ${file} must hold a JSON object`);
  }
  // Checked just above to be a non-array object.
  return parsed as Record<string, unknown>;
}

function integer(v: string, name: string): number {
  if (!/^\d{1,12}$/.test(v.trim()))
    throw new ConfigError(`${name} must be a whole number, not ${JSON.stringify(v)}`);
  return Number(v);
}

function duration(v: string, name: string): number {
  const ms = durationMs(v);
  if (ms === undefined)
    throw new ConfigError(
      `${name} must be a duration such as 5d, 12h or 30m, not ${JSON.stringify(v)}`,
    );
  return ms;
}

function flag(v: string, name: string): boolean {
  if (['1', 'true', 'yes'].includes(v.trim().toLowerCase())) return true;
  if (['0', 'false', 'no'].includes(v.trim().toLowerCase())) return false;
  throw new ConfigError(`${name} must be 1 or 0, not ${JSON.stringify(v)}`);
}

function splitList(v: string): string[] {
  return v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function parseUcloudKeys(
  v: string,
): { accountId: number; publicKey: string; privateKey: string }[] {
  return splitList(v).map((triple) => {
    const [accountId, publicKey, privateKey, ...rest] = triple.split(':');
    if (!accountId || !publicKey || !privateKey || rest.length > 0) {
      throw new ConfigError(
        'WIREBIRD_UCLOUD_KEYS takes comma-separated AccountId:PublicKey:PrivateKey triples',
      );
    }
    return { accountId: Number(accountId), publicKey, privateKey };
  });
}

function parseApiKeys(v: string): { accountId: number; key: string }[] {
  return splitList(v).map((pair) => {
    const i = pair.indexOf(':');
    if (i < 1) throw new ConfigError('WIREBIRD_API_KEYS takes comma-separated AccountId:key pairs');
    return { accountId: Number(pair.slice(0, i)), key: pair.slice(i + 1) };
  });
}

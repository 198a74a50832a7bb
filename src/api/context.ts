import type { Static, TSchema } from '@sinclair/typebox';
import type { KeyScope } from '../domain/keys/key-record.js';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config/config.js';
import type { Clock, Routing, Store } from '../domain/ports.js';
import type { InboundSink } from '../dispatch/inbound-sink.js';
import type { Metrics } from '../metrics/metrics.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { EventsDeps } from '../outbox/start-events.js';
import type { KeyUsage } from '../core/api-keys.js';
import type { KeyHolder } from '../core/auth.js';
import type { AuditFact } from '../core/audit.js';
import { validator } from '../http/validate.js';

/** Functions, not methods: each is handed on alone (newSessionNo: ids.orderedId). */
export interface IdSource {
  templateId: () => string;
  /** A signature's id (UCloud's 工单ID form, like a template's). */
  sigId: () => string;
  /** A random UUID (version 4): request ids, nonces. */
  uuid: () => string;
  /**
   * A UUID ordered by time to the millisecond (version 7, RFC 9562) for what rows are keyed by:
   * session numbers and business message ids. A random key lands on a random page of its index,
   * so a commit of many writes every page it touched; keys in time order land together at the
   * index's end.
   */
  orderedId: () => string;
  /** A Wirebird media id: MEDIA_ID_PREFIX and random characters. */
  mediaId: () => string;
  /** An inbound message's public id: INBOUND_ID_PREFIX and random characters. */
  inboundId: () => string;
  /** A webhook endpoint's id: ENDPOINT_ID_PREFIX and random characters. */
  endpointId: () => string;
}

/** Background work the API nudges so that new rows are picked up at once, not at the next poll. */
export interface Nudges {
  reviewTemplates(): void;
  dispatch(): void;
  /** Business messages' SMS fallbacks: one is due at once (a message accepted failed). */
  fallbacks(): void;
}

/** What an Action's handler may use: the same on the main thread and on an acceptance thread. */
export interface ActionDeps {
  store: Store;
  config: Config;
  clock: Clock;
  ids: IdSource;
  nudges: Nudges;
  routing: Routing;
  metrics: Pick<Metrics, 'messagesAccepted' | 'policyRefused'>;
  /** Where the keys' last use is gathered; absent in tools that do not track it. */
  keyUsage?: KeyUsage;
  /** Absent on acceptance threads, which run no webhook Action. */
  webhooks?: EventsDeps;
}

/** How a request was answered: the answer, or what refused it (a WirebirdError or a fault). */
export type ApiOutcome =
  { ok: true; answer: Record<string, unknown> } | { ok: false; err: unknown };

/** Requests another thread answers, whole, from the body's text (see api/accept-threads). */
export interface ActionOffload {
  /** A quick look at the text: the Action it runs that the body seems to name, if any. */
  actionIn(body: string): string | undefined;
  /** The answer and the Action it answers; undefined when the body is not one it runs after all. */
  run(
    request: OffloadedRequest,
  ): Promise<{ action: string | undefined; outcome: ApiOutcome } | undefined>;
}

export interface OffloadedRequest {
  /** The request body as it came, JSON text: a string crosses threads in one copy. */
  body: string;
  authorization: string | undefined;
  idempotencyKey: string | undefined;
  dialect?: 'json' | 'ucloud';
  /** Set when the main thread checked a UCloud signature: the key pair's record holder. */
  signer?: KeyHolder | undefined;
}

export interface ApiDeps extends ActionDeps {
  metrics: Metrics;
  /** Where the simulator's replies (POST /admin/simulator/inbound) are handed in. */
  inbound: Pick<InboundSink, 'receive'>;
  offload?: ActionOffload;
  /** Seals and opens the secrets the gateway must read back (UCloud private keys). */
  box: SecretBox;
}

export interface ActionContext {
  accountId: number;
  deps: ActionDeps;
  log: FastifyBaseLogger;
  /** The Idempotency-Key header, where the client sent one. */
  idempotencyKey: string | undefined;
  /** Which reading of the request this is: the JSON API's, or the UCloud SDKs' dialect. */
  dialect: 'json' | 'ucloud';
  /** Who calls, as the audit log names it: `key:<KeyId>`, or `ucloud` for a signed request. */
  actor: string;
  /**
   * The region numbers without a country code are read in: the account's own, else the
   * gateway's. Asked for by the Actions that read phone numbers only, so the rest pay nothing.
   */
  defaultRegion(): Promise<string>;
}

export interface ActionDef {
  /** What the Action does, in a sentence: the OpenAPI document's summary of it. */
  summary: string;
  /** The request's own fields (besides the envelope's Action and AccountId), as validated. */
  request: TSchema;
  /** The success answer's own fields (besides Action, RetCode and Message). */
  answer: TSchema;
  /**
   * Whether a client may send it again when it cannot tell if the first one arrived: `safe` when
   * repeating it changes nothing more (reads, set-like writes), `keyed` when it honours an
   * Idempotency-Key. Published as `x-repeatable`; absent: only when it surely did not arrive.
   */
  repeatable?: 'safe' | 'keyed';
  /** The key scope that allows it; absent: only a key without scopes runs it (docs/security.md). */
  scope?: KeyScope;
  /** What a success changed, for the audit log; absent for Actions that change nothing. */
  audit?: (input: unknown, answer: Record<string, unknown>) => AuditFact | undefined;
  validate: (value: unknown) => unknown;
  handle(ctx: ActionContext, input: unknown): Promise<Record<string, unknown>>;
}

/**
 * An Action: its request schema (checked once, at the edge), the schema of its answer (published
 * in the OpenAPI document and held to by the tests) and the handler of the typed input.
 */
export function defineAction<S extends TSchema>(
  spec: {
    summary: string;
    request: S;
    answer: TSchema;
    repeatable?: 'safe' | 'keyed';
    scope?: KeyScope;
    audit?: (input: Static<S>, answer: Record<string, unknown>) => AuditFact | undefined;
  },
  handle: (ctx: ActionContext, input: Static<S>) => Promise<Record<string, unknown>>,
): ActionDef {
  return {
    ...spec,
    audit: spec.audit,
    validate: validator(spec.request),
    handle: handle,
  };
}

import type { ClaimedMessage, Report } from '../domain/messages/message.js';
import type { WirebirdError } from '../domain/errors.js';
import type { ArrivedMessage, ArrivedPart } from '../domain/inbound/inbound.js';

/**
 * What a channel answers for one submitted message. `retry` is for failures that may pass later
 * (throttling, a dropped connection); `rejected` is final and becomes a SubmitFail receipt.
 */
export type SubmitResult =
  | {
      kind: 'accepted';
      upstreamId: string;
      /** The upstream that took it (an SMSC's name), when the channel has several; reports name it. */
      upstream?: string;
      /** Every part's upstream id, in order, when it went as several submits. */
      parts?: readonly string[];
    }
  | { kind: 'retry'; code: string; desc: string; retryAfterMs?: number }
  | { kind: 'rejected'; code: string; desc: string };

/** Reports flow back through this; it resolves once they are durably applied. */
export type ReportListener = (reports: Report[]) => Promise<void>;

/** Hands in what arrived (a reply, a message to a business phone); resolves once it is stored. */
export type InboundListener = (arrived: ArrivedMessage) => Promise<unknown>;

/** What an SMS channel hands replies to: whole ones, and parts of concatenated ones. */
export interface InboundHandoff {
  message: InboundListener;
  /** Resolves once the part is stored (and, with the last part, the whole message). */
  part(part: ArrivedPart): Promise<unknown>;
}

/** A call an upstream makes to the gateway (a webhook), as the HTTP server hands it over. */
export interface WebhookRequest {
  method: 'GET' | 'POST';
  query: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
  /** The body exactly as received: signatures are computed over these bytes. */
  body: Buffer;
}

/** What to answer: a plain text, a JSON body, or a refusal the server puts in its envelope. */
export type WebhookAnswer =
  | { status: number; text: string }
  | { status: number; json: Record<string, unknown> }
  | { status: number; refusal: WirebirdError };

/**
 * A channel's webhook, free of any HTTP framework: the server mounts `handle` at `path` for GET
 * and POST, passing bodies up to `bodyLimit` bytes through unparsed.
 */
export interface WebhookHandler {
  path: string;
  bodyLimit: number;
  handle(request: WebhookRequest): Promise<WebhookAnswer>;
}

/** One connection upstream (an SMPP bind, say), as operators see it on /metrics and the console. */
export interface BindStatus {
  /** The upstream it belongs to (an SMSC's name, a WhatsApp phone number id). */
  upstream: string;
  /** Which bind of that upstream (e.g. "trx-1"). */
  bind: string;
  state: 'connecting' | 'bound' | 'down';
  /** Requests sent and not yet answered. */
  outstanding: number;
}

export interface ChannelStatus {
  name: string;
  /**
   * up: every bind bound; degraded: some; down: none (a channel without binds is up); off:
   * nothing is configured for it, so it carries nothing (its note says where to start).
   */
  state: 'up' | 'degraded' | 'down' | 'off';
  binds: readonly BindStatus[];
  /** Said instead of the binds when there are none (a channel nothing is configured for). */
  note?: string;
}

/** The dispatcher knows only this: where a message goes is the channel's business. */
export interface Channel {
  /** The route name messages carry. */
  readonly name: string;
  start(onReports: ReportListener): Promise<void>;
  /**
   * Submits messages; answers one result per message, in order. A channel whose answers come one
   * by one (SMPP) may also tell each as it comes to `answered`, so that it is recorded without
   * waiting for the slowest of the window.
   */
  submit(
    messages: readonly ClaimedMessage[],
    answered?: (index: number, result: SubmitResult) => void,
  ): Promise<SubmitResult[]>;
  stop(): Promise<void>;
  /** A snapshot for operators; cheap enough to call on every scrape. */
  status(): ChannelStatus;
}

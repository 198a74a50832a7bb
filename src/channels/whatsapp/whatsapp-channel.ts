import type { Logger } from 'pino';
import type { WhatsAppConfig } from '../../config/whatsapp-config.js';
import type { BusinessContent } from '../../domain/business-messages/content.js';
import type { ClaimedMessage } from '../../domain/messages/message.js';
import type { AccountStore, Clock } from '../../domain/ports.js';
import { RateLimiter } from '../../rate-limit/rate-limiter.js';
import { SharedRateLimiter, type TakeTokens } from '../../rate-limit/shared-rate-limiter.js';
import type { Channel, ChannelStatus, ReportListener, SubmitResult } from '../channel.js';
import { postGraph, wamidOf } from './graph-client.js';
import { GraphFailure } from './graph-errors.js';
import { messageRequest, storedContent } from './message-request.js';
import { SenderDirectory, type WhatsAppSender } from './sender-directory.js';

export const WHATSAPP = 'whatsapp';

/** Swaps media ids Wirebird issued for the phone number's WhatsApp media ids (uploading them). */
export interface MediaResolver {
  resolve(content: BusinessContent, sender: WhatsAppSender): Promise<BusinessContent>;
}

export interface WhatsAppOptions {
  /** Where a business phone's Cloud API credentials are looked up. */
  store: Pick<AccountStore, 'getBusinessPhone'>;
  config: WhatsAppConfig;
  clock: Clock;
  log: Logger;
  /** Turns stored media ids into what the Cloud API takes. */
  media: MediaResolver;
  /** The cluster's shared token buckets, when nodes share a store; else each node counts alone. */
  takeTokens?: TakeTokens;
}

/**
 * Business messages through Meta's WhatsApp Cloud API: one `POST /{phone number id}/messages`
 * each, at most `phoneTps` a second per phone number. Statuses come back through the webhook
 * (webhook.ts), matched on the wamid stored here as the upstream id.
 */
export class WhatsAppChannel implements Channel {
  readonly name = WHATSAPP;
  private readonly senders: SenderDirectory;
  private readonly limiters = new Map<string, RateLimiter | SharedRateLimiter>();
  private readonly apiUrl: string;
  private inFlight = 0;
  /** Whether any message has gone through it: a phone registered later counts from then. */
  private used = false;

  private readonly config: WhatsAppConfig;
  private readonly clock: Clock;
  private readonly log: Logger;
  private readonly media: MediaResolver;
  private readonly takeTokens: TakeTokens | undefined;

  constructor(options: WhatsAppOptions) {
    ({
      config: this.config,
      clock: this.clock,
      log: this.log,
      media: this.media,
      takeTokens: this.takeTokens,
    } = options);
    this.senders = new SenderDirectory(options.store, () => this.clock.now());
    this.apiUrl = this.config.apiUrl.replace(/\/+$/, '');
  }

  async start(_onReports: ReportListener): Promise<void> {
    // Statuses arrive at the webhook, which hands them to the report sink itself.
  }

  async stop(): Promise<void> {}

  /**
   * Messages of one business phone go out in order, each once its phone number's bucket allows;
   * phones do not wait for each other, and requests overlap while their answers are awaited.
   */
  async submit(messages: readonly ClaimedMessage[]): Promise<SubmitResult[]> {
    this.used = true;
    const byPhone = new Map<string, number[]>();
    messages.forEach((m, i) => {
      const key = `${m.accountId}:${m.businessPhone}`;
      byPhone.set(key, [...(byPhone.get(key) ?? []), i]);
    });
    const results: Promise<SubmitResult>[] = [];
    await Promise.all(
      [...byPhone.values()].map(async (indices) => {
        for (const i of indices) {
          // indices are positions in messages, grouped by phone above.
          results[i] = (await this.whenAllowed(messages[i] as ClaimedMessage)).result;
        }
      }),
    );
    return Promise.all(results);
  }

  status(): ChannelStatus {
    const { phones, appSecret, verifyToken } = this.config;
    if (!this.used && phones.length === 0 && !appSecret && !verifyToken) {
      // Nothing configured and nothing sent: "bound" to the Graph API would be a claim.
      return { name: WHATSAPP, state: 'off', binds: [], note: 'not configured (docs/whatsapp.md)' };
    }
    // No connection is held between calls: the channel is up; failures show in the outcomes.
    return {
      name: WHATSAPP,
      state: 'up',
      binds: [{ upstream: 'graph', bind: 'https', state: 'bound', outstanding: this.inFlight }],
    };
  }

  /**
   * Waits for the phone's turn, then starts the request; its result is wrapped so that awaiting
   * the turn does not also await the answer.
   */
  private async whenAllowed(m: ClaimedMessage): Promise<{ result: Promise<SubmitResult> }> {
    try {
      const sender = await this.senders.lookup(m.accountId, m.businessPhone);
      if (!sender) return { result: Promise.resolve(noSender(m)) };
      await this.limiter(sender.phoneNumberId).take(1);
      return { result: this.send(m, sender) };
    } catch (err) {
      // A store hiccup fails this message's attempt only, never the rest of the window.
      return { result: Promise.resolve(this.failed(m, err)) };
    }
  }

  private async send(m: ClaimedMessage, sender: WhatsAppSender): Promise<SubmitResult> {
    this.inFlight += 1;
    try {
      const content = await this.media.resolve(storedContent(m.body), sender);
      const answer = await postGraph(
        {
          url: `${this.apiUrl}/${sender.phoneNumberId}/messages`,
          accessToken: sender.accessToken,
          timeoutMs: this.config.timeoutMs,
        },
        messageRequest(m.e164, content),
      );
      return { kind: 'accepted', upstreamId: wamidOf(answer) };
    } catch (err) {
      return this.failed(m, err);
    } finally {
      this.inFlight -= 1;
    }
  }

  private failed(m: ClaimedMessage, err: unknown): SubmitResult {
    if (!(err instanceof GraphFailure)) {
      this.log.error({ err, messageId: m.messageId }, 'WhatsApp submission failed');
      return { kind: 'retry', code: 'CHANNEL', desc: 'the WhatsApp channel failed; retrying' };
    }
    this.log.warn(
      { messageId: m.messageId, code: err.code, desc: err.desc, retryable: err.retryable },
      'Graph API refused a message',
    );
    if (!err.retryable) return { kind: 'rejected', code: err.code, desc: err.desc };
    return {
      kind: 'retry',
      code: err.code,
      desc: err.desc,
      ...(err.retryAfterMs === undefined ? {} : { retryAfterMs: err.retryAfterMs }),
    };
  }

  /** Per node, or one bucket for the whole cluster when nodes share a store. */
  private limiter(phoneNumberId: string): RateLimiter | SharedRateLimiter {
    let limiter = this.limiters.get(phoneNumberId);
    if (!limiter) {
      const rate = this.config.phoneTps;
      limiter = this.takeTokens
        ? new SharedRateLimiter(`${WHATSAPP}:${phoneNumberId}`, rate, this.takeTokens)
        : new RateLimiter(rate, () => this.clock.now());
      this.limiters.set(phoneNumberId, limiter);
    }
    return limiter;
  }
}

function noSender(m: ClaimedMessage): SubmitResult {
  return {
    kind: 'rejected',
    code: 'NOSENDER',
    desc: `${m.businessPhone} has no WhatsApp phone number id and access token registered`,
  };
}

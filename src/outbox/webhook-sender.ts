import { isIP } from 'node:net';
import { guardedLookup, isBlockedAddress, type Resolve } from './address-guard.js';
import { LeanHttpClient } from './lean-http.js';
import { errorCode, errorText } from '../util/unknown-values.js';

/** What one POST to an endpoint came to. */
export interface SendAnswer {
  statusCode: number | undefined;
  /** Why no status came, or a short excerpt of a refusal's answer; '' on success. */
  error: string;
  latencyMs: number;
  retryAfter: string | undefined;
}

/** The part of a receiver's answer read: enough to show why it refused, never a flood. */
export const ANSWER_READ_LIMIT = 4096;

export interface SenderOptions {
  timeoutMs: number;
  allowPrivate: boolean;
  /** Connections kept per endpoint origin; attempts beyond them queue on the client. */
  connections: number;
  /** PEM certificate authorities trusted for https besides the system's (webhooks.caFile). */
  ca?: string;
  /** For tests: how host names resolve. */
  resolve?: Resolve;
  now?: () => number;
}

/**
 * POSTs signed events: keep-alive connections per origin, no redirects followed, the answer read
 * up to a small limit, and (unless private networks are allowed) every connection checked
 * against the SSRF guard on the address it resolved to.
 */
export class WebhookSender {
  /** http and https alike (bench/RESULTS.md, session 26: against undici over https). */
  private readonly lean: LeanHttpClient;
  private readonly now: () => number;

  constructor(private readonly options: SenderOptions) {
    this.now = options.now ?? (() => performance.now());
    this.lean = new LeanHttpClient({
      connectionsPerOrigin: options.connections,
      timeoutMs: options.timeoutMs,
      readLimit: ANSWER_READ_LIMIT,
      ...(options.allowPrivate ? {} : { lookup: guardedLookup(options.resolve) }),
      ...(options.ca === undefined ? {} : { ca: options.ca }),
    });
  }

  async send(url: string, headers: Record<string, string>, body: string): Promise<SendAnswer> {
    const started = this.now();
    const took = () => Math.round(this.now() - started);
    const refused = this.refusedHost(url);
    if (refused)
      return { statusCode: undefined, error: refused, latencyMs: 0, retryAfter: undefined };
    return this.post(new URL(url), headers, body, took);
  }

  private async post(
    url: URL,
    headers: Record<string, string>,
    body: string,
    took: () => number,
  ): Promise<SendAnswer> {
    const all = {
      'content-type': 'application/json',
      'user-agent': 'Wirebird-Webhooks/1',
      ...headers,
    };
    try {
      const a = await this.lean.post(url, all, body);
      const ok = a.statusCode >= 200 && a.statusCode < 300;
      return {
        statusCode: a.statusCode,
        error: ok ? '' : a.excerpt.slice(0, 500),
        latencyMs: took(),
        retryAfter: a.retryAfter,
      };
    } catch (err) {
      const e = { code: errorCode(err), message: errorText(err) };
      const error =
        e.code === 'ETIMEDOUT'
          ? `no answer within ${this.options.timeoutMs} ms`
          : `${e.code ?? 'ERROR'}: ${e.message}`;
      return { statusCode: undefined, error, latencyMs: took(), retryAfter: undefined };
    }
  }

  /** An address written into the URL is never looked up, so it is checked here. */
  private refusedHost(url: string): string | undefined {
    if (this.options.allowPrivate) return undefined;
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) && isBlockedAddress(host)) {
      return `${host} is an internal address; webhooks go to public addresses only`;
    }
    return undefined;
  }

  async close(): Promise<void> {
    this.lean.close();
  }
}

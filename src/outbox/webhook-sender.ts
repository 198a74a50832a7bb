import { isIP } from 'node:net';
import { rootCertificates } from 'node:tls';
import type { Agent, request as undiciRequest } from 'undici';
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
  /** undici, loaded and its agent made with the first https event (none over plain http). */
  private https: Promise<{ agent: Agent; request: typeof undiciRequest }> | undefined;
  /** Plain http goes through the lean client; https through undici. */
  private readonly lean: LeanHttpClient;
  private readonly now: () => number;

  constructor(private readonly options: SenderOptions) {
    this.now = options.now ?? (() => performance.now());
    this.lean = new LeanHttpClient({
      connectionsPerOrigin: options.connections,
      timeoutMs: options.timeoutMs,
      readLimit: ANSWER_READ_LIMIT,
      ...(options.allowPrivate ? {} : { lookup: guardedLookup(options.resolve) }),
    });
  }

  /** undici's request and an agent for https: imported and made once, with the first use. */
  private httpsClient() {
    this.https ??= import('undici').then(({ Agent, request }) => {
      const { options } = this;
      const agent = new Agent({
        connections: options.connections,
        keepAliveTimeout: 30_000,
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
        connect: {
          ...(options.allowPrivate ? {} : { lookup: guardedLookup(options.resolve) }),
          // Given a CA, the system's roots must be named too: `ca` replaces them.
          ...(options.ca === undefined ? {} : { ca: [...rootCertificates, options.ca] }),
        },
      });
      return { agent, request };
    });
    return this.https;
  }

  async send(url: string, headers: Record<string, string>, body: string): Promise<SendAnswer> {
    const started = this.now();
    const took = () => Math.round(this.now() - started);
    const refused = this.refusedHost(url);
    if (refused)
      return { statusCode: undefined, error: refused, latencyMs: 0, retryAfter: undefined };
    const parsed = new URL(url);
    if (parsed.protocol === 'http:') return this.sendLean(parsed, headers, body, took);
    try {
      const { agent, request } = await this.httpsClient();
      const res = await request(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Wirebird-Webhooks/1',
          ...headers,
        },
        body,
        // The agent's headers and body timeouts bound the wait (an AbortSignal per request costs).
        dispatcher: agent,
      });
      const excerpt = await readSome(res.body, ANSWER_READ_LIMIT);
      const ok = res.statusCode >= 200 && res.statusCode < 300;
      const retryAfter = res.headers['retry-after'];
      return {
        statusCode: res.statusCode,
        error: ok ? '' : excerpt.slice(0, 500),
        latencyMs: took(),
        retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
      };
    } catch (err) {
      return {
        statusCode: undefined,
        error: describe(err, this.options.timeoutMs),
        latencyMs: took(),
        retryAfter: undefined,
      };
    }
  }

  private async sendLean(
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
    if (this.https) await (await this.https).agent.close();
  }
}

/** Reads up to `limit` bytes of an answer and lets the rest go (the connection with it). */
async function readSome(
  body: AsyncIterable<Buffer> & { destroy(): void },
  limit: number,
): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= limit) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8');
}

function describe(err: unknown, timeoutMs: number): string {
  // What undici and the socket throw: any field may be missing, so each is checked.
  const e = err as {
    name?: string;
    code?: string;
    message?: string;
    cause?: { code?: string; message?: string };
  };
  if (
    e.name === 'TimeoutError' ||
    e.code === 'UND_ERR_HEADERS_TIMEOUT' ||
    e.code === 'UND_ERR_BODY_TIMEOUT'
  ) {
    return `no answer within ${timeoutMs} ms`;
  }
  const code = e.code ?? e.cause?.code;
  const message = e.cause?.message ?? e.message ?? String(err);
  return code ? `${code}: ${message}` : message;
}

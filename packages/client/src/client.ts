import { randomUUID } from 'node:crypto';
import { WirebirdApiError, WirebirdTransportError } from './errors.js';
import { ADMIN_ROUTES, Operations, REPEATABLE } from './generated/operations.js';
import type {
  ActionName,
  ActionRequest,
  ActionResponse,
  AdminAnswer,
  AdminInput,
  CallOptions,
} from './types.js';

export interface ClientOptions {
  /** Where the gateway serves, such as http://127.0.0.1:8080. */
  baseUrl: string;
  /** An API key of the account, for the Actions and the media routes. */
  apiKey?: string;
  /** The AccountId sent with every Action that does not name its own. */
  accountId?: number | string;
  /** The admin key, for the admin API. */
  adminKey?: string;
  /** Retries after the first attempt (default 2): retryable RetCodes, and unreached gateways. */
  retries?: number;
  /** The first retry's wait (default 200 ms), doubled each time with jitter, at most maxBackoffMs. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** Each attempt's time limit (default 30 s). */
  timeoutMs?: number;
}

/** POST /media's answer: the MediaId to name in SendMessage, and what was stored. */
export type MediaUploaded = {
  RetCode: 0;
  Message: string;
  MediaId: string;
  MimeType: string;
  FileName: string;
  FileSize: number;
  Sha256: string;
};

/** An answer as the gateway sent it, whatever its RetCode. */
export interface RawAnswer {
  status: number;
  answer: Record<string, unknown>;
  headers: Headers;
}

export interface RawOptions {
  /** The key to send (default: the client's API key); null sends none. */
  key?: string | null;
  idempotencyKey?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/**
 * Wirebird's API, typed: one method per Action (sendBatchUSMSMessage, getUSMSSendReceipt, …) and
 * per admin operation, each answering the success answer or throwing WirebirdApiError with the
 * RetCode. Sends carry an Idempotency-Key (the one given, else a fresh one per call), so that a
 * retry after a lost answer is answered, never sent twice.
 */
export class WirebirdClient extends Operations {
  private readonly base: string;

  constructor(private readonly options: ClientOptions) {
    super();
    this.base = options.baseUrl.replace(/\/+$/, '');
  }

  /** POST /api with any body (an object, or text sent as it is), answered as it came. */
  async post(body: unknown, options: RawOptions = {}): Promise<RawAnswer> {
    return this.request('POST', '/api', { ...options, body });
  }

  /**
   * Any route of the gateway, answered as it came whatever its RetCode: for tools that build
   * requests themselves. The key is the client's API key unless one is given (null: none).
   */
  async request(
    method: string,
    path: string,
    options: RawOptions & { body?: unknown } = {},
  ): Promise<RawAnswer> {
    const key = options.key === undefined ? this.options.apiKey : options.key;
    return this.send(method, path, {
      body: options.body,
      signal: options.signal,
      headers: {
        ...(key ? { authorization: `Bearer ${key}` } : {}),
        ...(options.idempotencyKey ? { 'idempotency-key': options.idempotencyKey } : {}),
        ...options.headers,
      },
    });
  }

  protected async call<A extends ActionName>(
    action: A,
    request: ActionRequest<A>,
    options: CallOptions = {},
  ): Promise<ActionResponse<A>> {
    const body = { Action: action, AccountId: this.options.accountId, ...request };
    const repeatable = REPEATABLE[action];
    const idempotencyKey =
      repeatable === 'keyed' ? (options.idempotencyKey ?? randomUUID()) : undefined;
    const raw = await this.retrying(repeatable !== undefined, options, () =>
      this.post(body, { idempotencyKey, signal: options.signal }),
    );
    return raw.answer as ActionResponse<A>;
  }

  /**
   * POST /media: uploads a file once (the API key needs the send scope); SendMessage names it by
   * the MediaId answered. Retried only when the gateway was not reached (an upload is no read).
   */
  async uploadMedia(
    file: { bytes: Uint8Array; fileName: string; mimeType: string },
    options: CallOptions = {},
  ): Promise<MediaUploaded> {
    const raw = await this.retrying(false, options, async () => {
      const form = new FormData();
      form.append('file', new Blob([file.bytes], { type: file.mimeType }), file.fileName);
      const key = this.options.apiKey;
      return this.send('POST', '/media', {
        body: form,
        signal: options.signal,
        headers: key ? { authorization: `Bearer ${key}` } : {},
      });
    });
    return raw.answer as MediaUploaded;
  }

  protected async admin<Op extends keyof typeof ADMIN_ROUTES>(
    operation: Op,
    input: AdminInput<Op>,
    options: CallOptions = {},
  ): Promise<AdminAnswer<Op>> {
    const route = ADMIN_ROUTES[operation];
    const params = (input.params ?? {}) as Record<string, string | number>;
    const path = route.path.replace(/\{([A-Za-z]+)\}/g, (_, name: string) =>
      encodeURIComponent(String(params[name] ?? '')),
    );
    const query = new URLSearchParams(
      Object.entries((input.query ?? {}) as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]): [string, string] => [k, String(v)]),
    ).toString();
    const raw = await this.retrying(route.method === 'GET', options, () =>
      this.request(route.method, query ? `${path}?${query}` : path, {
        body: input.body,
        signal: options.signal,
        key: this.options.adminKey ?? null,
      }),
    );
    return raw.answer as AdminAnswer<Op>;
  }

  /**
   * Runs `attempt` until it answers RetCode 0, retrying with backoff what may succeed later: a
   * retryable RetCode, a gateway that was not reached, and (for a repeatable call) one whose
   * answer was lost. Anything else is thrown at once.
   */
  private async retrying(
    repeatable: boolean,
    options: CallOptions,
    attempt: () => Promise<RawAnswer>,
  ): Promise<RawAnswer> {
    const retries = options.retries ?? this.options.retries ?? 2;
    for (let n = 0; ; n += 1) {
      let wait: number | undefined;
      try {
        const raw = await attempt();
        if (raw.answer.RetCode === 0) return raw;
        const err = new WirebirdApiError(raw.answer, raw.status);
        if (!err.retryable || n >= retries) throw err;
        wait = retryAfterMs(raw.headers);
      } catch (err) {
        if (!(err instanceof WirebirdTransportError) || n >= retries) throw err;
        if (!repeatable && !err.unreached) throw err;
      }
      await sleep(Math.max(wait ?? 0, this.backoff(n)), options.signal);
    }
  }

  private backoff(n: number): number {
    const base = this.options.backoffMs ?? 200;
    const cap = this.options.maxBackoffMs ?? 5000;
    // Full jitter: clients retrying at once spread out instead of arriving together again.
    return Math.random() * Math.min(cap, base * 2 ** n);
  }

  private async send(
    method: string,
    path: string,
    o: { body: unknown; headers: Record<string, string>; signal: AbortSignal | undefined },
  ): Promise<RawAnswer> {
    const timeout = AbortSignal.timeout(this.options.timeoutMs ?? 30_000);
    const signal = o.signal ? AbortSignal.any([o.signal, timeout]) : timeout;
    // A form sets its own multipart content type, with its boundary; anything else is JSON.
    const form = o.body instanceof FormData;
    const body =
      o.body === undefined || typeof o.body === 'string' || form ? o.body : JSON.stringify(o.body);
    const json = body !== undefined && !form;
    let res: Response;
    try {
      res = await fetch(this.base + path, {
        method,
        signal,
        headers: json ? { 'content-type': 'application/json', ...o.headers } : o.headers,
        body: body as string | FormData | undefined,
      });
    } catch (err) {
      throw transportError(err, this.base);
    }
    const answered = await res.text().catch(() => '');
    try {
      return {
        status: res.status,
        answer: JSON.parse(answered) as Record<string, unknown>,
        headers: res.headers,
      };
    } catch {
      // Not an answer of the gateway's (a proxy's error page, a cut connection).
      throw new WirebirdTransportError(`HTTP ${res.status} without a JSON answer`, {
        status: res.status,
      });
    }
  }
}

/**
 * Whether fetch failed before the request reached the gateway (then any call may be sent again),
 * and a message that names the address tried.
 */
function transportError(err: unknown, base: string): WirebirdTransportError {
  const cause = (err as { cause?: { code?: string } }).cause;
  const code = cause?.code ?? '';
  const unreached = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT'].includes(
    code,
  );
  const what = err instanceof Error ? err.message : String(err);
  const message = unreached
    ? `no gateway at ${base} (${code})`
    : `the gateway at ${base} did not answer: ${what}${code ? ` (${code})` : ''}`;
  return new WirebirdTransportError(message, { unreached, cause: err });
}

function retryAfterMs(headers: Headers): number | undefined {
  const value = Number(headers.get('retry-after'));
  return Number.isFinite(value) && value > 0 ? Math.min(value, 60) * 1000 : undefined;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    });
  });
}

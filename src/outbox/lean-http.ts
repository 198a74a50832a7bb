import { connect, isIP, type LookupFunction, type Socket } from 'node:net';
import {
  connect as connectTls,
  createSecureContext,
  rootCertificates,
  type SecureContext,
} from 'node:tls';
import { AnswerReader, LeanError, type LeanAnswer } from './answer-reader.js';

/**
 * A lean HTTP/1.1 client for webhook POSTs over http and https: keep-alive connections per
 * origin, one request at a time on each, an answer read for its status, Retry-After and the first
 * bytes of its body. undici costs about three times the CPU per request over http and half as
 * much again over https (bench/RESULTS.md, sections 00000-events and 000000000000000000000), which
 * at 10,000 events a second is the whole budget. Anything it does not understand closes the
 * connection and fails the attempt, which is retried.
 */
export interface LeanOptions {
  connectionsPerOrigin: number;
  timeoutMs: number;
  readLimit: number;
  lookup?: LookupFunction;
  /** A PEM certificate authority trusted for https besides the system's. */
  ca?: string;
}

/**
 * How long an idle connection is kept: under the 5 s a Node.js server keeps one (undici keeps
 * 4 s for the same reason), so a request rarely meets a connection its server is closing.
 */
const IDLE_MS = 4_000;

interface Answering {
  resolve(a: LeanAnswer): void;
  reject(e: Error): void;
  timer: NodeJS.Timeout;
}

/** One keep-alive connection and the answer it is reading. */
class Connection {
  private buf: Buffer = Buffer.alloc(0);
  private answering: Answering | undefined;
  private reader: AnswerReader | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  closed = false;
  /** Answers it has carried: a reused connection may have been closed by its server meanwhile. */
  answered = 0;
  /** Whether any byte of the current answer came. */
  heard = false;

  constructor(
    readonly socket: Socket,
    private readonly o: LeanOptions,
    private readonly onIdle: (c: Connection) => void,
    onGone: () => void,
  ) {
    socket.setNoDelay(true);
    socket.on('data', (d: Buffer) => this.data(d));
    socket.on('error', (e: NodeJS.ErrnoException) =>
      this.fail(new LeanError(e.code ?? 'ESOCKET', e.message)),
    );
    socket.on('close', () => {
      onGone();
      // An answer without a length ends with its connection.
      const whole = this.reader?.closedAnswer();
      if (whole) this.finish(whole, false);
      else this.fail(new LeanError('ECLOSED', 'the connection closed before the answer ended'));
    });
  }

  request(head: string, body: string): Promise<LeanAnswer> {
    clearTimeout(this.idleTimer);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.fail(new LeanError('ETIMEDOUT', `no answer within ${this.o.timeoutMs} ms`));
      }, this.o.timeoutMs);
      this.answering = { resolve, reject, timer };
      this.reader = new AnswerReader(this.o.readLimit);
      this.heard = false;
      this.socket.write(head + body);
    });
  }

  private data(d: Buffer): void {
    if (!this.reader) {
      // Bytes nobody asked for: the connection cannot be trusted to frame the next answer.
      this.socket.destroy();
      return;
    }
    this.heard = true;
    this.buf = this.buf.length === 0 ? d : Buffer.concat([this.buf, d]);
    let step: ReturnType<AnswerReader['read']>;
    try {
      step = this.reader.read(this.buf);
    } catch (err) {
      // The reader throws only Errors.
      this.fail(err as Error);
      return;
    }
    this.buf = this.buf.subarray(step.used);
    if (step.done) this.finish(step.done, step.keepAlive && this.buf.length === 0);
  }

  private finish(answer: LeanAnswer, keepAlive: boolean): void {
    const a = this.answering;
    this.answering = undefined;
    this.reader = undefined;
    this.answered++;
    if (a) {
      clearTimeout(a.timer);
      a.resolve(answer);
    }
    if (!keepAlive) {
      this.closed = true;
      this.socket.destroy();
      return;
    }
    this.idleTimer = setTimeout(() => this.socket.destroy(), IDLE_MS);
    this.idleTimer.unref();
    this.onIdle(this);
  }

  private fail(err: Error): void {
    this.closed = true;
    clearTimeout(this.idleTimer);
    const a = this.answering;
    this.answering = undefined;
    this.reader = undefined;
    if (a) {
      clearTimeout(a.timer);
      a.reject(err);
    }
    this.socket.destroy();
  }
}

interface Waiter {
  url: URL;
  resolve: (c: Connection) => void;
  reject: (e: Error) => void;
}

/** TLS sessions kept for resumption, one per https origin (https.Agent keeps 100). */
const MAX_SESSIONS = 1000;

/** The key connections are kept under: scheme, host and port. */
const originOf = (url: URL) => `${url.protocol}//${url.host}`;

/** Connections per origin, reused while they stay open. */
export class LeanHttpClient {
  private readonly idle = new Map<string, Connection[]>();
  private readonly open = new Map<string, number>();
  private readonly waiting = new Map<string, Waiter[]>();
  /**
   * The last TLS session (or TLS 1.3 ticket) each https origin gave: a new connection resumes it
   * instead of a full handshake, which matters for a receiver that closes after every answer.
   */
  private readonly sessions = new Map<string, Buffer>();
  /**
   * Given a CA, the context that trusts it beside the system's roots (`ca` replaces them), made
   * once: built per connection it parsed some 140 certificates each time, 20 ms of CPU a connect
   * (bench/RESULTS.md, session 28). Without one, node's default context is shared already.
   */
  private readonly secureContext: SecureContext | undefined;

  constructor(private readonly o: LeanOptions) {
    this.secureContext =
      o.ca === undefined ? undefined : createSecureContext({ ca: [...rootCertificates, o.ca] });
  }

  async post(url: URL, headers: Record<string, string>, body: string): Promise<LeanAnswer> {
    const origin = url.host;
    const conn = await this.take(url);
    let head = `POST ${url.pathname}${url.search} HTTP/1.1\r\nhost: ${origin}\r\n`;
    head += `content-length: ${Buffer.byteLength(body)}\r\n`;
    for (const [k, v] of Object.entries(headers)) head += `${k}: ${v}\r\n`;
    try {
      return await conn.request(`${head}\r\n`, body);
    } catch (err) {
      // A kept connection its server closed as the request went: once more, on a new one.
      const stale = conn.answered > 0 && !conn.heard && (err as LeanError).code !== 'ETIMEDOUT';
      if (!stale) throw err;
      return (await this.dial(url)).request(`${head}\r\n`, body);
    }
  }

  private take(url: URL): Promise<Connection> {
    const origin = originOf(url);
    const idle = this.idle.get(origin);
    while (idle && idle.length > 0) {
      // The loop runs while idle is not empty.
      const c = idle.pop() as Connection;
      if (!c.closed) return Promise.resolve(c);
    }
    if ((this.open.get(origin) ?? 0) < this.o.connectionsPerOrigin) return this.dial(url);
    return new Promise((resolve, reject) => {
      const list = this.waiting.get(origin) ?? [];
      list.push({ url, resolve, reject });
      this.waiting.set(origin, list);
    });
  }

  private dial(url: URL): Promise<Connection> {
    const origin = originOf(url);
    this.open.set(origin, (this.open.get(origin) ?? 0) + 1);
    return new Promise((resolve, reject) => {
      const { socket, ready } = this.socketTo(url);
      const refused = (e: NodeJS.ErrnoException) => {
        this.gone(origin);
        reject(new LeanError(e.code ?? 'ECONNECT', e.message));
      };
      socket.once('error', refused);
      socket.once('timeout', () =>
        socket.destroy(new LeanError('ETIMEDOUT', `no connection within ${this.o.timeoutMs} ms`)),
      );
      socket.once(ready, () => {
        socket.off('error', refused);
        socket.setTimeout(0);
        const gone = () => this.gone(origin);
        resolve(new Connection(socket, this.o, (c) => this.release(origin, c), gone));
      });
    });
  }

  /** A TCP or TLS connection to the URL's origin, and the event that says it can be written. */
  private socketTo(url: URL): { socket: Socket; ready: 'connect' | 'secureConnect' } {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const common = {
      host,
      ...(this.o.lookup ? { lookup: this.o.lookup } : {}),
      timeout: this.o.timeoutMs,
    };
    if (url.protocol !== 'https:') {
      return { socket: connect({ ...common, port: Number(url.port || 80) }), ready: 'connect' };
    }
    const origin = originOf(url);
    const session = this.sessions.get(origin);
    const socket = connectTls({
      ...common,
      port: Number(url.port || 443),
      ...(session ? { session } : {}),
      // SNI names a host, never an address (RFC 6066).
      ...(isIP(host) ? {} : { servername: host }),
      ...(this.secureContext ? { secureContext: this.secureContext } : {}),
    });
    socket.on('session', (next: Buffer) => {
      // Bounded as https.Agent bounds its own cache: the oldest origin's goes first.
      if (!this.sessions.has(origin) && this.sessions.size >= MAX_SESSIONS)
        this.sessions.delete(this.sessions.keys().next().value as string);
      this.sessions.set(origin, next);
    });
    return { socket, ready: 'secureConnect' };
  }

  private release(origin: string, c: Connection): void {
    const next = this.waiting.get(origin)?.shift();
    if (next) {
      next.resolve(c);
      return;
    }
    const list = this.idle.get(origin) ?? [];
    list.push(c);
    this.idle.set(origin, list);
  }

  /** A connection closed: one fewer open, and the first waiter dials one of its own. */
  private gone(origin: string): void {
    this.open.set(origin, Math.max(0, (this.open.get(origin) ?? 1) - 1));
    const next = this.waiting.get(origin)?.shift();
    if (next) this.dial(next.url).then(next.resolve, next.reject);
  }

  close(): void {
    for (const list of this.idle.values()) for (const c of list) c.socket.destroy();
    this.idle.clear();
  }
}

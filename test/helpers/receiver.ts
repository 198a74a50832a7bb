import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { eventMismatch } from './openapi.js';

/** One POST the receiver got, as it came, and whether the secret given verifies it. */
export interface Received {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  type: string;
  data: Record<string, unknown>;
  at: number;
  /** The standardwebhooks package's verdict with the receiver's current secrets (any of them). */
  verified: boolean;
}

export type Responder = (r: Received, res: ServerResponse) => void | Promise<void>;

/**
 * A webhook receiver on 127.0.0.1 that verifies each request with the `standardwebhooks` npm
 * package (the receiver's side nobody here wrote) and answers 200 unless told otherwise.
 */
export class Receiver {
  readonly got: Received[] = [];
  /** Bodies that are not what docs/openapi.json's webhooks say: close() fails on any. */
  readonly unlike: string[] = [];
  secrets: string[] = [];
  respond: Responder = (_r, res) => {
    res.writeHead(200).end('ok');
  };
  /**
   * @param documented whether the events are the gateway's own, held to docs/openapi.json (false
   *   for a test that emits events with data of its own making)
   * @param tls a certificate and its key: the receiver speaks https
   */
  constructor(
    private readonly documented = true,
    private readonly tls?: { cert: Buffer; key: Buffer },
  ) {
    const handler = (req: IncomingMessage, res: ServerResponse) => void this.handle(req, res);
    this.server = tls ? createTlsServer(tls, handler) : createServer(handler);
    this.server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.on('close', () => {
        this.sockets.delete(socket);
        this.look();
      });
    });
  }

  /** Connections open now: a killed sender's close only once the receiver has read them. */
  private readonly sockets = new Set<Socket>();
  private readonly watchers = new Set<() => void>();

  /**
   * Resolves once `done()` holds, looked at as each request arrives and each connection closes:
   * a wait that follows the event, with no budget a busy machine could exceed.
   */
  until(done: () => boolean): Promise<void> {
    if (done()) return Promise.resolve();
    return new Promise((resolve) => {
      const watch = () => {
        if (!done()) return;
        this.watchers.delete(watch);
        resolve();
      };
      this.watchers.add(watch);
    });
  }

  /**
   * Resolves once every connection is closed and what came on them was read: after a sender is
   * killed, `got` then holds every request that left it.
   */
  async quiet(): Promise<void> {
    await this.until(() => this.sockets.size === 0);
    // A request read whole before its connection closed is recorded a turn later.
    await new Promise((r) => setImmediate(r));
  }

  private look(): void {
    for (const watch of [...this.watchers]) watch();
  }

  private readonly server: ReturnType<typeof createServer>;
  url = '';

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const scheme = this.tls ? 'https' : 'http';
    this.url = `${scheme}://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
    return this;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const h = (name: string) => String(req.headers[name] ?? '');
    const headers = {
      'webhook-id': h('webhook-id'),
      'webhook-timestamp': h('webhook-timestamp'),
      'webhook-signature': h('webhook-signature'),
    };
    const verified = this.secrets.some((s) => {
      try {
        new Webhook(s).verify(body, headers);
        return true;
      } catch {
        return false;
      }
    });
    const parsed = JSON.parse(body) as { type: string; data: Record<string, unknown> };
    const unlike = this.documented ? eventMismatch(parsed) : undefined;
    if (unlike) this.unlike.push(unlike);
    const r: Received = {
      id: headers['webhook-id'],
      timestamp: headers['webhook-timestamp'],
      signature: headers['webhook-signature'],
      body,
      type: parsed.type,
      data: parsed.data,
      at: Date.now(),
      verified,
    };
    this.got.push(r);
    this.look();
    await this.respond(r, res);
  }

  ofType(type: string): Received[] {
    return this.got.filter((r) => r.type === type);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    if (this.unlike.length > 0) {
      throw new Error(`events unlike docs/openapi.json: ${this.unlike.slice(0, 3).join('; ')}`);
    }
  }
}

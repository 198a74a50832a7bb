/**
 * A stand-in for Meta's Graph API on loopback: it records every request byte for byte and answers
 * as the test tells it to (success by default), so the tests can assert the exact JSON and headers
 * Wirebird sends and drive it through every error class and slow answers.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const GRAPH_VERSION = 'v24.0';

export interface GraphRequest {
  method: string;
  /** The path below the version, e.g. "/1234567890/messages". */
  path: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
  /** The body parsed as JSON, when it is JSON. */
  json: unknown;
}

export interface GraphReply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** Held back this long before answering (a slow Graph API). */
  delayMs?: number;
}

type Responder = (request: GraphRequest) => GraphReply | undefined;

/** Meta's error object: `{"error": {message, type, code, error_data, fbtrace_id}}`. */
export function graphError(
  status: number,
  code: number,
  message: string,
  details = '',
): GraphReply {
  return {
    status,
    body: {
      error: {
        message,
        type: 'OAuthException',
        code,
        error_data: { messaging_product: 'whatsapp', details },
        fbtrace_id: 'AbCdEf123',
      },
    },
  };
}

export class FakeGraph {
  readonly requests: GraphRequest[] = [];
  private readonly queued = new Map<string, GraphReply[]>();
  private sequence = 0;
  private readonly pending = new Set<ServerResponse>();
  /** Consulted before the queue and the defaults; answer undefined to fall through. */
  responder: Responder | undefined;

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<FakeGraph> {
    const holder: { graph?: FakeGraph } = {};
    const server = createServer((req, res) => void holder.graph?.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    holder.graph = new FakeGraph(server, `http://127.0.0.1:${port}/${GRAPH_VERSION}`);
    return holder.graph;
  }

  /** Queues answers for the next requests whose path ends with `suffix` ("/messages", "/media"). */
  answerNext(suffix: string, ...replies: GraphReply[]): void {
    this.queued.set(suffix, [...(this.queued.get(suffix) ?? []), ...replies]);
  }

  /** The requests to `{phone number id}/messages`, in arrival order. */
  messageRequests(): GraphRequest[] {
    return this.requests.filter((r) => r.path.endsWith('/messages'));
  }

  mediaRequests(): GraphRequest[] {
    return this.requests.filter((r) => r.path.endsWith('/media'));
  }

  async close(): Promise<void> {
    for (const res of this.pending) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const prefix = `/${GRAPH_VERSION}`;
    const url = req.url ?? '/';
    const request: GraphRequest = {
      method: req.method ?? 'GET',
      path: url.startsWith(prefix) ? url.slice(prefix.length) : url,
      headers: req.headers,
      body,
      json: parseJson(body),
    };
    this.requests.push(request);
    const reply = this.responder?.(request) ?? this.fromQueue(request) ?? this.success(request);
    this.pending.add(res);
    if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
    this.pending.delete(res);
    if (res.destroyed) return;
    res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
    res.end(JSON.stringify(reply.body));
  }

  private fromQueue(request: GraphRequest): GraphReply | undefined {
    for (const [suffix, replies] of this.queued) {
      if (request.path.endsWith(suffix) && replies.length > 0) return replies.shift();
    }
    return undefined;
  }

  private success(request: GraphRequest): GraphReply {
    this.sequence += 1;
    if (request.path.endsWith('/media')) {
      return { status: 200, body: { id: `90000000000${this.sequence}` } };
    }
    const to = (request.json as { to?: unknown } | undefined)?.to;
    return {
      status: 200,
      body: {
        messaging_product: 'whatsapp',
        contacts: [{ input: to, wa_id: String(to).replace(/^\+/, '') }],
        messages: [{ id: `wamid.FAKE${String(this.sequence).padStart(6, '0')}` }],
      },
    };
  }
}

/** The multipart/form-data body of a request (a /media upload), read by the platform's parser. */
export async function formOf(request: GraphRequest): Promise<FormData> {
  const type = request.headers['content-type'] ?? '';
  return new Response(request.body, { headers: { 'content-type': type } }).formData();
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

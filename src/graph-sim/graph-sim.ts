/**
 * A stand-in for Meta's Graph API for trying the WhatsApp channel without Meta: it accepts
 * `POST /{version}/{phone number id}/messages` and `/media`, answers as the Cloud API does, and
 * posts the statuses back to a webhook, signed with the app secret as Meta signs them.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { Agent, request } from 'undici';
import { fieldsOf } from '../util/unknown-values.js';

/**
 * Statuses go out over a bounded set of keep-alive connections: a burst of thousands would
 * otherwise open a connection each and meet the gateway's per-address cap (answered 429).
 */
const WEBHOOK_CONNECTIONS = 32;

export interface GraphSimOptions {
  host: string;
  port: number;
  /** Where statuses go (a gateway's /webhooks/whatsapp); without it none are sent. */
  webhookUrl?: string;
  appSecret?: string;
  /** Between one status and the next. */
  statusDelayMs: number;
  /**
   * Fail free-form messages to a contact who has not written in 24 hours (error 131047, as a
   * `failed` status), as Meta does; on unless false. Contacts write through /simulate/messages.
   */
  window?: boolean;
}

export interface GraphSimStats {
  messages: number;
  media: number;
  /** Files of inbound messages read back: GET /{media id} and the download. */
  mediaLookups: number;
  mediaDownloads: number;
  statusesPosted: number;
  statusesRefused: number;
}

/** By the recipient's last four digits, as the simulator channel and smsc-sim do. */
function scriptFor(to: string): 'read' | 'failed' | 'refused' | 'silent' {
  if (to.endsWith('0001')) return 'failed';
  if (to.endsWith('0002')) return 'refused';
  if (to.endsWith('0003')) return 'silent';
  return 'read';
}

/** How long a contact's message lets the business send free-form messages (Meta's rule). */
const WINDOW_MS = 24 * 60 * 60 * 1000;

const OUTSIDE_WINDOW = {
  code: 131047,
  title: 'Re-engagement message',
  message: 'Re-engagement message',
  error_data: {
    details:
      'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
  },
};

const UNDELIVERABLE = {
  code: 131026,
  title: 'Message undeliverable',
  message: 'Message undeliverable',
  error_data: { details: 'test number 0001: the recipient cannot receive this message' },
};

export class GraphSim {
  readonly stats: GraphSimStats = {
    messages: 0,
    media: 0,
    mediaLookups: 0,
    mediaDownloads: 0,
    statusesPosted: 0,
    statusesRefused: 0,
  };
  /** Files people sent in inbound messages, by media id, as Meta holds them. */
  private readonly files = new Map<string, HeldFile>();
  /** When each contact (by its digits) last wrote to a business phone here. */
  private readonly lastWrote = new Map<string, number>();
  private app: FastifyInstance | undefined;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly webhooks = new Agent({ connections: WEBHOOK_CONNECTIONS });
  url = '';
  /** May be set after start: a gateway started after the simulator learns its port late. */
  webhookUrl: string | undefined;
  appSecret: string | undefined;

  constructor(private readonly options: GraphSimOptions) {
    this.webhookUrl = options.webhookUrl;
    this.appSecret = options.appSecret;
  }

  async start(): Promise<string> {
    const app = Fastify({ bodyLimit: 110 * 1024 * 1024 });
    // Media arrive as multipart; the simulator only needs to know that something came.
    app.addContentTypeParser('*', { parseAs: 'buffer' }, (_r, body, done) => done(null, body));
    app.post<{ Params: { id: string } }>('/:version/:id/messages', async (req, reply) =>
      this.message(req.body, reply),
    );
    // A control route, not Meta's: a person on a phone writes to a business phone.
    app.post('/simulate/messages', async (req, reply) => this.inbound(req.body, reply));
    app.post('/:version/:id/media', async () => {
      this.stats.media += 1;
      return { id: String(9_000_000_000_000 + this.stats.media) };
    });
    app.get<{ Params: { id: string } }>('/:version/:id', async (req, reply) =>
      this.mediaUrl(req.params.id, req.headers.authorization, reply),
    );
    app.get<{ Params: { id: string } }>('/download/:id', async (req, reply) =>
      this.download(req.params.id, req.headers.authorization, reply),
    );
    this.url = await app.listen({ host: this.options.host, port: this.options.port });
    this.app = app;
    return this.url;
  }

  async stop(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    await this.app?.close();
    await this.webhooks.close();
  }

  private message(body: unknown, reply: { code(n: number): unknown }) {
    const to = fieldsOf(body).to;
    if (typeof to !== 'string' || to === '') {
      reply.code(400);
      return graphError(100, '(#100) The parameter to is required.');
    }
    this.stats.messages += 1;
    const script = scriptFor(to);
    if (script === 'refused') {
      reply.code(400);
      return graphError(131026, '(#131026) Message undeliverable', 'test number 0002');
    }
    const wamid = `wamid.SIM${randomBytes(12).toString('hex').toUpperCase()}`;
    if (this.outsideWindow(to, fieldsOf(body).type)) this.schedule(wamid, to, 'closed');
    else if (script !== 'silent') this.schedule(wamid, to, script);
    return {
      messaging_product: 'whatsapp',
      contacts: [{ input: to, wa_id: to.replace(/^\+/, '') }],
      messages: [{ id: wamid }],
    };
  }

  /** A free-form message (not a template) to a contact who has not written within 24 hours. */
  private outsideWindow(to: string, type: unknown): boolean {
    if (this.options.window === false || type === 'template') return false;
    const last = this.lastWrote.get(to.replace(/\D/g, ''));
    return last === undefined || Date.now() - last >= WINDOW_MS;
  }

  private schedule(wamid: string, to: string, script: 'read' | 'failed' | 'closed'): void {
    const steps = script === 'read' ? ['sent', 'delivered', 'read'] : ['sent', 'failed'];
    const error = script === 'closed' ? OUTSIDE_WINDOW : UNDELIVERABLE;
    steps.forEach((status, i) => {
      const timer = setTimeout(
        () => {
          this.timers.delete(timer);
          void this.post(wamid, to, status, error);
        },
        this.options.statusDelayMs * (i + 1),
      );
      this.timers.add(timer);
    });
  }

  /**
   * Posts a text message from `from` to the business phone `to` to the webhook, signed, as Meta
   * does; answers its wamid and the status the gateway answered.
   */
  private async inbound(body: unknown, reply: { code(n: number): unknown }) {
    const { from, to, text, media } = fieldsOf(body);
    const file = media === undefined ? undefined : heldFile(media);
    const textOk = typeof text === 'string' || (file !== undefined && text === undefined);
    if (typeof from !== 'string' || typeof to !== 'string' || !textOk || file === null) {
      reply.code(400);
      return { error: INBOUND_USAGE };
    }
    const wamid = `wamid.SIMIN${randomBytes(12).toString('hex').toUpperCase()}`;
    this.lastWrote.set(from.replace(/\D/g, ''), Date.now());
    let content: Record<string, unknown> = { type: 'text', text: { body: text } };
    if (file) {
      const mediaId = String(8_000_000_000_000 + this.files.size + 1);
      this.files.set(mediaId, file);
      content = { type: file.type, [file.type]: mediaObject(mediaId, file, text) };
    }
    const status = await this.postSigned(messageNotification({ wamid, from, to, content }));
    return { wamid, webhookStatus: status };
  }

  /** `GET /{media id}`: where the file is, as Meta answers (the token must be there). */
  private mediaUrl(id: string, auth: string | undefined, reply: { code(n: number): unknown }) {
    const file = this.files.get(id);
    if (!auth?.startsWith('Bearer ') || !file || file.lookupFailures-- > 0) {
      reply.code(file && auth ? 500 : 400);
      return graphError(file && auth ? 2 : 100, '(#100) Unsupported get request.');
    }
    this.stats.mediaLookups += 1;
    return {
      messaging_product: 'whatsapp',
      url: `${this.url}/download/${id}`,
      mime_type: file.mimeType,
      sha256: file.sha256,
      file_size: file.bytes.length,
      id,
    };
  }

  private download(
    id: string,
    auth: string | undefined,
    reply: { code(n: number): unknown; header(k: string, v: string): unknown },
  ) {
    const file = this.files.get(id);
    if (!auth?.startsWith('Bearer ') || !file) {
      reply.code(404);
      return graphError(100, 'not found');
    }
    this.stats.mediaDownloads += 1;
    reply.header('content-type', file.mimeType);
    return file.bytes;
  }

  private async post(wamid: string, to: string, status: string, error: object): Promise<void> {
    const code = await this.postSigned(notification(wamid, to, status, error));
    if (code === 200) this.stats.statusesPosted += 1;
    else this.stats.statusesRefused += 1;
  }

  /** POSTs a notification to the webhook as Meta does; answers the HTTP status (0: none). */
  private async postSigned(body: string): Promise<number> {
    const { webhookUrl, appSecret } = this;
    if (!webhookUrl) return 0;
    const signature = createHmac('sha256', appSecret ?? '')
      .update(body)
      .digest('hex');
    try {
      const res = await request(webhookUrl, {
        dispatcher: this.webhooks,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-hub-signature-256': `sha256=${signature}`,
        },
        body,
      });
      await res.body.dump();
      return res.statusCode;
    } catch {
      return 0;
    }
  }
}

function graphError(code: number, message: string, details = '') {
  return {
    error: {
      message,
      type: 'OAuthException',
      code,
      error_data: { messaging_product: 'whatsapp', details },
      fbtrace_id: 'GraphSim',
    },
  };
}

function notification(wamid: string, to: string, status: string, error: object): string {
  const item = {
    id: wamid,
    status,
    timestamp: String(Math.floor(Date.now() / 1000)),
    recipient_id: to.replace(/^\+/, ''),
    ...(status === 'failed' ? { errors: [error] } : {}),
  };
  return JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: 'graph-sim',
        changes: [
          { field: 'messages', value: { messaging_product: 'whatsapp', statuses: [item] } },
        ],
      },
    ],
  });
}

const INBOUND_USAGE =
  'send JSON {"from": "+86…", "to": "<business phone>", "text": "…"}, or instead of text (or ' +
  'with it as the caption) "media": {"type": "image|video|audio|document|sticker", "mimeType", ' +
  '"base64", optional "filename", optional "lookupFailures": n}';

/** A file a person sent, as Meta holds it for the business to fetch. */
interface HeldFile {
  type: string;
  mimeType: string;
  bytes: Buffer;
  sha256: string;
  filename: string | undefined;
  /** GET /{media id} answers 500 this many times first (to try the gateway's retries). */
  lookupFailures: number;
}

const MEDIA_TYPES = ['image', 'video', 'audio', 'document', 'sticker'];

/** The file of a /simulate/messages body; null when it is not one. */
function heldFile(raw: unknown): HeldFile | null {
  const m = fieldsOf(raw);
  const { type, mimeType, base64, filename, lookupFailures } = m;
  if (typeof type !== 'string' || !MEDIA_TYPES.includes(type)) return null;
  if (typeof mimeType !== 'string' || typeof base64 !== 'string') return null;
  const bytes = Buffer.from(base64, 'base64');
  return {
    type,
    mimeType,
    bytes,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    filename: typeof filename === 'string' ? filename : undefined,
    lookupFailures: typeof lookupFailures === 'number' ? lookupFailures : 0,
  };
}

/** `image: {id, mime_type, sha256, caption}` as Meta writes a received file in the webhook. */
function mediaObject(id: string, file: HeldFile, caption: unknown): Record<string, unknown> {
  return {
    id,
    mime_type: file.mimeType,
    sha256: Buffer.from(file.sha256, 'hex').toString('base64'),
    ...(typeof caption === 'string' ? { caption } : {}),
    ...(file.filename === undefined ? {} : { filename: file.filename }),
  };
}

function messageNotification(m: {
  wamid: string;
  from: string;
  to: string;
  content: Record<string, unknown>;
}): string {
  const digits = (n: string) => n.replace(/\D/g, '');
  const message = {
    from: digits(m.from),
    id: m.wamid,
    timestamp: String(Math.floor(Date.now() / 1000)),
    ...m.content,
  };
  const value = {
    messaging_product: 'whatsapp',
    metadata: { display_phone_number: digits(m.to), phone_number_id: 'graph-sim' },
    contacts: [{ profile: { name: 'graph-sim' }, wa_id: digits(m.from) }],
    messages: [message],
  };
  return JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [{ id: 'graph-sim', changes: [{ field: 'messages', value }] }],
  });
}

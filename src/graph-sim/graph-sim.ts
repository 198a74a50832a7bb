/**
 * A stand-in for Meta's Graph API for trying the WhatsApp channel without Meta: it accepts
 * `POST /{version}/{phone number id}/messages` and `/media`, answers as the Cloud API does, and
 * posts the statuses back to a webhook, signed with the app secret as Meta signs them.
 */
import { createHmac, randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { request } from 'undici';

export interface GraphSimOptions {
  host: string;
  port: number;
  /** Where statuses go (a gateway's /webhooks/whatsapp); without it none are sent. */
  webhookUrl?: string;
  appSecret?: string;
  /** Between one status and the next. */
  statusDelayMs: number;
}

export interface GraphSimStats {
  messages: number;
  media: number;
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

const UNDELIVERABLE = {
  code: 131026,
  title: 'Message undeliverable',
  message: 'Message undeliverable',
  error_data: { details: 'test number 0001: the recipient cannot receive this message' },
};

export class GraphSim {
  readonly stats: GraphSimStats = { messages: 0, media: 0, statusesPosted: 0, statusesRefused: 0 };
  private app: FastifyInstance | undefined;
  private readonly timers = new Set<NodeJS.Timeout>();
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
    this.url = await app.listen({ host: this.options.host, port: this.options.port });
    this.app = app;
    return this.url;
  }

  async stop(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    await this.app?.close();
  }

  private message(body: unknown, reply: { code(n: number): unknown }) {
    const to = (body as { to?: unknown } | null)?.to;
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
    if (script !== 'silent') this.schedule(wamid, to, script);
    return {
      messaging_product: 'whatsapp',
      contacts: [{ input: to, wa_id: to.replace(/^\+/, '') }],
      messages: [{ id: wamid }],
    };
  }

  private schedule(wamid: string, to: string, script: 'read' | 'failed'): void {
    const steps = script === 'failed' ? ['sent', 'failed'] : ['sent', 'delivered', 'read'];
    steps.forEach((status, i) => {
      const timer = setTimeout(
        () => {
          this.timers.delete(timer);
          void this.post(wamid, to, status);
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
    const { from, to, text } = (body ?? {}) as Record<string, unknown>;
    if (typeof from !== 'string' || typeof to !== 'string' || typeof text !== 'string') {
      reply.code(400);
      return { error: 'send JSON {"from": "+86…", "to": "<business phone>", "text": "…"}' };
    }
    const wamid = `wamid.SIMIN${randomBytes(12).toString('hex').toUpperCase()}`;
    const status = await this.postSigned(messageNotification({ wamid, from, to, text }));
    return { wamid, webhookStatus: status };
  }

  private async post(wamid: string, to: string, status: string): Promise<void> {
    const code = await this.postSigned(notification(wamid, to, status));
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

function notification(wamid: string, to: string, status: string): string {
  const item = {
    id: wamid,
    status,
    timestamp: String(Math.floor(Date.now() / 1000)),
    recipient_id: to.replace(/^\+/, ''),
    ...(status === 'failed' ? { errors: [UNDELIVERABLE] } : {}),
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

function messageNotification(m: { wamid: string; from: string; to: string; text: string }): string {
  const digits = (n: string) => n.replace(/\D/g, '');
  const message = {
    from: digits(m.from),
    id: m.wamid,
    timestamp: String(Math.floor(Date.now() / 1000)),
    type: 'text',
    text: { body: m.text },
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

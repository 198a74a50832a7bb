import type { Logger } from 'pino';
import type { SmppConfig } from '../../config/smpp-config.js';
import type { ClaimedMessage, Report } from '../../domain/messages/message.js';
import { normaliseSmscId } from '../../domain/messages/upstream-ids.js';
import type { Clock } from '../../domain/ports.js';
import { createHash } from 'node:crypto';
import { REDELIVERY_WINDOW_MS } from '../../domain/inbound/inbound.js';
import type {
  Channel,
  ChannelStatus,
  InboundHandoff,
  ReportListener,
  SubmitResult,
} from '../channel.js';
import { readMo, type MoFields } from './mo-message.js';
import { reportOfReceipt, type DeliveryReceipt } from './delivery-receipt.js';
import { SmscLink } from './smsc-link.js';
import { SmsRoutes } from './sms-routes.js';

import { SMPP } from '../sms-routing.js';

export { SMPP };

export interface SmppChannelOptions {
  config: SmppConfig;
  clock: Clock;
  log: Logger;
  /** Where replies go; without it they are acknowledged and dropped (logged). */
  inbound?: InboundHandoff;
}

/**
 * SMS to carriers over SMPP 3.4. Every SMS routed here is sent through the first SMSC of its
 * route (longest prefix) that has a bind up; submits and reports name the SMSC as their upstream,
 * since message ids are only unique per SMSC.
 */
export class SmppChannel implements Channel {
  readonly name = SMPP;
  private readonly links = new Map<string, SmscLink>();
  private readonly routes: SmsRoutes;
  private listener: ReportListener | undefined;

  private readonly clock: Clock;
  private readonly log: Logger;
  private readonly inbound: InboundHandoff | undefined;

  constructor(options: SmppChannelOptions) {
    const { config, clock, log } = options;
    this.clock = clock;
    this.log = log;
    this.inbound = options.inbound;
    this.routes = new SmsRoutes(config.routes);
    for (const smsc of config.smscs) {
      const link: SmscLink = new SmscLink(
        smsc,
        {
          receipt: (r): Promise<void> => this.receipt(link, r),
          reply: (pdu): Promise<void> => this.reply(link, pdu),
        },
        clock,
        log.child({ smsc: smsc.name }),
      );
      this.links.set(smsc.name, link);
    }
  }

  async start(onReports: ReportListener): Promise<void> {
    this.listener = onReports;
    for (const link of this.links.values()) link.start();
  }

  async submit(
    messages: readonly ClaimedMessage[],
    answered?: (index: number, result: SubmitResult) => void,
  ): Promise<SubmitResult[]> {
    return Promise.all(
      messages.map(async (m, i) => {
        const result = await this.submitOne(m);
        answered?.(i, result);
        return result;
      }),
    );
  }

  async stop(): Promise<void> {
    await Promise.all([...this.links.values()].map((l) => l.stop()));
  }

  status(): ChannelStatus {
    const binds = [...this.links.values()].flatMap((l) => l.status());
    const bound = binds.filter((b) => b.state === 'bound').length;
    const state = bound === binds.length ? 'up' : bound > 0 ? 'degraded' : 'down';
    return { name: this.name, state, binds };
  }

  private async submitOne(m: ClaimedMessage): Promise<SubmitResult> {
    const names = this.routes.smscsFor(m.e164, m.senderId);
    if (names.length === 0)
      return { kind: 'rejected', code: 'NOROUTE', desc: `no SMS route matches ${m.e164}` };
    // Failover: the first SMSC of the route with a bind up takes it.
    const link = names.map((n) => this.links.get(n)).find((l) => l?.up);
    if (!link)
      return {
        kind: 'retry',
        code: 'SMSCDOWN',
        desc: `no SMSC of the route is up (${names.join(', ')})`,
      };
    try {
      return await link.submit(m);
    } catch (err) {
      // One message's failure must not fail its chunk: the others' answers would be lost and
      // they would all be sent again.
      this.log.error({ err, messageRef: m.id }, 'SMPP submit failed');
      return { kind: 'retry', code: 'CHANNEL', desc: 'the SMPP channel failed on this message' };
    }
  }

  private async receipt(link: SmscLink, r: DeliveryReceipt): Promise<void> {
    const report: Report = {
      route: SMPP,
      upstream: link.upstream,
      upstreamId: normaliseSmscId(r.id),
      ...reportOfReceipt(r),
      at: this.clock.now(),
    };
    if (!this.listener) throw new Error('receipt before the channel started');
    await this.listener([report]);
  }

  /**
   * A reply (MO): stored, or its part kept, before the deliver_sm_resp goes back, so an SMSC
   * that gets no answer delivers it again; the re-delivery is recognised and stored once.
   */
  private async reply(link: SmscLink, pdu: MoFields): Promise<void> {
    if (!this.inbound) {
      this.log.info({ smsc: link.config.name }, 'reply acknowledged and dropped: no inbound store');
      return;
    }
    const mo = readMo(pdu, link.config.moPacked);
    const now = this.clock.now();
    const arrived = {
      channel: 'sms' as const,
      from: mo.from,
      to: mo.to,
      type: 'text',
      receivedAt: now,
    };
    if (mo.concat) {
      const { ref, total, seq } = mo.concat;
      const groupKey = `smpp:${link.config.name}:${mo.from}:${mo.to}:${ref}:${total}`;
      await this.inbound.part({ groupKey, partNo: seq, total, text: mo.text, arrived });
      return;
    }
    const dedupeKey = `smpp:${link.config.name}:${pduDigest(pdu)}:${Math.floor(now / REDELIVERY_WINDOW_MS)}`;
    await this.inbound.message({ ...arrived, body: mo.text, dedupeKey, complete: true });
  }
}

/** What makes a re-delivered reply the same one: SMPP gives a reply no id of its own. */
function pduDigest(pdu: MoFields): string {
  const raw = Buffer.isBuffer(pdu.short_message) ? pdu.short_message.toString('hex') : '';
  const fields = [pdu.source_addr, pdu.destination_addr, pdu.data_coding, pdu.esm_class, raw];
  return createHash('sha256').update(JSON.stringify(fields)).digest('base64url').slice(0, 22);
}

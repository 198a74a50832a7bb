import type { Logger } from 'pino';
import type { SmscConfig } from '../../config/smpp-config.js';
import type { ClaimedMessage } from '../../domain/messages/message.js';
import type { Clock } from '../../domain/ports.js';
import { normaliseSmscId } from '../../domain/messages/upstream-ids.js';
import { RateLimiter } from '../../rate-limit/rate-limiter.js';
import type { Pdu } from '../../smpp-wire/codec.js';
import type { BindStatus, SubmitResult } from '../channel.js';
import {
  ESME_ROK,
  ESME_RX_T_APPN,
  commandStatusName,
  hex,
  submitStatusKind,
} from './command-status.js';
import {
  readDeliveryReceipt,
  type DeliverFields,
  type DeliveryReceipt,
} from './delivery-receipt.js';
import type { MoFields } from './mo-message.js';
import { NoAnswer, SmppBind, type BindRole } from './smpp-bind.js';
import { submitPdusFor, type SubmitFields } from './submit-pdus.js';
import { textOf } from '../../util/unknown-values.js';

type PartAnswer =
  | { kind: 'ok'; id: string }
  | { kind: 'retry'; code: string; desc: string; retryAfterMs?: number }
  | { kind: 'rejected'; code: string; desc: string };

const MAX_THROTTLE_PAUSE_MS = 5000;
const ROLE_LABELS: Record<BindRole, string> = {
  transceiver: 'trx',
  transmitter: 'tx',
  receiver: 'rx',
};

/**
 * Everything Wirebird holds with one SMSC: its binds, the throughput limit they share, and the
 * pause a throttling answer puts on all of them. Turns a message into its parts' submit_sm and
 * their answers into one SubmitResult.
 */
export class SmscLink {
  /** The SMSC's name: the upstream its message ids belong to. */
  readonly upstream: string;
  private readonly binds: SmppBind[] = [];
  private readonly limiter: RateLimiter;
  private pausedUntil = 0;
  private throttleStreak = 0;

  constructor(
    readonly config: SmscConfig,
    private readonly on: {
      receipt: (r: DeliveryReceipt) => Promise<void>;
      /** A deliver_sm that is no receipt: a reply, stored before it is acknowledged. */
      reply: (pdu: MoFields) => Promise<void>;
    },
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {
    this.upstream = config.name;
    this.limiter = new RateLimiter(config.tps, () => clock.now());
    const roles: BindRole[] =
      config.bindMode === 'transceiver' ? ['transceiver'] : ['transmitter', 'receiver'];
    for (let i = 1; i <= config.binds; i++) {
      for (const role of roles) {
        const label = `${ROLE_LABELS[role]}-${i}`;
        const handlers = { onDeliver: this.deliver };
        this.binds.push(new SmppBind({ smsc: config, role, label, handlers, log }));
      }
    }
  }

  /** Up while at least one bind can submit. */
  get up(): boolean {
    return this.senders().some((b) => b.state === 'bound');
  }

  status(): BindStatus[] {
    return this.binds.map((b) => b.status());
  }

  start(): void {
    for (const b of this.binds) b.start();
  }

  async stop(): Promise<void> {
    await Promise.all(this.binds.map((b) => b.stop()));
  }

  async submit(m: ClaimedMessage): Promise<SubmitResult> {
    const answers = await Promise.all(
      submitPdusFor(m, this.config, this.clock.now()).map((p) => this.submitPart(p)),
    );
    const refused = answers.find((a) => a.kind === 'rejected');
    if (refused) return refused;
    const retry = answers.find((a) => a.kind === 'retry');
    if (retry) return retry;
    const ids = answers.map((a) => (a.kind === 'ok' ? a.id : ''));
    return {
      kind: 'accepted',
      upstreamId: ids[0] ?? '',
      upstream: this.upstream,
      ...(ids.length > 1 ? { parts: ids } : {}),
    };
  }

  private async submitPart(fields: SubmitFields): Promise<PartAnswer> {
    for (let attempt = 0; ; attempt++) {
      await this.throttlePause();
      await this.limiter.take(1);
      const bind = this.pickBind();
      if (!bind)
        return { kind: 'retry', code: 'BINDLOST', desc: `no bind to ${this.config.name} is up` };
      let resp: Pdu;
      try {
        resp = await bind.request('submit_sm', fields);
      } catch (e) {
        if (e instanceof NoAnswer) return { kind: 'retry', code: e.code, desc: e.message };
        throw e;
      }
      const answer = this.answerOf(resp, attempt);
      if (answer) return answer;
    }
  }

  /** The part's answer, or undefined when a throttling answer means: pause, then send it again. */
  private answerOf(resp: Pdu, attempt: number): PartAnswer | undefined {
    const status = resp.command_status;
    const name = commandStatusName(status);
    switch (submitStatusKind(status)) {
      case 'ok':
        this.throttleStreak = 0;
        return { kind: 'ok', id: normaliseSmscId(textOf(resp.message_id)) };
      case 'throttled': {
        const pauseMs = this.throttle();
        if (attempt < this.config.throttleRetries) return undefined;
        return {
          kind: 'retry',
          code: hex(status),
          desc: `${name}: throttled`,
          retryAfterMs: pauseMs,
        };
      }
      case 'transient':
        return { kind: 'retry', code: hex(status), desc: `${name}: the SMSC failed for now` };
      case 'permanent':
        return { kind: 'rejected', code: hex(status), desc: `${name}: refused by the SMSC` };
    }
  }

  private throttle(): number {
    const pauseMs = Math.min(MAX_THROTTLE_PAUSE_MS, 50 * 2 ** this.throttleStreak++);
    this.pausedUntil = Math.max(this.pausedUntil, this.clock.now() + pauseMs);
    return pauseMs;
  }

  private async throttlePause(): Promise<void> {
    const waitMs = this.pausedUntil - this.clock.now();
    if (waitMs > 0) await new Promise((r) => setTimeout(r, waitMs));
  }

  /** The bound sender with the most room in its window. */
  private pickBind(): SmppBind | undefined {
    let best: SmppBind | undefined;
    for (const b of this.senders()) {
      if (b.state === 'bound' && (!best || b.outstanding < best.outstanding)) best = b;
    }
    return best;
  }

  private senders(): SmppBind[] {
    return this.binds.filter((b) => b.role !== 'receiver');
  }

  private readonly deliver = async (pdu: Pdu): Promise<number> => {
    // Only deliver_sm PDUs reach this handler; the codec read its fields.
    const receipt = readDeliveryReceipt(pdu as DeliverFields);
    try {
      // The PDU as the codec read it: its fields are what MoFields names.
      if (receipt) await this.on.receipt(receipt);
      else await this.on.reply(pdu as MoFields);
      return ESME_ROK;
    } catch (err) {
      // Not acknowledged as done: the SMSC delivers the receipt or the reply again later.
      this.log.error(
        { err, smsc: this.config.name },
        receipt ? 'receipt not stored' : 'reply not stored',
      );
      return ESME_RX_T_APPN;
    }
  };
}

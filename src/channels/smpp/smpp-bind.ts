import { connect } from 'node:net';
import type { Logger } from 'pino';
import type { CommandName } from '../../smpp-wire/commands.js';
import type { Pdu } from '../../smpp-wire/codec.js';
import { PduSocket } from '../../smpp-wire/pdu-socket.js';
import type { SmscConfig } from '../../config/smpp-config.js';
import type { BindStatus } from '../channel.js';
import { ESME_RINVCMDID, commandStatusName } from './command-status.js';

const UNBIND_WAIT_MS = 1000;

export type BindRole = 'transceiver' | 'transmitter' | 'receiver';

/** Why a request got no answer: the bind went down, or the SMSC did not answer in time. */
export class NoAnswer extends Error {
  constructor(
    readonly code: 'BINDLOST' | 'TIMEOUT',
    message: string,
  ) {
    super(message);
  }
}

interface Pending {
  resolve: (pdu: Pdu) => void;
  reject: (err: NoAnswer) => void;
  timer: NodeJS.Timeout;
}

export interface BindHandlers {
  /** Handles a deliver_sm and answers the command_status for its deliver_sm_resp. */
  onDeliver(pdu: Pdu): Promise<number>;
}

/**
 * One SMPP bind to an SMSC: binds, keeps the link alive with enquire_link, reconnects with
 * backoff after a drop, and keeps at most `window` requests unanswered, over the lean codec's
 * PduSocket (src/smpp-wire), which leaves the response timeout and the window to its user.
 */
export class SmppBind {
  state: BindStatus['state'] = 'down';
  private link: PduSocket | undefined;
  private readonly pending = new Map<number, Pending>();
  private waiters: (() => void)[] = [];
  private failures = 0;
  private stopped = true;
  private timers = new Set<NodeJS.Timeout>();

  private readonly smsc: SmscConfig;
  readonly role: BindRole;
  readonly label: string;
  private readonly handlers: BindHandlers;
  private readonly log: Logger;
  private readonly random: () => number;

  constructor(o: {
    smsc: SmscConfig;
    role: BindRole;
    /** How status lists and logs name the bind (its role and number). */
    label: string;
    handlers: BindHandlers;
    log: Logger;
    /** The reconnect backoff's jitter: Math.random unless a test fixes it. */
    random?: () => number;
  }) {
    ({ smsc: this.smsc, role: this.role, label: this.label } = o);
    ({ handlers: this.handlers, log: this.log } = o);
    this.random = o.random ?? Math.random;
  }

  get outstanding(): number {
    return this.pending.size;
  }

  status(): BindStatus {
    return {
      upstream: this.smsc.name,
      bind: this.label,
      state: this.state,
      outstanding: this.outstanding,
    };
  }

  start(): void {
    this.stopped = false;
    this.connect();
  }

  /** Sends a request and resolves with its response; rejects with NoAnswer. */
  async request(command: CommandName, fields: Record<string, unknown>): Promise<Pdu> {
    while (this.state === 'bound' && this.pending.size >= this.smsc.window) {
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
    const link = this.link;
    if (this.state !== 'bound' || !link) throw new NoAnswer('BINDLOST', 'the bind is down');
    return this.send(link, command, fields);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    const link = this.link;
    if (link && this.state === 'bound') {
      // A polite unbind, but a silent SMSC must not hold up the gateway's shutdown.
      const unbind = this.send(link, 'unbind').catch(() => undefined);
      await Promise.race([unbind, new Promise((r) => setTimeout(r, UNBIND_WAIT_MS).unref())]);
    }
    link?.destroy();
    this.down('the gateway is stopping');
  }

  private connect(): void {
    this.state = 'connecting';
    const socket = connect({ host: this.smsc.host, port: this.smsc.port });
    const link = new PduSocket(socket);
    this.link = link;
    socket.on('connect', () => {
      socket.setNoDelay(true);
      void this.bind(link);
    });
    link.on('error', (err: Error) => {
      this.log.warn({ err: err.message, bind: this.label }, 'SMPP connection error');
      link.destroy();
    });
    link.on('malformed', (err: Error) => {
      this.log.warn({ err: err.message, bind: this.label }, 'SMPP stream unreadable');
      link.destroy();
    });
    link.on('close', () => this.closed(link));
    link.on('request', (pdu: Pdu) => this.requested(link, pdu));
  }

  /** What the SMSC asks: receipts and replies, link checks, the end of the bind. */
  private requested(link: PduSocket, pdu: Pdu): void {
    if (pdu.command === 'deliver_sm') void this.deliver(link, pdu);
    else if (pdu.command === 'enquire_link') link.respond(pdu);
    else if (pdu.command === 'unbind') {
      link.respond(pdu);
      link.end();
    } else link.respond(pdu, ESME_RINVCMDID);
  }

  private async bind(link: PduSocket): Promise<void> {
    const resp = await this.send(link, `bind_${this.role}`, {
      system_id: this.smsc.systemId,
      password: this.smsc.password,
      system_type: this.smsc.systemType,
      interface_version: 0x34,
    }).catch((err: unknown) =>
      // send() rejects with NoAnswer alone; anything else is read as a lost bind all the same.
      err instanceof NoAnswer ? err : new NoAnswer('BINDLOST', String(err)),
    );
    if (resp instanceof NoAnswer || resp.command_status !== 0) {
      const why = resp instanceof NoAnswer ? resp.message : commandStatusName(resp.command_status);
      this.log.error({ bind: this.label, why }, 'SMPP bind refused');
      link.destroy();
      return;
    }
    this.failures = 0;
    this.state = 'bound';
    this.log.info({ bind: this.label }, 'SMPP bound');
    this.keepAlive(link);
  }

  private keepAlive(link: PduSocket): void {
    const timer = setInterval(() => {
      if (this.link !== link || this.state !== 'bound') {
        clearInterval(timer);
        return;
      }
      // A link that stops answering enquire_link is dead even if TCP has not noticed.
      this.send(link, 'enquire_link').catch(() => link.destroy());
    }, this.smsc.enquireLinkS * 1000);
    timer.unref();
  }

  /** Sends a request; resolves with its response, rejects with NoAnswer. */
  private send(
    link: PduSocket,
    command: CommandName,
    fields: Record<string, unknown> = {},
  ): Promise<Pdu> {
    return new Promise<Pdu>((resolve, reject) => {
      const sequence = link.request(command, fields, (resp) => this.answered(resp));
      if (sequence === undefined) {
        reject(new NoAnswer('BINDLOST', 'the connection is not writable'));
        return;
      }
      const timer = setTimeout(() => {
        link.forget(sequence);
        this.settle(sequence);
        reject(new NoAnswer('TIMEOUT', `no ${command}_resp in ${this.smsc.responseTimeoutS}s`));
      }, this.smsc.responseTimeoutS * 1000);
      this.pending.set(sequence, { resolve, reject, timer });
    });
  }

  private answered(pdu: Pdu): void {
    const p = this.pending.get(pdu.sequence_number);
    if (!p) return;
    this.settle(pdu.sequence_number);
    p.resolve(pdu);
  }

  private settle(sequence: number): void {
    const p = this.pending.get(sequence);
    if (!p) return;
    clearTimeout(p.timer);
    this.pending.delete(sequence);
    this.waiters.shift()?.();
  }

  private async deliver(link: PduSocket, pdu: Pdu): Promise<void> {
    const status = await this.handlers.onDeliver(pdu);
    link.respond(pdu, status);
  }

  private closed(link: PduSocket): void {
    if (this.link !== link) return;
    this.link = undefined;
    this.down('the connection closed');
    if (this.stopped) return;
    const delay = Math.min(this.smsc.reconnectMaxS * 1000, 250 * 2 ** this.failures++);
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        if (!this.stopped) this.connect();
      },
      delay / 2 + (this.random() * delay) / 2,
    );
    this.timers.add(timer);
  }

  /** Everything unanswered fails now: the dispatcher decides whether to send it again. */
  private down(why: string): void {
    this.state = 'down';
    for (const [seq, p] of this.pending) {
      clearTimeout(p.timer);
      this.pending.delete(seq);
      p.reject(new NoAnswer('BINDLOST', why));
    }
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}

import { createServer, type AddressInfo, type Server } from 'node:net';
import { performance } from 'node:perf_hooks';
import { COMMAND_STATUS } from '../domain/smpp/tables.js';
import type { Pdu } from '../smpp-wire/codec.js';
import { PduSocket } from '../smpp-wire/pdu-socket.js';
import { DueQueue } from '../channels/simulator/report-queue.js';
import { testOutcomeOf } from '../channels/simulator/test-numbers.js';
import { NO_FAULTS, type SmscFaults } from './faults.js';
import { submitRecordOf, type SubmitRecord } from './submit-record.js';
import { autoReplyFields, receiptFields, type ReceiptStyle } from './handset.js';
import { textOf } from '../util/unknown-values.js';

/** How the simulator listens and answers; its receipts' style (ReceiptStyle) too. */
export interface SmscSimOptions extends Partial<ReceiptStyle> {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** When set, binds must give this system_id and password. */
  systemId?: string;
  password?: string;
  receipts?: boolean;
  receiptDelayMs?: number;
  /** Keep every submit_sm (for tests; off for benchmarks). */
  record?: boolean;
  /**
   * Every handset answers each message it gets with this text (after the receipt), to the
   * address the message came from: a reply (MO) to try the gateway's inbound path end to end.
   */
  autoReply?: string;
  /** Told of every accepted submit_sm (each part of a long SMS), for a benchmark's latencies. */
  onSubmit?: (destinationAddr: string, atMs: number) => void;
  faults?: Partial<SmscFaults>;
}

const { ESME_RINVDSTADR, ESME_RBINDFAIL, ESME_RINVBNDSTS, ESME_RTHROTTLED, ESME_RINVCMDID } =
  COMMAND_STATUS;

type Session = PduSocket;

/**
 * deliver_sm a bind may have unanswered at once, as a real SMSC keeps a window: a flood of replies
 * waits its turn here instead of piling up in both ends' socket buffers (where two peers that each
 * stop reading while their own output waits would stall each other).
 */
const DELIVER_WINDOW = 100;

interface Pending {
  systemId: string;
  fields: Record<string, unknown>;
}

interface SessionState {
  systemId: string | undefined;
  receives: boolean;
  outstanding: number;
}

/**
 * An SMSC for local tests and benchmarks (`wirebird smsc-sim`): accepts binds, answers submits,
 * sends delivery receipts after a delay, and injects faults on demand. The recipient's last four
 * digits give the same outcomes as the built-in simulator's test numbers.
 */
export class SmscSim {
  faults: SmscFaults;
  readonly stats = {
    binds: 0,
    submits: 0,
    accepted: 0,
    throttled: 0,
    refused: 0,
    drops: 0,
    receiptsSent: 0,
    receiptsAcked: 0,
    /** Receipts sent again because the bind they went to closed before its deliver_sm_resp. */
    receiptsRedelivered: 0,
    /** The most submit_sm one bind had unanswered at once: the client's window, as seen here. */
    maxOutstanding: 0,
    /** Epoch ms (sub-ms precision, 0 before the first) of the first and last accepted submit_sm
     * and deliver_sm_resp: a benchmark's end-to-end and receipt rates, seen from the SMSC. */
    firstSubmitAt: 0,
    lastSubmitAt: 0,
    firstReceiptAckAt: 0,
    lastReceiptAckAt: 0,
  };
  readonly submits: SubmitRecord[] = [];
  private server: Server | undefined;
  private readonly sessions = new Set<Session>();
  private nextId = 0x10000;
  private submitsSinceDropSet = 0;
  private readonly receivers = new Map<string, Session[]>();
  private held: Pending[] = [];
  /** Receipts and replies waiting for room in a bind's window of deliver_sm, oldest first. */
  private waiting: Pending[] = [];
  /** deliver_sm sent on each bind and not answered yet, by sequence number: sent again if it drops. */
  private readonly unacked = new Map<Session, Map<number, Pending>>();
  private readonly queue: DueQueue<Pending>;
  private readonly opts: Required<
    Omit<SmscSimOptions, 'faults' | 'systemId' | 'password' | 'onSubmit' | 'autoReply'>
  > &
    Pick<SmscSimOptions, 'systemId' | 'password' | 'onSubmit' | 'autoReply'>;

  constructor(options: SmscSimOptions = {}) {
    this.opts = {
      host: '127.0.0.1',
      port: 2775,
      receipts: true,
      receiptDelayMs: 100,
      idBase: 'hex',
      receiptIdBase: 'same',
      receiptTlvs: true,
      record: false,
      ...options,
    };
    this.faults = { ...NO_FAULTS, ...options.faults };
    this.queue = new DueQueue((due) => due.forEach((p) => this.sendReceipt(p)), Date.now);
  }

  /** Starts listening; answers the port. */
  async start(): Promise<number> {
    const server = createServer((socket) => this.accept(new PduSocket(socket)));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.opts.port, this.opts.host, () => resolve());
    });
    // A TCP server that is listening has an AddressInfo (not a pipe name).
    return (server.address() as AddressInfo).port;
  }

  /**
   * A handset's reply (MO): a deliver_sm with these fields (source_addr, destination_addr,
   * short_message bytes, data_coding, esm_class, SAR TLVs…) to a receiving bind of `systemId`
   * (the first bound one if not given); held and sent again like receipts when unanswered.
   */
  sendReply(fields: Record<string, unknown>, systemId?: string): void {
    const id = systemId ?? [...this.receivers.entries()].find(([, list]) => list.length > 0)?.[0];
    if (id === undefined) throw new Error('no receiving bind to send the reply on');
    this.sendReceipt({
      systemId: id,
      fields: { source_addr_ton: 1, source_addr_npi: 1, esm_class: 0, data_coding: 0, ...fields },
    });
  }

  async stop(): Promise<void> {
    this.queue.clear();
    this.waiting = [];
    const server = this.server;
    if (!server) return;
    for (const s of [...this.sessions]) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    this.server = undefined;
  }

  /** Drops every connection now, as a crashing SMSC would. */
  dropAll(): void {
    for (const s of [...this.sessions]) s.destroy();
    this.stats.drops++;
  }

  private accept(session: Session): void {
    const state: SessionState = { systemId: undefined, receives: false, outstanding: 0 };
    this.sessions.add(session);
    session.on('request', (pdu) => this.request(session, state, pdu));
    session.on('malformed', () => session.destroy());
    session.on('error', () => session.destroy());
    session.on('close', () => {
      this.sessions.delete(session);
      this.forget(session, state);
    });
  }

  private request(session: Session, state: SessionState, pdu: Pdu): void {
    switch (pdu.command) {
      case 'bind_transceiver':
      case 'bind_transmitter':
      case 'bind_receiver':
        this.bind(session, state, pdu);
        return;
      case 'enquire_link':
        session.respond(pdu);
        return;
      case 'unbind':
        session.respond(pdu);
        session.end();
        return;
      case 'submit_sm':
        this.submit(session, state, pdu);
        return;
      default:
        // What an SMSC for tests does not do (query_sm, data_sm, …) is refused, not left unanswered.
        session.respond(pdu, ESME_RINVCMDID);
    }
  }

  private bind(session: Session, state: SessionState, pdu: Pdu): void {
    const { systemId, password } = this.opts;
    if (
      systemId !== undefined &&
      (pdu.system_id !== systemId || pdu.password !== (password ?? ''))
    ) {
      session.respond(pdu, ESME_RBINDFAIL, { system_id: '' });
      session.end();
      return;
    }
    this.stats.binds++;
    state.systemId = textOf(pdu.system_id);
    state.receives = pdu.command !== 'bind_transmitter';
    session.respond(pdu, 0, { system_id: 'wirebird-sim' });
    if (state.receives) {
      const list = this.receivers.get(state.systemId) ?? [];
      list.push(session);
      this.receivers.set(state.systemId, list);
      this.unacked.set(session, new Map());
      this.sendHeld();
    }
  }

  private sendHeld(): void {
    const held = this.held;
    this.held = [];
    held.forEach((p) => this.sendReceipt(p));
    this.sendWaiting();
  }

  /**
   * A bind that closes takes nothing with it: receipts it did not acknowledge are held and sent
   * again on the next receiving bind (now, if another is up), as an SMSC redelivers them.
   */
  private forget(session: Session, state: SessionState): void {
    if (!state.systemId) return;
    const list = this.receivers.get(state.systemId)?.filter((s) => s !== session) ?? [];
    this.receivers.set(state.systemId, list);
    const pending = new Set(this.unacked.get(session)?.values() ?? []);
    this.unacked.delete(session);
    this.stats.receiptsRedelivered += pending.size;
    this.held.push(...pending);
    if (pending.size > 0 && list.length > 0) this.sendHeld();
  }

  /** A deliver_sm_resp: done with, or (an error status) sent again a second later. */
  private acked(session: Session, sequence: number, resp: Pdu): void {
    const now = epochMs();
    this.stats.receiptsAcked++;
    this.stats.firstReceiptAckAt ||= now;
    this.stats.lastReceiptAckAt = now;
    const p = this.unacked.get(session)?.get(sequence);
    this.unacked.get(session)?.delete(sequence);
    if (p && resp.command_status !== 0) this.queue.add(Date.now() + 1000, p);
    this.sendWaiting();
  }

  /** What waited for room, as far as the windows allow now. */
  private sendWaiting(): void {
    for (let p = this.waiting[0]; p !== undefined; p = this.waiting[0]) {
      if (!this.roomFor(p.systemId)) return;
      this.waiting.shift();
      this.sendReceipt(p);
    }
  }

  private roomFor(systemId: string): boolean {
    const list = this.receivers.get(systemId) ?? [];
    return list.some((s) => (this.unacked.get(s)?.size ?? 0) < DELIVER_WINDOW);
  }

  private submit(session: Session, state: SessionState, pdu: Pdu): void {
    if (!state.systemId) {
      session.respond(pdu, ESME_RINVBNDSTS);
      return;
    }
    this.stats.submits++;
    if (this.faults.dropAfter > 0 && ++this.submitsSinceDropSet >= this.faults.dropAfter) {
      this.faults.dropAfter = 0;
      this.submitsSinceDropSet = 0;
      this.stats.drops++;
      session.destroy();
      return;
    }
    state.outstanding++;
    this.stats.maxOutstanding = Math.max(this.stats.maxOutstanding, state.outstanding);
    const answer = (fields: Record<string, unknown>) => this.answer(session, state, pdu, fields);
    if (this.faults.throttleEvery > 0 && this.stats.submits % this.faults.throttleEvery === 0) {
      this.stats.throttled++;
      answer({ command_status: ESME_RTHROTTLED });
      return;
    }
    const to = textOf(pdu.destination_addr);
    const outcome = testOutcomeOf(to);
    if (outcome === 'refuse') {
      this.stats.refused++;
      answer({ command_status: ESME_RINVDSTADR });
      return;
    }
    const id = this.newId();
    this.stats.accepted++;
    const now = epochMs();
    this.stats.firstSubmitAt ||= now;
    this.stats.lastSubmitAt = now;
    this.opts.onSubmit?.(to, now);
    const record = submitRecordOf(state.systemId, pdu, id);
    if (this.opts.record) this.submits.push(record);
    const fails =
      outcome === 'fail' ||
      (this.faults.failEvery > 0 && this.stats.accepted % this.faults.failEvery === 0);
    if (this.opts.receipts && outcome !== 'silent') {
      const stat: [string, string] = fails ? ['UNDELIV', '001'] : ['DELIVRD', '000'];
      const receipt = { systemId: state.systemId, fields: receiptFields(record, stat, this.opts) };
      if (this.faults.receiptsBeforeAnswer) this.sendReceipt(receipt);
      else this.queue.add(Date.now() + this.opts.receiptDelayMs, receipt);
    }
    const reply = this.opts.autoReply && autoReplyFields(record, this.opts.autoReply);
    if (reply) {
      const at = Date.now() + 2 * this.opts.receiptDelayMs + 1;
      this.queue.add(at, { systemId: state.systemId, fields: reply });
    }
    answer({ message_id: id });
  }

  private answer(
    session: Session,
    state: SessionState,
    pdu: Pdu,
    fields: { command_status?: number; message_id?: string },
  ): void {
    const { command_status: status = 0, message_id = '' } = fields;
    const send = () => {
      state.outstanding--;
      session.respond(pdu, status, { message_id });
    };
    if (this.faults.ackDelayMs > 0) setTimeout(send, this.faults.ackDelayMs);
    else send();
  }

  private newId(): string {
    const n = this.nextId++;
    return this.opts.idBase === 'hex' ? n.toString(16).toUpperCase() : String(n);
  }

  private sendReceipt(p: Pending): void {
    const list = this.receivers.get(p.systemId) ?? [];
    // Round robin over the receiving binds; none bound: held until one binds, as an SMSC stores them.
    if (list.length === 0) {
      this.held.push(p);
      return;
    }
    // Every bind's window full: it waits for an answer, as an SMSC keeps a window.
    if (!this.roomFor(p.systemId)) {
      this.waiting.push(p);
      return;
    }
    // roomFor found a bind with room: the first in turn that has it.
    const session = list.find((s) => (this.unacked.get(s)?.size ?? 0) < DELIVER_WINDOW);
    if (!session) return;
    list.splice(list.indexOf(session), 1);
    list.push(session);
    const copies = this.faults.duplicateReceipts ? 2 : 1;
    for (let i = 0; i < copies; i++) {
      const sequence = session.request('deliver_sm', p.fields, (resp) =>
        this.acked(session, resp.sequence_number, resp),
      );
      if (sequence === undefined) {
        this.held.push(p);
        continue;
      }
      this.stats.receiptsSent++;
      this.unacked.get(session)?.set(sequence, p);
    }
  }
}

/** Wall-clock ms with sub-ms precision, comparable across processes on one machine. */
export function epochMs(): number {
  return performance.timeOrigin + performance.now();
}

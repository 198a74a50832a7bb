/**
 * One ESME's connection to the SMPP server: open until it binds (within bindTimeoutMs), then
 * bound as a transmitter, receiver or transceiver until it unbinds, goes quiet for inactivityMs,
 * or breaks the protocol. Every request gets its answer in the state it arrived in (SMPP 3.4
 * §2.3): a command the state does not allow is ESME_RINVBNDSTS, one the server does not know is
 * generic_nack ESME_RINVCMDID.
 */
import type { Logger } from 'pino';
import type { SmppServerConfig } from '../config/smpp-server-config.js';
import type { BindMode, SmppCredential } from '../domain/smpp-server/credential.js';
import { RateLimiter } from '../rate-limit/rate-limiter.js';
import type { Pdu, PduFields } from '../smpp-wire/codec.js';
import type { PduSocket } from '../smpp-wire/pdu-socket.js';
import type { BindAuth } from './bind-auth.js';
import { COMMAND_STATUS as STATUS } from '../domain/smpp/tables.js';
import type { QueryAnswer } from './query.js';
import type { Esme, SubmitOutcome } from './submit.js';
import { textOf } from '../util/unknown-values.js';

export interface ConnectionContext {
  config: SmppServerConfig;
  auth: BindAuth;
  submit: (
    esme: { accountId: number; systemId: string },
    pdu: Record<string, unknown>,
    multi: boolean,
  ) => Promise<SubmitOutcome>;
  query: (esme: Esme, pdu: Record<string, unknown>) => Promise<QueryAnswer>;
  cancel: (esme: Esme, pdu: Record<string, unknown>) => Promise<QueryAnswer>;
  replace: (esme: Esme, pdu: Record<string, unknown>) => Promise<QueryAnswer>;
  /** Told of every answer to an ESME's request (metrics). */
  onAnswer?: (command: string, status: number) => void;
  /** Told when a bind starts and ends: the registry of binds per system_id. */
  onBound: (s: EsmeConnection, keyId: string) => void;
  onClosed: (s: EsmeConnection) => void;
  log: Logger;
}

/** Commands an ESME may send that the server does not take yet (docs/smpp-server.md). */
const NOT_TAKEN = ['data_sm'];

/** SMPP 3.4 §5.2.22: sm_length is 0 to 254; longer text goes in message_payload. */
const MAX_SHORT_MESSAGE = 254;

/** The fields whose length is the message's: their faults are ESME_RINVMSGLEN. */
const MESSAGE_FIELDS = new Set(['short_message', 'message_payload']);

/**
 * Why a request cannot be taken as it stands, before its state or content is looked at: a body
 * that overruns command_length (or stops short of it) or a short_message over 254 octets. Kannel
 * and Jasmin refuse these too; reading on would deliver a truncated text as if it were whole.
 */
export function bodyFault(pdu: Pdu): { status: number; reason: string } | undefined {
  const field = pdu.malformed;
  if (field !== undefined) {
    const status = MESSAGE_FIELDS.has(field) ? STATUS.ESME_RINVMSGLEN : STATUS.ESME_RINVCMDLEN;
    return { status, reason: `${field} does not fit the PDU's command_length` };
  }
  const sm = pdu.short_message;
  if (sm instanceof Uint8Array && sm.length > MAX_SHORT_MESSAGE) {
    const reason = `short_message of ${sm.length} octets: at most ${MAX_SHORT_MESSAGE}`;
    return { status: STATUS.ESME_RINVMSGLEN, reason };
  }
  return undefined;
}

export class EsmeConnection {
  credential: SmppCredential | undefined;
  mode: BindMode | undefined;
  /** The bind whose password is being checked, answered on its verdict or at the bind timeout. */
  private binding: Pdu | undefined;
  private ending = false;
  /** close() was called: the connection is on its way out and takes nothing more. */
  private closing = false;
  /** The socket closed: nothing this connection learns afterwards may bind it. */
  private gone = false;
  /** The deliver_sm awaiting their resp: each settles once, with a status or without. */
  private readonly answers = new Set<(status: number | undefined) => void>();
  private limiter: RateLimiter | undefined;
  private readonly timers: {
    bind?: NodeJS.Timeout;
    idle?: NodeJS.Timeout;
    enquire?: NodeJS.Timeout;
  } = {};

  constructor(
    readonly link: PduSocket,
    private readonly ctx: ConnectionContext,
  ) {
    this.timers.bind = setTimeout(() => this.bindTimedOut(), ctx.config.bindTimeoutMs);
    this.idle();
    this.enquire();
    link.on('request', (pdu: Pdu) => this.received(pdu));
    // A PDU the codec cannot read (a bad length, too large): answered and the connection closed.
    link.on('malformed', (err: Error) => this.broken(err));
    link.on('error', (err: Error) => {
      ctx.log.info({ err: err.message, address: this.address }, 'SMPP connection error');
      link.destroy();
    });
    link.on('close', () => this.closed());
  }

  /** The remote address as the socket reports it. */
  get address(): string {
    return this.link.socket.remoteAddress ?? '';
  }

  /**
   * Open and staying open: a bind verdict that arrives for a connection no longer live is
   * dropped, and receipts go only to live binds (a closed one would take them and answer none).
   */
  get live(): boolean {
    return !this.gone && !this.closing && !this.ending && this.link.socket.writable;
  }

  get receives(): boolean {
    return this.mode === 'receiver' || this.mode === 'transceiver';
  }

  /** How many more deliver_sm this bind takes now: its credential's window less those unanswered. */
  get room(): number {
    return this.receives && this.credential ? this.credential.window - this.answers.size : 0;
  }

  /**
   * Sends a deliver_sm; answers its deliver_sm_resp's command_status, or undefined when none came
   * within `timeoutMs` or the bind closed first.
   */
  deliver(fields: PduFields, timeoutMs: number): Promise<number | undefined> {
    return new Promise((resolve) => {
      const finish = (status: number | undefined) => {
        if (!this.answers.delete(finish)) return;
        clearTimeout(timer);
        resolve(status);
      };
      this.answers.add(finish);
      const timer = setTimeout(() => {
        if (sequence !== undefined) this.link.forget(sequence);
        finish(undefined);
      }, timeoutMs);
      const sequence = this.link.request('deliver_sm', fields, (resp) =>
        finish(resp.command_status),
      );
      if (sequence === undefined) finish(undefined);
    });
  }

  /**
   * Ends a bind from the server's side (its credential was revoked or deleted): unbind, as
   * SMPP 3.4 §4.2 has either party do, then close on the unbind_resp or after a second.
   */
  end(why: string): void {
    if (this.ending) return;
    this.ending = true;
    let closed = false;
    const done = () => {
      if (closed) return;
      closed = true;
      this.close(why);
    };
    const sent = this.link.request('unbind', {}, done);
    if (sent === undefined) {
      done();
      return;
    }
    setTimeout(done, 1000).unref();
  }

  close(why: string): void {
    this.closing = true;
    this.ctx.log.info({ systemId: this.credential?.systemId, why }, 'SMPP connection closed');
    this.link.end();
    // A peer that never reads its socket must not keep it open.
    setTimeout(() => this.link.destroy(), 1000).unref();
  }

  private received(pdu: Pdu): void {
    const command = pdu.command;
    const fault = command === 'unknown' ? undefined : bodyFault(pdu);
    if (fault) {
      this.ctx.log.info({ address: this.address, command, why: fault.reason }, 'PDU refused');
      this.answer(pdu, fault.status);
      return;
    }
    // The codec reads only bind_transmitter, bind_receiver and bind_transceiver.
    if (command.startsWith('bind_')) void this.bind(pdu, command.slice(5) as BindMode);
    else if (command === 'enquire_link') this.answer(pdu);
    else if (command === 'unbind') this.unbind(pdu);
    else if (command === 'submit_sm' || command === 'submit_multi') void this.submitted(pdu);
    else if (command === 'query_sm') void this.managed(pdu, this.ctx.query);
    else if (command === 'cancel_sm') void this.managed(pdu, this.ctx.cancel);
    else if (command === 'replace_sm') void this.managed(pdu, this.ctx.replace);
    else if (command === 'unknown' || NOT_TAKEN.includes(command)) this.nack(pdu);
    else this.answer(pdu, STATUS.ESME_RINVBNDSTS);
  }

  private answer(pdu: Pdu, status: number = STATUS.ESME_ROK, fields: PduFields = {}): void {
    this.link.respond(pdu, status, fields);
    this.ctx.onAnswer?.(pdu.command, status);
  }

  /** A command the server does not take: its own resp, or generic_nack for an unknown id. */
  private nack(pdu: Pdu): void {
    this.link.respond(pdu, STATUS.ESME_RINVCMDID);
  }

  /**
   * No bind in time. One still waiting for its password check is answered ESME_RBINDFAIL first:
   * under a flood of binds an ESME learns it was refused, and retries, rather than meeting a
   * closed connection.
   */
  private bindTimedOut(): void {
    const asked = this.binding;
    if (asked && this.live) {
      this.binding = undefined;
      this.answer(asked, this.ctx.auth.timedOut());
    }
    this.close('no bind in time');
  }

  private async bind(pdu: Pdu, mode: BindMode): Promise<void> {
    if (this.mode || this.binding) {
      this.answer(pdu, STATUS.ESME_RALYBND);
      return;
    }
    this.binding = pdu;
    const systemId = textOf(pdu.system_id);
    const verdict = await this.ctx.auth.check({
      systemId,
      password: textOf(pdu.password),
      address: this.address,
      mode,
      wanted: () => this.live,
    });
    this.binding = undefined;
    if (!this.live) {
      // Closed (by the peer, or by the bind timeout) while the password was checked.
      this.ctx.log.info({ systemId, address: this.address }, 'bind dropped: connection closed');
      return;
    }
    if (!verdict.ok) {
      this.ctx.log.warn({ systemId, address: this.address, why: verdict.reason }, 'bind refused');
      this.answer(pdu, verdict.status);
      this.close(`bind refused: ${verdict.reason}`);
      return;
    }
    clearTimeout(this.timers.bind);
    this.credential = verdict.credential;
    this.mode = mode;
    this.limiter = new RateLimiter(verdict.credential.maxTps);
    this.answer(pdu, STATUS.ESME_ROK, { system_id: 'wirebird' });
    this.ctx.onBound(this, verdict.record.keyId);
    this.ctx.log.info({ systemId, mode, address: this.address }, 'ESME bound');
  }

  private unbind(pdu: Pdu): void {
    this.answer(pdu);
    this.close('unbind');
  }

  private async submitted(pdu: Pdu): Promise<void> {
    const credential = this.credential;
    if (!credential || this.mode === 'receiver') {
      this.answer(pdu, STATUS.ESME_RINVBNDSTS);
      return;
    }
    if (!this.limiter?.tryTake()) {
      this.answer(pdu, STATUS.ESME_RTHROTTLED);
      return;
    }
    let outcome: SubmitOutcome;
    try {
      outcome = await this.ctx.submit(credential, pdu, pdu.command === 'submit_multi');
    } catch (err) {
      // Not stored: the ESME is told to try again, never given an id for a lost message.
      this.ctx.log.error({ err, systemId: credential.systemId }, 'submit_sm not stored');
      this.answer(pdu, STATUS.ESME_RSYSERR);
      return;
    }
    if (outcome.reason) {
      this.ctx.log.info(
        { systemId: credential.systemId, why: outcome.reason },
        'submit_sm refused',
      );
    }
    this.answer(pdu, outcome.status, {
      ...(outcome.messageId ? { message_id: outcome.messageId } : {}),
      ...(outcome.unsuccess ? { unsuccess_sme: outcome.unsuccess } : {}),
    });
  }

  /** query_sm, cancel_sm, replace_sm: a transmitter's or transceiver's, of its own account. */
  private async managed(pdu: Pdu, run: ConnectionContext['query']): Promise<void> {
    const credential = this.credential;
    if (!credential || this.mode === 'receiver') {
      this.answer(pdu, STATUS.ESME_RINVBNDSTS);
      return;
    }
    try {
      const answer = await run(credential, pdu);
      if (answer.reason) {
        this.ctx.log.info(
          { systemId: credential.systemId, why: answer.reason },
          `${pdu.command} refused`,
        );
      }
      this.answer(pdu, answer.status, answer.fields ?? {});
    } catch (err) {
      this.ctx.log.error({ err, systemId: credential.systemId }, `${pdu.command} not answered`);
      this.answer(pdu, STATUS.ESME_RSYSERR);
    }
  }

  /**
   * Closes a connection that has sent nothing for inactivityMs. The socket notes when it last
   * read, so a busy bind costs no timer work per PDU: the timer wakes and looks.
   */
  private idle(): void {
    const { inactivityMs } = this.ctx.config;
    const quietFor = performance.now() - this.link.lastReadAt;
    if (quietFor >= inactivityMs) {
      this.close('inactive');
      return;
    }
    this.timers.idle = setTimeout(() => this.idle(), inactivityMs - quietFor);
  }

  /** An enquire_link once the ESME has been quiet for enquireLinkMs. */
  private enquire(): void {
    const { enquireLinkMs } = this.ctx.config;
    const quietFor = performance.now() - this.link.lastReadAt;
    if (this.mode && quietFor >= enquireLinkMs) this.link.request('enquire_link');
    const wait = quietFor >= enquireLinkMs ? enquireLinkMs : enquireLinkMs - quietFor;
    this.timers.enquire = setTimeout(() => this.enquire(), wait);
  }

  private broken(err: Error): void {
    this.ctx.log.warn({ err: err.message, address: this.address }, 'SMPP protocol error');
    this.link.nack(0, STATUS.ESME_RINVCMDLEN);
    this.close('protocol error');
  }

  private closed(): void {
    this.gone = true;
    for (const t of Object.values(this.timers)) clearTimeout(t);
    for (const finish of [...this.answers]) finish(undefined);
    if (this.mode) this.ctx.onClosed(this);
    this.mode = undefined;
  }
}

/**
 * One SMPP connection over a TCP or TLS socket, with the lean codec: frames are cut straight
 * from the socket's chunks, requests get sequence numbers and their responses find their
 * callbacks, and every PDU written in one turn of the event loop leaves in one write (a window
 * of submits, or of receipt answers, costs one system call).
 */
import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import { isResponseId, responseOf, type CommandName } from './commands.js';
import { HEADER_BYTES, decodePdu, encodePdu, type Pdu } from './codec.js';
import { COMMAND_STATUS } from '../domain/smpp/tables.js';

/** SMPP 3.4 leaves the largest PDU open; 64 KiB of message_payload and its fields fit. */
export const MAX_PDU_BYTES = 64 * 1024 + 512;

/**
 * Output waiting in the socket past which nothing more is read from the peer until it drains:
 * a peer that sends but does not read (pipelined enquire_link, say) makes answers no faster than
 * it takes them, so what it costs the gateway stays bounded (docs/smpp-server.md).
 */
export const OUTPUT_HIGH_WATER = 512 * 1024;
/**
 * Output waiting past which the connection is dropped. With reading stopped only this end's own
 * requests (deliver_sm within a window, enquire_link) can add to it, so it is reached only by a
 * peer that has stopped reading altogether.
 */
export const OUTPUT_LIMIT = 4 * 1024 * 1024;

const { ESME_RINVCMDID } = COMMAND_STATUS;
const MAX_SEQUENCE = 0x7fffffff;

/** A command_length under the header's 16 octets or over the limit: the stream cannot be read on. */
export class PduLengthError extends Error {
  constructor(readonly length: number) {
    super(`PDU length ${length} is out of bounds (16 – ${MAX_PDU_BYTES})`);
  }
}

export interface PduSocketEvents {
  /** A request from the peer (responses go to their callbacks, or 'response' when none waits). */
  request: [Pdu];
  response: [Pdu];
  /** The peer sent bytes that are no PDU; nothing more is read from this connection. */
  malformed: [Error];
  /** Reading stopped (true) because the peer does not take what is written, or resumed. */
  backpressure: [boolean];
  error: [Error];
  close: [];
}

export class PduSocket extends EventEmitter<PduSocketEvents> {
  /** When the peer last sent anything (performance.now()): inactivity is measured from it. */
  lastReadAt = performance.now();
  private rest: Buffer | undefined;
  private broken = false;
  private sequence = 0;
  private readonly callbacks = new Map<number, (resp: Pdu) => void>();
  private out: Buffer[] = [];
  /** Reading stopped until the socket's output drains. */
  private held = false;

  constructor(
    readonly socket: Socket,
    private readonly maxPduBytes = MAX_PDU_BYTES,
  ) {
    super();
    socket.on('data', (chunk: Buffer) => this.read(chunk));
    socket.on('error', (err) => this.emit('error', err));
    socket.on('drain', () => this.release());
    socket.on('close', () => {
      // What the connection held goes with it.
      this.callbacks.clear();
      this.out = [];
      this.rest = undefined;
      this.emit('close');
    });
  }

  /**
   * Sends a request; `onResponse` gets its response (or a generic_nack with its sequence number).
   * Answers the sequence number, or undefined when the socket cannot be written to.
   */
  request(
    command: CommandName,
    fields: Record<string, unknown> = {},
    onResponse?: (resp: Pdu) => void,
  ): number | undefined {
    if (this.sequence >= MAX_SEQUENCE) this.sequence = 0;
    const sequence = ++this.sequence;
    if (!this.write(encodePdu({ ...fields, command, sequence_number: sequence }))) return undefined;
    if (onResponse) this.callbacks.set(sequence, onResponse);
    return sequence;
  }

  /** Drops the callback of a request whose answer is no longer awaited (it timed out). */
  forget(sequence: number): void {
    this.callbacks.delete(sequence);
  }

  /** Answers a request; one this codec does not know gets generic_nack ESME_RINVCMDID. */
  respond(to: Pdu, status = 0, fields: Record<string, unknown> = {}): boolean {
    const resp = to.command === 'unknown' ? undefined : responseOf(to.command_id);
    if (!resp) return this.nack(to.sequence_number, status || ESME_RINVCMDID);
    return this.write(
      encodePdu({
        ...fields,
        command: resp.name,
        command_status: status,
        sequence_number: to.sequence_number,
      }),
    );
  }

  nack(sequence: number, status: number): boolean {
    const pdu = {
      command: 'generic_nack' as const,
      command_status: status,
      sequence_number: sequence,
    };
    return this.write(encodePdu(pdu));
  }

  /** Sends what is queued, then closes the connection gracefully (FIN). */
  end(): void {
    this.flush();
    this.socket.end();
  }

  destroy(): void {
    this.out = [];
    this.socket.destroy();
  }

  private write(bytes: Buffer): boolean {
    if (!this.socket.writable) return false;
    this.out.push(bytes);
    if (this.out.length === 1) process.nextTick(() => this.flush());
    return true;
  }

  private flush(): void {
    const out = this.out;
    if (out.length === 0) return;
    this.out = [];
    if (!this.socket.writable) return;
    // Of length 1, so its first is there.
    this.socket.write(out.length === 1 ? (out[0] as Buffer) : Buffer.concat(out));
    this.watchOutput();
  }

  /** Stops reading while the peer leaves output waiting; drops a peer that takes none at all. */
  private watchOutput(): void {
    const waiting = this.socket.writableLength;
    if (waiting > OUTPUT_LIMIT) {
      this.emit('error', new Error(`the peer does not read: ${waiting} octets waiting`));
      this.destroy();
      return;
    }
    if (waiting > OUTPUT_HIGH_WATER && !this.held) {
      this.held = true;
      this.socket.pause();
      this.emit('backpressure', true);
    }
  }

  private release(): void {
    if (!this.held) return;
    this.held = false;
    this.socket.resume();
    this.emit('backpressure', false);
  }

  private read(chunk: Buffer): void {
    this.lastReadAt = performance.now();
    if (this.broken) return;
    const bytes = this.rest ? Buffer.concat([this.rest, chunk]) : chunk;
    let at = 0;
    while (bytes.length - at >= 4) {
      const length = bytes.readUInt32BE(at);
      if (length < HEADER_BYTES || length > this.maxPduBytes) {
        this.broken = true;
        this.rest = undefined;
        this.emit('malformed', new PduLengthError(length));
        return;
      }
      if (bytes.length - at < length) break;
      const pdu = decodePdu(bytes.subarray(at, at + length));
      at += length;
      this.dispatch(pdu);
    }
    this.rest = at === bytes.length ? undefined : bytes.subarray(at);
  }

  private dispatch(pdu: Pdu): void {
    if (!isResponseId(pdu.command_id)) {
      this.emit('request', pdu);
      return;
    }
    const callback = this.callbacks.get(pdu.sequence_number);
    if (!callback) {
      this.emit('response', pdu);
      return;
    }
    this.callbacks.delete(pdu.sequence_number);
    callback(pdu);
  }
}

/**
 * A raw-socket ESME for the SMPP server's hostile-client tests: PDUs written octet by octet (so a
 * test can send what no library would: a lying length, a field cut short) and the answers read
 * back as headers and bodies. Nothing of the gateway's codec is used on this side.
 */
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';

export interface RawAnswer {
  commandId: number;
  status: number;
  sequence: number;
  body: Buffer;
}

/** Command ids of SMPP 3.4 §5.1.2 the tests send. */
export const CMD = {
  bind_transmitter: 0x02,
  bind_receiver: 0x01,
  bind_transceiver: 0x09,
  submit_sm: 0x04,
  enquire_link: 0x15,
  unbind: 0x06,
} as const;

export const cstr = (s: string): Buffer => Buffer.concat([Buffer.from(s, 'latin1'), Buffer.of(0)]);

/** A PDU: its header with command_length counted from the body given. */
export function rawPdu(commandId: number, sequence: number, body: Buffer = Buffer.alloc(0)) {
  const header = Buffer.alloc(16);
  header.writeUInt32BE(16 + body.length, 0);
  header.writeUInt32BE(commandId, 4);
  header.writeUInt32BE(0, 8);
  header.writeUInt32BE(sequence, 12);
  return Buffer.concat([header, body]);
}

/** A bind's body (§4.1.1): system_id, password, system_type, version 0x34, ton, npi, range. */
export function bindBody(systemId: string, password: string): Buffer {
  return Buffer.concat([cstr(systemId), cstr(password), cstr(''), Buffer.of(0x34, 0, 0), cstr('')]);
}

/**
 * submit_sm's fields up to and including data_coding and sm_default_msg_id (§4.4.1), to an
 * international number; the test appends sm_length, the short_message and any TLVs itself.
 */
export function submitHead(destination: string, registeredDelivery = 0): Buffer {
  return Buffer.concat([
    cstr(''), // service_type
    Buffer.of(5, 0),
    cstr(''), // source_addr
    Buffer.of(1, 1),
    cstr(destination),
    Buffer.of(0, 0, 0), // esm_class, protocol_id, priority_flag
    cstr(''), // schedule_delivery_time
    cstr(''), // validity_period
    Buffer.of(registeredDelivery, 0, 0, 0), // registered_delivery, replace, data_coding, default id
  ]);
}

export class RawEsme {
  private pending = Buffer.alloc(0);
  private readonly answers: RawAnswer[] = [];
  private waiting: ((a: RawAnswer) => void) | undefined;
  readonly closed: Promise<void>;

  private constructor(readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => this.read(chunk));
    socket.on('error', () => undefined);
    this.closed = new Promise((resolve) => socket.on('close', () => resolve()));
  }

  /** `from`: the loopback address to connect from (127.0.0.0/8), as if from another host. */
  static async connect(address: string, from?: string): Promise<RawEsme> {
    const port = Number(address.split(':').pop());
    const socket = connect({ port, host: '127.0.0.1', ...(from ? { localAddress: from } : {}) });
    await once(socket, 'connect');
    return new RawEsme(socket);
  }

  send(bytes: Buffer): void {
    this.socket.write(bytes);
  }

  /** The next PDU from the server, in order; fails when the connection closes first. */
  next(): Promise<RawAnswer> {
    const first = this.answers.shift();
    if (first) return Promise.resolve(first);
    return new Promise((resolve, reject) => {
      this.waiting = resolve;
      void this.closed.then(() => reject(new Error('the connection closed before an answer')));
    });
  }

  /** Sends a request and answers the next PDU, which must be its response. */
  async call(commandId: number, sequence: number, body?: Buffer): Promise<RawAnswer> {
    this.send(rawPdu(commandId, sequence, body));
    const answer = await this.next();
    if (answer.sequence !== sequence)
      throw new Error(`answer to ${answer.sequence}, not ${sequence}`);
    return answer;
  }

  close(): void {
    this.socket.destroy();
  }

  private read(chunk: Buffer): void {
    this.pending = Buffer.concat([this.pending, chunk]);
    while (this.pending.length >= 16 && this.pending.length >= this.pending.readUInt32BE(0)) {
      const length = this.pending.readUInt32BE(0);
      const a: RawAnswer = {
        commandId: this.pending.readUInt32BE(4),
        status: this.pending.readUInt32BE(8),
        sequence: this.pending.readUInt32BE(12),
        body: this.pending.subarray(16, length),
      };
      this.pending = this.pending.subarray(length);
      const waiting = this.waiting;
      this.waiting = undefined;
      if (waiting) waiting(a);
      else this.answers.push(a);
    }
  }
}

/**
 * A second SMPP 3.4 implementation, written from the specification for the tests alone, so the
 * gateway is not only ever checked against the `smpp` package it is built on. It frames PDUs
 * itself and keeps every submit_sm as the bytes that came over the wire.
 */
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';

export const CMD = {
  bind_receiver: 0x01,
  bind_transmitter: 0x02,
  submit_sm: 0x04,
  deliver_sm: 0x05,
  unbind: 0x06,
  bind_transceiver: 0x09,
  enquire_link: 0x15,
  generic_nack: 0x80000000,
} as const;
const RESP = 0x80000000;

/** A submit_sm as received, field by field (SMPP 3.4 §4.4.1). */
export interface RawSubmit {
  serviceType: string;
  sourceTon: number;
  sourceNpi: number;
  sourceAddr: string;
  destTon: number;
  destNpi: number;
  destAddr: string;
  esmClass: number;
  /** As sent: '' when not set. */
  validityPeriod: string;
  registeredDelivery: number;
  dataCoding: number;
  shortMessage: Buffer;
  tlvs: Map<number, Buffer>;
}

/** What the SMSC answers a submit_sm: a command_status and, when 0, a message id. */
export type SubmitAnswer = { status: number; messageId?: string; beforeAnswer?: () => void };

export class RawSmsc {
  readonly submits: RawSubmit[] = [];
  readonly deliverAnswers: number[] = [];
  /** Binds accepted and enquire_link received, over all connections. */
  binds = 0;
  enquireLinks = 0;
  /** Whether enquire_link is answered (a dead link when false). */
  answerEnquireLink = true;
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private seq = 1;
  private next = 0xabc00;

  constructor(
    /** Decides the answer to each submit_sm; by default accepts with a hex id. */
    public answer: (s: RawSubmit) => SubmitAnswer = () => ({
      status: 0,
      messageId: (this.next++).toString(16).toUpperCase(),
    }),
  ) {}

  async start(): Promise<number> {
    const server = createServer((socket) => this.accept(socket));
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  /** Sends a deliver_sm on every bound connection (tests use one). */
  deliver(fields: { esmClass: number; shortMessage: Buffer; tlvs?: [number, Buffer][] }): void {
    const body = Buffer.concat([
      cstr(''),
      Buffer.from([1, 1]),
      cstr('8613800000000'),
      Buffer.from([1, 1]),
      cstr('WIREBIRD'),
      Buffer.from([fields.esmClass, 0, 0]),
      cstr(''),
      cstr(''),
      Buffer.from([0, 0, 0, 0, fields.shortMessage.length]),
      fields.shortMessage,
      ...(fields.tlvs ?? []).map(([tag, value]) => tlv(tag, value)),
    ]);
    for (const s of this.sockets) s.write(pdu(CMD.deliver_sm, 0, this.seq++, body));
  }

  private accept(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let buffered = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      buffered = Buffer.concat([buffered, chunk]);
      while (buffered.length >= 16 && buffered.length >= buffered.readUInt32BE(0)) {
        const length = buffered.readUInt32BE(0);
        this.handle(socket, buffered.subarray(0, length));
        buffered = buffered.subarray(length);
      }
    });
  }

  private handle(socket: Socket, frame: Buffer): void {
    const id = frame.readUInt32BE(4);
    const seq = frame.readUInt32BE(12);
    const body = frame.subarray(16);
    switch (id) {
      case CMD.bind_transceiver:
      case CMD.bind_transmitter:
      case CMD.bind_receiver:
        this.binds++;
        return void socket.write(pdu(id | RESP, 0, seq, cstr('raw-smsc')));
      case CMD.enquire_link:
        this.enquireLinks++;
        if (this.answerEnquireLink) socket.write(pdu(id | RESP, 0, seq, Buffer.alloc(0)));
        return;
      case CMD.unbind:
        return void socket.write(pdu(id | RESP, 0, seq, Buffer.alloc(0)));
      case CMD.submit_sm: {
        this.submit(socket, seq, body);
        return;
      }
      case (CMD.deliver_sm | RESP) >>> 0:
        this.deliverAnswers.push(frame.readUInt32BE(8));
        return;
      default:
        if (!(id & RESP)) socket.write(pdu(CMD.generic_nack, 0x03, seq, Buffer.alloc(0)));
    }
  }

  private submit(socket: Socket, seq: number, body: Buffer): void {
    const s = parseSubmit(body);
    this.submits.push(s);
    const a = this.answer(s);
    a.beforeAnswer?.();
    const idField = a.status === 0 ? cstr(a.messageId ?? '') : Buffer.alloc(0);
    socket.write(pdu(CMD.submit_sm | RESP, a.status, seq, idField));
  }
}

export function parseSubmit(body: Buffer): RawSubmit {
  let at = 0;
  const str = () => {
    const end = body.indexOf(0, at);
    const v = body.subarray(at, end).toString('latin1');
    at = end + 1;
    return v;
  };
  const byte = () => body[at++] as number;
  const serviceType = str();
  const [sourceTon, sourceNpi, sourceAddr] = [byte(), byte(), str()];
  const [destTon, destNpi, destAddr] = [byte(), byte(), str()];
  const esmClass = byte();
  at += 2; // protocol_id, priority_flag
  str(); // schedule_delivery_time
  const validityPeriod = str();
  const registeredDelivery = byte();
  at += 1; // replace_if_present_flag
  const dataCoding = byte();
  at += 1; // sm_default_msg_id
  const smLength = byte();
  const shortMessage = body.subarray(at, at + smLength);
  at += smLength;
  const tlvs = new Map<number, Buffer>();
  while (at + 4 <= body.length) {
    const tag = body.readUInt16BE(at);
    const len = body.readUInt16BE(at + 2);
    tlvs.set(tag, body.subarray(at + 4, at + 4 + len));
    at += 4 + len;
  }
  return {
    serviceType,
    sourceTon,
    sourceNpi,
    sourceAddr,
    destTon,
    destNpi,
    destAddr,
    esmClass,
    validityPeriod,
    registeredDelivery,
    dataCoding,
    shortMessage,
    tlvs,
  };
}

export function cstr(s: string): Buffer {
  return Buffer.concat([Buffer.from(s, 'latin1'), Buffer.from([0])]);
}

export function tlv(tag: number, value: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt16BE(tag, 0);
  head.writeUInt16BE(value.length, 2);
  return Buffer.concat([head, value]);
}

function pdu(id: number, status: number, seq: number, body: Buffer): Buffer {
  const head = Buffer.alloc(16);
  head.writeUInt32BE(16 + body.length, 0);
  head.writeUInt32BE(id >>> 0, 4);
  head.writeUInt32BE(status, 8);
  head.writeUInt32BE(seq, 12);
  return Buffer.concat([head, body]);
}

/** The part of the untyped `smpp` package (0.5.x) Wirebird uses. */
declare module 'smpp' {
  import { EventEmitter } from 'node:events';
  import type { Server as NetServer, Socket } from 'node:net';

  export type PduFields = Record<string, unknown>;

  export class PDU {
    constructor(command: string, options?: PduFields);
    /** Reads a whole PDU from its bytes. */
    constructor(bytes: Buffer);
    command: string;
    command_id: number;
    command_status: number;
    sequence_number: number;
    [field: string]: unknown;
    isResponse(): boolean;
    response(options?: PduFields): PDU;
    toBuffer(): Buffer;
    /** The largest command_length read; larger PDUs are a stream error (16384 by default). */
    static maxLength: number;
  }

  export interface SessionOptions {
    url?: string;
    host?: string;
    port?: number;
    auto_enquire_link_period?: number;
    /** SMPP over TLS (tls.connect takes the rest of the options, rejectUnauthorized, ca…). */
    tls?: boolean;
    rejectUnauthorized?: boolean;
  }

  export class Session extends EventEmitter {
    socket: Socket;
    send(pdu: PDU, responseCallback?: (resp: PDU) => void): boolean;
    pause(): void;
    resume(): void;
    close(callback?: () => void): void;
    destroy(callback?: () => void): void;
  }

  export class Server extends NetServer {
    sessions: Session[];
  }

  export function connect(options: SessionOptions, listener?: () => void): Session;
  export function createServer(listener: (session: Session) => void): Server;
  /** With `key` and `cert`, a TLS server (tls.createServer's options). */
  export function createServer(
    options: { key: Buffer; cert: Buffer },
    listener: (session: Session) => void,
  ): Server;
  export const errors: Record<string, number>;
  /** The package's command definitions, keyed by command name (defs.js); a command without a
   * body (enquire_link, unbind, generic_nack, most error-free responses) has no params. */
  export const commands: Record<
    string,
    { params?: Record<string, { type: unknown; filter?: unknown }> }
  >;
  /** The package's optional parameters, keyed by name (defs.js). */
  export const tlvs: Record<string, { id: number; type: unknown; filter?: unknown }>;
  /** The package's field types (defs.js). */
  export const types: { buffer: unknown };
}

/** An ESME for tests of the SMPP server face: the `smpp` npm package as client, nobody's code here. */
import smpp, { type PDU, type PduFields, type Session } from 'smpp';
import './raw-deliver.js';

export class Esme {
  readonly closed: Promise<void>;
  private constructor(readonly session: Session) {
    this.closed = new Promise((resolve) => session.on('close', () => resolve()));
    session.on('error', () => undefined);
  }

  /** With `tls`, over TLS, trusting the server's (self-signed, in tests) certificate. */
  static async connect(address: string, tls = false): Promise<Esme> {
    const [host, port] = [address.slice(0, address.lastIndexOf(':')), address.split(':').pop()];
    const options = {
      host,
      port: Number(port),
      ...(tls ? { tls, rejectUnauthorized: false } : {}),
    };
    return new Promise((resolve, reject) => {
      const session = smpp.connect(options, () => resolve(new Esme(session)));
      session.once('error', reject);
    });
  }

  /** Sends a request and answers its response; fails when the connection closes first. */
  request(command: string, fields: PduFields = {}): Promise<PDU> {
    return new Promise((resolve, reject) => {
      this.session.send(new smpp.PDU(command, fields), resolve);
      void this.closed.then(() =>
        reject(new Error(`the connection closed before ${command}_resp`)),
      );
    });
  }

  bind(systemId: string, password: string, mode = 'transceiver'): Promise<PDU> {
    return this.request(`bind_${mode}`, { system_id: systemId, password });
  }

  submit(fields: PduFields): Promise<PDU> {
    return this.request('submit_sm', {
      source_addr_ton: 5,
      source_addr: '',
      dest_addr_ton: 1,
      dest_addr_npi: 1,
      ...fields,
    });
  }

  close(): void {
    this.session.destroy();
  }
}

export const status = (name: string): number => smpp.errors[name] as number;

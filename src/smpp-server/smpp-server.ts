/**
 * Wirebird's SMPP server face (docs/smpp-server.md): ESMEs — applications, aggregators, other
 * gateways — bind to it as to an SMSC and submit over SMPP 3.4, into the same store, queue and
 * channels as the HTTP API.
 */
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import type { Logger } from 'pino';
import { listenAddress, type SmppServerConfig } from '../config/smpp-server-config.js';
import type {
  ApiKeyStore,
  Scheduler,
  SmppCredentialStore,
  Store,
  WebhookStore,
} from '../domain/ports.js';
import { credentialHash, keyState } from '../domain/keys/key-record.js';
import { PduSocket } from '../smpp-wire/pdu-socket.js';
import { querySubmit } from './query.js';
import { cancelSubmit } from './cancel.js';
import { replaceSubmit } from './replace.js';
import { ReceiptDeliverer } from './receipt-deliverer.js';
import { smppAccountEndpointId, smppEndpointId } from '../domain/smpp-server/receipt-endpoint.js';
import { BindAuth, type BindRefusal } from './bind-auth.js';
import { EsmeConnection } from './esme-connection.js';
import { acceptSubmit, type SubmitDeps } from './submit.js';
import { errorText } from '../util/unknown-values.js';

export interface SmppServerOptions {
  config: SmppServerConfig & { listen: string };
  store: Pick<SmppCredentialStore, 'getSmppCredential'> &
    Pick<ApiKeyStore, 'apiKeyByHash'> &
    Pick<WebhookStore, 'claimDeliveries' | 'recordDeliveries'> &
    Pick<Store, 'sessionView' | 'cancelQueued'>;
  submit: SubmitDeps;
  scheduler: Scheduler;
  log: Logger;
  /** Told which credentials are in use (a bind, and every second it stays open). */
  keyUsage?: { note(keyId: string, at: number): void };
  /** Metrics: each answer to a request, and the binds open after each change. */
  observe?: {
    answer: (command: string, status: number) => void;
    binds(open: number): void;
    /** An address refused for a while after too many failed binds. */
    lockout(): void;
    /** A bind refused without its password check, for want of room (bind-auth.ts). */
    bindRefused?(why: BindRefusal): void;
  };
}

/**
 * How often the credentials of open binds are read again: a revoked, expired or deleted one has
 * its binds ended within this bound, on every node (docs/security.md).
 */
export const CREDENTIAL_RECHECK_MS = 1000;

/** How often receipts waiting for this node's binds are looked for (a bind or a resp nudges). */
const RECEIPT_POLL_MS = 500;

export class SmppServer {
  private server: Server | undefined;
  /** Open binds per system_id on this node. */
  private readonly binds = new Map<string, Set<EsmeConnection>>();
  private readonly connections = new Set<EsmeConnection>();
  private readonly auth: BindAuth;
  private readonly receipts: ReceiptDeliverer;
  private recheck: NodeJS.Timeout | undefined;

  constructor(private readonly o: SmppServerOptions) {
    this.auth = new BindAuth({
      store: o.store,
      now: () => o.submit.clock.now(),
      bindsOf: (systemId) => this.binds.get(systemId)?.size ?? 0,
      onRefused: (why) => o.observe?.bindRefused?.(why),
      onLockout: (address) => {
        o.observe?.lockout();
        o.log.warn(
          { address, face: 'smpp' },
          'too many failed binds: the address is refused for a while',
        );
      },
    });
    this.receipts = new ReceiptDeliverer({
      store: o.store,
      binds: () => this.receivingBinds(),
      clock: o.submit.clock,
      scheduler: o.scheduler,
      log: o.log,
      pollMs: RECEIPT_POLL_MS,
      responseTimeoutMs: o.config.responseTimeoutMs,
      expiryMs: o.config.receiptExpiryMs,
    });
  }

  /** Listens; answers the address it listens on (`host:port`, the port chosen when 0). */
  async start(): Promise<string> {
    const tls = this.tlsFiles();
    const accept = (socket: Socket) => this.accept(new PduSocket(socket));
    const server = tls ? createTlsServer(tls, accept) : createServer(accept);
    server.maxConnections = this.o.config.maxConnections;
    this.server = server;
    const { host, port } = listenAddress(this.o.config.listen);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    this.receipts.start();
    this.recheck = setInterval(() => void this.recheckCredentials(), CREDENTIAL_RECHECK_MS);
    this.recheck.unref();
    // A TCP server that is listening has an AddressInfo (not a pipe name).
    const address = server.address() as AddressInfo;
    this.o.log.info({ host, port: address.port }, 'SMPP server listening');
    return `${host}:${address.port}`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    clearInterval(this.recheck);
    await this.receipts.stop();
    for (const s of this.connections) s.close('the gateway is stopping');
    await new Promise<void>((resolve) => server.close(() => resolve()));
    for (const s of this.connections) s.link.destroy();
    this.server = undefined;
  }

  /** The certificate and key to speak TLS with, when both are configured. */
  private tlsFiles(): { cert: Buffer; key: Buffer } | undefined {
    const { tlsCertFile, tlsKeyFile } = this.o.config;
    if (!tlsCertFile || !tlsKeyFile) return undefined;
    try {
      return { cert: readFileSync(tlsCertFile), key: readFileSync(tlsKeyFile) };
    } catch (err) {
      throw new Error(`smppServer.tlsCertFile / tlsKeyFile cannot be read: ${errorText(err)}`);
    }
  }

  /** Ends the binds whose credential is no longer active; notes the use of those that are. */
  private async recheckCredentials(): Promise<void> {
    const now = this.o.submit.clock.now();
    for (const [systemId, set] of this.binds) {
      if (set.size === 0) continue;
      const record = await this.o.store
        .apiKeyByHash(credentialHash('smpp', systemId))
        .catch(() => 'unknown' as const);
      if (record === 'unknown') continue; // the store is away: keep the binds, read again later
      const state = record ? keyState(record, now) : 'deleted';
      if (state === 'active' && record) {
        this.o.keyUsage?.note(record.keyId, now);
        continue;
      }
      for (const s of set) s.end(`credential ${state}`);
    }
  }

  /** Binds open now, by system_id (the console, metrics and tests read it). */
  bindCounts(): Map<string, number> {
    return new Map([...this.binds].map(([id, set]) => [id, set.size]));
  }

  /**
   * The binds that take deliver_sm, by the outbox endpoint they serve: a system_id's receipts
   * go to its own binds, an account's replies to any of the account's.
   */
  private receivingBinds(): Map<string, EsmeConnection[]> {
    const out = new Map<string, EsmeConnection[]>();
    const add = (endpointId: string, s: EsmeConnection) =>
      out.set(endpointId, [...(out.get(endpointId) ?? []), s]);
    for (const [systemId, set] of this.binds) {
      for (const s of set) {
        if (!s.receives || !s.credential || !s.live) continue;
        add(smppEndpointId(systemId), s);
        add(smppAccountEndpointId(s.credential.accountId), s);
      }
    }
    return out;
  }

  private accept(link: PduSocket): void {
    const esme = new EsmeConnection(link, {
      config: this.o.config,
      auth: this.auth,
      submit: (esme, pdu, multi) => acceptSubmit(this.o.submit, esme, pdu, multi),
      query: (esme, pdu) => querySubmit(this.o.store, esme.accountId, pdu),
      cancel: (esme, pdu) => cancelSubmit(this.o.submit, esme.accountId, pdu),
      replace: (esme, pdu) => replaceSubmit(this.o.submit, esme, pdu),
      onBound: (s, keyId) => {
        this.o.keyUsage?.note(keyId, this.o.submit.clock.now());
        this.registry(s).add(s);
        this.o.observe?.binds(this.openBinds());
        if (s.receives) this.receipts.nudge();
      },
      onClosed: (s) => {
        this.registry(s).delete(s);
        this.o.observe?.binds(this.openBinds());
      },
      ...(this.o.observe ? { onAnswer: this.o.observe.answer } : {}),
      log: this.o.log,
    });
    this.connections.add(esme);
    link.on('close', () => this.connections.delete(esme));
  }

  private openBinds(): number {
    let n = 0;
    for (const set of this.binds.values()) n += set.size;
    return n;
  }

  private registry(s: EsmeConnection): Set<EsmeConnection> {
    const systemId = s.credential?.systemId ?? '';
    let set = this.binds.get(systemId);
    if (!set) {
      set = new Set();
      this.binds.set(systemId, set);
    }
    return set;
  }
}

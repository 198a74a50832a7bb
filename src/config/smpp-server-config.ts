import { Type, type Static } from '@sinclair/typebox';

/** Wirebird's own SMPP server, which ESMEs bind to (docs/smpp-server.md); off until `listen`. */
export const SmppServerSchema = Type.Object(
  {
    /** `host:port` (WIREBIRD_SMPP_LISTEN); 2775 is SMPP's registered port. */
    listen: Type.Optional(Type.String({ pattern: '^.+:[0-9]{1,5}$' })),
    /** PEM files: with both, the server speaks SMPP over TLS on `listen` (and only TLS). */
    tlsCertFile: Type.Optional(Type.String({ minLength: 1 })),
    tlsKeyFile: Type.Optional(Type.String({ minLength: 1 })),
    /** Connections open at once; more are refused at accept (a client cannot exhaust the node). */
    maxConnections: Type.Integer({ minimum: 1, default: 1000 }),
    /** A connection that has not bound by then is closed. */
    bindTimeoutMs: Type.Integer({ minimum: 100, default: 10_000 }),
    /** A bind that sends nothing for this long is closed (enquire_link counts). */
    inactivityMs: Type.Integer({ minimum: 1000, default: 120_000 }),
    /** How often an idle bind is sent enquire_link. */
    enquireLinkMs: Type.Integer({ minimum: 1000, default: 30_000 }),
    /** How long a deliver_sm waits for its resp before it is sent again. */
    responseTimeoutMs: Type.Integer({ minimum: 100, default: 10_000 }),
    /** A receipt no bind took within this long is given up. */
    receiptExpiryMs: Type.Integer({ minimum: 1000, default: 2 * 86_400_000 }),
    /** Credentials seeded at start (WIREBIRD_SMPP_ESMES=accountId:systemId:password,…). */
    esmes: Type.Array(
      Type.Object({
        accountId: Type.Integer({ minimum: 1 }),
        systemId: Type.String({ minLength: 1 }),
        password: Type.String({ minLength: 1 }),
        /** The credential's limits (docs/smpp-server.md); their defaults when not given. */
        maxBinds: Type.Optional(Type.Integer()),
        maxTps: Type.Optional(Type.Integer()),
        window: Type.Optional(Type.Integer()),
      }),
      { default: [] },
    ),
  },
  { default: {}, additionalProperties: false },
);
export type SmppServerConfig = Static<typeof SmppServerSchema>;

/** `host:port` as the server listens: an IPv6 host in brackets, `[::1]:2775`. */
export function listenAddress(listen: string): { host: string; port: number } {
  const i = listen.lastIndexOf(':');
  const host = listen.slice(0, i).replace(/^\[(.*)\]$/, '$1');
  return { host, port: Number(listen.slice(i + 1)) };
}

export function parseEsmes(
  v: string,
  fail: (m: string) => Error,
): { accountId: number; systemId: string; password: string }[] {
  return v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((triple) => {
      const [accountId, systemId, password, ...rest] = triple.split(':');
      if (!accountId || !/^\d+$/.test(accountId) || !systemId || !password || rest.length > 0) {
        throw fail(
          'WIREBIRD_SMPP_ESMES takes comma-separated AccountId:system_id:password triples',
        );
      }
      return { accountId: Number(accountId), systemId, password };
    });
}

import type { FastifyRequest } from 'fastify';
import { audit, type AuditFact } from '../core/audit.js';
import type { ChannelStatus } from '../channels/channel.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { InboundSink } from '../dispatch/inbound-sink.js';
import { WirebirdError, invalid } from '../domain/errors.js';
import type { Clock, Store } from '../domain/ports.js';
import type { EventsDeps } from '../outbox/start-events.js';
import type { MetricsHistory } from '../metrics/history.js';
import type { Viewer } from './console-session.js';
import type { InboxFeed } from './inbox-feed.js';
import type { PageContext } from './layout.js';

export interface ConsoleDeps {
  store: Store;
  clock: Clock;
  adminKey: string;
  defaultRegion: string;
  feed: InboxFeed;
  history: MetricsHistory;
  channels: () => ChannelStatus[];
  /** Seals the private keys of the key pairs the Keys page creates. */
  box: SecretBox;
  /** Where a test phone's reply typed in the Inbox goes, as a network's would. */
  inbound: Pick<InboundSink, 'receive'>;
  /** What the Webhooks page manages endpoints with (the same as the webhook Actions). */
  webhooks: EventsDeps;
  /** How long a rotated-out webhook secret still signs. */
  secretGraceMs: number;
  newEndpointId: () => string;
  /** The SMPP server's binds open on this node, by system_id; absent when the server is off. */
  smppBinds?: () => ReadonlyMap<string, number>;
}

export type ConsoleContext = ConsoleDeps;

/** What the auth hook established for a request: who is logged in, and a CSRF token for its forms. */
export interface ConsoleSession {
  viewer: Viewer;
  csrf: string;
}

const sessions = new WeakMap<FastifyRequest, ConsoleSession>();

export function attachSession(request: FastifyRequest, session: ConsoleSession): void {
  sessions.set(request, session);
}

/** The session the auth hook attached; every page route runs after that hook. */
export function sessionOf(request: FastifyRequest): ConsoleSession {
  const s = sessions.get(request);
  if (!s) throw new Error('console route reached without a session');
  return s;
}

export function pageContext(_ctx: ConsoleContext, request: FastifyRequest): PageContext {
  const { viewer, csrf } = sessionOf(request);
  return { viewer, csrf };
}

/** The account a viewer is limited to; undefined for the admin, who sees every account. */
export function accountScope(request: FastifyRequest): number | undefined {
  const { viewer } = sessionOf(request);
  return viewer.role === 'account' ? viewer.accountId : undefined;
}

/** Refuses a change only the admin makes (a page an account only reads). */
export function adminOnly(request: FastifyRequest, what = 'does that'): void {
  if (sessionOf(request).viewer.role !== 'admin') {
    throw new WirebirdError('PermissionDenied', `only the admin ${what}`);
  }
}

/** The account the page is about: the viewer's own, or for the admin the one asked (1 by default). */
export function accountOf(
  request: FastifyRequest,
  from: Record<string, unknown> | undefined,
): number {
  const own = accountScope(request);
  if (own !== undefined) return own;
  const given = from?.account;
  const raw = (typeof given === 'string' ? given : '1').trim();
  const n = /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) throw invalid('account', 'must be a positive integer');
  return n;
}

/** Records a change made in the console: by `console:admin`, or `console:<KeyId>` of an account. */
export async function consoleAudit(
  ctx: ConsoleContext,
  request: FastifyRequest,
  fact: AuditFact & { accountId: number | undefined },
): Promise<void> {
  const { viewer } = sessionOf(request);
  const actor = viewer.role === 'admin' ? 'console:admin' : `console:${viewer.keyId}`;
  await audit(ctx, { actor }, fact);
}

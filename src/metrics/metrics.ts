import { countRoutes } from '../domain/messages/route-counts.js';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Channel } from '../channels/channel.js';
import type { DispatchObserver } from '../dispatch/dispatcher.js';
import type { ReportObserver } from '../dispatch/report-sink.js';
import type { SubmitOutcome } from '../domain/messages/message.js';
import type { Clock, OperatorStore, WebhookStore } from '../domain/ports.js';
import { receiptResultOf } from '../domain/receipts/receipt.js';
import type { Report } from '../domain/messages/message.js';

const STATES = {
  channel: ['up', 'degraded', 'down', 'off'],
  bind: ['connecting', 'bound', 'down'],
};

/**
 * The gateway's Prometheus metrics (docs/metrics.md). One registry per gateway, not prom-client's
 * global one, so that several gateways in one process (the tests) keep their own counts.
 */
export class Metrics implements DispatchObserver, ReportObserver {
  readonly registry = new Registry();
  readonly requests: Counter<'action' | 'ret_code'>;
  readonly accepted: Counter<'kind' | 'channel'>;
  readonly submitted: Counter<'channel'>;
  readonly retried: Counter<'channel'>;
  readonly final: Counter<'channel' | 'result'>;
  readonly reports: Counter<'channel' | 'upstream' | 'status'>;
  readonly submitSeconds: Histogram<'channel'>;
  readonly webhookSignatureFailures: Counter<'channel'>;
  /** Inbound messages stored (each once), by channel and whether an account owns them. */
  readonly inbound: Counter<'channel' | 'routed'>;
  readonly inboundMedia: Counter<'outcome'>;
  readonly smppRequests: Counter<'command' | 'status'>;
  readonly smppBinds: Gauge;
  /** Binds refused for want of room to check them, by reason (docs/smpp-server.md). */
  readonly smppBindRefusals = new Counter<'reason'>({
    name: 'wirebird_smpp_server_bind_refusals_total',
    help: 'SMPP binds refused without a password check: busy (the queue was full), address_busy, or timeout',
    labelNames: ['reason'],
    registers: [this.registry],
  });
  /** Acceptance threads running (SQLite; they start with the first SendBatchUSMSMessage). */
  readonly acceptThreads = new Gauge({
    name: 'wirebird_accept_threads',
    help: 'acceptance threads running; they start with the first SendBatchUSMSMessage',
    registers: [this.registry],
  });
  /** Webhook attempts by outcome: delivered, retry (due again), failed (for good), gone (410). */
  readonly webhookAttempts: Counter<'outcome'>;
  readonly webhookSeconds: Histogram;
  /** Failed authentications and lockouts of a source address, by face (docs/security.md). */
  readonly authFailures: Counter<'face'>;
  readonly authLockouts: Counter<'face'>;
  /** Business messages' SMS fallbacks settled, by state (sent, failed, unneeded). */
  readonly fallbacks: Counter<'state'>;
  private readonly policyRefusals: Counter<'rule' | 'account'>;
  /** Held messages that expired (ValidityPeriod) before they were handed upstream. */
  readonly expired: Counter;

  constructor(
    private readonly store: Pick<OperatorStore, 'queueStats'> & Pick<WebhookStore, 'outboxStats'>,
    private readonly clock: Clock,
    /** Read at scrape time for channel and bind states. */
    private readonly channels: ReadonlyMap<string, Channel> = new Map(),
  ) {
    const registers = [this.registry];
    const counter = <L extends string>(name: string, help: string, labelNames: L[]) =>
      new Counter<L>({ name, help, labelNames, registers });
    this.requests = counter(
      'wirebird_requests_total',
      'POST /api requests answered, by Action and RetCode',
      ['action', 'ret_code'],
    );
    this.accepted = counter('wirebird_messages_accepted_total', 'messages committed to the store', [
      'kind',
      'channel',
    ]);
    this.submitted = counter(
      'wirebird_messages_submitted_total',
      'messages a channel accepted for delivery',
      ['channel'],
    );
    this.retried = counter(
      'wirebird_messages_retried_total',
      'submissions that failed and will be retried',
      ['channel'],
    );
    this.final = counter('wirebird_messages_final_total', 'messages that reached a final receipt', [
      'channel',
      'result',
    ]);
    this.reports = counter('wirebird_reports_total', 'upstream reports received, by status', [
      'channel',
      'upstream',
      'status',
    ]);
    [this.webhookSignatureFailures, this.smppRequests, this.smppBinds] = faceMetrics(
      counter,
      registers,
    );
    [this.inboundMedia, this.inbound] = inboundMetrics(counter);
    this.submitSeconds = new Histogram({
      name: 'wirebird_submit_duration_seconds',
      help: 'how long a channel took to answer one submission call (a window of messages)',
      labelNames: ['channel'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    [this.authFailures, this.authLockouts] = authMetrics(counter);
    [this.fallbacks, this.expired, this.policyRefusals] = timeMetrics(counter);
    const events = eventMetrics(registers, store, clock);
    this.webhookAttempts = events.attempts;
    this.webhookSeconds = events.seconds;
    this.scrapeTimeGauges(registers);
    collectDefaultMetrics({ register: this.registry, prefix: 'wirebird_' });
  }

  /** What the auth guards (HTTP and SMPP) tell the metrics. */
  readonly auth = {
    failed: (face: string) => this.authFailures.inc({ face }),
    lockout: (face: string) => this.authLockouts.inc({ face }),
  };

  private scrapeTimeGauges(registers: Registry[]): void {
    const { store, clock } = this;
    queueGauges(registers, store, clock);
    const channels = () => this.channels.values();
    new Gauge({
      name: 'wirebird_channel_state',
      help: '1 for the state each channel is in',
      labelNames: ['channel', 'state'],
      registers,
      collect() {
        this.reset();
        for (const c of channels()) {
          const s = c.status();
          for (const state of STATES.channel)
            this.set({ channel: s.name, state }, s.state === state ? 1 : 0);
        }
      },
    });
    new Gauge({
      name: 'wirebird_bind_state',
      help: '1 for the state each upstream bind is in',
      labelNames: ['channel', 'upstream', 'bind', 'state'],
      registers,
      collect() {
        this.reset();
        for (const c of channels()) {
          const s = c.status();
          for (const b of s.binds)
            for (const state of STATES.bind)
              this.set(
                { channel: s.name, upstream: b.upstream, bind: b.bind, state },
                b.state === state ? 1 : 0,
              );
        }
      },
    });
  }

  /** One answered /api request; an Action name nobody defined is counted as "unknown". */
  request(action: string, retCode: string): void {
    this.requests.inc({ action, ret_code: retCode });
  }

  messagesAccepted(kind: 'sms' | 'business', routes: readonly string[]): void {
    for (const [channel, n] of countRoutes(routes)) this.acceptedOn(kind, channel, n);
  }

  /** Numbers the account's policy refused, by rule. */
  policyRefused(accountId: number, rule: string, count: number): void {
    this.policyRefusals.inc({ rule, account: String(accountId) }, count);
  }

  /** Messages stored by another thread, counted there per channel. */
  acceptedOn(kind: 'sms' | 'business', channel: string, count: number): void {
    this.accepted.inc({ kind, channel }, count);
  }

  submittedWindow(channel: string, seconds: number, outcomes: readonly SubmitOutcome[]): void {
    this.submitSeconds.observe({ channel }, seconds);
    for (const o of outcomes) {
      if (o.kind === 'submitted') this.submitted.inc({ channel });
      else if (o.kind === 'retry') this.retried.inc({ channel });
      else this.final.inc({ channel, result: 'SubmitFail' });
    }
  }

  reportsApplied(reports: readonly Report[]): void {
    for (const r of reports) {
      this.reports.inc({ channel: r.route, upstream: r.upstream, status: r.status });
      // "read" follows "delivered" for business messages: the message was final already.
      const result = r.status === 'read' ? undefined : receiptResultOf(r.status);
      if (result) this.final.inc({ channel: r.route, result });
    }
  }

  /** The sweeper expires across channels, so Unknow receipts carry no channel label. */
  webhookAttempted(r: { state: string; gone: boolean; latencyMs: number }): void {
    const outcome = r.gone ? 'gone' : r.state === 'pending' ? 'retry' : r.state;
    this.webhookAttempts.inc({ outcome });
    this.webhookSeconds.observe(r.latencyMs / 1000);
  }

  inboundStored(m: { channel: string; accountId: number | undefined }): void {
    this.inbound.inc({ channel: m.channel, routed: m.accountId === undefined ? 'no' : 'yes' });
  }

  inboundMediaFetched(outcome: 'stored' | 'failed' | 'retry'): void {
    this.inboundMedia.inc({ outcome });
  }

  /** Held messages ended because their ValidityPeriod passed before they were handed upstream. */
  validityExpired(count: number): void {
    if (count > 0) this.expired.inc(count);
  }

  fallbackSettled(state: string): void {
    this.fallbacks.inc({ state });
  }

  receiptsExpired(count: number): void {
    if (count > 0) this.final.inc({ channel: '', result: 'Unknow' }, count);
  }

  async exposition(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}

/**
 * One read for the gauges of one scrape: prom-client collects them together, and each count
 * walks an index (a million held messages are a million entries).
 */
function onceAScrape<T>(read: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    pending ??= read().finally(() => setImmediate(() => (pending = undefined)));
    return pending;
  };
}

/** The queue, read at scrape time: its depth, how long the oldest due message waited, what is held. */
function queueGauges(
  registers: Registry[],
  store: Pick<OperatorStore, 'queueStats'>,
  clock: Clock,
): void {
  const read = onceAScrape(() => store.queueStats(clock.now()));
  new Gauge({
    name: 'wirebird_queue_depth',
    help: 'messages not yet submitted (queued or being submitted)',
    registers,
    async collect() {
      this.set((await read()).depth);
    },
  });
  new Gauge({
    name: 'wirebird_queue_oldest_due_age_seconds',
    help: 'how long the longest-waiting due message has been due (0 when none is)',
    registers,
    async collect() {
      const { oldestDueAt } = await read();
      const now = clock.now();
      this.set(oldestDueAt === undefined ? 0 : Math.max(0, now - oldestDueAt) / 1000);
    },
  });
  new Gauge({
    name: 'wirebird_messages_held',
    help: 'messages held for a later SendAt (queued, never tried, due later)',
    registers,
    async collect() {
      this.set((await read()).held);
    },
  });
}

/** The outbox's metrics (docs/events.md): attempts by outcome, their latency, and the backlog. */
function eventMetrics(
  registers: Registry[],
  store: Pick<WebhookStore, 'outboxStats'>,
  clock: Clock,
): { attempts: Counter<'outcome'>; seconds: Histogram } {
  const attempts = new Counter({
    name: 'wirebird_webhook_attempts_total',
    help: 'event deliveries tried, by outcome (delivered, retry, failed, gone)',
    labelNames: ['outcome'] as const,
    registers,
  });
  const seconds = new Histogram({
    name: 'wirebird_webhook_delivery_seconds',
    help: 'how long an endpoint took to answer one event (or to fail)',
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  new Gauge({
    name: 'wirebird_events_pending',
    help: 'event deliveries not yet made (due, retrying, or held by a disabled endpoint)',
    registers,
    async collect() {
      this.set((await store.outboxStats()).pending);
    },
  });
  new Gauge({
    name: 'wirebird_events_oldest_pending_age_seconds',
    help: 'age of the oldest event still to be delivered (0 when none is)',
    registers,
    async collect() {
      const { oldestPendingAt } = await store.outboxStats();
      const age = oldestPendingAt === undefined ? 0 : clock.now() - oldestPendingAt;
      this.set(Math.max(0, age) / 1000);
    },
  });
  return { attempts, seconds };
}

type CounterOf = <L extends string>(name: string, help: string, labels: L[]) => Counter<L>;

/** The faces' own: webhook signatures refused, the SMPP server's requests and binds. */
function faceMetrics(
  counter: CounterOf,
  registers: Registry[],
): [Counter<'channel'>, Counter<'command' | 'status'>, Gauge] {
  return [
    counter(
      'wirebird_webhook_signature_failures_total',
      'webhook calls refused for a bad signature',
      ['channel'],
    ),
    counter(
      'wirebird_smpp_server_requests_total',
      'requests ESMEs sent the SMPP server, by command and the command_status answered',
      ['command', 'status'],
    ),
    new Gauge({
      name: 'wirebird_smpp_server_binds',
      help: 'ESME binds open on this node',
      registers,
    }),
  ];
}

/**
 * Business messages' SMS fallbacks settled, by state; held messages that expired; numbers an
 * account's policy refused.
 */
function timeMetrics(counter: CounterOf): [Counter<'state'>, Counter, Counter<'rule' | 'account'>] {
  return [
    counter(
      'wirebird_business_fallbacks_total',
      "business messages' SMS fallbacks settled: sent, failed (no SMS accepted) or unneeded",
      ['state'],
    ),
    counter(
      'wirebird_messages_expired_total',
      'held messages whose ValidityPeriod passed before they were handed upstream',
      [],
    ),
    counter(
      'wirebird_policy_refusals_total',
      "numbers an account's policy refused at acceptance, by rule (docs/accounts.md)",
      ['rule', 'account'],
    ),
  ];
}

/** Inbound messages stored, and the fetches of their WhatsApp files. */
function inboundMetrics(counter: CounterOf): [Counter<'outcome'>, Counter<'channel' | 'routed'>] {
  return [
    counter(
      'wirebird_inbound_media_fetches_total',
      'attempts at fetching the file of an inbound WhatsApp message: stored, failed, retry',
      ['outcome'],
    ),
    counter(
      'wirebird_inbound_messages_total',
      'inbound messages (replies, WhatsApp messages) stored, each once',
      ['channel', 'routed'],
    ),
  ];
}

function authMetrics(counter: CounterOf): [Counter<'face'>, Counter<'face'>] {
  return [
    counter(
      'wirebird_auth_failures_total',
      'failed authentications (unknown, revoked or expired key, wrong admin key or signature), by face',
      ['face'],
    ),
    counter(
      'wirebird_auth_lockouts_total',
      'source addresses refused for a while after too many failed authentications, by face',
      ['face'],
    ),
  ];
}

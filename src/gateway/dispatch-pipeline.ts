import type { Logger } from 'pino';
import type { Channels } from '../channels/registry.js';
import type { Config } from '../config/config.js';
import { Dispatcher } from '../dispatch/dispatcher.js';
import { onOneNode } from '../dispatch/one-node.js';
import { ReceiptSweeper } from '../dispatch/receipt-sweeper.js';
import { RecordGate } from '../dispatch/record-gate.js';
import { ReportSink } from '../dispatch/report-sink.js';
import type { Clock, Scheduler, Store } from '../domain/ports.js';
import type { Metrics } from '../metrics/metrics.js';

export interface Pipeline {
  channels: Channels;
  dispatcher: Dispatcher;
  reports: ReportSink;
  sweeper: ReceiptSweeper;
  stop(): Promise<void>;
}

/** dispatch → channels → reports → receipts: started before the API accepts anything. */
export interface PipelineOptions {
  config: Config;
  store: Store;
  clock: Clock;
  scheduler: Scheduler;
  logger: Logger;
  metrics?: Metrics;
  /** Built by the caller (createChannels), which also hands them to metrics and the console. */
  channels: Channels;
}

export async function startPipeline(options: PipelineOptions): Promise<Pipeline> {
  const { config, store, clock, scheduler, logger, metrics, channels } = options;
  const gate = new RecordGate();
  const reportsLog = logger.child({ worker: 'reports' });
  const reports = new ReportSink(store, clock, reportsLog, { observer: metrics, gate });
  for (const channel of channels.byName.values()) await channel.start(reports.push);
  const dispatcher = new Dispatcher({
    storage: {
      claim: (now, limit, lease) => store.claimDue(now, limit, lease),
      record: (o, now) => store.recordOutcomes(o, now),
      extend: (claims, until) => store.extendLeases(claims, until),
      takeTokens: store.cluster?.takeRouteTokens.bind(store.cluster),
    },
    channels: channels.byName,
    clock,
    options: { ...config.dispatch, observer: metrics },
    log: logger.child({ worker: 'dispatch' }),
    gate,
  });
  dispatcher.start();
  const sweeping = onOneNode(store, 'receipt-sweeper');
  const sweeper = new ReceiptSweeper({
    store: {
      expireAwaiting: async (cutoff, now, limit) =>
        (await sweeping()) ? store.expireAwaiting(cutoff, now, limit) : 0,
      expireQueued: async (now, limit) => ((await sweeping()) ? store.expireQueued(now, limit) : 0),
    },
    clock,
    scheduler,
    timeoutMs: config.receiptTimeoutS * 1000,
    log: logger.child({ worker: 'sweeper' }),
    onExpired: (n) => metrics?.receiptsExpired(n),
    onValidityExpired: (n) => metrics?.validityExpired(n),
  });
  sweeper.start();
  return {
    channels,
    dispatcher,
    reports,
    sweeper,
    async stop() {
      await dispatcher.stop();
      await sweeper.stop();
      for (const channel of channels.byName.values()) await channel.stop();
    },
  };
}

import type { Acceptance } from './kannel-load.js';
import type { MessageKind } from './messages.js';
import type { KannelBenchOptions } from './options.js';
import type { Sim, SimStats } from './sim.js';

/** What one run gives a contender: the simulator it sends to, the messages, the numbers. */
export interface RunSetup {
  o: KannelBenchOptions;
  sim: Sim;
  kind: MessageKind;
  window: number;
  /** The run's temp folder (configs, logs). */
  dir: string;
  /** Distinct E.164 numbers with '+', one per message. */
  phones: string[];
}

/** Receipts processed as the contender's user sees them: how many, first and last (epoch ms). */
export interface ReceiptSpan {
  /** In messages: Kannel reports a long message once, an SMSC acknowledges each part. */
  count: number;
  firstAt: number;
  lastAt: number;
  /** Where the count comes from, for the report. */
  source: string;
}

/** A gateway (or the bare client) started, bound to the simulator, ready to send. */
export interface Contender {
  /** Its processes: CPU and RSS are summed over them. */
  pids: number[];
  /** Sends every message; undefined for the bare client, which accepts nothing. */
  send(): Promise<Acceptance | undefined>;
  /** Waits, up to `deadline` (epoch ms), for every receipt to be processed. */
  receipts(deadline: number): Promise<ReceiptSpan>;
  /** Stops its processes by pid; answers the profile summary where one was taken. */
  stop(): Promise<string | undefined>;
}

/**
 * Waits for the simulator to see every part's receipt acknowledged (Wirebird acknowledges a
 * receipt once it is stored); the SMSC's view of them, counted in messages.
 */
export async function simReceipts(r: RunSetup, deadline: number): Promise<ReceiptSpan> {
  const parts = r.phones.length * r.kind.parts;
  const s: SimStats | undefined = await r.sim.waitFor((x) => x.receiptsAcked >= parts, deadline);
  return {
    count: (s?.receiptsAcked ?? 0) / r.kind.parts,
    firstAt: s?.firstReceiptAckAt ?? 0,
    lastAt: s?.lastReceiptAckAt ?? 0,
    source: 'deliver_sm_resp at the SMSC',
  };
}

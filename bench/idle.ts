/**
 * Issue 36's idle memory: what `wirebird serve` holds at rest, as `npm start` runs it (SQLite,
 * simulator, a fresh data folder). VmRSS 5 s and 20 s after /healthz answers (the gateway
 * collects once it has been quiet for about ten seconds), then after a burst of batches: right
 * after it, and once the acceptance threads have ended and the gateway has been quiet again.
 */
import { readdirSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { Api, acceptThreads, approvedTemplate, batchBody } from './api.js';
import { freshDataDir, startGateway, type Gateway } from './gateway.js';
import type { PhoneSequence } from './numbers.js';
import type { Options } from './options.js';
import { readProc } from './proc.js';
import { table } from './stats.js';

export interface IdleFigures {
  /** VmRSS (MB) and threads at each moment measured. */
  started5s: Moment;
  started20s: Moment;
  afterBurst: Moment;
  quietAgain: Moment;
  burstBatches: number;
}

interface Moment {
  rssMb: number;
  threads: number;
}

const BURST = 20;
/** Quiet after the acceptance threads end: two of the idle collection's 5 s looks, and a margin. */
const QUIET_MS = 15_000;

function moment(gw: Gateway): Moment {
  return {
    rssMb: readProc(gw.pid)?.rssMb ?? NaN,
    threads: readdirSync(`/proc/${gw.pid}/task`).length,
  };
}

export async function measureIdle(o: Options, phones: PhoneSequence): Promise<IdleFigures> {
  const dir = freshDataDir(o.workDir, 'idle');
  const gw = await startGateway({ main: o.gatewayMain, dataDir: dir, nodeArgs: o.nodeArgs });
  const api = new Api(gw, 4);
  try {
    await sleep(5_000);
    const started5s = moment(gw);
    await sleep(15_000);
    const started20s = moment(gw);
    const templateId = await approvedTemplate(api);
    for (let i = 0; i < BURST; i++)
      await api.call(batchBody(gw.accountId, templateId, phones.take(1000)));
    const afterBurst = moment(gw);
    // The threads end a minute after the last batch; then the gateway is quiet again.
    const until = Date.now() + 120_000;
    while ((await acceptThreads(api)) > 0 && Date.now() < until) await sleep(1_000);
    await sleep(QUIET_MS);
    return { started5s, started20s, afterBurst, quietAgain: moment(gw), burstBatches: BURST };
  } finally {
    await api.close();
    await gw.stop();
  }
}

export function idleTable(f: IdleFigures): string {
  const row = (what: string, m: Moment): [string, string] => [
    what,
    `${m.rssMb.toFixed(1)} MB (${m.threads} threads)`,
  ];
  return table([
    row('5 s after /healthz', f.started5s),
    row('**20 s after /healthz** (target ≤ 90 MB)', f.started20s),
    row(`right after ${f.burstBatches} SendBatchUSMSMessage of 1000`, f.afterBurst),
    row('threads ended, then 15 s quiet', f.quietAgain),
  ]);
}

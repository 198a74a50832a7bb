/**
 * Issue 36's rule that latency must not pay for throughput: at a low, steady rate (50 a second),
 * how long one one-number SendBatchUSMSMessage and one submit_sm wait for their answer. Each is
 * sent on its own schedule (not after the previous answer), so a slow answer shows as itself.
 */
import { performance } from 'node:perf_hooks';
import smpp from 'smpp';
import { benchSmppServer, bindEsme } from './smpp-server.js';
import { freePort, freshDataDir } from './gateway.js';
import type { PhoneSequence } from './numbers.js';
import type { Options } from './options.js';
import { makeBodies, withBench } from './session.js';
import { fmt, quantile, table } from './stats.js';

/** Requests a second, and how many of each kind a run sends. */
const RATE = 50;
const COUNT = 500;

export interface Latencies {
  count: number;
  failed: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface LatencyFigures {
  ratePerS: number;
  /** Whether the ESME kept Nagle's algorithm on (--esme-nagle). */
  nagle: boolean;
  http: Latencies;
  smpp: Latencies;
}

function summary(ms: readonly number[], failed: number): Latencies {
  return {
    count: ms.length,
    failed,
    p50Ms: quantile(ms, 0.5),
    p99Ms: quantile(ms, 0.99),
    maxMs: quantile(ms, 1),
  };
}

/** Calls `send(i)` at RATE a second, COUNT times; answers each call's time to settle. */
async function paced(send: (i: number) => Promise<boolean>): Promise<Latencies> {
  const ms: number[] = [];
  let failed = 0;
  const start = performance.now();
  const calls: Promise<void>[] = [];
  for (let i = 0; i < COUNT; i++) {
    const at = start + (i * 1000) / RATE;
    const wait = at - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const t = performance.now();
    calls.push(
      send(i).then((ok) => {
        if (ok) ms.push(performance.now() - t);
        else failed++;
      }),
    );
  }
  await Promise.all(calls);
  return summary(ms, failed);
}

export async function measureLatency(o: Options, phones: PhoneSequence): Promise<LatencyFigures> {
  const port = await freePort();
  const dir = freshDataDir(o.workDir, 'latency');
  const { value } = await withBench(
    o,
    dir,
    'latency',
    async (b) => {
      const bodies = makeBodies(b, phones, COUNT, 1);
      const http = await paced(
        async (i) => (await b.api.call(bodies[i] as string)).json.RetCode === 0,
      );
      const esme = { port, systemId: 'bench', password: 'bench', nagle: o.esmeNagle };
      const session = await bindEsme(esme);
      const numbers = phones.take(COUNT).map((p) => p.slice(1));
      const submit = (i: number) =>
        new Promise<boolean>((resolve) => {
          const pdu = new smpp.PDU('submit_sm', {
            ...{ destination_addr: numbers[i], dest_addr_ton: 1, dest_addr_npi: 1 },
            ...{ short_message: 'Your code is 123456', registered_delivery: 1 },
          });
          session.send(pdu, (resp: smpp.PDU) => resolve(resp.command_status === 0));
        });
      const smppLatencies = await paced(submit);
      session.destroy();
      return { ratePerS: RATE, nagle: o.esmeNagle, http, smpp: smppLatencies };
    },
    benchSmppServer(port),
  );
  return value;
}

export function latencyTable(f: LatencyFigures): string {
  const row = (what: string, l: Latencies): [string, string] => [
    what,
    `p50 ${fmt.ms(l.p50Ms)}, p99 ${fmt.ms(l.p99Ms)}, max ${fmt.ms(l.maxMs)} (${l.count} answered` +
      `${l.failed ? `, ${l.failed} failed` : ''})`,
  ];
  return table([
    ['rate', `${f.ratePerS} a second, each sent on its own schedule`],
    row('one-number SendBatchUSMSMessage', f.http),
    row(
      `one submit_sm (one bind, registered_delivery 1, ${f.nagle ? "Nagle's algorithm on" : 'TCP_NODELAY'})`,
      f.smpp,
    ),
  ]);
}

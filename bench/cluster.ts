import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { createScratchSchema } from '../src/store/postgres/scratch-schema.js';
import { Api, approvedTemplate, batchBody, type Json } from './api.js';
import { clusterCpuWindow, type ClusterCpu } from './cluster-procs.js';
import { freshDataDir, startGateway, type Gateway } from './gateway.js';
import { runLoad, type LoadResult } from './load.js';
import type { PhoneSequence } from './numbers.js';
import { CLUSTER_NEEDS_URL, type Options } from './options.js';
import { waitForReceipts } from './receipts.js';
import { applyHotFinalExperiment, pgWorkTable, pgWorkWindow, type PgWork } from './pg-work.js';
import { fmt, quantile } from './stats.js';

export interface ClusterFigures {
  nodes: number;
  load1: number;
  accepted: number;
  failed: number;
  firstError: string | undefined;
  acceptedPerS: number;
  p50Ms: number;
  p99Ms: number;
  cpu: ClusterCpu;
  wallS: number;
  dispatch:
    | {
        messages: number;
        finals: number;
        endToEndS: number;
        perS: number;
        cpu: ClusterCpu;
        pgWork: PgWork;
      }
    | undefined;
}

/** One message a second, one at a time: the dispatcher stays out of the acceptance figures. */
const ISOLATED = { dispatch: { routeTps: 1, batchSize: 1, window: 1 } };

/** Spreads requests over the nodes, one after the other, as a load balancer would. */
class RoundRobin {
  private i = 0;
  constructor(readonly apis: Api[]) {}
  call(body: string | Json) {
    return (this.apis[this.i++ % this.apis.length] as Api).call(body);
  }
}

function gatewayOptions(o: Options) {
  return { main: o.gatewayMain, dataDir: freshDataDir(o.workDir, 'node'), nodeArgs: o.nodeArgs };
}

async function startNodes(o: Options, url: string, n: number): Promise<Gateway[]> {
  const config = { database: { url }, ...(o.isolate ? ISOLATED : {}) };
  // The first node creates the development account; the others share it through the database.
  const first = await startGateway({ ...gatewayOptions(o), config });
  const others = await Promise.all(
    Array.from({ length: n - 1 }, () =>
      startGateway({ ...gatewayOptions(o), config, keysFrom: first.dataDir }),
    ),
  );
  return [first, ...others];
}

function acceptanceFigures(nodes: number, r: LoadResult, cpu: ClusterCpu) {
  const wallS = (r.endMs - r.startMs) / 1000;
  return {
    nodes,
    load1: loadavg()[0] ?? NaN,
    accepted: r.accepted,
    failed: r.failed,
    firstError: r.firstError,
    acceptedPerS: r.accepted / wallS,
    p50Ms: quantile(r.latenciesMs, 0.5),
    p99Ms: quantile(r.latenciesMs, 0.99),
    cpu,
    wallS,
  };
}

/** Acceptance over `n` nodes on one fresh schema, then (unless isolated) dispatch end to end. */
async function measureNodes(
  o: Options,
  url: string,
  n: number,
  phones: PhoneSequence,
): Promise<ClusterFigures> {
  const scratch = await createScratchSchema(url, 'wb_bench');
  const gws = await startNodes(o, scratch.url, n);
  if (o.pgHotFinal) await applyHotFinalExperiment(scratch.url);
  const apis = gws.map((gw) => new Api(gw, Math.ceil(o.clients / n)));
  try {
    const templateId = await approvedTemplate(apis[0] as Api);
    const rr = new RoundRobin(apis);
    const bodies = (k: number) =>
      Array.from({ length: k }, () =>
        batchBody(gws[0]?.accountId ?? 1, templateId, phones.take(o.batch)),
      );
    await runLoad(rr, bodies(o.warmup), o.clients, o.timeLimitS * 1000);
    const measured = bodies(o.requests);
    const nodePids = gws.map((g) => g.pid);
    const window = clusterCpuWindow(nodePids);
    const load = await runLoad(rr, measured, o.clients, o.timeLimitS * 1000);
    const cpu = window();
    const figures = acceptanceFigures(n, load, cpu);
    const dispatch = o.isolate
      ? undefined
      : await endToEnd(o, {
          api: apis[0] as Api,
          rr,
          backlog: load,
          make: () => bodies(Math.ceil(o.messages / o.batch)),
          pids: nodePids,
          pgWindow: () => pgWorkWindow(url, scratch.schema),
        });
    return { ...figures, dispatch };
  } finally {
    for (const api of apis) await api.close();
    for (const gw of gws) await gw.stop();
    await scratch.drop();
  }
}

interface EndToEndRun {
  /** The node whose GetUSMSSendReceipt follows the messages. */
  api: Api;
  rr: RoundRobin;
  backlog: LoadResult;
  make: () => string[];
  pids: readonly number[];
  pgWindow: () => Promise<() => Promise<PgWork>>;
}

/** Waits out the acceptance backlog, then sends `messages` and follows them to final receipts. */
async function endToEnd(o: Options, run: EndToEndRun) {
  const { api, rr, pids } = run;
  await waitForReceipts(api, run.backlog.sessions, performance.now() + o.drainLimitS * 1000);
  const bodies = run.make();
  const pgEnd = await run.pgWindow();
  const window = clusterCpuWindow(pids);
  const load = await runLoad(rr, bodies, o.clients, o.timeLimitS * 1000);
  const drain = await waitForReceipts(api, load.sessions, performance.now() + o.drainLimitS * 1000);
  const cpu = window();
  const pgWork = await pgEnd();
  const endToEndS = (drain.doneMs - load.startMs) / 1000;
  return {
    messages: load.accepted,
    finals: drain.finals,
    endToEndS,
    perS: drain.finals / endToEndS,
    cpu,
    pgWork,
  };
}

export async function measureCluster(o: Options, phones: PhoneSequence): Promise<ClusterFigures[]> {
  const url = o.databaseUrl;
  // parseOptions refused the scenario without one: this only narrows the type.
  if (!url) throw new Error(CLUSTER_NEEDS_URL);
  const out: ClusterFigures[] = [];
  for (const n of o.nodes) {
    console.error(`  ${n} node(s)…`);
    out.push(await measureNodes(o, url, n, phones));
  }
  return out;
}

export function clusterTable(list: readonly ClusterFigures[]): string {
  const lines = [
    "| nodes | accepted/s | p50 / p99 | CPU per accepted message: nodes / PostgreSQL | others' CPU | load1 | dispatched/s end to end | CPU per dispatched message: nodes / PostgreSQL | others' CPU |",
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  const per = (s: number, n: number) => fmt.us((s * 1e6) / Math.max(1, n));
  for (const f of list) {
    const d = f.dispatch;
    const failed = f.failed ? ` (${f.failed} failed: ${f.firstError})` : '';
    const cells = [
      String(f.nodes),
      `**${fmt.int(f.acceptedPerS)}**${failed}`,
      `${fmt.ms(f.p50Ms)} / ${fmt.ms(f.p99Ms)}`,
      `${per(f.cpu.nodesS, f.accepted)} / ${per(f.cpu.postgresS, f.accepted)}`,
      fmt.s(f.cpu.othersS),
      f.load1.toFixed(2),
      d ? `**${fmt.int(d.perS)}** (${fmt.int(d.finals)} in ${fmt.s(d.endToEndS)})` : '—',
      d ? `${per(d.cpu.nodesS, d.finals)} / ${per(d.cpu.postgresS, d.finals)}` : '—',
      d ? fmt.s(d.cpu.othersS) : '—',
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  for (const f of list) {
    if (!f.dispatch) continue;
    lines.push('', `PostgreSQL's work end to end, ${f.nodes} node(s):`, '');
    lines.push(pgWorkTable(f.dispatch.pgWork, f.dispatch.finals));
  }
  return lines.join('\n');
}

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Api, approvedTemplate, batchBody, startAcceptThreads } from './api.js';
import { gatewayLogLines, startGateway, type Gateway } from './gateway.js';
import type { PhoneSequence } from './numbers.js';
import type { Options } from './options.js';
import { ProcSampler, type ProcSample } from './proc.js';
import { summariseProfileDir, type ProfileSummary } from './profile.js';

/** A running gateway with its client, its template, and a sampler of its RSS and CPU. */
export interface Bench {
  gw: Gateway;
  api: Api;
  templateId: string;
  sampler: ProcSampler;
}

export interface Ended {
  last: ProcSample | undefined;
  peakRssMb: number;
  profile: ProfileSummary[] | undefined;
  exitCode: number | null;
  rssTimeline: [number, number][];
  /** Warning and error lines the gateway logged (it runs at level warn). */
  logged: number;
  firstLogged: string | undefined;
}

/** The gateway's own figures at the end of a run, as every scenario reports them. */
export function gatewayFigures(ended: Ended) {
  return {
    peakRssMb: ended.peakRssMb,
    hwmMb: ended.last?.hwmMb ?? NaN,
    rssTimeline: ended.rssTimeline,
    logged: ended.logged,
    firstLogged: ended.firstLogged,
    profile: ended.profile,
  };
}

/** One message a second, one at a time: the dispatcher stays out of the acceptance figures. */
const ISOLATED = { dispatch: { routeTps: 1, batchSize: 1, window: 1 } };

function profileArgs(o: Options, label: string): { dir?: string; args: string[] } {
  if (!o.profile) return { args: [] };
  const dir = join(o.profileDir, `${label}-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  mkdirSync(dir, { recursive: true });
  return { dir, args: ['--cpu-prof', `--cpu-prof-dir=${dir}`] };
}

/**
 * Starts the gateway on `dataDir`, sets up an approved template, runs `use`, then stops the
 * gateway by its pid (SIGTERM, SIGKILL after a grace period) whatever happened.
 */
export async function withBench<T>(
  o: Options,
  dataDir: string,
  label: string,
  use: (b: Bench) => Promise<T>,
  config?: Record<string, unknown>,
): Promise<{ value: T; ended: Ended }> {
  const prof = profileArgs(o, label);
  const gw = await startGateway({
    main: o.gatewayMain,
    dataDir,
    nodeArgs: [...o.nodeArgs, ...prof.args],
    synchronous: o.synchronous,
    config: {
      ...config,
      ...(o.isolate ? ISOLATED : {}),
      ...(o.acceptThreads === undefined ? {} : { acceptThreads: o.acceptThreads }),
    },
  });
  const api = new Api(gw, o.clients);
  const sampler = new ProcSampler(gw.pid).start();
  let value: T;
  let last: ProcSample | undefined;
  let exitCode: number | null = null;
  try {
    const templateId = await approvedTemplate(api);
    // Acceptance threads (SQLite) start with the first batch; a run measures them running.
    if (o.acceptThreads !== 0 && config?.database === undefined) await startAcceptThreads(api);
    value = await use({ gw, api, templateId, sampler });
  } finally {
    last = sampler.stop();
    await api.close();
    exitCode = await gw.stop();
    if (exitCode !== 0) console.error(`gateway ${gw.pid} exited with ${exitCode}`);
  }
  const profile = prof.dir ? summariseProfileDir(prof.dir) : undefined;
  const logged = gatewayLogLines(dataDir);
  return {
    value,
    ended: {
      last,
      peakRssMb: sampler.peakRssMb,
      profile,
      exitCode,
      rssTimeline: sampler.timeline,
      logged: logged.length,
      firstLogged: logged[0]?.slice(0, 300),
    },
  };
}

/** Bodies of `batch` distinct numbers each, serialised before the clock starts. */
export function makeBodies(
  b: Bench,
  phones: PhoneSequence,
  requests: number,
  batch: number,
  fields: () => Record<string, unknown> = () => ({}),
): string[] {
  return Array.from({ length: requests }, () =>
    batchBody(b.gw.accountId, b.templateId, phones.take(batch), fields()),
  );
}

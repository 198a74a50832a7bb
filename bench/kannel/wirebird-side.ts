import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Api, approvedTemplate, batchBody, startAcceptThreads } from '../api.js';
import { startGateway } from '../gateway.js';
import { runLoad, type LoadResult } from '../load.js';
import { profilesMarkdown, summariseProfileDir } from '../profile.js';
import { trackPid } from './children.js';
import { simReceipts, type Contender, type RunSetup } from './contender.js';
import type { Acceptance } from './kannel-load.js';

/** One SMSC, one bind, the run's window, no rate limit: the same terms as Kannel's. */
function smppConfig(r: RunSetup) {
  const smsc = { name: 'sim', port: r.sim.port, systemId: 'wirebird', password: 'bench' };
  return {
    smpp: {
      smscs: [{ ...smsc, window: r.window, binds: 1, tps: 1_000_000 }],
      routes: [{ prefix: '', smscs: ['sim'] }],
    },
  };
}

/** The load's answers as per-destination accept times (every number of a request shares one). */
function acceptance(load: LoadResult, chunks: readonly string[][]): Acceptance {
  const epoch = (t: number) => performance.timeOrigin + t;
  const acceptedAt = new Map<string, number>();
  chunks.forEach((chunk, i) => {
    const at = load.answeredAt[i];
    if (at === undefined) return;
    for (const phone of chunk) acceptedAt.set(phone.slice(1), epoch(at));
  });
  return {
    accepted: load.accepted,
    failed: load.failed,
    firstError: load.firstError,
    startAt: epoch(load.startMs),
    endAt: epoch(load.endMs),
    acceptedAt,
    timedOut: load.timedOut,
  };
}

/** `wirebird serve` as a child on a fresh data dir, with the SMSC simulator as its one SMSC. */
export async function startWirebird(r: RunSetup): Promise<Contender> {
  const profileDir = join(r.dir, 'profile');
  if (r.o.profile) mkdirSync(profileDir, { recursive: true });
  const gw = await startGateway({
    main: r.o.gatewayMain,
    dataDir: r.dir,
    nodeArgs: r.o.profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
    config: smppConfig(r),
  });
  const untrack = trackPid(gw.pid, 'wirebird');
  const api = new Api(gw, r.o.clients);
  const stop = async () => {
    await api.close();
    await gw.stop();
    untrack();
  };
  let chunks: string[][];
  let bodies: string[];
  try {
    const templateId = await approvedTemplate(api, r.kind.template);
    // Its acceptance threads start with the first batch: the comparison measures them running.
    await startAcceptThreads(api);
    chunks = [];
    for (let i = 0; i < r.phones.length; i += r.o.batch)
      chunks.push(r.phones.slice(i, i + r.o.batch));
    bodies = chunks.map((c) => batchBody(gw.accountId, templateId, c));
    await r.sim.waitFor((s) => s.binds >= 1, Date.now() + 30_000);
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    pids: [gw.pid],
    send: async () =>
      acceptance(await runLoad(api, bodies, r.o.clients, r.o.timeLimitS * 1000), chunks),
    receipts: (deadline) => simReceipts(r, deadline),
    async stop() {
      await stop();
      const profile = r.o.profile ? summariseProfileDir(profileDir) : undefined;
      return profile?.length ? profilesMarkdown(profile) : undefined;
    },
  };
}

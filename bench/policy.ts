/**
 * Issue 38's target: acceptance with an account policy set (Countries, DailyLimit,
 * RecipientHourlyLimit, Prepaid) against acceptance without, alternating, each run on a fresh
 * store with dispatch held back (--isolate), on SQLite and, given --database-url, on PostgreSQL.
 * The limits are set high enough never to refuse: the cost measured is the checks and counters.
 */
import { rmSync } from 'node:fs';
import { createScratchSchema } from '../src/store/postgres/scratch-schema.js';
import { measureAcceptance, type AcceptanceFigures } from './acceptance.js';
import { freshDataDir } from './gateway.js';
import type { PhoneSequence } from './numbers.js';
import type { Options } from './options.js';
import { alternate, pairRow, type Pair } from './scheduled.js';
import type { Bench } from './session.js';

const ENOUGH = 1_000_000_000_000;

/** The bench's numbers are Chinese mobiles (+86138…): the policy lets exactly CN through. */
async function setPolicy(b: Bench): Promise<void> {
  const policy = {
    Countries: ['CN'],
    DailyLimit: ENOUGH,
    RecipientHourlyLimit: 10,
    Prepaid: true,
  };
  const set = await b.api.admin('/admin/accounts/1/policy', policy, 'PUT');
  const credit = await b.api.admin('/admin/accounts/1/credits', {
    CostCount: ENOUGH,
    Reference: 'bench',
  });
  for (const a of [set, credit]) {
    if (a.json.RetCode !== 0) throw new Error(`policy: ${JSON.stringify(a.json)}`);
  }
}

export interface PolicyFigures {
  acceptance: Pair[];
  /** Each run's figures, profile included, in the order they ran. */
  runs: AcceptanceFigures[];
}

export async function measurePolicy(o: Options, phones: PhoneSequence): Promise<PolicyFigures> {
  const acceptance: Pair[] = [];
  const runs: AcceptanceFigures[] = [];
  for (const pg of o.stores.map((s) => s === 'postgres')) {
    const rates = await alternate(o.rounds, async (withPolicy) => {
      const f = await acceptedWith(o, phones, { pg, withPolicy });
      runs.push(f);
      return f.acceptedPerS;
    });
    acceptance.push({ what: pg ? 'PostgreSQL' : 'SQLite', ...rates });
  }
  return { acceptance, runs };
}

async function acceptedWith(
  o: Options,
  phones: PhoneSequence,
  arm: { pg: boolean; withPolicy: boolean },
): Promise<AcceptanceFigures> {
  const name = `${arm.pg ? 'postgres' : 'sqlite'}-${arm.withPolicy ? 'policy' : 'plain'}`;
  const dir = freshDataDir(o.workDir, name);
  const scratch = arm.pg
    ? await createScratchSchema(o.databaseUrl ?? '', 'wb_bench_policy')
    : undefined;
  try {
    const f = await measureAcceptance({ ...o, isolate: true }, dir, phones, {
      label: name,
      ...(arm.withPolicy ? { prepare: setPolicy } : {}),
      ...(scratch ? { config: { database: { url: scratch.url } } } : {}),
    });
    if (f.failed > 0) throw new Error(`acceptance refused requests: ${f.firstError}`);
    return f;
  } finally {
    await scratch?.drop();
    if (!o.keep) rmSync(dir, { recursive: true, force: true });
  }
}

export function policyTable(f: PolicyFigures): string {
  return [
    '| measure | without a policy (median, runs) | with (median, runs) | with / without |',
    '| --- | --- | --- | --- |',
    ...f.acceptance.map((p) => pairRow({ ...p, what: `${p.what}: acceptance` }, '/s')),
    '',
    '| run | accepted/s | gateway CPU per message | p50 | p99 |',
    '| --- | --- | --- | --- | --- |',
    ...f.runs.map(
      (r) =>
        `| ${r.label} | ${Math.round(r.acceptedPerS)} | ${r.cpuUsPerMessage.toFixed(1)} µs | ${r.p50Ms.toFixed(1)} ms | ${r.p99Ms.toFixed(1)} ms |`,
    ),
  ].join('\n');
}

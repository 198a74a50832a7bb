import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

export type Scenario =
  | 'acceptance'
  | 'dispatch'
  | 'flat'
  | 'prefill'
  | 'smpp'
  | 'cluster'
  | 'ucloud'
  | 'events'
  | 'smpp-server'
  | 'whatsapp'
  | 'scheduled'
  | 'policy'
  | 'latency'
  | 'idle';
const SCENARIOS: readonly Scenario[] = [
  'acceptance',
  'dispatch',
  'flat',
  'prefill',
  'smpp',
  'cluster',
  'ucloud',
  'events',
  'smpp-server',
  'whatsapp',
  'scheduled',
  'policy',
  'latency',
  'idle',
];

export interface Options {
  scenarios: Scenario[];
  /** Concurrent clients, one undici Pool connection each. */
  clients: number;
  /** Acceptance: requests of `batch` numbers each (after the warm-up). */
  requests: number;
  warmup: number;
  batch: number;
  /** Dispatch: messages sent, then followed to their final receipt. */
  messages: number;
  timeLimitS: number;
  drainLimitS: number;
  /** Flat: stored messages before the second acceptance run. */
  prefill: number;
  prefillLimitS: number;
  /** Reuse (or, for prefill, fill) this data directory instead of a fresh temp one. */
  dataDir: string | undefined;
  profile: boolean;
  profileDir: string;
  synchronous: 'FULL' | 'NORMAL' | undefined;
  /** Throttle the dispatcher to 1 message/s (through a config file) to see acceptance alone. */
  isolate: boolean;
  /** Extra node flags for the gateway, e.g. --max-old-space-size=128. */
  nodeArgs: string[];
  /** The gateway's acceptThreads; unset, its default. */
  acceptThreads: number | undefined;
  gatewayMain: string;
  workDir: string;
  keep: boolean;
  /** Runs of each scenario, to see past a shared machine's noise. */
  repeat: number;
  /** smpp scenario: outstanding submit_sm per bind, and binds to the SMSC simulator. */
  smppWindow: number;
  smppBinds: number;
  /** smpp-server, latency: leave Nagle's algorithm on the bench's ESME (the smpp package's default). */
  esmeNagle: boolean;
  /** smpp-server: the bench's ESME asks for no receipts (registered_delivery 0). */
  esmeNoReceipts: boolean;
  /** smpp scenario: the SMSC simulator's delay before a receipt (a network's is seconds). */
  receiptDelayMs: number;
  /** Cluster: the PostgreSQL every node shares (each run in a schema of its own). */
  databaseUrl: string | undefined;
  /** Cluster: how many nodes, one run per entry. */
  nodes: number[];
  /** Events: receipts made while the receiver is down, then drained (0 skips that part). */
  backlog: number;
  /**
   * Cluster: before the load, re-index the scratch schema so that a message's final update and
   * the simulator's `reported` update can be HOT (issue 19, target 4's experiment).
   */
  pgHotFinal: boolean;
  /** Scheduled: messages held for 30 days beside the traffic measured. */
  held: number;
  /** Scheduled: messages falling due at once. */
  release: number;
  /** Scheduled: rounds of each pair of arms, alternating which goes first. */
  rounds: number;
  /** Policy: the stores to measure; PostgreSQL needs databaseUrl. */
  stores: ('sqlite' | 'postgres')[];
  /** The recipients' numbers counting up (neighbours in every index) or spread as real ones. */
  numbers: 'ascending' | 'scattered';
}

const HELP = `npm run bench -- [options]
  --scenario <list>     acceptance,dispatch,flat,prefill,smpp,cluster,ucloud,events,smpp-server,
                        whatsapp,scheduled,policy,latency,idle
                        (default acceptance,dispatch)
  --clients <n>         concurrent clients / pool connections (8)
  --requests <n>        acceptance requests of --batch numbers each (300)
  --warmup <n>          requests sent before measuring, not counted (16)
  --batch <n>           numbers per SendBatchUSMSMessage (1000)
  --messages <n>        dispatch, whatsapp…: messages to send and follow (200000)
  --time-limit <s>      bound on each load phase (120)
  --drain-limit <s>     bound on waiting for the last receipt (300)
  --prefill <n>         flat scenario: stored messages before the second run (10000000)
  --prefill-limit <s>   bound on the prefill; stops early and reports the count (600)
  --data-dir <dir>      flat/prefill: reuse or fill this data dir
  --profile             run the gateway under --cpu-prof and summarise the profile
  --profile-dir <dir>   where .cpuprofile files go (bench/out/profiles)
  --sync FULL|NORMAL    WIREBIRD_SQLITE_SYNCHRONOUS for the gateway (its default: FULL)
  --isolate             throttle dispatch to 1 msg/s: acceptance alone, as a diagnostic
  --node-args=<flags>   extra node flags for the gateway (e.g. --node-args=--trace-gc)
  --accept-threads <n>  the gateway's acceptance threads, 0 for none (its default)
  --gateway <main.js>   the gateway's CLI entry (the build's src/cli/main.js)
  --repeat <n>          run each scenario n times (1)
  --window <n>          smpp, smpp-server: submit_sm window per bind (100)
  --binds <n>           smpp scenario: binds to the SMSC simulator (1)
  --esme-nagle          smpp-server, latency: the bench's ESME keeps Nagle's algorithm on, as the
                        smpp package leaves it (by default it sets TCP_NODELAY: bench/RESULTS.md,
                        session 26, for what Nagle's stalls cost)
  --esme-no-receipts    smpp-server: the ESME's submits ask for no receipt (registered_delivery 0)
  --receipt-delay <ms>  smpp scenario: the SMSC simulator's delay before each receipt (100)
  --database-url <url>  cluster: the PostgreSQL the nodes share (WIREBIRD_TEST_DATABASE_URL)
  --nodes <list>        cluster: node counts to measure, one run each (1,2,3)
  --backlog <n>         events: receipts made while the receiver is down, then drained (1000000)
  --pg-hot-final        cluster: an experiment, not the shipped schema: indexes without a
                        predicate on state/reported and fillfactor 70, so final updates can be HOT
  --held <n>            scheduled: messages held 30 days beside the traffic; 0: acceptance only
                        (1000000)
  --release <n>         scheduled: messages falling due at once (100000)
  --rounds <n>          scheduled: rounds of each comparison, alternating the order (3)
  --numbers <order>     ascending (each number the last plus one) or scattered (the same numbers
                        spread over the range, as real recipients are) (ascending)
  --stores <list>       policy: sqlite,postgres (default: sqlite, and postgres given a
                        --database-url)
  --keep                keep temporary data dirs`;

function int(v: string | undefined, name: string, fallback: number): number {
  if (v === undefined) return fallback;
  const n = Number(v.replace(/_/g, ''));
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`--${name} must be a whole number`);
  return n;
}

function scenarios(v: string | undefined): Scenario[] {
  const list = (v ?? 'acceptance,dispatch').split(',').map((s) => s.trim());
  for (const s of list) {
    if (!SCENARIOS.includes(s as Scenario)) throw new Error(`unknown scenario ${s}`);
  }
  return list as Scenario[];
}

function sync(v: string | undefined): Options['synchronous'] {
  if (v === undefined) return undefined;
  const u = v.toUpperCase();
  if (u !== 'FULL' && u !== 'NORMAL') throw new Error('--sync must be FULL or NORMAL');
  return u;
}

/**
 * A bench's parsed options, or undefined after --help or a usage error: the error said in one
 * line with exit code 2, not thrown as a stack trace.
 */
export function usageChecked<T>(parse: () => T | undefined): T | undefined {
  try {
    return parse();
  } catch (err) {
    console.error(`bench: ${err instanceof Error ? err.message : String(err)} (see --help)`);
    process.exitCode = 2;
    return undefined;
  }
}

export const CLUSTER_NEEDS_URL =
  'the cluster scenario needs --database-url (or WIREBIRD_TEST_DATABASE_URL)';

export function parseOptions(argv: string[]): Options | undefined {
  const { values: v } = parseArgs({
    args: argv,
    options: {
      scenario: { type: 'string' },
      clients: { type: 'string' },
      requests: { type: 'string' },
      warmup: { type: 'string' },
      batch: { type: 'string' },
      messages: { type: 'string' },
      'time-limit': { type: 'string' },
      'drain-limit': { type: 'string' },
      prefill: { type: 'string' },
      'prefill-limit': { type: 'string' },
      'data-dir': { type: 'string' },
      profile: { type: 'boolean' },
      'profile-dir': { type: 'string' },
      sync: { type: 'string' },
      isolate: { type: 'boolean' },
      'node-args': { type: 'string' },
      'accept-threads': { type: 'string' },
      gateway: { type: 'string' },
      keep: { type: 'boolean' },
      repeat: { type: 'string' },
      window: { type: 'string' },
      binds: { type: 'string' },
      'esme-nagle': { type: 'boolean' },
      'esme-no-receipts': { type: 'boolean' },
      'receipt-delay': { type: 'string' },
      'database-url': { type: 'string' },
      nodes: { type: 'string' },
      backlog: { type: 'string' },
      'pg-hot-final': { type: 'boolean' },
      held: { type: 'string' },
      release: { type: 'string' },
      rounds: { type: 'string' },
      stores: { type: 'string' },
      numbers: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (v.help) {
    console.log(HELP);
    return undefined;
  }
  const benchDir = fileURLToPath(new URL('.', import.meta.url));
  const o: Options = {
    scenarios: scenarios(v.scenario),
    clients: Math.max(1, int(v.clients, 'clients', 8)),
    requests: int(v.requests, 'requests', 300),
    warmup: int(v.warmup, 'warmup', 16),
    batch: Math.min(1000, Math.max(1, int(v.batch, 'batch', 1000))),
    messages: int(v.messages, 'messages', 200_000),
    timeLimitS: int(v['time-limit'], 'time-limit', 120),
    drainLimitS: int(v['drain-limit'], 'drain-limit', 300),
    prefill: int(v.prefill, 'prefill', 10_000_000),
    prefillLimitS: int(v['prefill-limit'], 'prefill-limit', 600),
    dataDir: v['data-dir'],
    profile: v.profile ?? false,
    profileDir: v['profile-dir'] ?? join(process.cwd(), 'bench', 'out', 'profiles'),
    synchronous: sync(v.sync),
    isolate: v.isolate ?? false,
    nodeArgs: (v['node-args'] ?? '').split(/\s+/).filter(Boolean),
    acceptThreads:
      v['accept-threads'] === undefined ? undefined : int(v['accept-threads'], 'accept-threads', 0),
    gatewayMain: v.gateway ?? join(benchDir, '..', 'src', 'cli', 'main.js'),
    workDir: join(tmpdir(), 'wirebird-bench'),
    keep: v.keep ?? false,
    repeat: Math.max(1, int(v.repeat, 'repeat', 1)),
    smppWindow: Math.max(1, int(v.window, 'window', 100)),
    smppBinds: Math.max(1, int(v.binds, 'binds', 1)),
    esmeNagle: v['esme-nagle'] ?? false,
    esmeNoReceipts: v['esme-no-receipts'] ?? false,
    receiptDelayMs: int(v['receipt-delay'], 'receipt-delay', 100),
    databaseUrl: v['database-url'] ?? process.env.WIREBIRD_TEST_DATABASE_URL,
    nodes: (v.nodes ?? '1,2,3').split(',').map((n) => Math.max(1, int(n.trim(), 'nodes', 1))),
    backlog: int(v.backlog, 'backlog', 1_000_000),
    pgHotFinal: v['pg-hot-final'] ?? false,
    held: int(v.held, 'held', 1_000_000),
    release: Math.max(1, int(v.release, 'release', 100_000)),
    rounds: Math.max(1, int(v.rounds, 'rounds', 3)),
    stores: stores(v.stores, v['database-url'] ?? process.env.WIREBIRD_TEST_DATABASE_URL),
    numbers: numberOrder(v.numbers),
  };
  // Found here, before anything runs, rather than after the scenarios before it.
  if (o.scenarios.includes('cluster') && !o.databaseUrl) throw new Error(CLUSTER_NEEDS_URL);
  return o;
}

function numberOrder(v: string | undefined): Options['numbers'] {
  if (v === undefined || v === 'ascending' || v === 'scattered') return v ?? 'ascending';
  throw new Error('--numbers must be ascending or scattered');
}

function stores(v: string | undefined, databaseUrl: string | undefined): Options['stores'] {
  if (v === undefined) return databaseUrl ? ['sqlite', 'postgres'] : ['sqlite'];
  const list = v.split(',').map((s) => s.trim());
  for (const s of list) {
    if (s !== 'sqlite' && s !== 'postgres') throw new Error(`--stores: unknown store ${s}`);
    if (s === 'postgres' && !databaseUrl) throw new Error('--stores postgres needs --database-url');
  }
  return list as Options['stores'];
}

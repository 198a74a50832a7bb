import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { KINDS, type Kind } from './messages.js';

export type ContenderName = 'kannel' | 'kannel-multi' | 'wirebird' | 'ceiling';
export const CONTENDERS: readonly ContenderName[] = [
  'kannel',
  'kannel-multi',
  'wirebird',
  'ceiling',
];

export interface KannelBenchOptions {
  messages: number;
  kinds: Kind[];
  windows: number[];
  runs: number;
  contenders: ContenderName[];
  /** Concurrent HTTP clients, for Kannel's sendsms and Wirebird's /api alike. */
  clients: number;
  /** Recipients per sendsms request in the kannel-multi runs. */
  perRequest: number;
  /** Numbers per SendBatchUSMSMessage. */
  batch: number;
  receiptDelayMs: number;
  timeLimitS: number;
  drainLimitS: number;
  kannelBin: string;
  profile: boolean;
  write: boolean;
  gatewayMain: string;
  workDir: string;
  keep: boolean;
}

const HELP = `npm run bench:kannel -- [options]
  --messages <n>       messages per run (100000)
  --kinds <list>       gsm,ucs2,long (all three)
  --windows <list>     submit window per bind, Kannel's max-pending-submits (10,100)
  --runs <n>           runs of each contender, alternating; medians with min and max (3)
  --contenders <list>  kannel,kannel-multi,wirebird,ceiling (all)
  --clients <n>        concurrent HTTP clients for both gateways (8)
  --per-request <n>    recipients per sendsms request in the kannel-multi runs (100)
  --batch <n>          numbers per SendBatchUSMSMessage (1000)
  --receipt-delay <ms> the SMSC simulator's delay before each receipt (100)
  --time-limit <s>     bound on each run's sending phase (300)
  --drain-limit <s>    bound on waiting for the last receipt after sending (300)
  --kannel-bin <dir>   where bearerbox and smsbox are (/usr/sbin; installed with apt-get if missing)
  --profile            run Wirebird under --cpu-prof and summarise its profile
  --no-write           print the table only; leave bench/RESULTS.md alone
  --keep               keep the runs' temp folders (configs, logs, the simulator's submit logs)`;

function int(v: string | undefined, name: string, fallback: number): number {
  if (v === undefined) return fallback;
  const n = Number(v.replace(/_/g, ''));
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`--${name} must be a whole number ≥ 1`);
  return n;
}

function list<T extends string>(v: string | undefined, all: readonly T[], name: string): T[] {
  if (v === undefined) return [...all];
  const out = v.split(',').map((s) => s.trim()) as T[];
  for (const s of out) if (!all.includes(s)) throw new Error(`--${name}: unknown ${s}`);
  return out;
}

export function parseKannelOptions(argv: string[]): KannelBenchOptions | undefined {
  const s = { type: 'string' } as const;
  const { values: v } = parseArgs({
    args: argv,
    options: {
      messages: s,
      kinds: s,
      windows: s,
      runs: s,
      contenders: s,
      clients: s,
      'per-request': s,
      batch: s,
      'receipt-delay': s,
      'time-limit': s,
      'drain-limit': s,
      'kannel-bin': s,
      profile: { type: 'boolean' },
      'no-write': { type: 'boolean' },
      keep: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (v.help) {
    console.log(HELP);
    return undefined;
  }
  const benchDir = fileURLToPath(new URL('..', import.meta.url));
  return {
    messages: int(v.messages, 'messages', 100_000),
    kinds: list(v.kinds, KINDS, 'kinds'),
    windows: (v.windows ?? '10,100').split(',').map((w) => int(w, 'windows', 10)),
    runs: int(v.runs, 'runs', 3),
    contenders: list(v.contenders, CONTENDERS, 'contenders'),
    clients: int(v.clients, 'clients', 8),
    perRequest: int(v['per-request'], 'per-request', 100),
    batch: Math.min(1000, int(v.batch, 'batch', 1000)),
    receiptDelayMs: int(v['receipt-delay'], 'receipt-delay', 100),
    timeLimitS: int(v['time-limit'], 'time-limit', 300),
    drainLimitS: int(v['drain-limit'], 'drain-limit', 300),
    kannelBin: v['kannel-bin'] ?? '/usr/sbin',
    profile: v.profile ?? false,
    write: !(v['no-write'] ?? false),
    gatewayMain: join(benchDir, '..', 'src', 'cli', 'main.js'),
    workDir: join(tmpdir(), 'wirebird-bench-kannel'),
    keep: v.keep ?? false,
  };
}

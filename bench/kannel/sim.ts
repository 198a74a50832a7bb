import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../gateway.js';
import { spawnTracked, stop, type Tracked } from './children.js';

/** The smsc-sim stats file (src/smsc-sim/smsc-sim.ts `stats`). */
export interface SimStats {
  binds: number;
  accepted: number;
  refused: number;
  throttled: number;
  receiptsSent: number;
  receiptsAcked: number;
  firstSubmitAt: number;
  lastSubmitAt: number;
  firstReceiptAckAt: number;
  lastReceiptAckAt: number;
}

export interface Sim {
  port: number;
  proc: Tracked;
  stats(): SimStats | undefined;
  /** Polls the stats file until `done` holds or `deadlineMs` (epoch) passes; the last stats. */
  waitFor(done: (s: SimStats) => boolean, deadlineMs: number): Promise<SimStats | undefined>;
  /** Stops the simulator (so its log is complete) and reads destination → first submit time. */
  stopAndReadLog(): Promise<Map<string, number>>;
}

function readStats(file: string): SimStats | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as SimStats;
  } catch {
    return undefined; // not written yet
  }
}

function firstSubmits(file: string): Map<string, number> {
  const first = new Map<string, number>();
  if (!existsSync(file)) return first;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const space = line.indexOf(' ');
    if (space < 0) continue;
    const to = line.slice(space + 1);
    if (!first.has(to)) first.set(to, Number(line.slice(0, space)));
  }
  return first;
}

/** A fresh `wirebird smsc-sim` child on a free port, receipts on, writing its stats and log. */
export async function startSim(main: string, dir: string, receiptDelayMs: number): Promise<Sim> {
  const port = await freePort();
  const statsFile = join(dir, 'smsc-sim.json');
  const logFile = join(dir, 'smsc-sim.submits');
  const args = [main, 'smsc-sim', '--port', String(port), '--receipt-delay-ms'];
  args.push(String(receiptDelayMs), '--stats-file', statsFile, '--submit-log', logFile);
  const proc = spawnTracked('smsc-sim', process.execPath, args, join(dir, 'smsc-sim.log'));
  const sim: Sim = {
    port,
    proc,
    stats: () => readStats(statsFile),
    async waitFor(done, deadlineMs) {
      let s = readStats(statsFile);
      while (!(s && done(s)) && Date.now() < deadlineMs && proc.child.exitCode === null) {
        await sleep(100);
        s = readStats(statsFile);
      }
      return s;
    },
    async stopAndReadLog() {
      await stop(proc);
      return firstSubmits(logFile);
    },
  };
  if (!(await sim.waitFor(() => true, Date.now() + 15_000))) {
    await stop(proc);
    throw new Error(`smsc-sim did not start (see ${join(dir, 'smsc-sim.log')})`);
  }
  return sim;
}

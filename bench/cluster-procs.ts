import { readdirSync, readFileSync } from 'node:fs';
import { machineBusyS, readProc } from './proc.js';

/** Every PostgreSQL process on the machine (server, backends, writers), by /proc/<pid>/comm. */
export function postgresPids(): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/comm`, 'utf8').trim() === 'postgres') pids.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/** CPU seconds used so far, per pid; a pid that has gone counts as what it had last. */
export function cpuByPid(pids: readonly number[]): Map<number, number> {
  return new Map(pids.map((pid) => [pid, readProc(pid)?.cpuS ?? 0]));
}

/**
 * CPU seconds a set of processes used between two readings. PostgreSQL backends come and go
 * with connections, so the set is read again at the end and a new pid counts from zero.
 */
export function cpuSince(before: Map<number, number>, pids: readonly number[]): number {
  let total = 0;
  for (const pid of pids) {
    const now = readProc(pid)?.cpuS;
    if (now !== undefined) total += now - (before.get(pid) ?? 0);
  }
  return total;
}

export interface ClusterCpu {
  /** CPU seconds in the window: the gateway nodes, PostgreSQL, everything else on the machine. */
  nodesS: number;
  postgresS: number;
  othersS: number;
}

/**
 * PostgreSQL's CPU over a window. Backends come and go (a pool closes idle connections,
 * autovacuum starts workers), so every postgres process is sampled every 100 ms and counted from
 * when it was first seen (from zero if it started within the window); one that exits loses at
 * most its last 100 ms.
 */
class PostgresCpu {
  private readonly first = new Map<number, number>();
  private readonly last = new Map<number, number>();
  private readonly timer: NodeJS.Timeout;

  constructor() {
    for (const [pid, cpu] of cpuByPid(postgresPids())) this.first.set(pid, cpu);
    this.timer = setInterval(() => this.sample(), 100);
  }

  end(): number {
    clearInterval(this.timer);
    this.sample();
    let total = 0;
    for (const [pid, cpu] of this.last) total += cpu - (this.first.get(pid) ?? 0);
    return total;
  }

  private sample(): void {
    for (const pid of postgresPids()) {
      const cpu = readProc(pid)?.cpuS;
      if (cpu === undefined) continue;
      if (!this.first.has(pid)) this.first.set(pid, 0);
      this.last.set(pid, cpu);
    }
  }
}

/** Starts a window over the nodes' and PostgreSQL's CPU; the function it answers ends it. */
export function clusterCpuWindow(nodePids: readonly number[]): () => ClusterCpu {
  const before = cpuByPid(nodePids);
  const postgres = new PostgresCpu();
  const busy0 = machineBusyS();
  const bench0 = process.cpuUsage();
  return () => {
    const nodesS = cpuSince(before, nodePids);
    const postgresS = postgres.end();
    const b = process.cpuUsage(bench0);
    const benchS = (b.user + b.system) / 1e6;
    const othersS = Math.max(0, machineBusyS() - busy0 - nodesS - postgresS - benchS);
    return { nodesS, postgresS, othersS };
  };
}

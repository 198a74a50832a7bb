import { readFileSync } from 'node:fs';

/** Clock ticks per second for /proc/<pid>/stat (USER_HZ; 100 on every Linux we run on). */
const CLK_TCK = 100;

export interface ProcSample {
  rssMb: number;
  /** Peak resident set size the kernel recorded for the process (VmHWM). */
  hwmMb: number;
  /** User + system CPU seconds so far. */
  cpuS: number;
  /** Bytes the process made the kernel fetch from storage so far (/proc/<pid>/io read_bytes). */
  diskReadMb: number;
}

function statusKb(status: string, field: string): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  return m ? Number(m[1]) : 0;
}

/** Reads one process's memory and CPU from /proc; undefined once it has gone. */
export function readProc(pid: number): ProcSample | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may itself hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]); // utime (14th), stime (15th)
    const io = /^read_bytes:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'));
    return {
      diskReadMb: Number(io?.[1] ?? 0) / 1024 ** 2,
      rssMb: statusKb(status, 'VmRSS') / 1024,
      hwmMb: statusKb(status, 'VmHWM') / 1024,
      cpuS: ticks / CLK_TCK,
    };
  } catch {
    return undefined;
  }
}

/** Samples VmRSS every `everyMs` and keeps the peak, alongside the kernel's own VmHWM. */
export class ProcSampler {
  peakRssMb = 0;
  /** VmRSS about once a second, [seconds since start, MB], to show growth or a plateau. */
  readonly timeline: [number, number][] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly t0 = Date.now();

  constructor(
    readonly pid: number,
    private readonly everyMs = 200,
  ) {}

  start(): this {
    this.sample();
    this.timer = setInterval(() => this.sample(), this.everyMs);
    this.timer.unref();
    return this;
  }

  sample(): ProcSample | undefined {
    const s = readProc(this.pid);
    if (!s) return undefined;
    this.peakRssMb = Math.max(this.peakRssMb, s.rssMb);
    const t = (Date.now() - this.t0) / 1000;
    const last = this.timeline.at(-1);
    if (!last || t - last[0] >= 1) this.timeline.push([Math.round(t), Math.round(s.rssMb)]);
    return s;
  }

  stop(): ProcSample | undefined {
    clearInterval(this.timer);
    return this.sample();
  }
}

/** Busy CPU seconds of the whole machine, all cores (from /proc/stat). */
export function machineBusyS(): number {
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
  const [user, nice, system, , , irq, softirq, steal] = cpu.split(/\s+/).slice(1).map(Number);
  return (
    ((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0)) /
    CLK_TCK
  );
}

export interface CpuSplit {
  /** CPU seconds in the window: the gateway's, this bench process's, and everything else's. */
  gatewayS: number;
  benchS: number;
  othersS: number;
  /** What the gateway read from storage (not the page cache) in the window. */
  diskReadMb: number;
}

/** CPU seconds and storage reads summed over `pids` (a gateway of several processes). */
function readGroup(pids: readonly number[]): { cpuS: number; diskReadMb: number } {
  let cpuS = 0;
  let diskReadMb = 0;
  for (const pid of pids) {
    const p = readProc(pid);
    cpuS += p?.cpuS ?? 0;
    diskReadMb += p?.diskReadMb ?? 0;
  }
  return { cpuS, diskReadMb };
}

/**
 * Where the machine's CPU went between start() and end(), to show how quiet the run was. The
 * gateway may be several processes (Kannel's bearerbox and smsbox); their CPU is summed. A process
 * that exits inside the window takes its CPU with it, so end() before stopping them.
 */
export class CpuWindow {
  private constructor(
    private readonly pids: readonly number[],
    private readonly gw0: number,
    private readonly bench0: NodeJS.CpuUsage,
    private readonly machine0: number,
    private readonly read0: number,
  ) {}

  static start(pid: number | readonly number[]): CpuWindow {
    const pids = typeof pid === 'number' ? [pid] : pid;
    const g = readGroup(pids);
    return new CpuWindow(pids, g.cpuS, process.cpuUsage(), machineBusyS(), g.diskReadMb);
  }

  end(): CpuSplit {
    const g = readGroup(this.pids);
    const gatewayS = Math.max(0, g.cpuS - this.gw0);
    const diskReadMb = Math.max(0, g.diskReadMb - this.read0);
    const b = process.cpuUsage(this.bench0);
    const benchS = (b.user + b.system) / 1e6;
    const othersS = Math.max(0, machineBusyS() - this.machine0 - gatewayS - benchS);
    return { gatewayS, benchS, othersS, diskReadMb };
  }
}

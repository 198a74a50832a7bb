import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import type { TargetsPlanner } from '../../domain/batches/plan-batch.js';
import {
  planTargets,
  type TargetsJob,
  type TargetsPlan,
} from '../../domain/batches/plan-targets.js';
import type { PlanRequest } from './plan-worker.js';

/** Below this many numbers a request is planned here: a thread hop costs more than it saves. */
export const MIN_POOLED_TARGETS = 64;
/** A group is cut into pieces of at least this many numbers when several threads can share it. */
const MIN_PIECE = 128;

type PlanAnswer = { id: number; plan: TargetsPlan } | { id: number; error: string };

interface Pending {
  resolve(plan: TargetsPlan): void;
  reject(err: Error): void;
}

/** One thread of the pool and the jobs it has not answered yet. */
class PlanThread {
  readonly pending = new Map<number, Pending>();
  /** Whether it ever answered: one that dies before its first answer is not started again. */
  answered = false;
  private readonly worker: Worker;

  constructor(script: URL, onExit: (thread: PlanThread, err: Error) => void) {
    this.worker = new Worker(script);
    // A gateway that is stopping must not wait for an idle planner.
    this.worker.unref();
    this.worker.on('message', (a: PlanAnswer) => this.answer(a));
    this.worker.on('error', (err) => onExit(this, err));
    this.worker.on('exit', (code) => onExit(this, new Error(`plan thread exited (${code})`)));
  }

  run(id: number, job: TargetsJob): Promise<TargetsPlan> {
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, job } satisfies PlanRequest);
    });
  }

  failAll(err: Error): void {
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }

  terminate(): Promise<number> {
    return this.worker.terminate();
  }

  private answer(a: PlanAnswer): void {
    this.answered = true;
    const p = this.pending.get(a.id);
    if (!p) return;
    this.pending.delete(a.id);
    if ('error' in a) p.reject(new Error(a.error));
    else p.resolve(a.plan);
  }
}

/**
 * SendBatchUSMSMessage's number-level work (phone normalisation, rendering, segment counting) on
 * worker threads, so that the thread which owns HTTP and the store spends its time on those. A
 * thread that dies is replaced, and the pieces it held are planned on this thread instead: a
 * request is never lost to the pool.
 */
export class PlanPool {
  private threads: PlanThread[];
  private nextId = 0;
  private closed = false;

  constructor(
    size: number,
    private readonly log: Logger,
    /** The thread's script; tests give one that fails. */
    private readonly script = new URL('./plan-worker.js', import.meta.url),
  ) {
    this.threads = Array.from({ length: size }, () => this.spawn());
  }

  readonly plan: TargetsPlanner = async (jobs) => {
    const total = jobs.reduce((n, j) => n + j.targets.length, 0);
    if (this.closed || total < MIN_POOLED_TARGETS) return jobs.map(planTargets);
    return Promise.all(jobs.map((job) => this.planJob(job)));
  };

  async close(): Promise<void> {
    this.closed = true;
    const threads = this.threads;
    this.threads = [];
    await Promise.all(threads.map((t) => t.terminate()));
  }

  private async planJob(job: TargetsJob): Promise<TargetsPlan> {
    const pieces = piecesOf(job, this.threads.length);
    const plans = await Promise.all(pieces.map((piece) => this.runPiece(piece)));
    if (plans.length === 1) return plans[0] as TargetsPlan;
    return {
      accepted: plans.flatMap((p) => p.accepted),
      failed: plans.flatMap((p) => p.failed),
    };
  }

  private async runPiece(piece: TargetsJob): Promise<TargetsPlan> {
    const thread = this.leastBusy();
    if (!thread) return planTargets(piece);
    try {
      return await thread.run(this.nextId++, piece);
    } catch (err) {
      this.log.warn({ err }, 'a plan thread failed; planning its numbers on the main thread');
      return planTargets(piece);
    }
  }

  private leastBusy(): PlanThread | undefined {
    let best: PlanThread | undefined;
    for (const t of this.threads) if (!best || t.pending.size < best.pending.size) best = t;
    return best;
  }

  private spawn(): PlanThread {
    return new PlanThread(this.script, (thread, err) => {
      if (!this.threads.includes(thread)) return;
      thread.failAll(err);
      this.threads = this.threads.filter((t) => t !== thread);
      if (this.closed) return;
      if (!thread.answered) {
        this.log.error({ err }, 'a plan thread failed to start; planning on the main thread');
        return;
      }
      this.log.warn({ err }, 'a plan thread stopped; starting another');
      this.threads.push(this.spawn());
    });
  }
}

/** The job cut into up to `parts` pieces of consecutive numbers, none smaller than MIN_PIECE. */
function piecesOf(job: TargetsJob, parts: number): TargetsJob[] {
  const n = Math.max(1, Math.min(parts, Math.floor(job.targets.length / MIN_PIECE)));
  if (n === 1) return [job];
  const size = Math.ceil(job.targets.length / n);
  return Array.from({ length: n }, (_, i) => ({
    ...job,
    targets: job.targets.slice(i * size, (i + 1) * size),
  }));
}

import type { Logger } from 'pino';
import { Worker } from 'node:worker_threads';
import type { Config } from '../../config/config.js';
import type { StoreShare } from '../../domain/ports.js';
import { releaseShareOf } from '../../store/open-store.js';
import { successAnswer } from '../answer.js';
import type { ActionOffload, ApiOutcome, OffloadedRequest } from '../context.js';
import {
  landError,
  OFFLOADED_ACTIONS,
  type AcceptedCounts,
  type RefusedCounts,
  type AcceptReply,
  type AcceptWorkerData,
  type FromWorker,
} from './protocol.js';

/**
 * Bodies that name an offloaded Action, as clients write them. Only a hint: the thread parses the
 * body and hands back any that is not one of its Actions; one this misses is answered here.
 */
const LOOKS_OFFLOADED = new RegExp(`"Action"\\s*:\\s*"(${[...OFFLOADED_ACTIONS].join('|')})"`);

// A thread holds little but request bodies and their rows. A small young generation keeps its
// RSS small (8 MB against 32: about 15 MB less per thread, 5 - 10 % more CPU per message, in
// bench/RESULTS.md section 0); the old generation's cap is a guard, far above what it holds.
const RESOURCE_LIMITS = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 8 };

interface Pending {
  resolve(reply: AcceptReply): void;
  reject(err: Error): void;
}

interface Thread {
  worker: Worker;
  /** Kept apart: a Worker's own threadId reads -1 once the thread has gone. */
  threadId: number;
  pending: Map<number, Pending>;
  /** Called when the last pending request settles, while the thread is being retired. */
  drained?: () => void;
  exited: Promise<void>;
}

export interface AcceptPoolOptions {
  threads: number;
  config: Config;
  /** What each thread opens its own store connection with (the main thread's store is SQLite). */
  share: StoreShare;
  log: Logger;
  /** Told the counts of what each offloaded request stored (metrics, the dispatcher's nudge). */
  onAccepted(counts: AcceptedCounts, due: boolean): void;
  /** Told the numbers an account's policy refused (metrics). */
  onRefused(counts: RefusedCounts): void;
  /** Told how many threads run, after each start, death or replacement (metrics). */
  onThreads?(running: number): void;
  /** How long the threads stay without a request before they end (ACCEPT_THREADS_IDLE_MS). */
  idleMs?: number;
}

/**
 * Threads with no request for this long end, and their memory with them; the next batch starts
 * them again (about a second of CPU, against 25 MB each kept through a quiet spell).
 */
export const ACCEPT_THREADS_IDLE_MS = 60_000;

/**
 * The acceptance threads and the requests in flight on each: started by the first batch, ended
 * after ACCEPT_THREADS_IDLE_MS without one. A thread that dies fails the
 * requests it held (their transaction either committed or did not: an Idempotency-Key retry
 * tells which) and a new one takes its place.
 */
export class AcceptPool implements ActionOffload {
  private readonly threads: Thread[] = [];
  private nextId = 1;
  private stopping = false;
  /** Ends the threads once no request came for idleMs; each request sets it again. */
  private idleTimer: NodeJS.Timeout | undefined;
  /** Requests the threads answered (and did not hand back), since start. */
  answered = 0;

  /** The threads' start, once begun: by the first offloaded request, or by ready(). */
  private starting: Promise<void> | undefined;

  /**
   * No thread starts here: each costs 25 MB and most of a second of CPU, and a gateway that
   * takes no SendBatchUSMSMessage needs none. The first such request starts them and is
   * answered on the main thread, as every one is until a thread is ready.
   */
  constructor(private readonly options: AcceptPoolOptions) {}

  /** Starts the threads if they are not yet starting; resolves once they all run. */
  ready(): Promise<void> {
    this.starting ??= this.fill();
    return this.starting;
  }

  /** Threads running now (the metrics read it). */
  get running(): number {
    return this.threads.length;
  }

  actionIn(body: string): string | undefined {
    return LOOKS_OFFLOADED.exec(body)?.[1];
  }

  async run(
    request: OffloadedRequest,
  ): Promise<{ action: string | undefined; outcome: ApiOutcome } | undefined> {
    const thread = this.leastBusy();
    // Before the threads start, and between a thread's death and its successor's start, the
    // main thread answers alone.
    if (!thread) {
      // Told once: a start that failed is not tried again, and every batch is answered here.
      if (!this.starting) {
        this.ready().catch((err: unknown) =>
          this.options.log.error(
            { err },
            'acceptance threads cannot start; the main thread answers',
          ),
        );
      }
      return undefined;
    }
    const id = this.nextId++;
    const reply = await new Promise<AcceptReply>((resolve, reject) => {
      thread.pending.set(id, { resolve, reject });
      thread.worker.postMessage({ id, ...request });
    });
    if (!reply.taken) return undefined;
    this.answered++;
    this.untilIdle();
    if (reply.refused) this.options.onRefused(reply.refused);
    if ('error' in reply)
      return { action: reply.action, outcome: { ok: false, err: landError(reply.error) } };
    this.options.onAccepted(reply.accepted, reply.due);
    const answer = successAnswer(reply.action, reply.fields);
    return { action: reply.action, outcome: { ok: true, answer } };
  }

  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.idleTimer);
    // A thread still starting is retired by fill() once it is up.
    await this.starting?.catch(() => undefined);
    const threads = this.threads.splice(0);
    await Promise.all(threads.map((t) => this.retire(t)));
  }

  /** (Re)starts the wait after which threads without a request end. */
  private untilIdle(): void {
    if (this.idleTimer) {
      this.idleTimer.refresh();
      return;
    }
    this.idleTimer = setTimeout(
      () => void this.endIdle(),
      this.options.idleMs ?? ACCEPT_THREADS_IDLE_MS,
    );
    this.idleTimer.unref();
  }

  /** Ends the threads (none has a request in hand); the next batch starts them again. */
  private async endIdle(): Promise<void> {
    this.idleTimer = undefined;
    if (this.stopping) return;
    if (this.threads.some((t) => t.pending.size > 0)) {
      this.untilIdle();
      return;
    }
    const threads = this.threads.splice(0);
    this.starting = undefined;
    this.options.onThreads?.(0);
    this.options.log.info({ threads: threads.length }, 'acceptance threads idle: ending them');
    await Promise.all(threads.map((t) => this.retire(t)));
  }

  private leastBusy(): Thread | undefined {
    let best = this.threads[0];
    if (!best) return undefined;
    for (const t of this.threads) if (t.pending.size < best.pending.size) best = t;
    return best;
  }

  /** Starts the configured threads side by side; one started after stop() is retired. */
  private async fill(): Promise<void> {
    const spawned = await Promise.allSettled(
      Array.from({ length: this.options.threads }, () => this.spawn()),
    );
    for (const s of spawned) {
      if (s.status === 'rejected') continue;
      if (this.stopping) await this.retire(s.value);
      else this.threads.push(s.value);
    }
    this.options.onThreads?.(this.threads.length);
    this.untilIdle();
    const failed = spawned.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
  }

  private spawn(): Promise<Thread> {
    const { config, share } = this.options;
    const workerData: AcceptWorkerData = { config, share };
    const worker = new Worker(new URL('./accept-worker.js', import.meta.url), {
      workerData,
      resourceLimits: RESOURCE_LIMITS,
    });
    const exited = new Promise<void>((done) => worker.once('exit', () => done()));
    const thread: Thread = { worker, threadId: worker.threadId, pending: new Map(), exited };
    return new Promise((resolve, reject) => {
      worker.on('message', (message: FromWorker) => {
        if ('ready' in message) resolve(thread);
        else if ('id' in message) settle(thread, message);
      });
      worker.once('error', (err) => {
        reject(err);
        this.options.log.error({ err, threadId: thread.threadId }, 'acceptance thread failed');
      });
      worker.once('exit', (code) => {
        reject(new Error(`acceptance thread exited (code ${code}) before it was ready`));
        this.died(thread, code);
      });
    });
  }

  /** Frees what a thread that exited held, and puts a new one in its place. */
  private died(thread: Thread, code: number): void {
    releaseShareOf(this.options.share, thread.threadId);
    const lost = new Error(`the acceptance thread exited (code ${code}) with the request in hand`);
    for (const p of thread.pending.values()) p.reject(lost);
    thread.pending.clear();
    thread.drained?.();
    const at = this.threads.indexOf(thread);
    if (at < 0 || this.stopping) return;
    this.threads.splice(at, 1);
    this.options.onThreads?.(this.threads.length);
    this.options.log.error({ code }, 'acceptance thread exited; starting another');
    this.spawn().then(
      (t) => {
        if (this.stopping) return void this.retire(t);
        this.threads.push(t);
        this.options.onThreads?.(this.threads.length);
      },
      (err: unknown) => this.options.log.error({ err }, 'cannot restart an acceptance thread'),
    );
  }

  /** Lets a thread finish the requests it holds, then closes its connection and ends it. */
  private async retire(thread: Thread): Promise<void> {
    if (thread.pending.size > 0) await new Promise<void>((done) => (thread.drained = done));
    thread.worker.postMessage({ stop: true });
    await thread.exited;
  }
}

function settle(thread: Thread, reply: AcceptReply): void {
  const p = thread.pending.get(reply.id);
  if (!p) return;
  thread.pending.delete(reply.id);
  p.resolve(reply);
  if (thread.pending.size === 0) thread.drained?.();
}

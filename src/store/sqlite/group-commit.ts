import type { Db } from './database.js';

interface Job {
  work: () => unknown;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

/**
 * Commits the writes queued within one turn of the event loop together: one COMMIT, and so one
 * wait for the disk, for every request that came in while the thread was busy. Each piece of work
 * runs in a savepoint of its own, so one that throws rolls back alone and the others still commit.
 * Each promise settles only after the COMMIT: an answer never precedes its durability.
 */
export function groupCommit(db: Db): <T>(work: () => T) => Promise<T> {
  let queue: Job[] = [];
  const savepoint = db.transaction((work: () => unknown) => work());
  const commitAll = db.transaction((jobs: readonly Job[]) =>
    jobs.map((job) => {
      try {
        return { ok: true as const, value: savepoint(job.work) };
      } catch (err) {
        return { ok: false as const, err };
      }
    }),
  );
  const flush = () => {
    const jobs = queue;
    queue = [];
    let outcomes;
    try {
      outcomes = commitAll(jobs);
    } catch (err) {
      for (const job of jobs) job.reject(err);
      return;
    }
    outcomes.forEach((o, i) => {
      // commitAll answers one outcome per job, in order.
      const job = jobs[i] as Job;
      if (o.ok) job.resolve(o.value);
      else job.reject(o.err);
    });
  };
  return <T>(work: () => T) =>
    new Promise<T>((resolve, reject) => {
      if (queue.length === 0) setImmediate(flush);
      queue.push({ work, resolve: resolve, reject });
    });
}

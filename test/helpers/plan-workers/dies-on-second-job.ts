import { parentPort } from 'node:worker_threads';
import { planTargets, type TargetsJob } from '../../../src/domain/batches/plan-targets.js';

// Answers its first job, then dies holding the second: the pool must finish that job itself
// and start a new thread for the ones after.
let jobs = 0;
parentPort?.on('message', ({ id, job }: { id: number; job: TargetsJob }) => {
  if (++jobs === 2) process.exit(3);
  parentPort?.postMessage({ id, plan: planTargets(job) });
});

import { parentPort } from 'node:worker_threads';
import { planTargets, type TargetsJob } from '../../domain/batches/plan-targets.js';

/** A plan-pool thread: number-level planning of SendBatchUSMSMessage, one job per message. */
export interface PlanRequest {
  id: number;
  job: TargetsJob;
}

const port = parentPort;
if (!port) throw new Error('plan-worker runs as a worker thread of the gateway');
port.on('message', ({ id, job }: PlanRequest) => {
  try {
    port.postMessage({ id, plan: planTargets(job) });
  } catch (err) {
    port.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
});

import { parentPort } from 'node:worker_threads';
import type { TargetsJob } from '../../../src/domain/batches/plan-targets.js';

// Answers each piece with one failure naming the numbers it was given: shows which work went
// to a thread and how a job was cut.
parentPort?.on('message', ({ id, job }: { id: number; job: TargetsJob }) => {
  const phones = job.targets.map((t) => t.Phone);
  const FailureDetails = `thread got ${phones.length}: ${phones[0]}…${phones.at(-1)}`;
  const failed = [{ TemplateParams: [], Phone: '', ExtendCode: '', UserId: '', FailureDetails }];
  parentPort?.postMessage({ id, plan: { accepted: [], failed } });
});

import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import pino from 'pino';
import { planHere } from '../../domain/batches/plan-batch.js';
import type { TargetsJob } from '../../domain/batches/plan-targets.js';
import { MIN_POOLED_TARGETS, PlanPool } from './plan-pool.js';

const quiet = pino({ level: 'silent' });
const helpers = new URL('../../../test/helpers/plan-workers/', import.meta.url);

/** n numbers of a one-variable template; every 7th has a bad phone, every 11th a missing param. */
function job(n: number, templateId = 'UTA1'): TargetsJob {
  return {
    templateId,
    template: 'Your code is {1}',
    groupSenderId: 'ACME',
    defaultRegion: 'CN',
    targets: Array.from({ length: n }, (_, i) => ({
      Phone: i % 7 === 3 ? '12' : `+86138${String(10_000_000 + i).padStart(8, '0')}`,
      TemplateParams: i % 11 === 5 ? [] : [String(i)],
      ...(i % 13 === 0 ? { SenderId: 'OTHER', UserId: `u${i}` } : {}),
    })),
  };
}

describe('PlanPool', () => {
  const pools: PlanPool[] = [];
  const pool = (size: number, script?: URL) => {
    const p = new PlanPool(size, quiet, script);
    pools.push(p);
    return p;
  };
  after(() => Promise.all(pools.map((p) => p.close())));

  it('plans every group as this thread would, in order, whole or cut between threads', async () => {
    const jobs = [job(1000), job(3, 'UTA2'), job(300, 'UTA3')];
    const expected = await planHere(jobs);
    assert.equal(expected[0]?.failed.length, 143 + 91 - 13);
    for (const size of [1, 3]) assert.deepEqual(await pool(size).plan(jobs), expected);
  });

  it('hands requests of many numbers to its threads, cut into one piece per thread', async () => {
    const named = (p: PlanPool, jobs: TargetsJob[]) =>
      p.plan(jobs).then((plans) => plans.flatMap((x) => x.failed.map((f) => f.FailureDetails)));
    const script = new URL('names-its-pieces.js', helpers);
    const big = job(500);
    const first = big.targets[0]?.Phone;
    assert.deepEqual(await named(pool(1, script), [big]), [
      `thread got 500: ${first}…${big.targets[499]?.Phone}`,
    ]);
    const pieces = await named(pool(3, script), [big]);
    assert.deepEqual(
      pieces.map((d) => d.split(':')[0]),
      ['thread got 167', 'thread got 167', 'thread got 166'],
    );
    // A request under the threshold never leaves this thread.
    const small = job(MIN_POOLED_TARGETS - 1);
    assert.deepEqual(await pool(1, script).plan([small]), await planHere([small]));
  });

  it('still answers after it is closed, on this thread', async () => {
    const p = pool(1);
    await p.close();
    assert.deepEqual(await p.plan([job(500)]), await planHere([job(500)]));
  });

  it('plans on this thread when its threads cannot start', async () => {
    const p = pool(2, new URL('dies-at-start.js', helpers));
    for (let i = 0; i < 3; i++)
      assert.deepEqual(await p.plan([job(400)]), await planHere([job(400)]));
  });

  it('finishes the job a dying thread held, and replaces the thread', async () => {
    const p = pool(1, new URL('dies-on-second-job.js', helpers));
    // Jobs 1 and 2 go to the first thread, which dies on 2; 3 and 4 to its replacement.
    for (let i = 0; i < 4; i++) {
      assert.deepEqual(await p.plan([job(200 + i)]), await planHere([job(200 + i)]));
    }
  });
});

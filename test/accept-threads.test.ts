import Database from 'better-sqlite3';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Worker } from 'node:worker_threads';
import type { StoreShare } from '../src/domain/ports.js';
import { eventually, sqliteOnly, startTestGateway, type TestGateway } from './helpers/gateway.js';
import {
  approvedTemplate,
  batchBody,
  cn,
  finalReceipts,
  numbers,
  receiptOf,
  sendAll,
  storedMessages,
} from './helpers/sending.js';

const targets = (phones: string[]) => phones.map((Phone) => ({ Phone, TemplateParams: ['7'] }));

/** The answer to a raw body, as the client sent it, with the dev key. */
async function post(gw: TestGateway, text: string) {
  const res = await fetch(`${gw.url}/api`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${gw.key}` },
    body: text,
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

const threadsOf = (pool: NonNullable<TestGateway['acceptPool']>) =>
  (pool as unknown as { threads: { worker: Worker }[] }).threads;

/** A thread's requests in hand (the pool's own bookkeeping). */
type Busy = { pending: Map<number, unknown> };

function pick(o: Record<string, unknown>, ...keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((k) => [k, o[k]]));
}

describe('SendBatchUSMSMessage on acceptance threads', sqliteOnly, () => {
  let gw: TestGateway;
  let tpl: string;
  before(async () => {
    gw = await startTestGateway({ simDelayMs: 0, acceptThreads: 2 });
    tpl = await approvedTemplate(gw, 'Your code is {1}');
  });
  after(() => gw.close());

  it('accepts concurrent batches there, all of them stored and delivered', async () => {
    const pool = gw.acceptPool;
    assert.ok(pool, 'a SQLite gateway with acceptThreads 2 runs acceptance threads');
    const answeredBefore = pool.answered;
    const storedBefore = await storedMessages(gw);
    const sessions = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        sendAll(gw, [{ TemplateId: tpl, Target: targets(numbers(50, i * 50)) }]),
      ),
    );
    assert.equal(pool.answered - answeredBefore, 6);
    assert.equal(new Set(sessions).size, 6);
    assert.equal((await storedMessages(gw)) - storedBefore, 300);
    for (const s of sessions) {
      const set = await finalReceipts(gw, s, 50);
      assert.ok(set.every((r) => r.ReceiptResult === 'Success'));
    }
  });

  it('answers as the main thread does, refusals included, and survives a deeply nested body', async () => {
    const plain = await startTestGateway({ simDelayMs: 0, acceptThreads: 0 });
    try {
      const pool = gw.acceptPool as NonNullable<TestGateway['acceptPool']>;
      const threadIds = () => threadsOf(pool).map((t) => t.worker.threadId);
      const before = { answered: pool.answered, threads: threadIds() };
      const batch = (extra: string) => `{"Action":"SendBatchUSMSMessage","AccountId":1${extra}}`;
      const bodies = [
        batch(''),
        batch(',"TaskContent":[]'),
        batch(',"TaskContent":[{"TemplateId":"UTA-NONE","Target":[{"Phone":"+8613800000006"}]}]'),
        batch(`,"Deep":${'['.repeat(20_000)}${']'.repeat(20_000)}`),
        '{"Action":"SendBatchUSMSMessage","AccountId":2,"TaskContent":[]}',
      ];
      for (const text of bodies) {
        const [threaded, main] = [await post(gw, text), await post(plain, text)];
        const strip = (json: Record<string, unknown>) => ({ ...json, ReqUuid: undefined });
        assert.equal(threaded.status, main.status, text.slice(0, 80));
        assert.deepEqual(strip(threaded.json), strip(main.json), text.slice(0, 80));
      }
      assert.equal(pool.answered - before.answered, bodies.length);
      assert.deepEqual(threadIds(), before.threads, 'no thread died');
      const wrongKey = await gw.api(batchBody([]), { key: 'wb_not-a-key' });
      assert.equal(wrongKey.status, 401);
      assert.equal(wrongKey.json.Action, 'SendBatchUSMSMessageResponse');
    } finally {
      await plain.close();
    }
  });

  it('sends a request repeated with one Idempotency-Key once, whichever threads take it', async () => {
    const stored = await storedMessages(gw);
    const body = batchBody([{ TemplateId: tpl, Target: targets(numbers(4, 500)) }]);
    const headers = { 'idempotency-key': 'threads-once' };
    const answers = await Promise.all(Array.from({ length: 4 }, () => gw.api(body, { headers })));
    const sessions = new Set(answers.map((a) => a.json.SessionNo));
    assert.equal(sessions.size, 1);
    assert.ok(answers.every((a) => a.json.RetCode === 0));
    assert.equal((await storedMessages(gw)) - stored, 4);
  });

  it('hands back a body that only looks like a batch, and the main thread answers it', async () => {
    const pool = gw.acceptPool as NonNullable<TestGateway['acceptPool']>;
    const answeredBefore = pool.answered;
    // The top-level Action is another one; a nested object names SendBatchUSMSMessage.
    const query = await post(
      gw,
      JSON.stringify({
        Action: 'QueryUSMSTemplate',
        AccountId: 1,
        TemplateId: [tpl],
        Note: { Action: 'SendBatchUSMSMessage' },
      }),
    );
    assert.equal(query.json.Action, 'QueryUSMSTemplateResponse');
    assert.equal(query.json.RetCode, 0);
    // Not JSON, and a key JSON parsers are told to refuse: refused as on the main thread.
    const broken = await post(gw, '{"Action":"SendBatchUSMSMessage","AccountId":1,');
    assert.equal(broken.status, 400);
    assert.equal(broken.json.RetCode, 18000);
    const poisoned = await post(
      gw,
      `{"Action":"SendBatchUSMSMessage","AccountId":1,"TaskContent":[{"TemplateId":"${tpl}","Target":[{"Phone":"${cn(7)}","TemplateParams":["1"],"__proto__":{"x":1}}]}]}`,
    );
    assert.equal(poisoned.status, 400);
    assert.equal(poisoned.json.RetCode, 18000);
    assert.equal(pool.answered, answeredBefore);
  });

  it('replaces threads that died, answering on the main thread meanwhile', async () => {
    const pool = gw.acceptPool as NonNullable<TestGateway['acceptPool']>;
    const dead = threadsOf(pool).map((t) => t.worker.threadId);
    await Promise.all(threadsOf(pool).map((t) => t.worker.terminate()));
    const first = await sendAll(gw, [{ TemplateId: tpl, Target: targets([cn(1), cn(8)]) }]);
    const set = await finalReceipts(gw, first, 2);
    assert.equal(receiptOf(set, cn(1)).ReceiptResult, 'Fail');
    assert.equal(receiptOf(set, cn(8)).ReceiptResult, 'Success');
    await eventually(
      async () => (threadsOf(pool).length === 2 ? true : undefined),
      'two new acceptance threads',
    );
    assert.ok(threadsOf(pool).every((t) => !dead.includes(t.worker.threadId)));
    const answeredBefore = pool.answered;
    const next = await sendAll(gw, [{ TemplateId: tpl, Target: targets(numbers(3, 900)) }]);
    assert.equal(pool.answered - answeredBefore, 1);
    assert.equal((await finalReceipts(gw, next, 3)).length, 3);
  });
});

/** The value of a gauge without labels in the gateway's /metrics. */
async function gauge(gw: TestGateway, name: string): Promise<number> {
  const res = await fetch(`${gw.url}/metrics`, {
    headers: { authorization: `Bearer ${gw.adminKey}` },
  });
  const line = new RegExp(`^${name} (\\d+)$`, 'm').exec(await res.text());
  assert.ok(line, `${name} in /metrics`);
  return Number(line[1]);
}

/** A gateway with two acceptance threads, left to start with the first batch as in production. */
const lazyGateway = () =>
  startTestGateway({ simDelayMs: 0, acceptThreads: 2 }, undefined, undefined, {
    lazyThreads: true,
  });

describe('acceptance threads started by the first batch', sqliteOnly, () => {
  let gw: TestGateway;
  before(async () => (gw = await lazyGateway()));
  after(() => gw.close());

  it('runs none at start; the first batch is answered here and starts them', async () => {
    const pool = gw.acceptPool as NonNullable<TestGateway['acceptPool']>;
    assert.equal(pool.running, 0, 'no thread before a batch');
    assert.equal(await gauge(gw, 'wirebird_accept_threads'), 0);
    const tpl = await approvedTemplate(gw, 'Your code is {1}');
    assert.equal(pool.running, 0, 'another Action starts none');
    const first = await sendAll(gw, [{ TemplateId: tpl, Target: targets(numbers(3)) }]);
    assert.equal(pool.answered, 0, 'the first batch was answered on the main thread');
    await pool.ready();
    assert.equal(pool.running, 2);
    assert.equal(await gauge(gw, 'wirebird_accept_threads'), 2);
    const next = await sendAll(gw, [{ TemplateId: tpl, Target: targets(numbers(3, 100)) }]);
    assert.equal(pool.answered, 1, 'the next went to a thread');
    assert.equal((await finalReceipts(gw, first, 3)).length, 3);
    assert.equal((await finalReceipts(gw, next, 3)).length, 3);
  });
});

describe('acceptance threads without a request for a while', sqliteOnly, () => {
  let gw: TestGateway;
  before(async () => (gw = await lazyGateway()));
  after(() => gw.close());

  it('end, and the next batch is answered here and starts them again', async () => {
    const pool = gw.acceptPool as NonNullable<TestGateway['acceptPool']>;
    // A minute in production; the pool reads it when its threads start.
    (pool as unknown as { options: { idleMs: number } }).options.idleMs = 200;
    const tpl = await approvedTemplate(gw, 'Your code is {1}');
    await sendAll(gw, [{ TemplateId: tpl, Target: targets(numbers(2)) }]);
    await pool.ready();
    const first = threadsOf(pool).map((t) => t.worker.threadId);
    assert.equal(first.length, 2);
    await eventually(async () => (pool.running === 0 ? true : undefined), 'the threads ended');
    assert.equal(await gauge(gw, 'wirebird_accept_threads'), 0);
    const answered = pool.answered;
    const again = await sendAll(gw, [{ TemplateId: tpl, Target: targets(numbers(2, 200)) }]);
    assert.equal(pool.answered, answered, 'answered on the main thread while none ran');
    await pool.ready();
    assert.equal(pool.running, 2, 'started again');
    assert.ok(threadsOf(pool).every((t) => !first.includes(t.worker.threadId)));
    assert.equal((await finalReceipts(gw, again, 2)).length, 2);
  });
});

describe('an acceptance thread that dies with a batch in hand', sqliteOnly, () => {
  let gw: TestGateway;
  before(async () => {
    // No dispatch pass in the window: the main thread must not wait on the writers held below.
    gw = await startTestGateway({ simDelayMs: 0, acceptThreads: 1, dispatch: { pollMs: 600_000 } });
  });
  after(() => gw.close());

  it('answers 18004 with the Action, stores none of the batch, and a retry stores it once', async () => {
    const pool = gw.acceptPool as NonNullable<TestGateway['acceptPool']>;
    const tpl = await approvedTemplate(gw, 'Your code is {1}');
    const before = await storedMessages(gw);
    const body = JSON.stringify(batchBody([{ TemplateId: tpl, Target: targets(numbers(1000)) }]));
    const headers = {
      'content-type': 'application/json',
      authorization: `Bearer ${gw.key}`,
      'idempotency-key': 'thread-died',
    };
    // The batch cannot be written while both the threads' write lock and SQLite's are held
    // elsewhere: the thread is caught with it in hand, before or inside its transaction.
    const { share } = (pool as unknown as { options: { share: StoreShare } }).options;
    const cell = new Int32Array(share.lockBuffer as SharedArrayBuffer);
    const blocker = new Database(join(gw.dataDir, 'wirebird.db'));
    blocker.exec('BEGIN IMMEDIATE');
    Atomics.store(cell, 0, 1_000_000);
    const [thread] = threadsOf(pool);
    assert.ok(thread);
    try {
      const answer = fetch(`${gw.url}/api`, { method: 'POST', headers, body });
      await eventually(
        async () => ((thread as unknown as Busy).pending.size > 0 ? true : undefined),
        'the batch in the thread’s hands',
      );
      await thread.worker.terminate();
      const res = await answer;
      assert.equal(res.status, 500);
      assert.deepEqual(pick((await res.json()) as Record<string, unknown>, 'Action', 'RetCode'), {
        Action: 'SendBatchUSMSMessageResponse',
        RetCode: 18004,
      });
    } finally {
      Atomics.store(cell, 0, 0);
      Atomics.notify(cell, 0);
      blocker.exec('ROLLBACK');
      blocker.close();
    }
    assert.equal(await storedMessages(gw), before, 'nothing of the batch was stored');
    await eventually(
      async () => (threadsOf(pool).length === 1 ? true : undefined),
      'a new acceptance thread',
    );
    const retries = await Promise.all(
      [1, 2].map(async () => {
        const res = await fetch(`${gw.url}/api`, { method: 'POST', headers, body });
        return (await res.json()) as { RetCode: number; SuccessCount: number; SessionNo: string };
      }),
    );
    assert.deepEqual(
      retries.map((r) => [r.RetCode, r.SuccessCount]),
      [
        [0, 1000],
        [0, 1000],
      ],
    );
    assert.equal(retries[0]?.SessionNo, retries[1]?.SessionNo, 'one answer for one key');
    assert.equal(await storedMessages(gw), before + 1000, 'stored once');
  });
});

describe('SendBatchUSMSMessage with acceptThreads 0', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ simDelayMs: 0, acceptThreads: 0 });
  });
  after(() => gw.close());

  it('is answered on the main thread', async () => {
    assert.equal(gw.acceptPool, undefined);
    const tpl = await approvedTemplate(gw, 'Your code is {1}');
    const session = await sendAll(gw, [{ TemplateId: tpl, Target: targets([cn(1), cn(9)]) }]);
    const set = await finalReceipts(gw, session, 2);
    assert.equal(receiptOf(set, cn(9)).ReceiptResult, 'Success');
  });
});

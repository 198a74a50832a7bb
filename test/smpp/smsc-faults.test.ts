import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SmscFaults } from '../../src/smsc-sim/faults.js';
import { eventually, type TestGateway } from '../helpers/gateway.js';
import { gatewayWithSmsc } from '../helpers/smpp.js';
import { approvedTemplate, finalReceipts, numbers, sendAll } from '../helpers/sending.js';
import type { ReceiptPerPhone } from '../../src/domain/receipts/receipt.js';

/** Sends `count` messages in one batch and waits for every receipt. */
async function sendAndSettle(
  gw: TestGateway,
  count: number,
  from: number,
): Promise<ReceiptPerPhone[]> {
  const tpl = await approvedTemplate(gw, 'Code {1}');
  const session = await sendAll(gw, [
    {
      TemplateId: tpl,
      Target: numbers(count, from).map((Phone) => ({ Phone, TemplateParams: ['7'] })),
    },
  ]);
  const set = await finalReceipts(gw, session, count);
  assert.equal(set.length, count, 'exactly one receipt per message');
  return set;
}

const results = (set: readonly ReceiptPerPhone[]) => {
  const out: Record<string, number> = {};
  for (const r of set) out[r.ReceiptResult] = (out[r.ReceiptResult] ?? 0) + 1;
  return out;
};

/** Runs `fn` against a gateway bound to an SMSC simulator with these faults. */
async function withFaults(
  faults: Partial<SmscFaults>,
  fn: (env: Awaited<ReturnType<typeof gatewayWithSmsc>>) => Promise<void>,
  smsc: Record<string, unknown> = {},
): Promise<void> {
  const env = await gatewayWithSmsc({ faults }, { window: 10, ...smsc });
  try {
    await fn(env);
  } finally {
    await env.close();
  }
}

describe('SMPP faults injected by the SMSC simulator', () => {
  it('throttling answers slow the bind and every message still goes', () =>
    withFaults({ throttleEvery: 4 }, async ({ gw, sim }) => {
      const set = await sendAndSettle(gw, 40, 0);
      assert.deepEqual(results(set), { Success: 40 });
      assert.ok(sim.stats.throttled >= 10, `throttled ${sim.stats.throttled} times`);
      assert.equal(sim.stats.accepted, 40, 'no message accepted twice');
    }));

  it('slow acknowledgements within the timeout fill the window but lose nothing', () =>
    withFaults({ ackDelayMs: 50 }, async ({ gw, sim }) => {
      const set = await sendAndSettle(gw, 30, 100);
      assert.deepEqual(results(set), { Success: 30 });
      assert.equal(sim.stats.accepted, 30);
      assert.equal(sim.stats.maxOutstanding, 10, 'the window of 10 filled, never exceeded');
    }));

  it('an answer that never comes in time is retried (and the duplicate is counted)', () =>
    withFaults(
      { ackDelayMs: 1500 },
      async ({ gw, sim }) => {
        const tpl = await approvedTemplate(gw, 'Code {1}');
        const [phone] = numbers(1, 200);
        const session = await sendAll(gw, [
          { TemplateId: tpl, Target: [{ Phone: phone, TemplateParams: ['1'] }] },
        ]);
        await eventually(
          async () => (sim.stats.accepted >= 1 ? true : undefined),
          'the first submit',
        );
        sim.faults.ackDelayMs = 0;
        const [r] = await finalReceipts(gw, session, 1);
        assert.equal(r?.ReceiptResult, 'Success');
        assert.equal(sim.stats.accepted, 2, 'at-least-once: the SMSC saw it twice');
      },
      { responseTimeoutS: 1 },
    ));

  it('a dropped connection mid-send: the bind comes back and nothing is lost', (t) =>
    withFaults({ dropAfter: 15 }, async ({ gw, sim }) => {
      const set = await sendAndSettle(gw, 60, 300);
      assert.deepEqual(results(set), { Success: 60 });
      assert.equal(sim.stats.drops, 1);
      assert.ok(sim.stats.binds >= 2, 'bound again');
      assert.ok(sim.stats.accepted >= 60);
      // At least once: an answer lost with the connection means a second submit.
      t.diagnostic(`submitted twice after the drop: ${sim.stats.accepted - 60} of 60`);
    }));

  it('failed receipts give Fail with the network error', () =>
    withFaults({ failEvery: 2 }, async ({ gw }) => {
      const set = await sendAndSettle(gw, 20, 400);
      assert.deepEqual(results(set), { Success: 10, Fail: 10 });
      assert.ok(
        set.filter((r) => r.ReceiptResult === 'Fail').every((r) => r.ReceiptCode === 'UNDELIV:001'),
      );
    }));

  it('duplicate receipts give one receipt per message', () =>
    withFaults({ duplicateReceipts: true }, async ({ gw, sim }) => {
      const set = await sendAndSettle(gw, 20, 500);
      assert.deepEqual(results(set), { Success: 20 });
      await eventually(
        async () => (sim.stats.receiptsAcked >= 40 ? true : undefined),
        'both copies acknowledged',
      );
    }));

  it('receipts before the submit answer are kept and applied', () =>
    withFaults({ receiptsBeforeAnswer: true }, async ({ gw }) => {
      const set = await sendAndSettle(gw, 20, 600);
      assert.deepEqual(results(set), { Success: 20 });
    }));

  it('receipts quoting ids in the other base, text only, still match', async () => {
    const env = await gatewayWithSmsc({ receiptIdBase: 'other', receiptTlvs: false });
    try {
      assert.deepEqual(results(await sendAndSettle(env.gw, 20, 700)), { Success: 20 });
    } finally {
      await env.close();
    }
  });

  it('a transmitter plus a receiver: receipts come back on the receiver', async () => {
    const env = await gatewayWithSmsc({}, { bindMode: 'transmitter-receiver', binds: 2 });
    try {
      const status = env.gw.pipeline.channels.byName.get('smpp')?.status();
      assert.deepEqual(status?.binds.map((b) => b.bind).sort(), ['rx-1', 'rx-2', 'tx-1', 'tx-2']);
      assert.deepEqual(results(await sendAndSettle(env.gw, 20, 800)), { Success: 20 });
    } finally {
      await env.close();
    }
  });
});

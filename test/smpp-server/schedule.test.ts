import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { PDU } from 'smpp';
import { MESSAGE_STATE } from '../../src/domain/smpp/tables.js';
import { Esme, status } from '../helpers/esme.js';
import { eventually, startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { ManualTime } from '../helpers/manual-time.js';
import { cn, finalReceipts, inbox } from '../helpers/sending.js';

/** The SMPP 3.4 absolute form of `ms` in a zone `quarters` quarter hours ahead of UTC. */
function absolute(ms: number, quarters: number): string {
  const local = new Date(ms + quarters * 15 * 60_000);
  const two = (n: number) => String(n).padStart(2, '0');
  const date = [local.getUTCFullYear() % 100, local.getUTCMonth() + 1, local.getUTCDate()];
  const time = [local.getUTCHours(), local.getUTCMinutes(), local.getUTCSeconds()];
  return `${[...date, ...time].map(two).join('')}0${two(quarters)}+`;
}

/** schedule_delivery_time and validity_period through the SMPP server, with the clock moved. */
describe('SMPP server: scheduled and expiring submits', () => {
  const time = new ManualTime(Date.now());
  let gw: TestGateway;
  let e: Esme;
  const got: PDU[] = [];
  before(async () => {
    const smppServer = {
      listen: '127.0.0.1:0',
      esmes: [
        { accountId: 1, systemId: 'esme1', password: 'pw' },
        { accountId: 2, systemId: 'esme2', password: 'pw' },
      ],
    };
    gw = await startTestGateway({ simDelayMs: 0, acceptThreads: 0, smppServer }, undefined, {
      clock: time,
      scheduler: time,
    });
    e = await Esme.connect(gw.smppAddress as string);
    e.session.on('deliver_sm', (pdu: PDU) => {
      got.push(pdu);
      e.session.send(pdu.response());
    });
    assert.equal((await e.bind('esme1', 'pw')).command_status, 0);
  });
  after(async () => {
    e.close();
    await gw.close();
  });

  const submit = async (n: number, fields: Record<string, unknown>) => {
    const resp = await e.submit({
      destination_addr: cn(n).slice(1),
      dest_addr_ton: 1,
      short_message: 'at nine',
      registered_delivery: 1,
      ...fields,
    });
    assert.equal(resp.command_status, 0);
    return String(resp.message_id);
  };
  const stateOf = async (id: string) =>
    (await e.request('query_sm', { message_id: id, source_addr: '' })).message_state as number;

  it('holds a relative schedule_delivery_time (ENROUTE) until due, then delivers', async () => {
    const id = await submit(5801, { schedule_delivery_time: '000000010000000R' });
    assert.equal(await stateOf(id), MESSAGE_STATE.ENROUTE);
    await time.jump(59 * 60_000);
    assert.deepEqual(await inbox(gw, cn(5801)), [], 'held an hour');
    await time.jump(60_000);
    const [receipt] = await finalReceipts(gw, id, 1);
    assert.equal(receipt?.ReceiptResult, 'Success');
    assert.equal(await stateOf(id), MESSAGE_STATE.DELIVERED);
  });

  it('an absolute time in another zone: 2 hours ahead, written at UTC+08:00', async () => {
    const id = await submit(5802, {
      schedule_delivery_time: absolute(time.now() + 2 * 3_600_000, 32),
    });
    await time.jump(2 * 3_600_000 - 60_000);
    assert.deepEqual(await inbox(gw, cn(5802)), []);
    await time.jump(60_000);
    assert.equal((await finalReceipts(gw, id, 1))[0]?.ReceiptResult, 'Success');
  });

  it('holds a schedule_delivery_time 35 days ahead; a second more is ESME_RINVSCHED', async () => {
    const at = (relative: string) =>
      e.submit({
        destination_addr: cn(5810).slice(1),
        short_message: 'far',
        schedule_delivery_time: relative,
      });
    const limit = await at('000035000000000R');
    assert.equal(limit.command_status, 0);
    const over = await at('000035000001000R');
    assert.equal(over.command_status, status('ESME_RINVSCHED'));
    const cancel = { message_id: String(limit.message_id), source_addr: '' };
    assert.equal((await e.request('cancel_sm', cancel)).command_status, 0);
  });

  it("takes the API's shortest validity: 30 s from when it is due, not 10", async () => {
    const valid = async (relative: string) =>
      (
        await e.submit({
          destination_addr: cn(5811).slice(1),
          short_message: 'soon',
          validity_period: relative,
        })
      ).command_status;
    assert.equal(await valid('000000000010000R'), status('ESME_RINVEXPIRY'));
    assert.equal(await valid('000000000030000R'), 0);
  });

  it('expires one whose validity_period passes while held: EXPIRED, and a stat:EXPIRED receipt', async () => {
    const id = await submit(5803, {
      schedule_delivery_time: '000000000100000R',
      validity_period: '000000000130000R',
    });
    await time.jump(91_000);
    const [receipt] = await finalReceipts(gw, id, 1);
    assert.deepEqual(
      [receipt?.ReceiptResult, receipt?.ReceiptCode, receipt?.CostCount],
      ['Fail', 'EXPIRED', 0],
    );
    assert.equal(await stateOf(id), MESSAGE_STATE.EXPIRED);
    // The deliverer to binds polls on the moved clock: its pass in the jump may have run before
    // the expiry's commit (PostgreSQL's comes later), so each look moves the clock a step.
    const told = (p: PDU) =>
      String(p.short_message).includes(`id:${id}`) && /stat:EXPIRED/.test(String(p.short_message));
    await eventually(async () => {
      await time.advance(1_000);
      return got.some(told) ? true : undefined;
    }, 'a stat:EXPIRED receipt');
    assert.deepEqual(await inbox(gw, cn(5803)), [], 'never sent');
  });

  it('cancel_sm takes back a held message: DELETED', async () => {
    const id = await submit(5804, { schedule_delivery_time: '000001000000000R' });
    assert.equal(
      (await e.request('cancel_sm', { message_id: id, source_addr: '' })).command_status,
      0,
    );
    assert.equal(await stateOf(id), MESSAGE_STATE.DELETED);
  });

  const replace = async (fields: Record<string, unknown>) =>
    (await e.request('replace_sm', { source_addr: '', short_message: '', ...fields }))
      .command_status;

  it('replace_sm changes a held message: its text, its time, its receipt; the rest kept', async () => {
    const id = await submit(5805, { schedule_delivery_time: '000001000000000R' });
    const asked = { message_id: id, short_message: 'at ten instead', registered_delivery: 0 };
    assert.equal(await replace({ ...asked, schedule_delivery_time: '000000020000000R' }), 0);
    await time.jump(2 * 3_600_000);
    assert.equal((await finalReceipts(gw, id, 1))[0]?.ReceiptResult, 'Success');
    const sent = await inbox(gw, cn(5805));
    assert.deepEqual(
      sent.map((m) => m.body),
      ['at ten instead'],
      'sent at the new time, not the old',
    );
    assert.ok(
      !got.some((p) => String(p.short_message).includes(`id:${id}`)),
      'registered_delivery 0 replaced the receipt asked for',
    );
    assert.equal(await replace(asked), status('ESME_RREPLACEFAIL'), 'sent: too late');
  });

  it('replace_sm with empty fields keeps them: an empty text keeps the text', async () => {
    const id = await submit(5806, { schedule_delivery_time: '000000010000000R' });
    assert.equal(await replace({ message_id: id, registered_delivery: 1 }), 0);
    await time.jump(3_600_000);
    await finalReceipts(gw, id, 1);
    assert.deepEqual(
      (await inbox(gw, cn(5806))).map((m) => m.body),
      ['at nine'],
    );
  });

  it('replace_sm refuses what it cannot do, naming why, and changes nothing', async () => {
    const id = await submit(5807, { schedule_delivery_time: '000000010000000R' });
    const cases: [Record<string, unknown>, string][] = [
      [{ message_id: '' }, 'ESME_RREPLACEFAIL'],
      [{ message_id: 'no-such-session' }, 'ESME_RREPLACEFAIL'],
      [{ message_id: id, source_addr: 'SOMEONE' }, 'ESME_RREPLACEFAIL'],
      [{ message_id: id, sm_default_msg_id: 3 }, 'ESME_RINVDFTMSGID'],
      [{ message_id: id, schedule_delivery_time: '261301000000000+' }, 'ESME_RINVSCHED'],
      [{ message_id: id, validity_period: '2601011200000017' }, 'ESME_RINVEXPIRY'],
    ];
    for (const [fields, want] of cases) {
      assert.equal(await replace({ short_message: 'changed', ...fields }), status(want), want);
    }
    await time.jump(3_600_000);
    await finalReceipts(gw, id, 1);
    assert.deepEqual(
      (await inbox(gw, cn(5807))).map((m) => m.body),
      ['at nine'],
    );
  });

  it("replace_sm never reaches another account's held message", async () => {
    const id = await submit(5808, { schedule_delivery_time: '000000010000000R' });
    const other = await Esme.connect(gw.smppAddress as string);
    assert.equal((await other.bind('esme2', 'pw')).command_status, 0);
    const r = await other.request('replace_sm', {
      message_id: id,
      source_addr: '',
      short_message: 'not yours',
    });
    other.close();
    assert.equal(r.command_status, status('ESME_RREPLACEFAIL'));
    await time.jump(3_600_000);
    await finalReceipts(gw, id, 1);
    assert.deepEqual(
      (await inbox(gw, cn(5808))).map((m) => m.body),
      ['at nine'],
    );
  });
});

/** replace_sm is charged like the submit it changes (docs/accounts.md). */
describe('SMPP server: replace_sm pays for a longer text', () => {
  const time = new ManualTime(Date.now());
  let gw: TestGateway;
  let e: Esme;
  before(async () => {
    const smppServer = {
      listen: '127.0.0.1:0',
      esmes: [{ accountId: 7, systemId: 'esme7', password: 'pw' }],
    };
    gw = await startTestGateway({ simDelayMs: 0, acceptThreads: 0, smppServer }, undefined, {
      clock: time,
      scheduler: time,
    });
    e = await Esme.connect(gw.smppAddress as string);
    assert.equal((await e.bind('esme7', 'pw')).command_status, 0);
  });
  after(async () => {
    e.close();
    await gw.close();
  });
  const balance = async () =>
    (await gw.admin('GET', '/admin/accounts/7/policy')).json.Balance as number;

  it('debits a new part, refunds what was paid on cancel, and refuses what credit cannot pay', async () => {
    assert.equal(
      (await gw.admin('PUT', '/admin/accounts/7/policy', { Prepaid: true })).status,
      200,
    );
    const credit = { CostCount: 3, Reference: 'top-up' };
    assert.equal((await gw.admin('POST', '/admin/accounts/7/credits', credit)).status, 201);
    const long = 'x'.repeat(254);
    const held = async () => {
      const resp = await e.submit({
        destination_addr: cn(5901).slice(1),
        dest_addr_ton: 1,
        short_message: 'held',
        schedule_delivery_time: '000001000000000R',
      });
      return String(resp.message_id);
    };
    const replace = async (id: string) =>
      (await e.request('replace_sm', { message_id: id, source_addr: '', short_message: long }))
        .command_status;
    const cancel = async (id: string) =>
      (await e.request('cancel_sm', { message_id: id, source_addr: '' })).command_status;
    for (let cycle = 0; cycle < 4; cycle++) {
      const first = await held();
      assert.equal(await balance(), 2);
      assert.equal(await replace(first), 0);
      assert.equal(await balance(), 1, 'the second part is paid for');
      const second = await held();
      assert.equal(await replace(second), status('ESME_RREPLACEFAIL'), 'no credit left for it');
      assert.deepEqual([await cancel(first), await cancel(second)], [0, 0]);
      assert.equal(await balance(), 3, `cycle ${cycle}: the refunds are what was paid`);
    }
  });
});

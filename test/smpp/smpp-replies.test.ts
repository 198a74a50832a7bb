import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { encodeGsm7, encodeUcs2 } from '../../src/domain/segments/segments.js';
import { eventually, type TestGateway } from '../helpers/gateway.js';
import { gatewayWithSmsc } from '../helpers/smpp.js';
import { approvedTemplate, cn, registerSenderId, sendAll } from '../helpers/sending.js';
import type { SmscSim } from '../../src/smsc-sim/smsc-sim.js';

interface Item {
  From: string;
  To: string;
  Text: string;
  Complete: boolean;
}

/** Replies (MO) over SMPP: decoded, reassembled, stored once, before the deliver_sm_resp. */
describe('SMS replies over SMPP', () => {
  let gw: TestGateway;
  let sim: SmscSim;
  let close: () => Promise<void>;
  before(async () => {
    ({ gw, sim, close } = await gatewayWithSmsc({}, {}, { inboundPartsWaitS: 1 }));
  });
  after(() => close());

  const inbound = async (count: number) =>
    eventually(async () => {
      const { json } = await gw.api({
        Action: 'ListInboundMessages',
        AccountId: 1,
        Channel: 'sms',
      });
      const data = json.Data as Item[];
      return data.length >= count ? data : undefined;
    }, `${count} replies stored`);
  const reply = (fields: Record<string, unknown>) =>
    sim.sendReply({ source_addr: '8613800000777', destination_addr: '10690001', ...fields });

  it('stores a one-part reply for the account of the number, once though delivered twice', async () => {
    const fields = { data_coding: 0, short_message: Buffer.from(encodeGsm7('YES, 5€')) };
    reply(fields);
    reply(fields);
    const [m] = await inbound(1);
    assert.deepEqual(
      [m?.From, m?.To, m?.Text, m?.Complete],
      ['+8613800000777', '10690001', 'YES, 5€', true],
    );
    await eventually(async () => (sim.stats.receiptsSent >= 2 ? true : undefined), 'both sent');
    const { json } = await gw.api({ Action: 'ListInboundMessages', AccountId: 1, Channel: 'sms' });
    assert.equal((json.Data as Item[]).length, 1, 'the second delivery is recognised');
  });

  it('reassembles a UCS-2 reply whose parts come out of order and one twice', async () => {
    const part = (seq: number, text: string) => ({
      esm_class: 0x40,
      data_coding: 8,
      short_message: Buffer.concat([
        Buffer.from([5, 0, 3, 0x33, 3, seq]),
        Buffer.from(encodeUcs2(text)),
      ]),
    });
    reply(part(3, '三'));
    reply(part(1, '一'));
    reply(part(1, '一'));
    reply(part(2, '二'));
    const [m] = await inbound(2);
    assert.deepEqual([m?.Text, m?.Complete], ['一二三', true]);
  });

  it('stores a reply whose last part never comes after the wait, marked incomplete', async () => {
    reply({
      data_coding: 3,
      short_message: Buffer.from('first half ', 'latin1'),
      sar_msg_ref_num: 700,
      sar_total_segments: 2,
      sar_segment_seqnum: 1,
    });
    const [m] = await inbound(3);
    assert.deepEqual([m?.Text, m?.Complete], ['first half […]', false]);
  });
});

describe('smsc-sim --auto-reply: the handset answers what it got', () => {
  let gw: TestGateway;
  let close: () => Promise<void>;
  before(async () => {
    ({ gw, close } = await gatewayWithSmsc({ autoReply: 'STOP 退订' }));
  });
  after(() => close());

  it('a reply to the account’s short code comes back as its inbound message, linked', async () => {
    await registerSenderId(gw, '10690001');
    const tpl = await approvedTemplate(gw, 'Sale today {1}');
    const session = await sendAll(gw, [
      {
        TemplateId: tpl,
        SenderId: '10690001',
        Target: [{ Phone: cn(880), TemplateParams: ['!'] }],
      },
    ]);
    const found = await eventually(async () => {
      const { json } = await gw.api({ Action: 'ListInboundMessages', AccountId: 1 });
      return (json.Data as (Item & { ReplyTo: { SessionNo: string } })[])[0];
    }, 'the handset’s reply');
    assert.deepEqual(
      [found.From, found.To, found.Text, found.ReplyTo.SessionNo],
      [cn(880), '10690001', 'STOP 退订', session],
    );
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { PDU } from 'smpp';
import { Esme, status } from '../helpers/esme.js';
import { eventually, startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { cn, finalReceipts } from '../helpers/sending.js';

/**
 * cancel_sm withdraws what is still queued. Dispatch is held to one message a second, so most of
 * a submit_multi is still queued when the cancel comes.
 */
describe('SMPP server: cancel_sm', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({
      simDelayMs: 0,
      dispatch: { routeTps: 1, batchSize: 1, loops: 1, pollMs: 10 },
      smppServer: {
        listen: '127.0.0.1:0',
        esmes: [
          { accountId: 1, systemId: 'esme1', password: 'pw' },
          { accountId: 2, systemId: 'esme2', password: 'pw' },
        ],
      },
    });
  });
  after(() => gw.close());

  it('cancels the queued messages of a message_id; a receipt asked for says DELETED', async () => {
    const e = await Esme.connect(gw.smppAddress as string);
    const got: PDU[] = [];
    e.session.on('deliver_sm', (pdu: PDU) => {
      got.push(pdu);
      e.session.send(pdu.response());
    });
    assert.equal((await e.bind('esme1', 'pw')).command_status, 0);
    const dest = (n: number) => ({
      dest_addr_ton: 1,
      dest_addr_npi: 1,
      destination_addr: cn(n).slice(1),
    });
    const sent = await e.request('submit_multi', {
      dest_address: [5701, 5702, 5703, 5704, 5705].map(dest),
      short_message: 'cancel me',
      registered_delivery: 1,
    });
    const id = String(sent.message_id);
    const other = await Esme.connect(gw.smppAddress as string);
    await other.bind('esme2', 'pw');
    const theirs = await other.request('cancel_sm', { message_id: id, source_addr: '' });
    assert.equal(theirs.command_status, status('ESME_RCANCELFAIL'), "not another account's");
    const one = await e.request('cancel_sm', { message_id: id, ...dest(5705), source_addr: '' });
    assert.equal(one.command_status, 0, 'the one to 5705');
    const rest = await e.request('cancel_sm', { message_id: id, source_addr: '' });
    assert.equal(rest.command_status, 0);
    const again = await e.request('cancel_sm', { message_id: id, source_addr: '' });
    assert.equal(again.command_status, status('ESME_RCANCELFAIL'), 'nothing left');
    const receipts = await finalReceipts(gw, id, 5);
    const cancelled = receipts.filter((r) => r.ReceiptCode === 'CANCELED');
    assert.ok(cancelled.length >= 3, `most were still queued: ${JSON.stringify(receipts)}`);
    assert.ok(cancelled.every((r) => r.ReceiptResult === 'Fail' && r.CostCount === 0));
    assert.ok(cancelled.some((r) => r.Phone === cn(5705)));
    const deleted = await eventually(async () => {
      const d = got.filter((p) => /stat:DELETED/.test(String(p.short_message)));
      return d.length >= cancelled.length ? d : undefined;
    }, 'a DELETED receipt per cancelled message');
    assert.equal(deleted.length, cancelled.length);
    e.close();
    other.close();
  });
});

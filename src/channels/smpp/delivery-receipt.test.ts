import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readDeliveryReceipt, reportOfReceipt } from './delivery-receipt.js';

const TEXT =
  'id:0123456789 sub:001 dlvrd:001 submit date:2611221200 done date:2611221201 stat:DELIVRD err:000 Text:Hello';

describe('readDeliveryReceipt', () => {
  it('reads id, stat and err from the text form', () => {
    assert.deepEqual(readDeliveryReceipt({ esm_class: 4, short_message: { message: TEXT } }), {
      id: '0123456789',
      stat: 'DELIVRD',
      err: '000',
    });
  });
  it('reads the text from a Buffer too, in any case', () => {
    const raw = Buffer.from('ID:ab12 STAT:undeliv ERR:005', 'latin1');
    assert.deepEqual(readDeliveryReceipt({ esm_class: 4, short_message: raw }), {
      id: 'ab12',
      stat: 'UNDELIV',
      err: '005',
    });
  });
  it('prefers the TLVs; the network error code fills a missing err', () => {
    const r = readDeliveryReceipt({
      esm_class: 4,
      short_message: { message: TEXT },
      receipted_message_id: 'FF01',
      message_state: 5,
      network_error_code: Buffer.from([3, 0, 42]),
    });
    assert.deepEqual(r, { id: 'FF01', stat: 'UNDELIV', err: '000' });
    const noText = readDeliveryReceipt({
      esm_class: 4,
      receipted_message_id: 'FF01',
      message_state: 8,
      network_error_code: Buffer.from([3, 0, 42]),
    });
    assert.deepEqual(noText, { id: 'FF01', stat: 'REJECTD', err: '042' });
  });
  it('is not a receipt without the receipt esm_class or TLV (an inbound SMS)', () => {
    assert.equal(
      readDeliveryReceipt({ esm_class: 0, short_message: { message: TEXT } }),
      undefined,
    );
  });
  it('gives up on a receipt without an id or a stat rather than guess', () => {
    assert.equal(readDeliveryReceipt({ esm_class: 4, short_message: 'stat:DELIVRD' }), undefined);
    assert.equal(readDeliveryReceipt({ esm_class: 4, short_message: 'id:12 err:0' }), undefined);
  });
});

describe('reportOfReceipt', () => {
  const cases = [
    ['DELIVRD', 'delivered'],
    ['UNDELIV', 'failed'],
    ['EXPIRED', 'failed'],
    ['REJECTD', 'failed'],
    ['DELETED', 'failed'],
    ['UNKNOWN', 'unknown'],
    ['ACCEPTD', 'sent'],
    ['ENROUTE', 'sent'],
    ['WEIRD', 'unknown'],
  ] as const;
  for (const [stat, status] of cases) {
    it(`${stat} → ${status}`, () => {
      assert.equal(reportOfReceipt({ id: '1', stat, err: '000' }).status, status);
    });
  }
  it('carries stat and err in the code and names the error in the sentence', () => {
    assert.deepEqual(reportOfReceipt({ id: '1', stat: 'UNDELIV', err: '013' }), {
      status: 'failed',
      code: 'UNDELIV:013',
      desc: 'undeliverable (network error 013)',
    });
  });
});

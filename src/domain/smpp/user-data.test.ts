import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { concatOfSar, concatOfUdh, readUdh, userText } from './user-data.js';

const bytes = (...b: number[]) => Uint8Array.from(b);

describe('user data: the header, the part, the text', () => {
  it('reads a header element by element, and says when it claims too much', () => {
    const udh = readUdh(bytes(8, 0x05, 0x04, 0x0b, 0x84, 0x00, 0x00, 0x3f, 0x00, 0x41));
    assert.ok(udh && udh !== 'overrun');
    assert.equal(udh.length, 9);
    assert.deepEqual(
      udh.elements.map((e) => [e.iei, [...e.data]]),
      [
        [0x05, [0x0b, 0x84, 0x00, 0x00]],
        [0x3f, []],
      ],
    );
    assert.equal(readUdh(bytes(5, 0, 3, 1)), 'overrun');
    assert.equal(readUdh(bytes()), undefined);
  });

  it('finds the part in IEI 00 or 08, only at their own lengths; the SAR TLVs likewise', () => {
    const of = (...b: number[]) => {
      const udh = readUdh(bytes(...b));
      return udh && udh !== 'overrun' ? concatOfUdh(udh) : 'none';
    };
    assert.deepEqual(of(5, 0, 3, 0x2a, 2, 1), { ref: 0x2a, total: 2, seq: 1, wide: false });
    assert.deepEqual(of(6, 8, 4, 0x12, 0x34, 3, 3), { ref: 0x1234, total: 3, seq: 3, wide: true });
    assert.equal(of(6, 0, 4, 1, 2, 1, 0), undefined, 'IEI 00 is three octets');
    assert.equal(of(4, 5, 2, 0x0b, 0x84), undefined, 'ports are no part');
    const sar = { sar_msg_ref_num: 513, sar_total_segments: 2, sar_segment_seqnum: 1 };
    assert.deepEqual(concatOfSar(sar), { ref: 513, total: 2, seq: 1, wide: true });
    assert.equal(concatOfSar({}), undefined);
  });

  it('reads text strictly for a submit and leniently for a reply', () => {
    const strict = (dcs: number, b: Uint8Array) => userText(b, dcs, { lenient: false });
    const lenient = (dcs: number, b: Uint8Array) => userText(b, dcs, { lenient: true });
    assert.equal(strict(0, bytes(0x48, 0x1b, 0x65, 0x00)), 'H€@');
    assert.equal(strict(4, bytes(0x41)), undefined, 'a coding not taken');
    assert.equal(lenient(4, bytes(0xe9)), 'é', 'read as Latin-1');
    assert.equal(strict(8, bytes(0x4f, 0x60, 0x59)), undefined, 'an odd UCS-2 length');
    assert.equal(lenient(8, bytes(0x4f, 0x60, 0x59)), '你', 'the odd octet dropped');
    assert.equal(strict(0, bytes(0xc8)), undefined, 'not a septet');
    assert.equal(lenient(0, bytes(0xc8)), 'H', 'the eighth bit dropped');
    assert.equal(strict(1, bytes(0x41, 0xe9)), undefined, 'IA5 is seven bits');
    assert.equal(strict(3, bytes(0x63, 0xe9)), 'cé');
    const packed = { packed: true, raw: bytes(0xc8, 0x34), skipSeptets: 0 };
    assert.equal(userText(bytes(), 0, { lenient: true, gsm: packed }), 'Hi');
  });
});

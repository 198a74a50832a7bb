import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { submittedText } from './submitted-text.js';

const udh8 = (ref: number, total: number, seq: number) => Buffer.from([5, 0, 3, ref, total, seq]);

describe("submittedText: a submit_sm's octets as text", () => {
  it('reads each data_coding taken, and refuses the others', () => {
    const read = (data_coding: number, short_message: Buffer) =>
      submittedText({ data_coding, short_message });
    assert.deepEqual(read(0, Buffer.from([0x48, 0x1b, 0x65, 0x00])), {
      ok: true,
      text: 'H€@',
      concat: undefined,
    });
    assert.equal((read(1, Buffer.from('a@b', 'latin1')) as { text: string }).text, 'a@b');
    assert.equal(read(1, Buffer.from([0x41, 0xe9])).ok, false, 'IA5 is seven bits');
    assert.equal((read(3, Buffer.from('café', 'latin1')) as { text: string }).text, 'café');
    const ucs2 = Buffer.from('你好', 'utf16le').swap16();
    assert.equal((read(8, ucs2) as { text: string }).text, '你好');
    assert.equal(read(8, ucs2.subarray(1)).ok, false, 'an odd UCS-2 length');
    assert.equal(read(0, Buffer.from([0x80])).ok, false, 'not a septet');
    assert.deepEqual(read(4, Buffer.from([1])), {
      ok: false,
      reason: 'data_coding 4 is not taken (0, 1, 3, 8)',
    });
  });

  it('takes message_payload over an empty short_message', () => {
    const pdu = {
      data_coding: 3,
      short_message: Buffer.alloc(0),
      message_payload: Buffer.from('long'),
    };
    assert.equal((submittedText(pdu) as { text: string }).text, 'long');
  });

  it('reads a part from its UDH (8- and 16-bit references) or its SAR TLVs', () => {
    const part = submittedText({
      esm_class: 0x40,
      short_message: Buffer.concat([udh8(0x42, 2, 1), Buffer.from('one')]),
    });
    assert.deepEqual(part, {
      ok: true,
      text: 'one',
      concat: { ref: 0x42, total: 2, seq: 1, wide: false },
    });
    const wide = submittedText({
      esm_class: 0x40,
      short_message: Buffer.concat([Buffer.from([6, 8, 4, 1, 2, 3, 3]), Buffer.from('x')]),
    });
    assert.deepEqual(wide, {
      ok: true,
      text: 'x',
      concat: { ref: 0x102, total: 3, seq: 3, wide: true },
    });
    const sar = submittedText({
      short_message: Buffer.from('y'),
      sar_msg_ref_num: 7,
      sar_total_segments: 2,
      sar_segment_seqnum: 2,
    });
    assert.deepEqual(sar, {
      ok: true,
      text: 'y',
      concat: { ref: 7, total: 2, seq: 2, wide: false },
    });
  });

  it('refuses a UDH that makes no part, or runs past the message', () => {
    const ports = Buffer.from([4, 5, 2, 0x0b, 0x84]);
    const noPart = submittedText({
      esm_class: 0x40,
      short_message: Buffer.concat([ports, Buffer.from('z')]),
    });
    assert.deepEqual([noPart.ok, 'concatenation' in noPart], [false, true]);
    const past = submittedText({ esm_class: 0x40, short_message: Buffer.from([9, 0, 3]) });
    assert.deepEqual([past.ok, 'concatenation' in past], [false, true]);
    const badSeq = submittedText({ esm_class: 0x40, short_message: udh8(1, 2, 3) });
    assert.equal(badSeq.ok, false);
  });
});

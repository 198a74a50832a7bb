import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeGsm7, encodeUcs2 } from '../../domain/segments/segments.js';
import { readMo } from './mo-message.js';
import { readUdh, unpackSeptets } from '../../domain/smpp/user-data.js';

/** Packs septets 8 in 7 octets after `fill` zero bits, as a handset's SMSC would. */
function pack(septets: Uint8Array, fillBits = 0): Buffer {
  const bits = fillBits + septets.length * 7;
  const out = Buffer.alloc(Math.ceil(bits / 8));
  septets.forEach((s, i) => {
    const bit = fillBits + i * 7;
    out[bit >> 3] = (out[bit >> 3] ?? 0) | ((s << (bit & 7)) & 0xff);
    if ((bit & 7) > 1) out[(bit >> 3) + 1] = (out[(bit >> 3) + 1] ?? 0) | (s >> (8 - (bit & 7)));
  });
  return out;
}

const base = { source_addr: '8613800000001', source_addr_ton: 1, destination_addr: '10690001' };

describe('a reply in a deliver_sm', () => {
  it('reads "hello" packed as TS 23.038 packs it (E8 32 9B FD 06)', () => {
    assert.deepEqual([...pack(encodeGsm7('hello'))], [0xe8, 0x32, 0x9b, 0xfd, 0x06]);
    const mo = readMo({ ...base, data_coding: 0, short_message: pack(encodeGsm7('hello')) }, true);
    assert.deepEqual(mo, { from: '+8613800000001', to: '10690001', text: 'hello' });
  });

  it('drops the padding septet of 7 octets, keeps 8 real septets', () => {
    assert.equal(Buffer.from(unpackSeptets(pack(encodeGsm7('1234567')))).toString(), '1234567');
    const eight = readMo(
      { ...base, data_coding: 0, short_message: pack(encodeGsm7('12345678')) },
      true,
    );
    assert.equal(eight.text, '12345678');
  });

  it('reads GSM 03.38 unpacked with extension characters, IA5, Latin-1 and UCS-2', () => {
    const gsm = Buffer.from(encodeGsm7('Price: 5€ {ok} @home'));
    assert.equal(
      readMo({ ...base, data_coding: 0, short_message: gsm }, false).text,
      'Price: 5€ {ok} @home',
    );
    const ascii = Buffer.from('Plain ASCII @ 10$', 'latin1');
    assert.equal(
      readMo({ ...base, data_coding: 1, short_message: ascii }, false).text,
      'Plain ASCII @ 10$',
    );
    const latin = Buffer.from('café crème', 'latin1');
    assert.equal(
      readMo({ ...base, data_coding: 3, short_message: latin }, false).text,
      'café crème',
    );
    const ucs2 = Buffer.from(encodeUcs2('退订 谢谢 👍'));
    assert.equal(
      readMo({ ...base, data_coding: 8, short_message: ucs2 }, false).text,
      '退订 谢谢 👍',
    );
  });

  it('reads a part of a concatenated message: UDH with an 8-bit or a 16-bit reference', () => {
    const eight = Buffer.concat([
      Buffer.from([5, 0, 3, 0x2a, 2, 1]),
      Buffer.from(encodeUcs2('第一')),
    ]);
    const part = readMo({ ...base, esm_class: 0x40, data_coding: 8, short_message: eight }, false);
    assert.deepEqual([part.text, part.concat], ['第一', { ref: 0x2a, total: 2, seq: 1 }]);
    const sixteen = Buffer.concat([
      Buffer.from([6, 8, 4, 0x12, 0x34, 3, 3]),
      Buffer.from('end', 'latin1'),
    ]);
    const last = readMo(
      { ...base, esm_class: 0x40, data_coding: 3, short_message: sixteen },
      false,
    );
    assert.deepEqual([last.text, last.concat], ['end', { ref: 0x1234, total: 3, seq: 3 }]);
    assert.equal(readUdh(Buffer.from([5, 0, 3, 1, 2])), 'overrun', 'a header longer than the data');
    const overrun = readMo(
      { ...base, esm_class: 0x40, data_coding: 3, short_message: Buffer.from([5, 0, 3, 1, 2]) },
      false,
    );
    assert.deepEqual(
      [overrun.text, overrun.concat],
      ['\x05\x00\x03\x01\x02', undefined],
      'a reply whose header overruns is read whole, as text',
    );
  });

  it('reads packed GSM after a UDH from the next septet boundary (fill bits)', () => {
    const udh = Buffer.from([5, 0, 3, 7, 2, 2]);
    // 6 octets of header are 48 bits: the text starts at septet 7, after one fill bit.
    const text = pack(encodeGsm7('second half'), 1);
    const mo = readMo(
      { ...base, esm_class: 0x40, data_coding: 0, short_message: Buffer.concat([udh, text]) },
      true,
    );
    assert.deepEqual([mo.text, mo.concat], ['second half', { ref: 7, total: 2, seq: 2 }]);
  });

  it('reads SAR TLVs, and message_payload as the smpp package decodes it', () => {
    const sar = readMo(
      {
        ...base,
        data_coding: 3,
        short_message: Buffer.from('one', 'latin1'),
        sar_msg_ref_num: 513,
        sar_total_segments: 2,
        sar_segment_seqnum: 1,
      },
      false,
    );
    assert.deepEqual(sar.concat, { ref: 513, total: 2, seq: 1 });
    const payload = readMo(
      {
        ...base,
        data_coding: 8,
        short_message: Buffer.alloc(0),
        message_payload: { message: 'whole' },
      },
      false,
    );
    assert.deepEqual([payload.text, payload.concat], ['whole', undefined]);
    const raw = (data_coding: number, bytes: Buffer, packed = false) =>
      readMo(
        { ...base, data_coding, short_message: Buffer.alloc(0), message_payload: bytes },
        packed,
      ).text;
    assert.equal(raw(8, Buffer.from('你好', 'utf16le').swap16()), '你好', 'UCS-2 octets');
    assert.equal(raw(0, Buffer.from([0x48, 0x69, 0x00])), 'Hi@', 'GSM 03.38, one septet an octet');
    assert.equal(raw(0, Buffer.from([0xc8, 0x34]), true), 'Hi', 'GSM 03.38, packed');
  });

  it('keeps a short code or national sender as sent, an international one in E.164', () => {
    const mo = readMo(
      {
        source_addr: '13800000001',
        source_addr_ton: 2,
        destination_addr: '+8610690001',
        dest_addr_ton: 1,
        short_message: Buffer.from('x'),
      },
      false,
    );
    assert.deepEqual([mo.from, mo.to], ['13800000001', '+8610690001']);
  });
});

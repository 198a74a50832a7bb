import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { gatewayWithRawSmsc, sendText, type RawEnv } from '../helpers/smpp.js';
import { approvedTemplate, cn, registerSenderId } from '../helpers/sending.js';

const hex = (b: Buffer) => b.toString('hex');

describe('SMPP on the wire: encodings and concatenation (against an independent SMSC)', () => {
  let env: RawEnv;
  let tpl: string;
  let n = 100;
  const next = () => cn(n++);
  before(async () => {
    env = await gatewayWithRawSmsc();
    tpl = await approvedTemplate(env.gw, 'Note: {1}');
    await registerSenderId(env.gw, 'WIREBIRD');
  });
  after(() => env.close());

  it('sends GSM-7 text unpacked with data_coding 0, extension chars as ESC pairs', async () => {
    const [s] = await sendText(env, tpl, '@£{', next());
    assert.equal(s?.dataCoding, 0);
    assert.equal(s.esmClass, 0);
    assert.equal(hex(s.shortMessage), hex(Buffer.from('Note: ', 'latin1')) + '00011b28');
    assert.equal(s.registeredDelivery, 1);
  });

  it('sends other text as UCS-2 big-endian with data_coding 8', async () => {
    const [s] = await sendText(env, tpl, '你好😀', next());
    assert.equal(s?.dataCoding, 8);
    const utf16be = Buffer.from('Note: 你好😀', 'utf16le').swap16();
    assert.equal(hex(s.shortMessage), hex(utf16be));
    assert.ok(hex(utf16be).endsWith('4f60597dd83dde00'));
  });

  it('cuts long GSM text into UDH parts of 153 septets, as many as CostCount', async () => {
    const text = 'x'.repeat(300);
    const parts = await sendText(env, tpl, text, next());
    assert.equal(parts.length, 2);
    const [a, b] = parts;
    assert.ok(a && b);
    for (const [i, p] of parts.entries()) {
      assert.equal(p.esmClass, 0x40, 'UDHI set');
      assert.deepEqual([...p.shortMessage.subarray(0, 3)], [0x05, 0x00, 0x03]);
      assert.deepEqual([p.shortMessage[4], p.shortMessage[5]], [2, i + 1]);
    }
    assert.equal(a.shortMessage[3], b.shortMessage[3], 'same reference in every part');
    assert.equal(a.shortMessage.length - 6, 153);
    assert.equal(b.shortMessage.length - 6, 'Note: '.length + 300 - 153);
  });

  it('never splits an ESC pair or a surrogate pair between parts', async () => {
    const parts = await sendText(env, tpl, 'a'.repeat(146) + '€' + 'b'.repeat(20), next());
    assert.equal(parts.length, 2);
    assert.equal(parts[0]?.shortMessage.at(-1), 0x61, 'part 1 ends before the ESC pair');
    assert.deepEqual([...(parts[1]?.shortMessage.subarray(6, 8) ?? [])], [0x1b, 0x65]);
  });
});

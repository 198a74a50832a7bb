import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Esme, status } from '../helpers/esme.js';
import { eventually, type TestGateway } from '../helpers/gateway.js';
import { cn, finalReceipts } from '../helpers/sending.js';
import { gatewayWithSmsc } from '../helpers/smpp.js';
import type { SmscSim } from '../../src/smsc-sim/smsc-sim.js';

/**
 * A long message an ESME split itself: each part is its own message (its own message_id and
 * receipt) and goes to the SMSC with the ESME's reference, count and number, so the phone joins
 * them. Upstream here is smsc-sim over SMPP, which records what it got.
 */
describe('SMPP server: concatenated parts the ESME split itself', () => {
  let gw: TestGateway;
  let sim: SmscSim;
  let close: () => Promise<void>;
  before(async () => {
    ({ gw, sim, close } = await gatewayWithSmsc(
      {},
      {},
      {
        smppServer: {
          listen: '127.0.0.1:0',
          esmes: [{ accountId: 1, systemId: 'parts', password: 'pw' }],
        },
      },
    ));
  });
  after(() => close());

  const seen = (to: string) =>
    eventually(async () => {
      const got = sim.submits.filter((r) => r.destinationAddr === to.slice(1));
      return got.length >= 2 ? got : undefined;
    }, `two parts at the SMSC for ${to}`);

  it('UDH parts keep their reference and numbers; each has its own id and receipt', async () => {
    const e = await Esme.connect(gw.smppAddress as string);
    await e.bind('parts', 'pw');
    const to = cn(5901);
    const part = (seq: number, text: string) =>
      e.submit({
        destination_addr: to.slice(1),
        esm_class: 0x40,
        short_message: Buffer.concat([Buffer.from([5, 0, 3, 0x42, 2, seq]), Buffer.from(text)]),
      });
    const [one, two] = [
      await part(1, 'Hello, this is the first half '),
      await part(2, 'and the second.'),
    ];
    assert.deepEqual([one.command_status, two.command_status], [0, 0]);
    assert.notEqual(one.message_id, two.message_id);
    const parts = (await seen(to)).sort((a, b) => (a.udh?.[4] ?? 0) - (b.udh?.[4] ?? 0));
    assert.deepEqual(
      parts.map((p) => p.udh),
      [
        [0, 3, 0x42, 2, 1],
        [0, 3, 0x42, 2, 2],
      ],
    );
    assert.deepEqual(
      parts.map((p) => p.text),
      ['Hello, this is the first half ', 'and the second.'],
    );
    for (const id of [one.message_id, two.message_id]) await finalReceipts(gw, String(id), 1);
    e.close();
  });

  it('SAR parts go on with their reference; a part too long for one segment is refused', async () => {
    const e = await Esme.connect(gw.smppAddress as string);
    await e.bind('parts', 'pw');
    const to = cn(5902);
    const sar = (seq: number) => ({
      sar_msg_ref_num: 0x1234,
      sar_total_segments: 2,
      sar_segment_seqnum: seq,
    });
    for (const seq of [2, 1]) {
      const r = await e.submit({
        destination_addr: to.slice(1),
        short_message: `part ${seq}`,
        ...sar(seq),
      });
      assert.equal(r.command_status, 0);
    }
    const parts = await seen(to);
    assert.deepEqual(
      parts.map((p) => p.udh).sort(),
      [
        [8, 4, 0x12, 0x34, 2, 1],
        [8, 4, 0x12, 0x34, 2, 2],
      ].sort(),
      'a 16-bit reference goes as IEI 08',
    );
    const long = await e.submit({
      destination_addr: to.slice(1),
      short_message: 'x'.repeat(154),
      ...sar(1),
    });
    assert.equal(long.command_status, status('ESME_RINVMSGLEN'));
    e.close();
  });
});

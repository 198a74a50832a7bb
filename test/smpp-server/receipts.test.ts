import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import type { PDU } from 'smpp';
import { Esme } from '../helpers/esme.js';
import { eventually, startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { cn, finalReceipts } from '../helpers/sending.js';

/** An ESME that records each deliver_sm and answers it (unless told to stay silent). */
async function receiving(address: string, systemId: string, mode = 'transceiver', silent = 0) {
  const e = await Esme.connect(address);
  const got: PDU[] = [];
  e.session.on('deliver_sm', (pdu: PDU) => {
    got.push(pdu);
    if (silent > 0) silent -= 1;
    else e.session.send(pdu.response());
  });
  const bound = await e.bind(systemId, 'pw', mode);
  assert.equal(bound.command_status, 0);
  return { e, got };
}

/** The receipt's text; this process reads deliver_sm's short_message raw (raw-deliver.ts). */
const textOf = (pdu: PDU) => {
  const sm = pdu.short_message;
  return Buffer.isBuffer(sm)
    ? sm.toString('latin1')
    : String((sm as { message?: unknown }).message);
};
const receiptFor = (got: PDU[], id: string) => got.filter((p) => p.receipted_message_id === id);

/**
 * Receipts go back to the ESME that asked for them (registered_delivery) as deliver_sm, through
 * the outbox: durable while no receiver is bound, sent again when unanswered, never to another
 * account's binds.
 */
describe('SMPP server: receipts back to the ESME', () => {
  let gw: TestGateway;
  let address: string;
  const opened: Esme[] = [];

  before(async () => {
    gw = await startTestGateway({
      simDelayMs: 0,
      smppServer: {
        listen: '127.0.0.1:0',
        responseTimeoutMs: 300,
        esmes: [
          { accountId: 1, systemId: 'esme1', password: 'pw' },
          { accountId: 1, systemId: 'later', password: 'pw' },
          { accountId: 2, systemId: 'esme2', password: 'pw' },
        ],
      },
    });
    address = gw.smppAddress as string;
  });
  after(async () => {
    for (const e of opened) e.close();
    await gw.close();
  });
  const bind = async (systemId: string, mode?: string, silent?: number) => {
    const r = await receiving(address, systemId, mode, silent);
    opened.push(r.e);
    return r;
  };
  // Each test's binds go at its end: a receipt goes to any bind of its system_id.
  afterEach(async () => {
    for (const e of opened.splice(0)) {
      e.close();
      await e.closed;
    }
  });
  const submit = async (e: Esme, n: number, registered_delivery: number) => {
    const resp = await e.submit({
      destination_addr: cn(n).slice(1),
      short_message: 'hi',
      registered_delivery,
    });
    assert.equal(resp.command_status, 0);
    return String(resp.message_id);
  };

  it('a delivered message comes back as an Appendix B receipt with its TLVs', async () => {
    const { e, got } = await bind('esme1');
    const other = await bind('esme2', 'receiver');
    const id = await submit(e, 5201, 1);
    const [receipt] = await eventually(async () => {
      const r = receiptFor(got, id);
      return r.length > 0 ? r : undefined;
    }, 'the receipt');
    assert.ok(receipt);
    assert.equal(receipt.esm_class, 4);
    assert.equal(receipt.message_state, 2);
    assert.equal(receipt.source_addr, cn(5201).slice(1));
    assert.match(
      textOf(receipt),
      new RegExp(
        `^id:${id} sub:001 dlvrd:001 submit date:\\d{10} done date:\\d{10} stat:DELIVRD err:000 text:$`,
      ),
    );
    assert.deepEqual(other.got, [], "another account's bind gets nothing");
  });

  it('no receipt without registered_delivery; failures only with 2', async () => {
    const { e, got } = await bind('esme1');
    const none = await submit(e, 5202, 0);
    const onlyFailure = await submit(e, 5203, 2);
    const failing = await submit(e, 1, 2);
    await finalReceipts(gw, none, 1);
    await finalReceipts(gw, onlyFailure, 1);
    const [failed] = await eventually(async () => {
      const r = receiptFor(got, failing);
      return r.length > 0 ? r : undefined;
    }, 'the failure receipt');
    assert.match(textOf(failed as PDU), / stat:UNDELIV /);
    assert.equal((failed as PDU).message_state, 5);
    assert.deepEqual([...receiptFor(got, none), ...receiptFor(got, onlyFailure)], []);
  });

  it("a reply to the account's SMS number goes to the account's receiving binds only", async () => {
    const mine = await bind('later', 'receiver');
    const theirs = await bind('esme2', 'receiver');
    const reply = async (Text: string) => {
      const body = { From: cn(5301), To: '10690001', Text };
      const { status: code, json } = await gw.admin('POST', '/admin/simulator/inbound', body);
      assert.equal(code, 201, json.Message);
    };
    await reply('Thanks 你好');
    await reply('y'.repeat(300));
    const [short, long] = await eventually(
      async () => (mine.got.length >= 2 ? mine.got : undefined),
      'two replies',
    );
    assert.deepEqual(
      [short?.source_addr, short?.destination_addr, short?.esm_class, short?.data_coding],
      [cn(5301).slice(1), '10690001', 0, 8],
    );
    const ucs2 = Buffer.from(short?.short_message as Buffer)
      .swap16()
      .toString('utf16le');
    assert.equal(ucs2, 'Thanks 你好');
    assert.equal(long?.data_coding, 0);
    assert.ok(long.message_payload, 'text past 254 octets goes in message_payload');
    assert.deepEqual(theirs.got, [], "another account's bind gets none of them");
  });

  it('waits in the store while no receiver is bound; sent again when unanswered', async () => {
    const tx = await Esme.connect(address);
    opened.push(tx);
    assert.equal((await tx.bind('later', 'pw', 'transmitter')).command_status, 0);
    const id = await submit(tx, 5204, 1);
    await finalReceipts(gw, id, 1);
    const rx = await bind('later', 'receiver', 1);
    const twice = await eventually(
      async () => {
        const r = receiptFor(rx.got, id);
        return r.length >= 2 ? r : undefined;
      },
      'the receipt sent again after no resp',
      20_000,
    );
    assert.equal(twice.length, 2);
  });
});

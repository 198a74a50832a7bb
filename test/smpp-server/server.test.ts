import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, afterEach, before, describe, it } from 'node:test';
import { consoleLogin } from '../helpers/console-client.js';
import { Esme, status } from '../helpers/esme.js';
import { eventually, startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { UUID_V7, cn, finalReceipts, inbox, registerSenderId } from '../helpers/sending.js';

/**
 * The SMPP server face, driven by the `smpp` npm client as an ESME: binds and their refusals,
 * the protocol's states, and submits stored through the same path as the HTTP API's.
 */
describe('SMPP server: binds, states and submits', () => {
  let gw: TestGateway;
  let address: string;
  const open: Esme[] = [];
  const esme = async () => {
    const e = await Esme.connect(address);
    open.push(e);
    return e;
  };
  const credential = async (body: Record<string, unknown>, accountId = 1) => {
    const { status: code, json } = await gw.admin(
      'POST',
      `/admin/accounts/${accountId}/smpp-credentials`,
      body,
    );
    assert.equal(code, 201, json.Message);
  };

  before(async () => {
    gw = await startTestGateway({
      simDelayMs: 0,
      smppServer: {
        listen: '127.0.0.1:0',
        esmes: [{ accountId: 1, systemId: 'esme1', password: 'pw1' }],
      },
    });
    address = gw.smppAddress as string;
    await registerSenderId(gw, 'WIREBIRD');
  });
  // Each test's binds go at its end: a credential allows 4 at once.
  afterEach(async () => {
    for (const e of open.splice(0)) {
      e.close();
      await e.closed;
    }
  });
  after(() => gw.close());

  it('a bind with a wrong password or an unknown system_id is refused and closed', async () => {
    const wrong = await esme();
    assert.equal((await wrong.bind('esme1', 'nope')).command_status, status('ESME_RINVPASWD'));
    await wrong.closed;
    const unknown = await esme();
    assert.equal((await unknown.bind('ghost', 'pw')).command_status, status('ESME_RINVSYSID'));
    await unknown.closed;
  });

  it('accepts GSM-7 and UCS-2 text, stored before the resp, with the SessionNo as message_id', async () => {
    const e = await esme();
    const bound = await e.bind('esme1', 'pw1');
    assert.equal(bound.command_status, 0);
    assert.equal(bound.system_id, 'wirebird');
    const gsm = await e.submit({
      source_addr: 'WIREBIRD',
      destination_addr: cn(5101).slice(1),
      short_message: 'Your code is 1234',
    });
    assert.equal(gsm.command_status, 0);
    const id = String(gsm.message_id);
    assert.match(id, UUID_V7, "a UUID ordered by time, written at its indexes' end");
    const [receipt] = await finalReceipts(gw, id, 1);
    assert.deepEqual([receipt?.Phone, receipt?.ReceiptResult], [cn(5101), 'Success']);
    const ucs2 = await e.submit({
      destination_addr: cn(5102).slice(1),
      data_coding: 8,
      short_message: Buffer.from('你好，世界', 'utf16le').swap16(),
    });
    assert.equal(ucs2.command_status, 0);
    const got = await eventually(async () => (await inbox(gw, cn(5102)))[0], 'the UCS-2 text');
    assert.equal(got.body, '你好，世界');
    assert.equal((await inbox(gw, cn(5101)))[0]?.body, 'Your code is 1234');
  });

  it('reads IA5 (data_coding 1) and Latin-1 (3) bytes as sent; refuses other codings', async () => {
    const e = await esme();
    await e.bind('esme1', 'pw1', 'transmitter');
    const send = (n: number, data_coding: number, bytes: Buffer) =>
      e.submit({ destination_addr: cn(n).slice(1), data_coding, short_message: bytes });
    assert.equal((await send(5111, 1, Buffer.from('a@b_c$', 'latin1'))).command_status, 0);
    assert.equal((await send(5112, 3, Buffer.from('café ñ', 'latin1'))).command_status, 0);
    const binary = await send(5113, 4, Buffer.from([1, 2, 3]));
    assert.equal(binary.command_status, status('ESME_RSUBMITFAIL'));
    const text = async (n: number) =>
      (await eventually(async () => (await inbox(gw, cn(n)))[0], `${n}'s text`)).body;
    assert.equal(await text(5111), 'a@b_c$');
    assert.equal(await text(5112), 'café ñ');
  });

  it('/metrics counts answers by command and status, and the binds open', async () => {
    const e = await esme();
    await e.bind('esme1', 'pw1');
    await e.submit({ destination_addr: cn(5141).slice(1), short_message: 'm' });
    await e.submit({
      source_addr: 'NOTMINE',
      destination_addr: cn(5141).slice(1),
      short_message: 'm',
    });
    const res = await fetch(`${gw.url}/metrics`, {
      headers: { authorization: `Bearer ${gw.adminKey}` },
    });
    const text = await res.text();
    const count = (labels: string) =>
      Number(
        new RegExp(`wirebird_smpp_server_requests_total\\{${labels}\\} (\\d+)`).exec(text)?.[1],
      );
    assert.ok(count('command="submit_sm",status="ESME_ROK"') >= 1);
    assert.ok(count('command="submit_sm",status="ESME_RINVSRCADR"') >= 1);
    assert.ok(count('command="bind_transceiver",status="ESME_ROK"') >= 1);
    assert.match(text, /wirebird_smpp_server_binds [1-9]/);
    const admin = await consoleLogin(gw.url, gw.adminKey);
    const health = await admin.get('/console/health');
    assert.match(health.text, /<h2>SMPP server<\/h2>/);
    assert.match(health.text, /<td><code>esme1<\/code><\/td>\s*<td>[1-9]<\/td>/);
  });

  it('refuses by field: sender, number, empty text, bad UDH, bad or too late times', async () => {
    const e = await esme();
    await e.bind('esme1', 'pw1', 'transmitter');
    const to = cn(5103).slice(1);
    const cases: [Record<string, unknown>, string][] = [
      [{ source_addr: 'NOTMINE', destination_addr: to, short_message: 'x' }, 'ESME_RINVSRCADR'],
      [{ destination_addr: '12', dest_addr_ton: 0, short_message: 'x' }, 'ESME_RINVDSTADR'],
      [{ destination_addr: to, short_message: '' }, 'ESME_RINVMSGLEN'],
      [
        {
          // A UDH with application ports and no concatenation: not taken.
          destination_addr: to,
          esm_class: 0x40,
          short_message: Buffer.concat([
            Buffer.from([6, 5, 4, 0x0b, 0x84, 0x23, 0xf0]),
            Buffer.from('x'),
          ]),
        },
        'ESME_RINVESMCLASS',
      ],
      [
        {
          destination_addr: to,
          esm_class: 0x40,
          short_message: Buffer.concat([
            Buffer.from([5, 0, 3, 7, 2, 3]),
            Buffer.from('part 3 of 2'),
          ]),
        },
        'ESME_RINVESMCLASS',
      ],
    ];
    const timed = (fields: Record<string, unknown>) => ({
      destination_addr: to,
      short_message: 'x',
      ...fields,
    });
    cases.push(
      [timed({ schedule_delivery_time: '26112712000000+' }), 'ESME_RINVSCHED'],
      [timed({ schedule_delivery_time: '261127120000049+' }), 'ESME_RINVSCHED'],
      [timed({ schedule_delivery_time: '000200000000000R' }), 'ESME_RINVSCHED'],
      [timed({ validity_period: 'soon' }), 'ESME_RINVEXPIRY'],
      [
        timed({
          schedule_delivery_time: '000001000000000R',
          validity_period: '000000010000000R',
        }),
        'ESME_RINVEXPIRY',
      ],
    );
    for (const [fields, name] of cases) {
      assert.equal((await e.submit(fields)).command_status, status(name), name);
    }
    assert.deepEqual(await inbox(gw, cn(5103)), []);
  });

  it('submit_multi stores the destinations that pass as one session; lists the others', async () => {
    const e = await esme();
    await e.bind('esme1', 'pw1', 'transmitter');
    const resp = await e.request('submit_multi', {
      source_addr: 'WIREBIRD',
      dest_address: [
        { dest_addr_ton: 1, dest_addr_npi: 1, destination_addr: cn(5121).slice(1) },
        { dest_addr_ton: 0, dest_addr_npi: 1, destination_addr: '12' },
        { dl_name: 'friends' },
        { dest_addr_ton: 1, dest_addr_npi: 1, destination_addr: cn(5122).slice(1) },
      ],
      short_message: 'To many',
    });
    assert.equal(resp.command_status, 0);
    const refusedSme = resp.unsuccess_sme as {
      destination_addr: string;
      error_status_code: number;
    }[];
    assert.deepEqual(
      refusedSme.map((u) => [u.destination_addr, u.error_status_code]),
      [
        ['12', status('ESME_RINVDSTADR')],
        ['friends', status('ESME_RINVDSTADR')],
      ],
    );
    const receipts = await finalReceipts(gw, String(resp.message_id), 2);
    assert.deepEqual(receipts.map((r) => r.Phone).sort(), [cn(5121), cn(5122)]);
    const none = await e.request('submit_multi', { dest_address: [], short_message: 'x' });
    assert.equal(none.command_status, status('ESME_RINVNUMDESTS'));
  });

  it('an opted-out number is refused like on the API, alone or among several', async () => {
    const { json } = await gw.api({ Action: 'CreateOptOut', AccountId: 1, Phones: [cn(5151)] });
    assert.equal(json.RetCode, 0, json.Message);
    const e = await esme();
    await e.bind('esme1', 'pw1');
    const alone = await e.submit({ destination_addr: cn(5151).slice(1), short_message: 'x' });
    assert.equal(alone.command_status, status('ESME_RSUBMITFAIL'));
    const multi = await e.request('submit_multi', {
      dest_address: [5151, 5152].map((n) => ({
        dest_addr_ton: 1,
        dest_addr_npi: 1,
        destination_addr: cn(n).slice(1),
      })),
      short_message: 'x',
    });
    assert.equal(multi.command_status, 0);
    const refusedSme = multi.unsuccess_sme as {
      destination_addr: string;
      error_status_code: number;
    }[];
    assert.deepEqual(
      refusedSme.map((u) => [u.destination_addr, u.error_status_code]),
      [[cn(5151).slice(1), status('ESME_RSUBMITFAIL')]],
    );
    assert.deepEqual(await inbox(gw, cn(5151)), [], 'nothing sent to the opted-out number');
  });

  it("query_sm answers a message's state from the store, for its own account only", async () => {
    const e = await esme();
    await e.bind('esme1', 'pw1');
    const sent = await e.submit({ destination_addr: cn(5131).slice(1), short_message: 'q' });
    const id = String(sent.message_id);
    await finalReceipts(gw, id, 1);
    const q = await e.request('query_sm', { message_id: id, source_addr: '' });
    assert.deepEqual([q.command_status, q.message_id, q.message_state], [0, id, 2]);
    assert.ok(q.final_date instanceof Date, 'final_date set once the message is final');
    const unknown = await e.request('query_sm', { message_id: 'no-such-id', source_addr: '' });
    assert.equal(unknown.command_status, status('ESME_RQUERYFAIL'));
    await credential({ SystemId: 'acct2', Password: 'pw' }, 2);
    const other = await esme();
    await other.bind('acct2', 'pw');
    const theirs = await other.request('query_sm', { message_id: id, source_addr: '' });
    assert.equal(theirs.command_status, status('ESME_RQUERYFAIL'), "another account's message");
  });

  it('states and commands: receiver may not submit, unknown ids are nacked, unbind closes', async () => {
    const rx = await esme();
    await rx.bind('esme1', 'pw1', 'receiver');
    const refused = await rx.submit({ destination_addr: cn(5104).slice(1), short_message: 'x' });
    assert.equal(refused.command_status, status('ESME_RINVBNDSTS'));
    assert.equal((await rx.bind('esme1', 'pw1')).command_status, status('ESME_RALYBND'));
    assert.equal((await rx.request('enquire_link')).command_status, 0);
    const query = await rx.request('query_sm', { message_id: 'x', source_addr: '' });
    assert.equal(query.command_status, status('ESME_RINVBNDSTS'), 'a receiver does not query');
    const cancel = await rx.request('cancel_sm', { message_id: 'x' });
    assert.equal(cancel.command_status, status('ESME_RINVBNDSTS'), 'nor cancels');
    const replace = await rx.request('replace_sm', { message_id: 'x', short_message: 'y' });
    assert.equal(replace.command_status, status('ESME_RINVBNDSTS'), 'nor replaces');
    assert.equal((await rx.request('unbind')).command_status, 0);
    await rx.closed;
    const nack = await rawReply(address, Buffer.from('000000100000abcd0000000000000007', 'hex'));
    assert.equal(nack.toString('hex'), '0000001080000000000000030000000' + '7');
  });

  it('limits: submits a second per bind, binds per system_id, networks, failed binds', async () => {
    await credential({ SystemId: 'slow', Password: 'pw', MaxTps: 2, MaxBinds: 1 });
    const e = await esme();
    await e.bind('slow', 'pw');
    const fields = { destination_addr: cn(5105).slice(1), short_message: 'x' };
    const answers = await Promise.all([1, 2, 3].map(() => e.submit(fields)));
    assert.deepEqual(
      answers.map((a) => a.command_status),
      [0, 0, status('ESME_RTHROTTLED')],
    );
    assert.equal(
      (await (await esme()).bind('slow', 'pw')).command_status,
      status('ESME_RBINDFAIL'),
    );
    await credential({ SystemId: 'far', Password: 'pw', AllowedNetworks: ['10.0.0.0/8'] });
    assert.equal((await (await esme()).bind('far', 'pw')).command_status, status('ESME_RBINDFAIL'));
  });

  // Last: it leaves 127.0.0.1 refused for a minute.
  it('five failed binds from an address refuse its binds for a while, right password or not', async () => {
    // Three failed above (a wrong password, an unknown system_id, a network not allowed).
    for (const pw of ['bad1', 'bad2']) {
      const e = await esme();
      assert.equal((await e.bind('esme1', pw)).command_status, status('ESME_RINVPASWD'));
    }
    const right = await esme();
    assert.equal((await right.bind('esme1', 'pw1')).command_status, status('ESME_RBINDFAIL'));
    await right.closed;
  });
});

/** Writes raw bytes and answers the first PDU that comes back. */
function rawReply(address: string, bytes: Buffer): Promise<Buffer> {
  const port = Number(address.split(':').pop());
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    socket.once('data', (d) => {
      resolve(d.subarray(0, d.readUInt32BE(0)));
      socket.destroy();
    });
    socket.once('error', reject);
  });
}

/**
 * A connection that never binds, on a gateway of its own with a short bindTimeoutMs: the other
 * tests' binds keep the default, so a busy machine's slow password check never fails them.
 */
describe('SMPP server: a connection that never binds', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ smppServer: { listen: '127.0.0.1:0', bindTimeoutMs: 300 } });
  });
  after(() => gw.close());

  it('submit_sm before a bind is ESME_RINVBNDSTS; a connection that never binds is closed', async () => {
    const e = await Esme.connect(gw.smppAddress as string);
    const resp = await e.submit({ destination_addr: '8613800000001', short_message: 'x' });
    assert.equal(resp.command_status, status('ESME_RINVBNDSTS'));
    await e.closed;
  });
});

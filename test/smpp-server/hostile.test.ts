import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Esme, status } from '../helpers/esme.js';
import { eventually, startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { parseExposition, valueOf } from '../helpers/prometheus.js';
import {
  CMD,
  RawEsme,
  bindBody,
  cstr,
  rawPdu,
  submitHead,
  type RawAnswer,
} from '../helpers/raw-esme.js';
import { cn, storedMessages } from '../helpers/sending.js';
import { smppFieldCases } from '../helpers/smpp-field-cases.js';

const DELIVER_SM = 0x05;
const GENERIC_NACK = 0x80000000;

/** submit_sm's response id, and the statuses the server answers these with (SMPP 3.4 §5.1.3). */
const SUBMIT_SM_RESP = 0x80000004;

type State = 'open' | 'transmitter' | 'receiver';

/** What a well-formed request is answered in each state (docs/smpp-server.md). */
function validStatus(command: string, state: State): number {
  if (command === 'enquire_link') return 0;
  if (command === 'data_sm') return status('ESME_RINVCMDID');
  if (command.startsWith('bind_')) return status('ESME_RALYBND');
  if (state !== 'transmitter') return status('ESME_RINVBNDSTS');
  if (command === 'query_sm') return status('ESME_RQUERYFAIL');
  if (command === 'cancel_sm') return status('ESME_RCANCELFAIL');
  if (command === 'replace_sm') return status('ESME_RREPLACEFAIL');
  return 0;
}

/** A broken body: its message's length when the text is what overruns, else the command's. */
const brokenStatus = (field: string) =>
  field === 'short_message' || field === 'message_payload'
    ? status('ESME_RINVMSGLEN')
    : status('ESME_RINVCMDLEN');

/** Sends PDUs in one write; answers the responses by sequence number once all have come. */
async function exchange(e: RawEsme, pdus: Buffer[]): Promise<Map<number, RawAnswer>> {
  e.send(Buffer.concat(pdus));
  const answers = new Map<number, RawAnswer>();
  while (answers.size < pdus.length) {
    const a = await e.next();
    if (a.commandId & 0x80000000) answers.set(a.sequence, a);
  }
  return answers;
}

/**
 * What a hostile or careless ESME found (issue 35), each driven over a raw socket: binds that
 * close before their answer, truncated and overrunning fields, a peer that never reads, and the
 * rule that a submit_sm_resp leaves only after the commit.
 */
describe('SMPP server: a hostile ESME', () => {
  let gw: TestGateway;
  let address: string;
  const raws: RawEsme[] = [];
  const raw = async () => {
    const r = await RawEsme.connect(address);
    raws.push(r);
    return r;
  };
  const metrics = async () => {
    const res = await fetch(`${gw.url}/metrics`, {
      headers: { authorization: `Bearer ${gw.adminKey}` },
    });
    return parseExposition(await res.text());
  };
  const openBinds = async () => valueOf(await metrics(), 'wirebird_smpp_server_binds');
  /** A raw transmitter or transceiver bound as `systemId`. */
  const bound = async (systemId: string, command: number = CMD.bind_transceiver) => {
    const r = await raw();
    const answer = await r.call(command, 1, bindBody(systemId, 'pw'));
    assert.equal(answer.status, 0, `bound as ${systemId}`);
    return r;
  };

  before(async () => {
    gw = await startTestGateway({
      simDelayMs: 0,
      smppServer: {
        listen: '127.0.0.1:0',
        inactivityMs: 2000,
        enquireLinkMs: 1000,
        esmes: [
          { accountId: 1, systemId: 'pair', password: 'pw', maxBinds: 2 },
          { accountId: 1, systemId: 'burst', password: 'pw', maxBinds: 64 },
          { accountId: 1, systemId: 'esme', password: 'pw' },
          { accountId: 1, systemId: 'fuzz', password: 'pw' },
        ],
      },
    });
    address = gw.smppAddress as string;
  });
  after(async () => {
    for (const r of raws) r.close();
    await gw.close();
  });

  it('a bind closed before its answer holds no bind: receipts go to the live one', async () => {
    const ghost = await raw();
    ghost.send(rawPdu(CMD.bind_transceiver, 1, bindBody('pair', 'pw')));
    ghost.socket.end();
    await ghost.closed;
    // Checked after the ghost's (one address's binds are checked in turn).
    const live = await bound('pair');
    assert.equal(await openBinds(), 1, 'only the live bind is counted');
    const second = await bound('pair');
    second.close();
    await second.closed;
    await eventually(async () => ((await openBinds()) === 1 ? true : undefined), 'one bind');
    const receipts = 20;
    let got = 0;
    // A receipt may come before a later submit's answer (the simulator answers at once): each is
    // acknowledged and counted wherever it comes.
    const receipt = (pdu: { commandId: number; sequence: number }) => {
      assert.equal(pdu.commandId, DELIVER_SM, `a receipt, not ${pdu.commandId.toString(16)}`);
      live.send(rawPdu((DELIVER_SM | 0x80000000) >>> 0, pdu.sequence, cstr('')));
      got++;
    };
    for (let i = 0; i < receipts; i++) {
      const body = Buffer.concat([submitHead(cn(7000 + i).slice(1), 1), Buffer.of(2), cstr('h')]);
      live.send(rawPdu(CMD.submit_sm, 10 + i, body));
      let resp = await live.next();
      while (resp.commandId === DELIVER_SM) {
        receipt(resp);
        resp = await live.next();
      }
      assert.deepEqual([resp.sequence, resp.status], [10 + i, 0]);
    }
    while (got < receipts) receipt(await live.next());
  });

  it('a burst of binds from one address is answered, each, and leaves no bind behind', async () => {
    const already = await openBinds();
    const burst = await Promise.all(Array.from({ length: 30 }, () => raw()));
    const fates = await Promise.all(
      burst.map((r, i) => {
        r.send(rawPdu(CMD.bind_transmitter, i + 1, bindBody('burst', 'pw')));
        return r.next().catch(() => 'closed' as const);
      }),
    );
    assert.ok(!fates.includes('closed'), 'every bind of the burst answered');
    const answered = fates.filter((f): f is RawAnswer => f !== 'closed');
    for (const a of answered) assert.ok([0, status('ESME_RBINDFAIL')].includes(a.status));
    // Checked after every bind of the burst: when it is answered, all their verdicts are in.
    const last = await Esme.connect(address);
    assert.equal((await last.bind('burst', 'pw', 'transmitter')).command_status, 0);
    const live = answered.filter((a) => a.status === 0).length;
    assert.equal(await openBinds(), already + live + 1);
    for (const r of burst) r.close();
    last.close();
    const gone = async () => ((await openBinds()) === already ? true : undefined);
    await eventually(gone, 'the binds of the burst gone', 5000);
  });

  it('refuses fields that overrun command_length and a short_message over 254', async () => {
    const e = await bound('esme', CMD.bind_transmitter);
    const head = submitHead(cn(7100).slice(1));
    const before = await storedMessages(gw);
    const cases: [string, Buffer, number][] = [
      ['sm_length 5, 2 octets', Buffer.concat([head, Buffer.of(5), Buffer.from('hi')]), 0x01],
      ['sm_length 200, 2 octets', Buffer.concat([head, Buffer.of(200), Buffer.from('hi')]), 0x01],
      [
        'message_payload of 5,000 with 10',
        Buffer.concat([head, Buffer.of(0, 0x04, 0x24, 0x13, 0x88), Buffer.alloc(10, 0x41)]),
        0x01,
      ],
      [
        'short_message of 255',
        Buffer.concat([head, Buffer.of(255), Buffer.alloc(255, 0x41)]),
        0x01,
      ],
      ['destination_addr without its NUL', head.subarray(0, 10), 0x02],
      ['no sm_length at all', head, 0x01],
    ];
    let sequence = 100;
    for (const [what, body, expected] of cases) {
      const answer = await e.call(CMD.submit_sm, ++sequence, body);
      assert.equal(answer.commandId, SUBMIT_SM_RESP, what);
      assert.equal(answer.status, expected, what);
      assert.equal(answer.body.length, 0, `${what}: no message_id`);
    }
    assert.equal(await storedMessages(gw), before, 'none of them stored');
    const fits = Buffer.concat([head, Buffer.of(254), Buffer.alloc(254, 0x41)]);
    assert.equal((await e.call(CMD.submit_sm, ++sequence, fits)).status, 0, '254 octets fit');
    assert.equal(await storedMessages(gw), before + 1);
  });

  it('a command_length over 66,048 octets is refused and the connection closed', async () => {
    const e = await raw();
    const header = Buffer.alloc(16);
    header.writeUInt32BE(66_049, 0);
    header.writeUInt32BE(CMD.submit_sm, 4);
    header.writeUInt32BE(5, 12);
    e.send(header);
    const answer = await e.next();
    assert.deepEqual([answer.commandId, answer.status], [GENERIC_NACK, 0x02]);
    await e.closed;
  });

  it('a submit_sm_resp leaves only after the commit; a failed one answers ESME_RSYSERR', async () => {
    const e = await bound('esme', CMD.bind_transmitter);
    const body = Buffer.concat([submitHead(cn(7200).slice(1)), Buffer.of(2), cstr('o')]);
    const accept = gw.store.acceptBatch.bind(gw.store);
    let release: () => void = () => undefined;
    let entered: () => void = () => undefined;
    const inAccept = new Promise<void>((r) => (entered = r));
    gw.store.acceptBatch = async (batch) => {
      entered();
      await new Promise<void>((r) => (release = r));
      return accept(batch);
    };
    try {
      e.send(rawPdu(CMD.submit_sm, 20, body));
      await inAccept;
      // Read on the same connection after the submit: answered while the commit is held.
      const link = await e.call(CMD.enquire_link, 21);
      assert.equal(link.status, 0, 'the enquire_link_resp came first');
      const before = await storedMessages(gw);
      release();
      const resp = await e.next();
      assert.deepEqual([resp.sequence, resp.status], [20, 0]);
      assert.equal(await storedMessages(gw), before + 1, 'stored when answered');
      gw.store.acceptBatch = () => Promise.reject(new Error('the disk is full'));
      const failed = await e.call(CMD.submit_sm, 22, body);
      assert.deepEqual([failed.status, failed.body.length], [status('ESME_RSYSERR'), 0]);
    } finally {
      gw.store.acceptBatch = accept;
    }
    assert.equal((await e.call(CMD.submit_sm, 23, body)).status, 0, 'nothing crashed');
  });

  it('a credential without the send scope binds only as a receiver', async () => {
    const { status: code, json } = await gw.admin('POST', '/admin/accounts/1/smpp-credentials', {
      SystemId: 'reader',
      Scopes: ['read'],
    });
    assert.equal(code, 201, json.Message);
    const password = String(json.Password);
    for (const [command, expected] of [
      [CMD.bind_transmitter, status('ESME_RBINDFAIL')],
      [CMD.bind_transceiver, status('ESME_RBINDFAIL')],
      [CMD.bind_receiver, 0],
    ] as const) {
      const e = await raw();
      const answer = await e.call(command, 1, bindBody('reader', password));
      assert.equal(answer.status, expected, `bind ${command}`);
      e.close();
    }
  });

  it('stops reading from a bind that does not read its answers, then drops it', async () => {
    const e = await bound('esme', CMD.bind_transmitter);
    const answered = () =>
      metrics().then((m) =>
        valueOf(m, 'wirebird_smpp_server_requests_total', {
          command: 'enquire_link',
          status: 'ESME_ROK',
        }),
      );
    const before = await answered();
    e.socket.pause();
    // 32 MB of enquire_link, and as much of answers: more than loopback's buffers hold (the
    // kernel took 8 MB of answers at times, which 16 MB left too close to half).
    const links = 2_000_000;
    e.send(Buffer.concat(Array.from({ length: links }, () => rawPdu(CMD.enquire_link, 9))));
    // Nothing more read: quiet for inactivityMs, so closed.
    await e.closed;
    const read = (await answered()) - before;
    assert.ok(read < links / 2, `${read} of ${links} read before the server stopped reading`);
  });

  it('answers each PDU of the field tables, whole, cut or overrun, in each state', async () => {
    const cases = smppFieldCases();
    const connections: [State, RawEsme][] = [
      ['open', await raw()],
      ['transmitter', await bound('fuzz', CMD.bind_transmitter)],
      ['receiver', await bound('fuzz', CMD.bind_receiver)],
    ];
    for (const [state, e] of connections) {
      // A whole bind would bind the open connection, a whole unbind end any: tested above.
      const sent = cases.filter(
        (c) =>
          c.broken !== undefined ||
          (c.command !== 'unbind' && !(state === 'open' && c.command.startsWith('bind_'))),
      );
      const answers = await exchange(
        e,
        sent.map((c, i) => rawPdu(c.commandId, 1000 + i, c.body)),
      );
      sent.forEach((c, i) => {
        const a = answers.get(1000 + i);
        const what = `${c.command}, ${c.what}, ${state}`;
        assert.equal(a?.commandId, (c.commandId | 0x80000000) >>> 0, what);
        const expected = c.broken ? brokenStatus(c.broken) : validStatus(c.command, state);
        assert.equal(a.status, expected, what);
      });
    }
    assert.ok(cases.length > 60, `${cases.length} cases`);
  });
});

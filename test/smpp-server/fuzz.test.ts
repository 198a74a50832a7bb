import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import smpp from 'smpp';
import { Esme } from '../helpers/esme.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { cn } from '../helpers/sending.js';

const PDUS = 10_000;
const PER_CONNECTION = 50;
const CONCURRENT = 10;

/** A small seeded generator (mulberry32): a failing run can be replayed from its seed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Well-formed PDUs to start mutating from: binds, submits, links, unknown commands. */
function seeds(): Buffer[] {
  const pdu = (command: string, fields: Record<string, unknown>) => {
    const p = new smpp.PDU(command, fields);
    p.sequence_number = 7;
    return p.toBuffer();
  };
  return [
    pdu('bind_transceiver', { system_id: 'fuzz', password: 'pw' }),
    pdu('bind_transmitter', { system_id: 'fuzz', password: 'bad' }),
    pdu('submit_sm', { destination_addr: '8613800000001', short_message: 'hello' }),
    pdu('submit_sm', {
      destination_addr: '8613800000002',
      data_coding: 8,
      short_message: Buffer.from([0, 0x41]),
    }),
    pdu('enquire_link', {}),
    pdu('unbind', {}),
    pdu('query_sm', { message_id: 'x', source_addr: '' }),
    pdu('deliver_sm_resp', {}),
    Buffer.from('0000001000000999000000000000000b', 'hex'),
  ];
}

/** One PDU: a seed with bytes flipped, cut, extended, or a lying command_length; or noise. */
function mutant(rnd: () => number, pool: Buffer[]): Buffer {
  const pick = Math.floor(rnd() * 6);
  const base = Buffer.from(pool[Math.floor(rnd() * pool.length)] as Buffer);
  if (pick === 0) {
    const noise = Buffer.alloc(16 + Math.floor(rnd() * 64));
    for (let i = 0; i < noise.length; i++) noise[i] = Math.floor(rnd() * 256);
    noise.writeUInt32BE(noise.length, 0);
    return noise;
  }
  if (pick === 1) base.writeUInt32BE(Math.floor(rnd() * 16), 0);
  if (pick === 2) base.writeUInt32BE(70_000 + Math.floor(rnd() * 1e6), 0);
  const flips = 1 + Math.floor(rnd() * 4);
  for (let i = 0; i < flips && pick >= 3; i++) {
    // Past the length: the header's command_id, status and sequence, and the body.
    const at = 4 + Math.floor(rnd() * (base.length - 4));
    base[at] = Math.floor(rnd() * 256);
  }
  return base;
}

/** Sends PDUs on one connection; answers every PDU that came back, and whether it closed. */
function session(port: number, pdus: Buffer[]): Promise<{ answers: Buffer[]; closed: boolean }> {
  return new Promise((resolve) => {
    const answers: Buffer[] = [];
    let pending = Buffer.alloc(0);
    const socket = connect(port, '127.0.0.1');
    let closed = false;
    const done = () => {
      socket.destroy();
      resolve({ answers, closed });
    };
    const idle = setTimeout(done, 3000);
    socket.on('connect', () => {
      for (const p of pdus) socket.write(p);
      socket.end();
    });
    socket.on('data', (d) => {
      pending = Buffer.concat([pending, d]);
      while (pending.length >= 4 && pending.length >= pending.readUInt32BE(0)) {
        const length = pending.readUInt32BE(0);
        if (length < 16) break;
        answers.push(pending.subarray(0, length));
        pending = pending.subarray(length);
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      closed = true;
      clearTimeout(idle);
      done();
    });
  });
}

/** Commands a server may send on its own: responses, generic_nack, enquire_link, deliver_sm, unbind. */
function wellFormed(answer: Buffer): boolean {
  const length = answer.readUInt32BE(0);
  const id = answer.readUInt32BE(4);
  const ours = [0x00000015, 0x00000005, 0x00000006].includes(id);
  return length === answer.length && length >= 16 && (id >= 0x80000000 || ours);
}

describe('SMPP server: 10,000 random and mutated PDUs', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({
      simDelayMs: 0,
      smppServer: {
        listen: '127.0.0.1:0',
        bindTimeoutMs: 2000,
        esmes: [
          { accountId: 1, systemId: 'fuzz', password: 'pw' },
          { accountId: 1, systemId: 'steady', password: 'pw' },
        ],
      },
    });
  });
  after(() => gw.close());

  it('no crash, every answer well formed, a bind beside them unaffected', async () => {
    const port = Number((gw.smppAddress as string).split(':').pop());
    const steady = await Esme.connect(gw.smppAddress as string);
    assert.equal((await steady.bind('steady', 'pw')).command_status, 0);
    const rnd = random(20261126);
    const pool = seeds();
    const batches: Buffer[][] = [];
    for (let i = 0; i < PDUS; i += PER_CONNECTION) {
      batches.push(Array.from({ length: PER_CONNECTION }, () => mutant(rnd, pool)));
    }
    let answers = 0;
    let closed = 0;
    for (let i = 0; i < batches.length; i += CONCURRENT) {
      const results = await Promise.all(
        batches.slice(i, i + CONCURRENT).map((b) => session(port, b)),
      );
      for (const r of results) {
        for (const a of r.answers)
          assert.ok(wellFormed(a), `ill-formed answer ${a.toString('hex')}`);
        answers += r.answers.length;
        if (r.closed) closed++;
      }
    }
    assert.equal(closed, batches.length, 'every connection ended by the server or our end');
    const resp = await steady.submit({ destination_addr: cn(5501).slice(1), short_message: 'ok' });
    assert.equal(resp.command_status, 0, 'the steady bind still submits');
    assert.equal((await steady.request('enquire_link')).command_status, 0);
    assert.equal((await fetch(`${gw.url}/healthz`)).status, 200);
    console.log(`smpp fuzz: ${PDUS} PDUs on ${batches.length} connections, ${answers} answers`);
    steady.close();
  });
});

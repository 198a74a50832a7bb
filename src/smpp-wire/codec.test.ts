/**
 * The lean codec against the SMPP 3.4 specification's layouts, written out by hand octet by
 * octet, and against the `smpp` package (the reference): random PDUs of every command encoded
 * by one and decoded by the other, and the same fields encoded by both to the same bytes.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import smpp from 'smpp';
import { COMMANDS, TLVS, type CommandName, type FieldList } from './commands.js';
import { decodePdu, encodePdu, type OutPdu } from './codec.js';

const hex = (s: string) => Buffer.from(s.replace(/\s+/g, ''), 'hex');
const ascii = (s: string) => Buffer.from(s, 'latin1').toString('hex');

describe('the codec against PDUs written by hand from SMPP 3.4', () => {
  it('bind_transmitter (§4.1.1)', () => {
    const wire = hex(
      '0000002f 00000002 00000000 00000001' +
        `${ascii('SMPP3TEST')}00 ${ascii('secret08')}00 ${ascii('SUBMIT1')}00 34 01 01 00`,
    );
    const fields = {
      system_id: 'SMPP3TEST',
      password: 'secret08',
      system_type: 'SUBMIT1',
      interface_version: 0x34,
      addr_ton: 1,
      addr_npi: 1,
      address_range: '',
    };
    assert.deepEqual(
      encodePdu({ command: 'bind_transmitter', sequence_number: 1, ...fields }),
      wire,
    );
    assert.deepEqual(decodePdu(wire), {
      command: 'bind_transmitter',
      command_id: 2,
      command_status: 0,
      sequence_number: 1,
      ...fields,
    });
  });

  it('submit_sm with SAR TLVs (§4.4.1, §5.3.2.22–24)', () => {
    const wire = hex(
      '0000003c 00000004 00000000 0000000a' +
        `00 05 00 ${ascii('Bank')}00 01 01 ${ascii('4478')}00` +
        '00 00 00 00 00 01 00 03 00' +
        `03 ${ascii('abc')}` +
        '020c 0002 1234  020e 0001 02  020f 0001 01',
    );
    const pdu = decodePdu(wire);
    assert.equal(pdu.command, 'submit_sm');
    assert.equal(pdu.source_addr, 'Bank');
    assert.equal(pdu.source_addr_ton, 5);
    assert.equal(pdu.destination_addr, '4478');
    assert.equal(pdu.registered_delivery, 1);
    assert.equal(pdu.data_coding, 3);
    assert.deepEqual(pdu.short_message, Buffer.from('abc'));
    assert.equal(pdu.sar_msg_ref_num, 0x1234);
    assert.equal(pdu.sar_total_segments, 2);
    assert.equal(pdu.sar_segment_seqnum, 1);
    assert.deepEqual(encodePdu(pdu as OutPdu), wire);
  });

  it('deliver_sm receipt with receipted_message_id and message_state (§5.3.2.12, §5.3.2.35)', () => {
    const wire = hex(
      '0000003a 00000005 00000000 00000003' +
        `00 01 01 ${ascii('447')}00 00 00 00` +
        '04 00 00 00 00 00 00 00 00' +
        `02 ${ascii('id')}` +
        `001e 0004 ${ascii('a1b')}00  0423 0003 030001  0427 0001 02`,
    );
    const pdu = decodePdu(wire);
    assert.equal(pdu.esm_class, 4);
    assert.equal(pdu.receipted_message_id, 'a1b');
    assert.equal(pdu.message_state, 2);
    assert.deepEqual(pdu.network_error_code, hex('030001'));
    assert.deepEqual(encodePdu(pdu as OutPdu), wire);
  });

  it('submit_multi and submit_multi_resp (§4.5.1, §4.5.2)', () => {
    const multi = hex(
      '0000002f 00000021 00000000 00000002' +
        `00 00 00 00 02 01 01 01 ${ascii('4478')}00 02 ${ascii('list')}00` +
        '00 00 00 00 00 00 00 00 00 02' +
        ascii('hi'),
    );
    const pdu = decodePdu(multi);
    assert.deepEqual(pdu.dest_address, [
      { dest_addr_ton: 1, dest_addr_npi: 1, destination_addr: '4478' },
      { dl_name: 'list' },
    ]);
    assert.deepEqual(encodePdu(pdu as OutPdu), multi);
    const resp = hex(
      '0000001f 80000021 00000000 00000002' +
        `${ascii('S1')}00 01 01 01 ${ascii('4479')}00 0000000b`,
    );
    const unsuccess = [
      { dest_addr_ton: 1, dest_addr_npi: 1, destination_addr: '4479', error_status_code: 11 },
    ];
    assert.deepEqual(decodePdu(resp).unsuccess_sme, unsuccess);
    const out = { command: 'submit_multi_resp' as const, sequence_number: 2, message_id: 'S1' };
    assert.deepEqual(encodePdu({ ...out, unsuccess_sme: unsuccess }), resp);
  });

  it('a response with an error status is its header alone; generic_nack too (§4.3)', () => {
    const resp = { command: 'submit_sm_resp' as const, command_status: 0x45, sequence_number: 7 };
    assert.deepEqual(
      encodePdu({ ...resp, message_id: 'x' }),
      hex('00000010 80000004 00000045 00000007'),
    );
    const nack = { command: 'generic_nack' as const, command_status: 3, sequence_number: 9 };
    assert.deepEqual(encodePdu(nack), hex('00000010 80000000 00000003 00000009'));
    const ok = { command: 'submit_sm_resp' as const, sequence_number: 7, message_id: 'abc' };
    assert.deepEqual(encodePdu(ok), hex(`00000014 80000004 00000000 00000007 ${ascii('abc')}00`));
  });

  it('reads a damaged body without throwing: what is there, and no more', () => {
    const cut = hex(`00000017 00000004 00000000 00000001 00 01 01 ${ascii('44')}`);
    const pdu = decodePdu(cut);
    assert.equal(pdu.source_addr, '44', 'a C-string without its NUL ends with the PDU');
    assert.equal(pdu.short_message, undefined);
    const longTlv = hex('00000018 80000015 00000000 00000001 0424 0010 4142');
    assert.equal(decodePdu(longTlv).command, 'enquire_link_resp');
    const unknown = decodePdu(hex('00000010 00000104 00000000 00000005'));
    assert.equal(unknown.command, 'unknown');
  });

  it('names the first field that overruns or misses its command_length', () => {
    const cut = hex(`00000017 00000004 00000000 00000001 00 01 01 ${ascii('44')}`);
    assert.equal(decodePdu(cut).malformed, 'source_addr', 'a C-string without its NUL');
    const body = `00 01 01 ${ascii('44')}00 01 01 ${ascii('1')}00 00 00 00 00 00 00 00 00 00`;
    const sm = (length: string, text: string) => {
      const bytes = hex(`00000000 00000004 00000000 00000001 ${body} ${length} ${text}`);
      bytes.writeUInt32BE(bytes.length, 0);
      return decodePdu(bytes);
    };
    assert.equal(sm('05', '4142').malformed, 'short_message', 'sm_length 5, 2 octets present');
    assert.equal(sm('c8', '4142').malformed, 'short_message', 'sm_length 200, 2 present');
    assert.equal(sm('02', '4142').malformed, undefined, 'sm_length 2, 2 present');
    const payload = sm('00', '0424 1388 41424344454647484950');
    assert.equal(payload.malformed, 'message_payload', 'a TLV of 5,000 with 10 present');
    assert.equal(sm('00', '0424 00').malformed, 'tlv', 'three octets left after the fields');
    const missing = hex('00000014 00000004 00000000 00000001 00 05 00 41');
    assert.equal(decodePdu(missing).malformed, 'source_addr', 'no NUL before the end');
    const noFields = hex('00000011 00000004 00000000 00000001 00');
    assert.equal(decodePdu(noFields).malformed, 'source_addr_ton', 'fields missing');
    const multi = hex(`00000019 00000021 00000000 00000001 00 00 00 00 03 01 01 01 ${ascii('4')}`);
    assert.equal(decodePdu(multi).malformed, 'destination_addr', 'a dest_address cut short');
    const errorResp = hex('00000010 80000004 00000045 00000007');
    assert.equal(decodePdu(errorResp).malformed, undefined, 'an error resp has no body (§4)');
  });

  it('refuses to write a short_message over 255 octets', () => {
    const pdu = { command: 'submit_sm' as const, short_message: Buffer.alloc(256) };
    assert.throws(() => encodePdu(pdu), /message_payload/);
  });
});

/** A small seeded generator (mulberry32): the same PDUs on every run. */
function generator(seed: number) {
  let a = seed;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (max: number) => Math.floor(next() * (max + 1));
  const text = (max: number) =>
    String.fromCharCode(...Array.from({ length: int(max) }, () => 0x20 + int(0x5e)));
  const bytes = (max: number) => Buffer.from(Array.from({ length: int(max) }, () => int(255)));
  return { int, text, bytes };
}

type Gen = ReturnType<typeof generator>;

function randomField(g: Gen, type: FieldList[number][1]): unknown {
  switch (type) {
    case 'int8':
      return g.int(255);
    case 'cstring':
      return g.text(20);
    case 'sm':
      return g.bytes(254);
    case 'dests':
      return Array.from({ length: 1 + g.int(4) }, () =>
        g.int(1)
          ? { dest_addr_ton: g.int(6), dest_addr_npi: g.int(18), destination_addr: g.text(20) }
          : { dl_name: g.text(20) },
      );
    case 'unsuccess':
      return Array.from({ length: g.int(4) }, () => ({
        dest_addr_ton: g.int(6),
        dest_addr_npi: g.int(18),
        destination_addr: g.text(20),
        error_status_code: g.int(0xffff),
      }));
  }
}

function randomPdu(g: Gen, command: CommandName): OutPdu & Record<string, unknown> {
  const def = COMMANDS.get(command);
  assert.ok(def);
  const pdu: OutPdu & Record<string, unknown> = { command, sequence_number: 1 + g.int(0x7ffffffe) };
  for (const [name, type] of def.fields) pdu[name] = randomField(g, type);
  if (command === 'generic_nack' || def.fields.length === 0) return pdu;
  for (const name of def.tlvs) {
    if (g.int(3) !== 0) continue;
    const type = TLVS[name].type;
    pdu[name] =
      type === 'int8'
        ? g.int(255)
        : type === 'int16'
          ? g.int(0xffff)
          : type === 'cstring'
            ? g.text(30)
            : g.bytes(300);
  }
  return pdu;
}

type Field = { filter?: unknown };

/**
 * The package's filters decode text and times on their own terms: the wire form is compared,
 * with the filters taken off for `fn` and put back after it (the package's tables are one object
 * for every file a test worker runs, and the ESME tests read times through them).
 */
function withoutFilters<T>(fn: () => T): T {
  const taken: [Field, unknown][] = [];
  const take = (field: Field) => {
    if (!('filter' in field)) return;
    taken.push([field, field.filter]);
    delete field.filter;
  };
  for (const command of Object.values(smpp.commands)) {
    for (const param of Object.values(command.params ?? {})) take(param);
  }
  for (const tlv of Object.values(smpp.tlvs)) take(tlv);
  try {
    return fn();
  } finally {
    for (const [field, filter] of taken) field.filter = filter;
  }
}

/** The fields of a decoded PDU that were sent, in plain values (Buffers as Buffers). */
function sent(
  decoded: Record<string, unknown>,
  pdu: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(pdu)) {
    const v = decoded[key];
    out[key] = Buffer.isBuffer(v)
      ? Buffer.from(v)
      : Array.isArray(v)
        ? v.map((e) => ({ ...(e as object) }))
        : v;
  }
  return out;
}

describe('the codec against the smpp package, for random PDUs', () => {
  const commands = [...COMMANDS.keys()] as CommandName[];
  const g = generator(0x5eed);

  it('writes the bytes the package writes, and each reads what the other wrote', () =>
    withoutFilters(() => {
      for (let round = 0; round < 300; round++) {
        for (const command of commands) {
          const pdu = randomPdu(g, command);
          const ours = encodePdu(pdu);
          const theirs = new smpp.PDU(command, { ...pdu }).toBuffer();
          assert.deepEqual(ours, theirs, `${command}: bytes differ`);
          const { command: _c, ...fields } = pdu;
          const read = decodePdu(theirs);
          assert.equal(read.command, command);
          assert.deepEqual(sent(read, fields), sent(fields, fields), `${command}: read back`);
          const byPackage = new smpp.PDU(ours) as unknown as Record<string, unknown>;
          assert.deepEqual(
            sent(byPackage, fields),
            sent(fields, fields),
            `${command}: package read`,
          );
        }
      }
    }));
});

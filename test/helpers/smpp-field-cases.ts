/**
 * PDUs generated from the SMPP 3.4 field tables (src/smpp-wire/commands.ts), written octet by
 * octet here rather than by the gateway's codec: each request whole, then cut inside each of its
 * mandatory fields, with a length octet or a TLV claiming more than is there, and with stray
 * octets after the body. Each case says which field it breaks; the test says what is answered.
 */
import { COMMANDS, type FieldType } from '../../src/smpp-wire/commands.js';
import { cstr } from './raw-esme.js';

export interface FieldCase {
  command: string;
  commandId: number;
  /** What the case does to the PDU: 'valid', or how and where it is broken. */
  what: string;
  body: Buffer;
  /** The field a server must find broken; undefined for a valid PDU. */
  broken: string | undefined;
}

/** The requests the server face reads (the others are responses or the server's own). */
export const SERVER_REQUESTS = [
  'bind_transmitter',
  'bind_receiver',
  'bind_transceiver',
  'submit_sm',
  'submit_multi',
  'query_sm',
  'cancel_sm',
  'replace_sm',
  'data_sm',
  'enquire_link',
  'unbind',
] as const;

const TEXTS: Record<string, string> = {
  system_id: 'fuzz',
  password: 'pw',
  destination_addr: '8613800000001',
  message_id: 'no-such-message',
};
const OCTETS: Record<string, number> = { interface_version: 0x34, dest_addr_ton: 1 };

/** One field's octets, whole: sensible values, so that the valid PDU is a real request. */
function whole(name: string, type: FieldType): Buffer {
  switch (type) {
    case 'int8':
      return Buffer.of(OCTETS[name] ?? 0);
    case 'cstring':
      return cstr(TEXTS[name] ?? '');
    case 'sm':
      return Buffer.concat([Buffer.of(5), Buffer.from('hello')]);
    case 'dests':
      return Buffer.concat([Buffer.of(1, 1, 1, 1), cstr(TEXTS.destination_addr ?? '')]);
    case 'unsuccess':
      return Buffer.of(0);
  }
}

/** The field cut short: a C-string without its NUL, a list or text with fewer octets than said. */
function cut(type: FieldType, octets: Buffer): Buffer | undefined {
  if (type === 'int8') return Buffer.alloc(0);
  if (type === 'cstring') return octets.subarray(0, octets.length - 1);
  if (type === 'sm') return octets.subarray(0, 3);
  if (type === 'dests') return Buffer.of(2, 1, 1, 1, ...cstr('4478'));
  return undefined;
}

function fieldCases(command: string, commandId: number): FieldCase[] {
  const def = COMMANDS.get(command);
  if (!def) throw new Error(`${command} is not in the field tables`);
  const parts = def.fields.map(([name, type]) => whole(name, type));
  const valid = Buffer.concat(parts);
  const cases: FieldCase[] = [
    { command, commandId, what: 'valid', body: valid, broken: undefined },
  ];
  def.fields.forEach(([name, type], i) => {
    const short = cut(type, parts[i] as Buffer);
    if (!short) return;
    const body = Buffer.concat([...parts.slice(0, i), short]);
    const broken = type === 'dests' ? 'dest_address' : name;
    cases.push({ command, commandId, what: `${name} cut short`, body, broken });
    if (type === 'sm') {
      const claims = Buffer.concat([...parts.slice(0, i), Buffer.of(200), Buffer.from('hi')]);
      cases.push({ command, commandId, what: `sm_length 200, 2 octets`, body: claims, broken });
    }
  });
  return cases;
}

/** Every case of every request the server reads. */
export function smppFieldCases(): FieldCase[] {
  return SERVER_REQUESTS.flatMap((command) => {
    const id = COMMANDS.get(command)?.id ?? 0;
    const cases = fieldCases(command, id);
    const valid = cases[0]?.body ?? Buffer.alloc(0);
    const payload = Buffer.concat([valid, Buffer.of(0x04, 0x24, 0x13, 0x88), Buffer.alloc(10)]);
    const stray = Buffer.concat([valid, Buffer.of(0x02, 0x0c, 0x00)]);
    return [
      ...cases,
      { command, commandId: id, what: 'stray octets after', body: stray, broken: 'tlv' },
      ...(command === 'unbind' || command === 'enquire_link'
        ? []
        : [
            {
              command,
              commandId: id,
              what: 'message_payload claiming 5,000 octets, 10 there',
              body: payload,
              broken: 'message_payload',
            },
          ]),
    ];
  });
}

/**
 * The SMPP 3.4 PDUs Wirebird speaks, as tables: each command's id and its mandatory fields in
 * wire order (§4), and the optional parameters (TLVs, §5.3.2) it reads or writes. Field names are
 * the specification's, as the `smpp` package also names them, so a PDU reads the same whichever
 * codec made it. A command not listed here decodes as `unknown` (answered with generic_nack).
 */

/** How a mandatory field sits on the wire. */
export type FieldType =
  | 'int8'
  | 'cstring'
  /** sm_length then short_message: the octets as they are. */
  | 'sm'
  /** submit_multi's number_of_dests then dest_address entries (§4.5.1.1). */
  | 'dests'
  /** submit_multi_resp's no_unsuccess then unsuccess_sme entries (§4.5.2.1). */
  | 'unsuccess';

export type FieldList = readonly (readonly [name: string, type: FieldType])[];

/** How a TLV's value sits on the wire. */
export type TlvType = 'int8' | 'int16' | 'cstring' | 'octets';

/** The optional parameters Wirebird reads or writes (§5.3.2); others are skipped on reading. */
export const TLVS = {
  receipted_message_id: { tag: 0x001e, type: 'cstring' },
  user_message_reference: { tag: 0x0204, type: 'int16' },
  sar_msg_ref_num: { tag: 0x020c, type: 'int16' },
  sar_total_segments: { tag: 0x020e, type: 'int8' },
  sar_segment_seqnum: { tag: 0x020f, type: 'int8' },
  sc_interface_version: { tag: 0x0210, type: 'int8' },
  network_error_code: { tag: 0x0423, type: 'octets' },
  message_payload: { tag: 0x0424, type: 'octets' },
  message_state: { tag: 0x0427, type: 'int8' },
} as const satisfies Record<string, { tag: number; type: TlvType }>;

export type TlvName = keyof typeof TLVS;

export const TLVS_BY_TAG: ReadonlyMap<number, { name: TlvName; type: TlvType }> = new Map(
  // Object.entries widens a const object's keys to string; these are TLVS's own.
  (Object.entries(TLVS) as [TlvName, (typeof TLVS)[TlvName]][]).map(([name, t]) => [
    t.tag,
    { name, type: t.type },
  ]),
);

// Object.keys widens a const object's keys to string; these are TLVS's own.
export const TLV_NAMES: readonly TlvName[] = Object.keys(TLVS) as TlvName[];

const BIND: FieldList = [
  ['system_id', 'cstring'],
  ['password', 'cstring'],
  ['system_type', 'cstring'],
  ['interface_version', 'int8'],
  ['addr_ton', 'int8'],
  ['addr_npi', 'int8'],
  ['address_range', 'cstring'],
];

const SOURCE: FieldList = [
  ['source_addr_ton', 'int8'],
  ['source_addr_npi', 'int8'],
  ['source_addr', 'cstring'],
];

const DEST: FieldList = [
  ['dest_addr_ton', 'int8'],
  ['dest_addr_npi', 'int8'],
  ['destination_addr', 'cstring'],
];

/** What follows the addresses in submit_sm, submit_multi and deliver_sm (§4.4.1). */
const MESSAGE: FieldList = [
  ['esm_class', 'int8'],
  ['protocol_id', 'int8'],
  ['priority_flag', 'int8'],
  ['schedule_delivery_time', 'cstring'],
  ['validity_period', 'cstring'],
  ['registered_delivery', 'int8'],
  ['replace_if_present_flag', 'int8'],
  ['data_coding', 'int8'],
  ['sm_default_msg_id', 'int8'],
  ['short_message', 'sm'],
];

const SHORT_MESSAGE: FieldList = [['service_type', 'cstring'], ...SOURCE, ...DEST, ...MESSAGE];
const MESSAGE_ID: FieldList = [['message_id', 'cstring']];
const NONE: FieldList = [];

const RESP = 0x80000000;

/** Requests by name: their command_id and body. Each response is the id with the top bit set. */
const REQUESTS = {
  bind_receiver: { id: 0x01, fields: BIND, resp: [['system_id', 'cstring']] },
  bind_transmitter: { id: 0x02, fields: BIND, resp: [['system_id', 'cstring']] },
  query_sm: {
    id: 0x03,
    fields: [...MESSAGE_ID, ...SOURCE],
    resp: [
      ...MESSAGE_ID,
      ['final_date', 'cstring'],
      ['message_state', 'int8'],
      ['error_code', 'int8'],
    ],
  },
  submit_sm: { id: 0x04, fields: SHORT_MESSAGE, resp: MESSAGE_ID },
  deliver_sm: { id: 0x05, fields: SHORT_MESSAGE, resp: MESSAGE_ID },
  unbind: { id: 0x06, fields: NONE, resp: NONE },
  replace_sm: {
    id: 0x07,
    fields: [
      ...MESSAGE_ID,
      ...SOURCE,
      ['schedule_delivery_time', 'cstring'],
      ['validity_period', 'cstring'],
      ['registered_delivery', 'int8'],
      ['sm_default_msg_id', 'int8'],
      ['short_message', 'sm'],
    ],
    resp: NONE,
  },
  cancel_sm: {
    id: 0x08,
    fields: [['service_type', 'cstring'], ...MESSAGE_ID, ...SOURCE, ...DEST],
    resp: NONE,
  },
  bind_transceiver: { id: 0x09, fields: BIND, resp: [['system_id', 'cstring']] },
  enquire_link: { id: 0x15, fields: NONE, resp: NONE },
  submit_multi: {
    id: 0x21,
    fields: [['service_type', 'cstring'], ...SOURCE, ['dest_address', 'dests'], ...MESSAGE],
    resp: [...MESSAGE_ID, ['unsuccess_sme', 'unsuccess']],
  },
  data_sm: {
    id: 0x103,
    fields: [
      ['service_type', 'cstring'],
      ...SOURCE,
      ...DEST,
      ['esm_class', 'int8'],
      ['registered_delivery', 'int8'],
      ['data_coding', 'int8'],
    ],
    resp: MESSAGE_ID,
  },
} as const satisfies Record<string, { id: number; fields: FieldList; resp: FieldList }>;

export type RequestName = keyof typeof REQUESTS;
export type CommandName = RequestName | `${RequestName}_resp` | 'generic_nack';

export interface CommandDef {
  name: CommandName;
  id: number;
  fields: FieldList;
  /** The TLVs it may carry: not one named like a mandatory field (query_sm_resp's message_state). */
  tlvs: readonly TlvName[];
}

const GENERIC_NACK_ID = RESP;

function define(name: CommandName, id: number, fields: FieldList): CommandDef {
  const named = new Set(fields.map(([field]) => field));
  return { name, id, fields, tlvs: TLV_NAMES.filter((t) => !named.has(t)) };
}

function table(): Map<number, CommandDef> {
  const byId = new Map<number, CommandDef>();
  // (the same: REQUESTS's own keys)
  for (const [name, c] of Object.entries(REQUESTS) as [
    RequestName,
    (typeof REQUESTS)[RequestName],
  ][]) {
    const respId = (c.id | RESP) >>> 0;
    byId.set(c.id, define(name, c.id, c.fields));
    byId.set(respId, define(`${name}_resp`, respId, c.resp));
  }
  byId.set(GENERIC_NACK_ID, define('generic_nack', GENERIC_NACK_ID, NONE));
  return byId;
}

export const COMMANDS_BY_ID: ReadonlyMap<number, CommandDef> = table();
export const COMMANDS: ReadonlyMap<string, CommandDef> = new Map(
  [...COMMANDS_BY_ID.values()].map((c) => [c.name, c]),
);

export const isResponseId = (commandId: number): boolean => (commandId & RESP) !== 0;

/** The response command of a request: submit_sm → submit_sm_resp. */
export function responseOf(commandId: number): CommandDef | undefined {
  return COMMANDS_BY_ID.get((commandId | RESP) >>> 0);
}

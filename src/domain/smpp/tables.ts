/**
 * The SMPP tables both SMPP faces (the client channel, the server face) and the simulator read,
 * each written once: command_status (SMPP 3.4 §5.1.3, with the 5.0 additions peers send, named
 * as the `smpp` package names them, which src/domain/smpp/tables.test.ts holds it to), the
 * esm_class bits (§5.2.12) and message_state (§5.2.28) with the stat text of a receipt
 * (Appendix B) each state is written as.
 */

export const COMMAND_STATUS = {
  ESME_ROK: 0x00,
  ESME_RINVMSGLEN: 0x01,
  ESME_RINVCMDLEN: 0x02,
  ESME_RINVCMDID: 0x03,
  ESME_RINVBNDSTS: 0x04,
  ESME_RALYBND: 0x05,
  ESME_RINVPRTFLG: 0x06,
  ESME_RINVREGDLVFLG: 0x07,
  ESME_RSYSERR: 0x08,
  ESME_RINVSRCADR: 0x0a,
  ESME_RINVDSTADR: 0x0b,
  ESME_RINVMSGID: 0x0c,
  ESME_RBINDFAIL: 0x0d,
  ESME_RINVPASWD: 0x0e,
  ESME_RINVSYSID: 0x0f,
  ESME_RCANCELFAIL: 0x11,
  ESME_RREPLACEFAIL: 0x13,
  ESME_RMSGQFUL: 0x14,
  ESME_RINVSERTYP: 0x15,
  ESME_RINVNUMDESTS: 0x33,
  ESME_RINVDLNAME: 0x34,
  ESME_RINVDESTFLAG: 0x40,
  ESME_RINVSUBREP: 0x42,
  ESME_RINVESMCLASS: 0x43,
  ESME_RCNTSUBDL: 0x44,
  ESME_RSUBMITFAIL: 0x45,
  ESME_RINVSRCTON: 0x48,
  ESME_RINVSRCNPI: 0x49,
  ESME_RINVDSTTON: 0x50,
  ESME_RINVDSTNPI: 0x51,
  ESME_RINVSYSTYP: 0x53,
  ESME_RINVREPFLAG: 0x54,
  ESME_RINVNUMMSGS: 0x55,
  ESME_RTHROTTLED: 0x58,
  ESME_RINVSCHED: 0x61,
  ESME_RINVEXPIRY: 0x62,
  ESME_RINVDFTMSGID: 0x63,
  ESME_RX_T_APPN: 0x64,
  ESME_RX_P_APPN: 0x65,
  ESME_RX_R_APPN: 0x66,
  ESME_RQUERYFAIL: 0x67,
  ESME_RINVTLVSTREAM: 0xc0,
  ESME_RTLVNOTALLWD: 0xc1,
  ESME_RINVTLVLEN: 0xc2,
  ESME_RMISSINGTLV: 0xc3,
  ESME_RINVTLVVAL: 0xc4,
  ESME_RDELIVERYFAILURE: 0xfe,
  ESME_RUNKNOWNERR: 0xff,
  ESME_RSERTYPUNAUTH: 0x100,
  ESME_RPROHIBITED: 0x101,
  ESME_RSERTYPUNAVAIL: 0x102,
  ESME_RSERTYPDENIED: 0x103,
  ESME_RINVDCS: 0x104,
  ESME_RINVSRCADDRSUBUNIT: 0x105,
  ESME_RINVDSTADDRSUBUNIT: 0x106,
  ESME_RINVBCASTFREQINT: 0x107,
  ESME_RINVBCASTALIAS_NAME: 0x108,
  ESME_RINVBCASTAREAFMT: 0x109,
  ESME_RINVNUMBCAST_AREAS: 0x10a,
  ESME_RINVBCASTCNTTYPE: 0x10b,
  ESME_RINVBCASTMSGCLASS: 0x10c,
  ESME_RBCASTFAIL: 0x10d,
  ESME_RBCASTQUERYFAIL: 0x10e,
  ESME_RBCASTCANCELFAIL: 0x10f,
  ESME_RINVBCAST_REP: 0x110,
  ESME_RINVBCASTSRVGRP: 0x111,
  ESME_RINVBCASTCHANIND: 0x112,
} as const;

export type CommandStatusName = keyof typeof COMMAND_STATUS;

const STATUS_NAMES = new Map<number, string>(
  Object.entries(COMMAND_STATUS).map(([name, value]) => [value, name]),
);

/** "0x0000000B": how a vendor's own command_status is shown. */
export function hexStatus(status: number): string {
  return `0x${status.toString(16).toUpperCase().padStart(8, '0')}`;
}

/** "ESME_RINVDSTADR", or "command_status 0x…" for a vendor-specific value. */
export function commandStatusName(status: number): string {
  return STATUS_NAMES.get(status) ?? `command_status ${hexStatus(status)}`;
}

/** esm_class (§5.2.12): the message type bits, and the UDH indicator. */
export const ESM_TYPE_MASK = 0x3c;
export const ESM_DELIVERY_RECEIPT = 0x04;
export const ESM_UDHI = 0x40;

/** message_state (§5.2.28): each value, its name, and its stat in a receipt's text. */
const MESSAGE_STATES = [
  [1, 'ENROUTE', 'ENROUTE'],
  [2, 'DELIVERED', 'DELIVRD'],
  [3, 'EXPIRED', 'EXPIRED'],
  [4, 'DELETED', 'DELETED'],
  [5, 'UNDELIVERABLE', 'UNDELIV'],
  [6, 'ACCEPTED', 'ACCEPTD'],
  [7, 'UNKNOWN', 'UNKNOWN'],
  [8, 'REJECTED', 'REJECTD'],
] as const;

type StateName = (typeof MESSAGE_STATES)[number][1];

/** message_state by its name: MESSAGE_STATE.DELIVERED is 2. */
export const MESSAGE_STATE = Object.fromEntries(
  MESSAGE_STATES.map(([value, name]) => [name, value]),
  // fromEntries answers string keys; these are MESSAGE_STATES' own names.
) as Record<StateName, number>;

/** A receipt's stat (DELIVRD, UNDELIV, …) by message_state, and the other way. */
export const STAT_OF_STATE: ReadonlyMap<number, string> = new Map(
  MESSAGE_STATES.map(([value, , stat]) => [value, stat]),
);
export const STATE_OF_STAT: ReadonlyMap<string, number> = new Map(
  MESSAGE_STATES.map(([value, , stat]) => [stat, value]),
);

/** The stats of final states: what a receipt of a message that ended may say. */
export const FINAL_STATS: ReadonlySet<string> = new Set(
  MESSAGE_STATES.filter(([value]) => value !== 1 && value !== 6).map(([, , stat]) => stat),
);

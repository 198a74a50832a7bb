/**
 * A mobile-originated SMS (a reply) as a deliver_sm carries it: who sent it to which number, its
 * text decoded by data_coding, and, for one part of a concatenated message, where it belongs
 * (a UDH with an 8- or 16-bit reference, or the SAR TLVs). Reassembly is the store's business.
 */
import { ESM_UDHI } from '../../domain/smpp/tables.js';
import {
  concatOfSar,
  concatOfUdh,
  readUdh,
  userText,
  type Gsm7Form,
} from '../../domain/smpp/user-data.js';

/** The deliver_sm fields a reply is read from, short_message as the raw bytes received. */
export interface MoFields {
  source_addr?: unknown;
  source_addr_ton?: unknown;
  destination_addr?: unknown;
  dest_addr_ton?: unknown;
  esm_class?: unknown;
  data_coding?: unknown;
  short_message?: unknown;
  message_payload?: unknown;
  sar_msg_ref_num?: unknown;
  sar_total_segments?: unknown;
  sar_segment_seqnum?: unknown;
}

export interface MoPart {
  from: string;
  to: string;
  text: string;
  /** Set for one part of a concatenated message. */
  concat?: { ref: number; total: number; seq: number };
}

const TON_INTERNATIONAL = 1;

/**
 * Reads a reply. `gsmPacked`: whether this SMSC sends data_coding 0 text as packed septets
 * (7 bits each, 8 in 7 octets) rather than one septet per octet; SMPP leaves it to the SMSC.
 */
export function readMo(pdu: MoFields, gsmPacked: boolean): MoPart {
  const dcs = Number(pdu.data_coding) || 0;
  const raw = rawBytes(pdu.short_message);
  const payload = payloadText(pdu.message_payload, dcs, gsmPacked);
  const udh = (Number(pdu.esm_class) || 0) & ESM_UDHI ? headerOf(raw) : undefined;
  const body = udh ? raw.subarray(udh.length) : raw;
  const skip = udh ? Math.ceil((udh.length * 8) / 7) : 0;
  const text = payload ?? decodeText(body, dcs, { packed: gsmPacked, raw, skipSeptets: skip });
  const part = udh?.concat ?? concatOfSar(pdu);
  const whole = part && Number.isInteger(part.total) && Number.isInteger(part.seq);
  return {
    from: address(pdu.source_addr, pdu.source_addr_ton),
    to: address(pdu.destination_addr, pdu.dest_addr_ton),
    text,
    ...(whole && part.total > 1
      ? { concat: { ref: part.ref, total: part.total, seq: part.seq } }
      : {}),
  };
}

/** An address as routing stores it: international numbers in E.164, others as sent. */
function address(addr: unknown, ton: unknown): string {
  const value = typeof addr === 'string' ? addr.trim() : '';
  const digits = value.replace(/^\+/, '');
  return Number(ton) === TON_INTERNATIONAL && /^\d{6,15}$/.test(digits) ? `+${digits}` : value;
}

function rawBytes(sm: unknown): Uint8Array {
  if (Buffer.isBuffer(sm)) return sm;
  if (typeof sm === 'string') return Buffer.from(sm, 'latin1');
  return new Uint8Array(0);
}

/**
 * message_payload's text: the octets as the codec hands them over, decoded like short_message
 * (or, as the `smpp` package hands it over, already decoded).
 */
function payloadText(payload: unknown, dcs: number, gsmPacked: boolean): string | undefined {
  if (payload instanceof Uint8Array) {
    return decodeText(payload, dcs, { packed: gsmPacked, raw: payload, skipSeptets: 0 });
  }
  if (payload && typeof payload === 'object' && 'message' in payload) {
    const message = payload.message;
    return typeof message === 'string' ? message : undefined;
  }
  return undefined;
}

/** The UDH's place in the user data, and its part; a header overrunning the data is none. */
function headerOf(raw: Uint8Array) {
  const udh = readUdh(raw);
  if (udh === undefined || udh === 'overrun') return undefined;
  return { length: udh.length, concat: concatOfUdh(udh) };
}

/** A reply is stored whatever it holds: text read leniently (user-data.ts). */
function decodeText(body: Uint8Array, dcs: number, gsm: Gsm7Form): string {
  return userText(body, dcs, { lenient: true, gsm }) ?? '';
}

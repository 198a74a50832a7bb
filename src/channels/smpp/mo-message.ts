/**
 * A mobile-originated SMS (a reply) as a deliver_sm carries it: who sent it to which number, its
 * text decoded by data_coding, and, for one part of a concatenated message, where it belongs
 * (a UDH with an 8- or 16-bit reference, or the SAR TLVs). Reassembly is the store's business.
 */
import { decodeGsm7, decodeUcs2 } from '../../domain/segments/segments.js';
import { ESM_UDHI } from '../../domain/smpp/tables.js';

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
  const udh = (Number(pdu.esm_class) || 0) & ESM_UDHI ? readUdh(raw) : undefined;
  const body = udh ? raw.subarray(udh.length) : raw;
  const skip = udh ? Math.ceil((udh.length * 8) / 7) : 0;
  const text = payload ?? decodeText(body, dcs, { gsmPacked, raw, skipSeptets: skip });
  const concat = udh?.concat ?? sarOf(pdu);
  return {
    from: address(pdu.source_addr, pdu.source_addr_ton),
    to: address(pdu.destination_addr, pdu.dest_addr_ton),
    text,
    ...(concat && concat.total > 1 ? { concat } : {}),
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
    return decodeText(payload, dcs, { gsmPacked, raw: payload, skipSeptets: 0 });
  }
  if (payload && typeof payload === 'object' && 'message' in payload) {
    const message = payload.message;
    return typeof message === 'string' ? message : undefined;
  }
  return undefined;
}

interface Udh {
  /** The header's length in octets, its length octet included. */
  length: number;
  concat?: { ref: number; total: number; seq: number };
}

/** The user data header (TS 23.040 9.2.3.24): its concatenation element, 8- or 16-bit ref. */
export function readUdh(bytes: Uint8Array): Udh | undefined {
  const udhl = bytes[0];
  if (udhl === undefined || udhl + 1 > bytes.length) return undefined;
  let concat: Udh['concat'];
  for (let i = 1; i + 1 < udhl + 1;) {
    const iei = bytes[i] ?? 0;
    const len = bytes[i + 1] ?? 0;
    const at = (n: number) => bytes[i + 2 + n] ?? 0;
    if (iei === 0x00 && len === 3) concat = { ref: at(0), total: at(1), seq: at(2) };
    if (iei === 0x08 && len === 4) concat = { ref: (at(0) << 8) | at(1), total: at(2), seq: at(3) };
    i += 2 + len;
  }
  return { length: udhl + 1, ...(concat ? { concat } : {}) };
}

function sarOf(pdu: MoFields): MoPart['concat'] {
  const total = Number(pdu.sar_total_segments);
  const seq = Number(pdu.sar_segment_seqnum);
  if (!Number.isInteger(total) || !Number.isInteger(seq) || pdu.sar_msg_ref_num === undefined) {
    return undefined;
  }
  return { ref: Number(pdu.sar_msg_ref_num), total, seq };
}

/** Text by data_coding (SMPP 3.4 5.2.19): 0 GSM 03.38, 1 IA5 (ASCII), 3 Latin-1, 8 UCS-2. */
export function decodeText(
  body: Uint8Array,
  dcs: number,
  gsm: { gsmPacked: boolean; raw: Uint8Array; skipSeptets: number },
): string {
  if (dcs === 8) return decodeUcs2(body.length % 2 ? body.subarray(0, body.length - 1) : body);
  if (dcs === 3 || dcs === 1) return Buffer.from(body).toString('latin1');
  if (dcs !== 0) return Buffer.from(body).toString('latin1');
  if (!gsm.gsmPacked) return decodeGsm7(body.map((b) => b & 0x7f));
  // Packed with a UDH: the text starts at the first septet boundary after the header.
  return decodeGsm7(unpackSeptets(gsm.raw, gsm.skipSeptets));
}

/** GSM 7-bit default alphabet packing (TS 23.038 6.1.2.1.1): 8 septets in 7 octets. */
export function unpackSeptets(bytes: Uint8Array, skipSeptets = 0): Uint8Array {
  const count = Math.floor((bytes.length * 8) / 7);
  const out: number[] = [];
  for (let s = skipSeptets; s < count; s++) {
    const bit = s * 7;
    const byte = bit >> 3;
    const shift = bit & 7;
    const low = (bytes[byte] ?? 0) >> shift;
    const high = shift > 1 ? (bytes[byte + 1] ?? 0) << (8 - shift) : 0;
    out.push((low | high) & 0x7f);
  }
  // 7 octets hold 8 septets: when the last one is all padding it reads 0 ('@'), not text.
  if (bytes.length % 7 === 0 && out.at(-1) === 0) out.pop();
  return Uint8Array.from(out);
}

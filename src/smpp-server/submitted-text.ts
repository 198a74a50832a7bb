/**
 * The text of a submit_sm as the codec hands it over: short_message (or message_payload) as the
 * octets sent, read by data_coding: 0 GSM 03.38 (one septet an octet), 1 IA5 (ASCII), 3
 * Latin-1, 8 UCS-2. Any other data_coding is refused. With esm_class UDHI the octets start with
 * a user data header; a part of a message the ESME split itself (UDH IEI 00 or 08, or the SAR
 * TLVs) says which.
 */
import { isConcatPart, type ConcatPart } from '../domain/messages/concat.js';
import { decodeGsm7, decodeUcs2 } from '../domain/segments/segments.js';
import { ESM_UDHI } from '../domain/smpp/tables.js';

export type SubmittedText =
  | { ok: true; text: string; concat: ConcatPart | undefined }
  | { ok: false; reason: string; concatenation?: true };

const DC_GSM = 0;
const DC_IA5 = 1;
const DC_LATIN1 = 3;
const DC_UCS2 = 8;
const TAKEN = [DC_GSM, DC_IA5, DC_LATIN1, DC_UCS2];

const octets = (v: unknown): Buffer | undefined => (Buffer.isBuffer(v) ? v : undefined);

export function submittedText(pdu: Record<string, unknown>): SubmittedText {
  const dcs = Number(pdu.data_coding) || 0;
  // The upper nibble's message classes and coding groups are not taken: only the plain values.
  if (!TAKEN.includes(dcs)) {
    return {
      ok: false,
      reason: `data_coding ${String(pdu.data_coding)} is not taken (0, 1, 3, 8)`,
    };
  }
  const payload = octets(pdu.message_payload);
  const bytes =
    payload && payload.length > 0 ? payload : (octets(pdu.short_message) ?? Buffer.alloc(0));
  const udh = (Number(pdu.esm_class) || 0) & ESM_UDHI ? headerOf(bytes) : undefined;
  if (udh === 'bad')
    return { ok: false, concatenation: true, reason: 'a UDH longer than the message' };
  const concat = concatOf(pdu, udh?.elements);
  if (concat === 'bad') {
    return { ok: false, concatenation: true, reason: 'a UDH or SAR TLVs that make no valid part' };
  }
  const text = textOf(bytes.subarray(udh?.length ?? 0), dcs);
  return text === undefined
    ? { ok: false, reason: `the text is not valid for data_coding ${dcs}` }
    : { ok: true, text, concat };
}

/** The text by data_coding, or undefined for octets that coding cannot hold. */
function textOf(body: Buffer, dcs: number): string | undefined {
  try {
    if (dcs === DC_UCS2) return decodeUcs2(body);
    if (dcs === DC_LATIN1) return body.toString('latin1');
    if (dcs === DC_IA5) return body.some((b) => b > 0x7f) ? undefined : body.toString('latin1');
    return decodeGsm7(body);
  } catch {
    return undefined;
  }
}

/** The user data header (TS 23.040 9.2.3.24): its length and its information elements. */
function headerOf(bytes: Buffer): { length: number; elements: Buffer[] } | 'bad' | undefined {
  const udhl = bytes[0];
  if (udhl === undefined) return undefined;
  if (udhl + 1 > bytes.length) return 'bad';
  const elements: Buffer[] = [];
  for (let i = 1; i + 1 <= udhl;) {
    const length = bytes[i + 1] ?? 0;
    elements.push(bytes.subarray(i, i + 2 + length));
    i += 2 + length;
  }
  return { length: udhl + 1, elements };
}

/**
 * The part a submit is, from its UDH (IEI 00 with an 8-bit reference, 08 with a 16-bit one) or
 * its SAR TLVs; 'bad' for a UDH without either (ports, say) or numbers that make no part.
 */
function concatOf(
  pdu: Record<string, unknown>,
  udh: unknown[] | undefined,
): ConcatPart | 'bad' | undefined {
  let part: ConcatPart | undefined;
  if (pdu.sar_msg_ref_num !== undefined) {
    const ref = Number(pdu.sar_msg_ref_num);
    const total = Number(pdu.sar_total_segments);
    part = { ref, total, seq: Number(pdu.sar_segment_seqnum), wide: ref > 0xff };
  } else if (Array.isArray(udh) && udh.length > 0) {
    // The codec reads a UDH as a list of information elements, each a Buffer.
    const ie = (udh as Buffer[]).find((b) => b[0] === 0x00 || b[0] === 0x08);
    if (!ie) return 'bad';
    const at = (i: number) => ie[i] ?? -1;
    part =
      ie[0] === 0x00
        ? { ref: at(2), total: at(3), seq: at(4), wide: false }
        : { ref: (at(2) << 8) | at(3), total: at(4), seq: at(5), wide: true };
  }
  if (part === undefined) return undefined;
  return isConcatPart(part) ? part : 'bad';
}

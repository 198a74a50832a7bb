/**
 * The text of a submit_sm as the codec hands it over: short_message (or message_payload) as the
 * octets sent, read by data_coding: 0 GSM 03.38 (one septet an octet), 1 IA5 (ASCII), 3
 * Latin-1, 8 UCS-2. Any other data_coding is refused. With esm_class UDHI the octets start with
 * a user data header; a part of a message the ESME split itself (UDH IEI 00 or 08, or the SAR
 * TLVs) says which.
 */
import { isConcatPart, type ConcatPart } from '../domain/messages/concat.js';
import { ESM_UDHI } from '../domain/smpp/tables.js';
import {
  TEXT_CODINGS,
  concatOfSar,
  concatOfUdh,
  readUdh,
  userText,
} from '../domain/smpp/user-data.js';

export type SubmittedText =
  | { ok: true; text: string; concat: ConcatPart | undefined }
  | { ok: false; reason: string; concatenation?: true };

const octets = (v: unknown): Buffer | undefined => (Buffer.isBuffer(v) ? v : undefined);

export function submittedText(pdu: Record<string, unknown>): SubmittedText {
  const dcs = Number(pdu.data_coding) || 0;
  // The upper nibble's message classes and coding groups are not taken: only the plain values.
  if (!TEXT_CODINGS.includes(dcs)) {
    const taken = TEXT_CODINGS.join(', ');
    return { ok: false, reason: `data_coding ${String(pdu.data_coding)} is not taken (${taken})` };
  }
  const payload = octets(pdu.message_payload);
  const bytes =
    payload && payload.length > 0 ? payload : (octets(pdu.short_message) ?? Buffer.alloc(0));
  const udh = (Number(pdu.esm_class) || 0) & ESM_UDHI ? readUdh(bytes) : undefined;
  if (udh === 'overrun') {
    return { ok: false, concatenation: true, reason: 'a UDH longer than the message' };
  }
  // The SAR TLVs, when given, say which part this is; else the UDH's concatenation element.
  const sar = concatOfSar(pdu);
  const fromUdh = udh ? concatOfUdh(udh) : undefined;
  const concat = sar ?? fromUdh;
  // A UDH of other elements only (ports, say) makes no part the gateway can send.
  const noPart = !sar && udh !== undefined && udh.elements.length > 0 && !fromUdh;
  if (noPart || (concat && !isConcatPart(concat))) {
    return { ok: false, concatenation: true, reason: 'a UDH or SAR TLVs that make no valid part' };
  }
  const text = userText(bytes.subarray(udh?.length ?? 0), dcs, { lenient: false });
  return text === undefined
    ? { ok: false, reason: `the text is not valid for data_coding ${dcs}` }
    : { ok: true, text, concat };
}

/**
 * The text of a submit_sm as the smpp package hands it over: short_message (or message_payload)
 * decoded by data_coding into `{ udh?, message }`. The package reads data_coding 1 (IA5) as
 * GSM 03.38, so that one is turned back into its septets and read as ASCII; 0 (GSM 03.38,
 * unpacked), 3 (Latin-1) and 8 (UCS-2) are taken as decoded. Any other data_coding is refused.
 * A part of a message the ESME split itself (UDH IEI 00 or 08, or the SAR TLVs) says which.
 */
import { isConcatPart, type ConcatPart } from '../domain/messages/concat.js';
import { encodeGsm7 } from '../domain/segments/segments.js';

export type SubmittedText =
  | { ok: true; text: string; concat: ConcatPart | undefined }
  | { ok: false; reason: string; concatenation?: true };

const DC_GSM = 0;
const DC_IA5 = 1;
const DC_LATIN1 = 3;
const DC_UCS2 = 8;
const TAKEN = [DC_GSM, DC_IA5, DC_LATIN1, DC_UCS2];

interface Decoded {
  udh?: unknown[];
  message?: unknown;
}

export function submittedText(pdu: Record<string, unknown>): SubmittedText {
  const dcs = (Number(pdu.data_coding) || 0) & 0x0f;
  // The upper nibble's message classes and coding groups are not taken: only the plain values.
  if ((Number(pdu.data_coding) || 0) > 0x0f || !TAKEN.includes(dcs)) {
    return {
      ok: false,
      reason: `data_coding ${String(pdu.data_coding)} is not taken (0, 1, 3, 8)`,
    };
  }
  const payload = pdu.message_payload as Decoded | undefined;
  const short = pdu.short_message as Decoded | Buffer | undefined;
  const body = payload?.message ?? (Buffer.isBuffer(short) ? short : short?.message);
  const concat = concatOf(pdu, Buffer.isBuffer(short) ? undefined : short?.udh);
  if (concat === 'bad') {
    return { ok: false, concatenation: true, reason: 'a UDH or SAR TLVs that make no valid part' };
  }
  if (body === undefined || (Buffer.isBuffer(body) && body.length === 0)) {
    return { ok: true, text: '', concat };
  }
  if (typeof body !== 'string') return { ok: false, reason: 'the text could not be read' };
  if (dcs !== DC_IA5) return { ok: true, text: body, concat };
  try {
    return { ok: true, text: Buffer.from(encodeGsm7(body)).toString('latin1'), concat };
  } catch {
    return { ok: false, reason: 'data_coding 1 text holds bytes that are not ASCII' };
  }
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

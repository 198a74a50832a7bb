/**
 * The text of a submit_sm as the smpp package hands it over: short_message (or message_payload)
 * decoded by data_coding into `{ udh?, message }`. The package reads data_coding 1 (IA5) as
 * GSM 03.38, so that one is turned back into its septets and read as ASCII; 0 (GSM 03.38,
 * unpacked), 3 (Latin-1) and 8 (UCS-2) are taken as decoded. Any other data_coding is refused.
 */
import { encodeGsm7 } from '../domain/segments/segments.js';

export type SubmittedText =
  { ok: true; text: string; concatenated: boolean } | { ok: false; reason: string };

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
  const concatenated =
    (Array.isArray((short as Decoded | undefined)?.udh) && !Buffer.isBuffer(short)) ||
    pdu.sar_msg_ref_num !== undefined;
  if (body === undefined || (Buffer.isBuffer(body) && body.length === 0)) {
    return { ok: true, text: '', concatenated };
  }
  if (typeof body !== 'string') return { ok: false, reason: 'the text could not be read' };
  if (dcs !== DC_IA5) return { ok: true, text: body, concatenated };
  try {
    return { ok: true, text: Buffer.from(encodeGsm7(body)).toString('latin1'), concatenated };
  } catch {
    return { ok: false, reason: 'data_coding 1 text holds bytes that are not ASCII' };
  }
}

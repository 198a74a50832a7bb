/**
 * What the SMSC simulator sends back for a submit it accepted, as pure functions of the submit:
 * the delivery receipt's fields, and the handset's auto-reply (an MO) when one is configured.
 */
import { receiptPduFields } from '../domain/smpp/receipt-text.js';
import { encodeGsm7, encodeUcs2, gsm7Length } from '../domain/segments/segments.js';
import type { SubmitRecord } from './submit-record.js';

/** How receipts quote the message id, and whether they carry the id and state TLVs too. */
export interface ReceiptStyle {
  /** The base of the message ids submit_sm_resp gives. */
  idBase: 'hex' | 'dec';
  /** Receipts quote ids as given, or in the other base with zero padding. */
  receiptIdBase: 'same' | 'other';
  /** Send receipted_message_id and message_state TLVs along with the receipt text. */
  receiptTlvs: boolean;
}

/** The deliver_sm fields of the receipt for `r`, with its stat and err. */
export function receiptFields(
  r: SubmitRecord,
  [stat, err]: [string, string],
  style: ReceiptStyle,
): Record<string, unknown> {
  const id = style.receiptIdBase === 'same' ? r.messageId : otherBase(r.messageId, style.idBase);
  const now = new Date();
  return receiptPduFields({
    ...{ id, stat, err, submittedAt: now, doneAt: now, text: r.text },
    handset: { ton: 1, npi: 1, addr: r.destinationAddr },
    sender: r.sourceAddr,
    tlvs: style.receiptTlvs,
  });
}

/**
 * The handset's answer `text` to a whole message (its last part, or a message of one), as the
 * deliver_sm fields of an MO to the address it came from; undefined for any other part.
 */
export function autoReplyFields(
  r: SubmitRecord,
  text: string,
): Record<string, unknown> | undefined {
  const lastPart = udhPart(r.udh) ?? r.sar;
  if (lastPart && lastPart.seq !== lastPart.total) return undefined;
  const gsm = gsm7Length(text) !== undefined;
  return {
    source_addr_ton: 1,
    source_addr: r.destinationAddr,
    dest_addr_ton: r.sourceTon,
    destination_addr: r.sourceAddr,
    data_coding: gsm ? 0 : 8,
    short_message: Buffer.from(gsm ? encodeGsm7(text) : encodeUcs2(text)),
  };
}

/** The same number in the other base, zero-padded as some SMSCs write it. */
function otherBase(id: string, base: 'hex' | 'dec'): string {
  return base === 'hex'
    ? BigInt(`0x${id}`).toString(10).padStart(10, '0')
    : BigInt(id).toString(16).toUpperCase().padStart(8, '0');
}

/** The part number and total of a concatenation element (the record's first UDH element). */
function udhPart(ie: number[] | undefined): { seq: number; total: number } | undefined {
  const at = (i: number) => ie?.[i] ?? 0;
  if (at(0) === 0x00 && at(1) === 3) return { total: at(3), seq: at(4) };
  if (at(0) === 0x08 && at(1) === 4) return { total: at(4), seq: at(5) };
  return undefined;
}

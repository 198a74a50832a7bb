import type { SmppAddress } from './addresses.js';
import { ESM_DELIVERY_RECEIPT, MESSAGE_STATE, STATE_OF_STAT } from './tables.js';

/** The delivery receipt text of SMPP 3.4 Appendix B, as most SMSCs write it. */
export function receiptText(
  r: Pick<ReceiptPdu, 'id' | 'stat' | 'err' | 'submittedAt' | 'doneAt' | 'text'>,
): string {
  const delivered = r.stat === 'DELIVRD' ? '001' : '000';
  return (
    `id:${r.id} sub:001 dlvrd:${delivered} submit date:${smppDate(r.submittedAt)} ` +
    `done date:${smppDate(r.doneAt)} stat:${r.stat} err:${r.err} text:${r.text.slice(0, 20)}`
  );
}

/** An absolute time (SMPP 3.4 §7.1.1): YYMMDDhhmmsstnnp in UTC, as query_sm_resp's final_date. */
export function smppTime(d: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  const seconds = two(d.getUTCSeconds());
  return `${smppDate(d)}${seconds}${Math.floor(d.getUTCMilliseconds() / 100)}00+`;
}

/** YYMMDDhhmm in UTC. */
function smppDate(d: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return (
    two(d.getUTCFullYear() % 100) +
    two(d.getUTCMonth() + 1) +
    two(d.getUTCDate()) +
    two(d.getUTCHours()) +
    two(d.getUTCMinutes())
  );
}

/** A receipt as a deliver_sm carries it: what the SMSC simulator and the SMPP server both send. */
export interface ReceiptPdu {
  id: string;
  stat: string;
  err: string;
  submittedAt: Date;
  doneAt: Date;
  /** The start of the message, quoted after `text:`. */
  text: string;
  /** The handset, the receipt's source. */
  handset: SmppAddress;
  /** The ESME's sender, the receipt's destination, when known. */
  sender?: string;
  /** The receipted_message_id and message_state TLVs besides the text. */
  tlvs: boolean;
}

export function receiptPduFields(r: ReceiptPdu): Record<string, unknown> {
  const fields: Record<string, unknown> = {
    source_addr_ton: r.handset.ton,
    source_addr_npi: r.handset.npi,
    source_addr: r.handset.addr,
    ...(r.sender === undefined ? {} : { destination_addr: r.sender }),
    esm_class: ESM_DELIVERY_RECEIPT,
    data_coding: 0,
    short_message: Buffer.from(receiptText(r), 'latin1'),
  };
  if (r.tlvs) {
    fields.receipted_message_id = r.id;
    fields.message_state = STATE_OF_STAT.get(r.stat) ?? MESSAGE_STATE.UNKNOWN;
  }
  return fields;
}

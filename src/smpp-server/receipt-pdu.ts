/**
 * A final receipt as the ESME that submitted the message expects it: a deliver_sm with esm_class
 * 0x04, the SMPP 3.4 Appendix B text (`id:… sub:001 dlvrd:… submit date:… done date:… stat:…
 * err:… text:`), and the receipted_message_id and message_state TLVs. The id is the message_id
 * the ESME was given (the SessionNo).
 */
import type { PduFields } from 'smpp';
import { MESSAGE_STATE, receiptText } from '../domain/smpp/receipt-text.js';

const ESM_DELIVERY_RECEIPT = 0x04;
const TON_INTERNATIONAL = 1;
const NPI_E164 = 1;
const STATS = new Set(Object.keys(MESSAGE_STATE));

/** stat and err from the receipt's result and code (`DELIVRD:000`, `UNDELIV`, `TIMEOUT`, …). */
export function statOf(result: unknown, code: unknown): { stat: string; err: string } {
  const [head = '', tail = ''] = String(code ?? '').split(':');
  const err = /^\d{3}$/.test(tail) ? tail : '000';
  if (result === 'Success') return { stat: 'DELIVRD', err };
  if (result === 'SubmitFail') return { stat: head === 'CANCELLED' ? 'DELETED' : 'REJECTD', err };
  if (result === 'Unknow') return { stat: head === 'TIMEOUT' ? 'EXPIRED' : 'UNKNOWN', err };
  return { stat: STATS.has(head) && head !== 'DELIVRD' ? head : 'UNDELIV', err };
}

const dateOf = (seconds: unknown): Date =>
  new Date(typeof seconds === 'number' ? seconds * 1000 : Date.now());

/** The deliver_sm for a `message.receipt` event's data. */
export function receiptDeliverSm(data: Record<string, unknown>): PduFields {
  const id = String(data.SessionNo ?? '');
  const { stat, err } = statOf(data.ReceiptResult, data.ReceiptCode);
  const text = receiptText({
    id,
    stat,
    err,
    submittedAt: dateOf(data.SubmitTime ?? data.SendTime),
    doneAt: dateOf(data.ReceiptTime),
    text: '',
  });
  const phone = String(data.Phone ?? '');
  const international = phone.startsWith('+');
  return {
    source_addr_ton: international ? TON_INTERNATIONAL : 0,
    source_addr_npi: international ? NPI_E164 : 0,
    source_addr: international ? phone.slice(1) : phone,
    esm_class: ESM_DELIVERY_RECEIPT,
    data_coding: 0,
    short_message: Buffer.from(text, 'latin1'),
    receipted_message_id: id,
    message_state: MESSAGE_STATE[stat] ?? MESSAGE_STATE.UNKNOWN,
  };
}

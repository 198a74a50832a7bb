/**
 * A final receipt as the ESME that submitted the message expects it: a deliver_sm with esm_class
 * 0x04, the SMPP 3.4 Appendix B text (`id:… sub:001 dlvrd:… submit date:… done date:… stat:…
 * err:… text:`), and the receipted_message_id and message_state TLVs. The id is the message_id
 * the ESME was given (the SessionNo).
 */
import type { PduFields } from '../smpp-wire/codec.js';
import { destinationAddress } from '../domain/smpp/addresses.js';
import { receiptPduFields } from '../domain/smpp/receipt-text.js';
import { FINAL_STATS } from '../domain/smpp/tables.js';
import { CANCELED_CODE } from '../domain/messages/schedule.js';
import { textOf } from '../util/unknown-values.js';

/** stat and err from the receipt's result and code (`DELIVRD:000`, `UNDELIV`, `TIMEOUT`, …). */
export function statOf(result: unknown, code: unknown): { stat: string; err: string } {
  const [head = '', tail = ''] = textOf(code).split(':');
  const err = /^\d{3}$/.test(tail) ? tail : '000';
  if (result === 'Success') return { stat: 'DELIVRD', err };
  // Cancelled before it was handed upstream (cancel_sm, CancelScheduledMessages): deleted.
  if (head === CANCELED_CODE) return { stat: 'DELETED', err };
  if (result === 'SubmitFail') return { stat: 'REJECTD', err };
  if (result === 'Unknow') return { stat: head === 'TIMEOUT' ? 'EXPIRED' : 'UNKNOWN', err };
  return { stat: FINAL_STATS.has(head) && head !== 'DELIVRD' ? head : 'UNDELIV', err };
}

const dateOf = (seconds: unknown): Date =>
  new Date(typeof seconds === 'number' ? seconds * 1000 : Date.now());

/** The deliver_sm for a `message.receipt` event's data, from the handset (its E.164 number). */
export function receiptDeliverSm(data: Record<string, unknown>): PduFields {
  const { stat, err } = statOf(data.ReceiptResult, data.ReceiptCode);
  return receiptPduFields({
    id: textOf(data.SessionNo),
    stat,
    err,
    submittedAt: dateOf(data.SubmitTime ?? data.SendTime),
    doneAt: dateOf(data.ReceiptTime),
    text: '',
    handset: destinationAddress(textOf(data.Phone)),
    tlvs: true,
  });
}

/**
 * query_sm: where a message an ESME submitted stands, read from the store. The message_id is a
 * SessionNo; a session of several messages (submit_multi) answers for all of them together
 * (docs/smpp-server.md).
 */
import type { PduFields } from '../smpp-wire/codec.js';
import type { Store } from '../domain/ports.js';
import type { SessionResults } from '../domain/views/views.js';
import { smppTime } from '../domain/smpp/receipt-text.js';
import { STATUS } from './command-status.js';
import { textOf } from '../util/unknown-values.js';

/** message_state values (SMPP 3.4 §5.2.28). */
const STATE = { ENROUTE: 1, DELIVERED: 2, UNDELIVERABLE: 5, UNKNOWN: 7, REJECTED: 8 } as const;

/** One state for a session: en route while any is pending, else how they all ended. */
export function sessionState(r: SessionResults, count: number): number {
  if (r.pending > 0) return STATE.ENROUTE;
  if (r.Success === count) return STATE.DELIVERED;
  if (r.SubmitFail === count) return STATE.REJECTED;
  if (r.Fail > 0 || r.SubmitFail > 0) return STATE.UNDELIVERABLE;
  return STATE.UNKNOWN;
}

export type QueryAnswer = { status: number; fields?: PduFields; reason?: string };

export async function querySubmit(
  store: Pick<Store, 'sessionView'>,
  accountId: number,
  pdu: Record<string, unknown>,
): Promise<QueryAnswer> {
  const messageId = textOf(pdu.message_id);
  const view = messageId === '' ? undefined : await store.sessionView(messageId, accountId, 1);
  if (!view) return { status: STATUS.ESME_RQUERYFAIL, reason: `no message ${messageId}` };
  const state = sessionState(view.results, view.acceptedCount);
  const done = view.messages[0]?.receiptTime;
  return {
    status: STATUS.ESME_ROK,
    fields: {
      message_id: messageId,
      final_date:
        state !== STATE.ENROUTE && done !== undefined ? smppTime(new Date(done * 1000)) : '',
      message_state: state,
      error_code: 0,
    },
  };
}

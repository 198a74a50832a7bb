/**
 * query_sm: where a message an ESME submitted stands, read from the store. The message_id is a
 * SessionNo; a session of several messages (submit_multi) answers for all of them together
 * (docs/smpp-server.md).
 */
import type { PduFields } from '../smpp-wire/codec.js';
import type { Store } from '../domain/ports.js';
import type { SessionResults } from '../domain/views/views.js';
import { smppTime } from '../domain/smpp/receipt-text.js';
import { COMMAND_STATUS as STATUS } from '../domain/smpp/tables.js';
import { textOf } from '../util/unknown-values.js';
import { MESSAGE_STATE } from '../domain/smpp/tables.js';
import { CANCELED_CODE, EXPIRED_CODE } from '../domain/messages/schedule.js';

/**
 * One state for a session: en route while any is pending (held ones too: SMPP 3.4 has no
 * SCHEDULED), else how they all ended; a single message that expired or was cancelled before it
 * was handed upstream is EXPIRED or DELETED.
 */
export function sessionState(r: SessionResults, count: number, firstCode = ''): number {
  if (r.pending > 0) return MESSAGE_STATE.ENROUTE;
  if (count === 1 && firstCode === EXPIRED_CODE) return MESSAGE_STATE.EXPIRED;
  if (count === 1 && firstCode === CANCELED_CODE) return MESSAGE_STATE.DELETED;
  if (r.Success === count) return MESSAGE_STATE.DELIVERED;
  if (r.SubmitFail === count) return MESSAGE_STATE.REJECTED;
  if (r.Fail > 0 || r.SubmitFail > 0) return MESSAGE_STATE.UNDELIVERABLE;
  return MESSAGE_STATE.UNKNOWN;
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
  const first = view.messages[0];
  const state = sessionState(view.results, view.acceptedCount, first?.receiptCode);
  const done = first?.receiptTime;
  return {
    status: STATUS.ESME_ROK,
    fields: {
      message_id: messageId,
      final_date:
        state !== MESSAGE_STATE.ENROUTE && done !== undefined
          ? smppTime(new Date(done * 1000))
          : '',
      message_state: state,
      error_code: 0,
    },
  };
}

/**
 * replace_sm (SMPP 3.4 §4.10): changes a message an ESME submitted while Wirebird still holds it
 * (queued, not yet handed upstream). message_id is the SessionNo; every held message of it is
 * changed (a submit_multi's too). Per §4.10.1 an empty schedule_delivery_time or validity_period
 * keeps the original, registered_delivery is the new setting, and a short_message replaces the
 * text; an empty one keeps it (an empty SMS is never sent). docs/smpp-server.md has the rest.
 */
import { costCount } from '../domain/segments/segments.js';
import type { HeldChange } from '../domain/messages/schedule.js';
import type { ReplaceRefusal } from '../domain/accounts/replace-charge.js';
import { receiptTarget } from '../domain/smpp-server/receipt-endpoint.js';
import { COMMAND_STATUS as STATUS } from '../domain/smpp/tables.js';
import { textOf } from '../util/unknown-values.js';
import type { QueryAnswer } from './query.js';
import { timingOf, type Esme, type SubmitDeps } from './submit.js';
import { submittedText } from './submitted-text.js';

const fail = (status: number, reason: string): QueryAnswer => ({ status, reason });

/**
 * A new text the account cannot pay for or that passes its daily limit (docs/smpp-server.md):
 * the daily limit frees up with the next UTC day, so ESME_RTHROTTLED, which ESMEs retry later;
 * credit run out is ESME_RREPLACEFAIL, which they do not. The message stays as it was.
 */
const REPLACE_REFUSED: Record<ReplaceRefusal['rule'], number> = {
  daily_limit: STATUS.ESME_RTHROTTLED,
  prepaid: STATUS.ESME_RREPLACEFAIL,
};

/**
 * The new text, read as data_coding 0 (replace_sm carries none, and the original's is not kept);
 * undefined to keep the text.
 */
function newText(deps: SubmitDeps, pdu: Record<string, unknown>): HeldChange['text'] | QueryAnswer {
  const read = submittedText({ data_coding: 0, short_message: pdu.short_message });
  if (!read.ok) return fail(STATUS.ESME_RREPLACEFAIL, `short_message: ${read.reason}`);
  if (read.text === '') return undefined;
  const segments = costCount(read.text);
  if (segments > deps.maxSegments) {
    return fail(STATUS.ESME_RINVMSGLEN, `${segments} segments; at most ${deps.maxSegments}`);
  }
  return { body: read.text, costCount: segments };
}

/** The change a replace_sm asks for, or the status refusing it. */
function changeOf(deps: SubmitDeps, esme: Esme, pdu: Record<string, unknown>) {
  if ((Number(pdu.sm_default_msg_id) || 0) !== 0) {
    return fail(STATUS.ESME_RINVDFTMSGID, 'sm_default_msg_id: no canned messages are kept');
  }
  const timing = timingOf(deps, pdu);
  if ('status' in timing) return timing;
  const text = newText(deps, pdu);
  if (text && 'status' in text) return text;
  // A schedule_delivery_time now or past sends now; an empty one keeps the time held for.
  const sendNow = timing.dueAt === undefined && textOf(pdu.schedule_delivery_time) !== '';
  const dueAt = sendNow ? deps.clock.now() : timing.dueAt;
  const senderId = textOf(pdu.source_addr).trim();
  const change: HeldChange = {
    receiptTo: receiptTarget(esme.systemId, Number(pdu.registered_delivery) || 0) ?? null,
    ...(senderId === '' ? {} : { senderId }),
    ...(text ? { text } : {}),
    ...(dueAt === undefined ? {} : { dueAt }),
    ...(timing.expiresAt === undefined ? {} : { expiresAt: timing.expiresAt }),
  };
  return change;
}

export async function replaceSubmit(
  deps: SubmitDeps,
  esme: Esme,
  pdu: Record<string, unknown>,
): Promise<QueryAnswer> {
  const sessionNo = textOf(pdu.message_id).trim();
  if (sessionNo === '') return fail(STATUS.ESME_RREPLACEFAIL, 'message_id is required');
  const change = changeOf(deps, esme, pdu);
  if ('status' in change) return change;
  const done = await deps.store.replaceQueued(esme.accountId, sessionNo, change, deps.clock.now());
  if ('refused' in done) return fail(REPLACE_REFUSED[done.refused.rule], done.refused.reason);
  if (done.replaced === 0) {
    const why = 'submitted upstream already, final, unknown, from another source_addr, or a part';
    return fail(STATUS.ESME_RREPLACEFAIL, `nothing held to replace: ${why}`);
  }
  return { status: STATUS.ESME_ROK };
}

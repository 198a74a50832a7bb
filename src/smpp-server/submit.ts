/**
 * A submit_sm from a bound ESME, accepted the way the HTTP API accepts an SMS: the same phone
 * rules, registered senders, opt-out list, segment limit, routes and store. The message is
 * durably stored before the caller answers submit_sm_resp; its message_id is the SessionNo of a
 * session of its own, so GetUSMSSendReceipt reads its receipt (docs/smpp-server.md).
 */
import type { AcceptedSms } from '../domain/messages/message.js';
import { normalizePhone } from '../domain/phones/phones.js';
import type { Clock, Routing, Store } from '../domain/ports.js';
import { costCount } from '../domain/segments/segments.js';
import { receiptTarget } from '../domain/smpp-server/receipt-endpoint.js';
import { STATUS } from './command-status.js';
import { submittedText } from './submitted-text.js';

const TON_INTERNATIONAL = 1;

/** destination_addr as the phone rules read it: an international number with its '+'. */
function destinationOf(pdu: Record<string, unknown>): string {
  const addr = String(pdu.destination_addr ?? '').trim();
  const international = Number(pdu.dest_addr_ton) === TON_INTERNATIONAL && /^\d+$/.test(addr);
  return international ? `+${addr}` : addr;
}

export interface SubmitDeps {
  store: Pick<Store, 'acceptBatch' | 'hasSenderIds' | 'optedOutAmong' | 'accountRegion'>;
  routing: Routing;
  clock: Clock;
  defaultRegion: string;
  maxSegments: number;
  newSessionNo: () => string;
  /** Told of each message stored (dispatch nudge, metrics). */
  onAccepted: (routes: readonly string[]) => void;
}

/** What answers the submit_sm: its command_status, the message_id when accepted, and why not. */
export interface SubmitOutcome {
  status: number;
  messageId?: string;
  reason?: string;
}

const refused = (status: number, reason: string): SubmitOutcome => ({ status, reason });

/** The message a submit_sm asks for, or the status that refuses it. */
async function messageOf(
  deps: SubmitDeps,
  accountId: number,
  pdu: Record<string, unknown>,
): Promise<AcceptedSms | SubmitOutcome> {
  const read = submittedText(pdu);
  if (!read.ok) return refused(STATUS.ESME_RSUBMITFAIL, read.reason);
  // Parts of a concatenated message would reach the phone as separate messages: refused, and
  // long text goes whole in message_payload instead (docs/smpp-server.md).
  if (read.concatenated) {
    return refused(STATUS.ESME_RINVESMCLASS, 'concatenated parts are not taken');
  }
  const text = read.text;
  if (text === '') return refused(STATUS.ESME_RINVMSGLEN, 'the message is empty');
  const region = (await deps.store.accountRegion(accountId)) ?? deps.defaultRegion;
  const phone = normalizePhone(destinationOf(pdu), region);
  if (!phone.ok) return refused(STATUS.ESME_RINVDSTADR, `destination_addr: ${phone.reason}`);
  const senderId = String(pdu.source_addr ?? '').trim();
  if (senderId !== '' && !(await deps.store.hasSenderIds(accountId, [senderId])).has(senderId)) {
    return refused(STATUS.ESME_RINVSRCADR, `source_addr ${senderId} is not registered`);
  }
  const segments = costCount(text);
  if (segments > deps.maxSegments) {
    return refused(STATUS.ESME_RINVMSGLEN, `${segments} segments; at most ${deps.maxSegments}`);
  }
  if ((await deps.store.optedOutAmong(accountId, [phone.e164])).size > 0) {
    return refused(STATUS.ESME_RSUBMITFAIL, `${phone.e164} opted out`);
  }
  return {
    phone: phone.e164,
    e164: phone.e164,
    route: deps.routing.smsRoute(phone.e164, senderId),
    templateId: '',
    params: [],
    senderId,
    extendCode: '',
    userId: '',
    text,
    costCount: segments,
  };
}

export async function acceptSubmit(
  deps: SubmitDeps,
  esme: { accountId: number; systemId: string },
  pdu: Record<string, unknown>,
): Promise<SubmitOutcome> {
  const { accountId } = esme;
  const message = await messageOf(deps, accountId, pdu);
  if ('status' in message) return message;
  const sessionNo = deps.newSessionNo();
  const receiptTo = receiptTarget(esme.systemId, Number(pdu.registered_delivery) || 0);
  await deps.store.acceptBatch({
    accountId,
    sessionNo,
    acceptedAt: deps.clock.now(),
    messages: [message],
    ...(receiptTo === undefined ? {} : { receiptTo }),
  });
  deps.onAccepted([message.route]);
  return { status: STATUS.ESME_ROK, messageId: sessionNo };
}

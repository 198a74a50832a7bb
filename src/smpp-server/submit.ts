/**
 * submit_sm and submit_multi from a bound ESME, accepted the way the HTTP API accepts SMS: the
 * same phone rules, registered senders, opt-out list, segment limit, routes and store. The
 * messages are durably stored before the caller answers; the message_id is the SessionNo of a
 * session of their own, so GetUSMSSendReceipt reads their receipts (docs/smpp-server.md).
 */
import type { AcceptedSms } from '../domain/messages/message.js';
import type { PolicyRefusal, PolicyRule } from '../domain/accounts/policy.js';
import { normalizePhone } from '../domain/phones/phones.js';
import type { Store } from '../domain/ports.js';
import type { ConcatPart } from '../domain/messages/concat.js';
import { costCount, gsm7Length } from '../domain/segments/segments.js';
import { receiptTarget } from '../domain/smpp-server/receipt-endpoint.js';
import { COMMAND_STATUS as STATUS } from '../domain/smpp/tables.js';
import { submittedText } from './submitted-text.js';
import { errorText, textOf } from '../util/unknown-values.js';
import { readSmppTime } from '../domain/smpp/time-format.js';
import {
  VALIDITY_MAX_S,
  scheduleOf,
  validityRefusal,
  type Schedule,
} from '../domain/messages/schedule.js';
import {
  readRecipients,
  registeredSenders,
  smsRoute,
  storeSms,
  type SmsIntake,
} from '../core/accept-sms.js';

const TON_INTERNATIONAL = 1;

/** The core's SMS acceptance, and the store's cancel for cancel_sm on the same messages. */
export type SubmitDeps = SmsIntake & {
  store: SmsIntake['store'] & Pick<Store, 'cancelQueued' | 'replaceQueued'>;
};

/** What answers the submit: its command_status, the message_id when accepted, and why not. */
export interface SubmitOutcome {
  status: number;
  messageId?: string;
  reason?: string;
  /** submit_multi: the destinations refused, each with its error_status_code. */
  unsuccess?: UnsuccessSme[];
}

export interface UnsuccessSme {
  dest_addr_ton: number;
  dest_addr_npi: number;
  destination_addr: string;
  error_status_code: number;
}

/** One destination as the PDU names it (submit_sm's own fields, or a dest_address entry). */
export interface Destination {
  dest_addr_ton?: unknown;
  dest_addr_npi?: unknown;
  destination_addr?: unknown;
  dl_name?: unknown;
}

/** What every destination of a submit shares: the text, the sender, the segments it costs. */
interface Content {
  text: string;
  senderId: string;
  segments: number;
  /** Set when the submit is one part of a message the ESME split itself. */
  concat: ConcatPart | undefined;
}

export interface Esme {
  accountId: number;
  systemId: string;
}

const refused = (status: number, reason: string): SubmitOutcome => ({ status, reason });

/**
 * schedule_delivery_time and validity_period, in either SMPP 3.4 form (absolute or relative): when
 * the message is due and when it expires unless handed upstream; or the status refusing them.
 * A validity beyond the gateway's longest (3 days) is shortened to it, as SMSCs cap theirs.
 */
export function timingOf(deps: SubmitDeps, pdu: Record<string, unknown>): Schedule | SubmitOutcome {
  const now = deps.clock.now();
  const due = readSmppTime(textOf(pdu.schedule_delivery_time), now);
  if (due.kind === 'invalid')
    return refused(STATUS.ESME_RINVSCHED, `schedule_delivery_time ${due.reason}`);
  const until = readSmppTime(textOf(pdu.validity_period), now);
  if (until.kind === 'invalid')
    return refused(STATUS.ESME_RINVEXPIRY, `validity_period ${until.reason}`);
  const from = Math.max(now, due.kind === 'at' ? due.ms : now);
  if (until.kind === 'at' && until.ms <= from) {
    return refused(STATUS.ESME_RINVEXPIRY, 'validity_period ends before the message is due');
  }
  const validityS =
    until.kind === 'at' ? Math.min(VALIDITY_MAX_S, Math.ceil((until.ms - from) / 1000)) : undefined;
  // The API's rule for ValidityPeriod (domain/messages/schedule.ts); a longer one is shortened.
  const short = validityS === undefined ? undefined : validityRefusal(validityS);
  if (short) {
    const left = `validity_period leaves ${validityS} s from when the message is due`;
    return refused(STATUS.ESME_RINVEXPIRY, `${left}: it ${short}`);
  }
  try {
    return scheduleOf(
      {
        ...(due.kind === 'at' ? { SendAt: Math.floor(due.ms / 1000) } : {}),
        ...(validityS === undefined ? {} : { ValidityPeriod: validityS }),
      },
      now,
      deps.maxScheduleDays,
    );
  } catch (err) {
    return refused(STATUS.ESME_RINVSCHED, `schedule_delivery_time: ${errorText(err)}`);
  }
}

/** The text and sender of a submit, or the status that refuses it whole. */
async function contentOf(
  deps: SubmitDeps,
  accountId: number,
  pdu: Record<string, unknown>,
): Promise<Content | SubmitOutcome> {
  const read = submittedText(pdu);
  if (!read.ok) {
    const status = read.concatenation ? STATUS.ESME_RINVESMCLASS : STATUS.ESME_RSUBMITFAIL;
    return refused(status, read.reason);
  }
  const { text, concat } = read;
  if (text === '') return refused(STATUS.ESME_RINVMSGLEN, 'the message is empty');
  const senderId = textOf(pdu.source_addr).trim();
  if (senderId !== '' && !(await registeredSenders(deps, accountId, [senderId])).has(senderId)) {
    return refused(STATUS.ESME_RINVSRCADR, `source_addr ${senderId} is not registered`);
  }
  if (concat) {
    // A part goes on as it is: it must fit one segment beside its UDH.
    if (!partFits(text, concat)) {
      return refused(STATUS.ESME_RINVMSGLEN, 'the part does not fit one segment with its UDH');
    }
    return { text, senderId, segments: 1, concat };
  }
  const segments = costCount(text);
  if (segments > deps.maxSegments) {
    return refused(STATUS.ESME_RINVMSGLEN, `${segments} segments; at most ${deps.maxSegments}`);
  }
  return { text, senderId, segments, concat: undefined };
}

/** A destination as the phone rules read it: an international number with its '+'. */
export function destinationPhone(d: Destination, region: string) {
  const addr = textOf(d.destination_addr).trim();
  const international = Number(d.dest_addr_ton) === TON_INTERNATIONAL && /^\d+$/.test(addr);
  return normalizePhone(international ? `+${addr}` : addr, region);
}

/** The messages for the destinations that pass, and why each other one does not. */
async function messagesFor(
  deps: SubmitDeps,
  accountId: number,
  c: Content,
  destinations: readonly Destination[],
) {
  const { read, optedOut } = await readRecipients(deps, accountId, destinations, destinationPhone);
  const messages: AcceptedSms[] = [];
  const unsuccess: (UnsuccessSme & { reason: string })[] = [];
  for (const { item: d, phone } of read) {
    const fail = (code: number, reason: string) =>
      unsuccess.push({
        dest_addr_ton: Number(d.dest_addr_ton) || 0,
        dest_addr_npi: Number(d.dest_addr_npi) || 0,
        destination_addr: textOf(d.destination_addr ?? d.dl_name),
        error_status_code: code,
        reason,
      });
    if (d.dl_name !== undefined) fail(STATUS.ESME_RINVDSTADR, 'distribution lists are not kept');
    else if (!phone.ok) fail(STATUS.ESME_RINVDSTADR, `destination_addr: ${phone.reason}`);
    else if (optedOut.has(phone.e164)) fail(STATUS.ESME_RSUBMITFAIL, `${phone.e164} opted out`);
    else messages.push(smsTo(deps, phone, c));
  }
  return { messages, unsuccess };
}

/** 153 GSM septets or 67 UCS-2 units beside an 8-bit-reference UDH; one fewer with 16 bits. */
function partFits(text: string, c: ConcatPart): boolean {
  const septets = gsm7Length(text);
  const less = c.wide ? 1 : 0;
  return septets !== undefined ? septets <= 153 - less : text.length <= 67 - less;
}

function smsTo(
  deps: SubmitDeps,
  phone: { e164: string; country?: string },
  c: Content,
): AcceptedSms {
  const { e164 } = phone;
  return {
    phone: e164,
    e164,
    route: smsRoute(deps, e164, c.senderId),
    templateId: '',
    params: [],
    senderId: c.senderId,
    extendCode: '',
    userId: '',
    text: c.text,
    costCount: c.segments,
    country: phone.country,
  };
}

/**
 * submit_sm (one destination, its own fields) or submit_multi (`dest_address`, 1 to 255): the
 * destinations that pass are stored as one session, the rest listed in unsuccess_sme.
 */
export async function acceptSubmit(
  deps: SubmitDeps,
  esme: Esme,
  pdu: Record<string, unknown>,
  multi = false,
): Promise<SubmitOutcome> {
  // The codec reads submit_multi's dest_address as a list of destinations.
  const destinations = multi ? ((pdu.dest_address as Destination[] | undefined) ?? []) : [pdu];
  if (destinations.length === 0) return refused(STATUS.ESME_RINVNUMDESTS, 'no destination');
  const timing = timingOf(deps, pdu);
  if ('status' in timing) return timing;
  const content = await contentOf(deps, esme.accountId, pdu);
  if ('status' in content) return content;
  const { messages, unsuccess } = await messagesFor(deps, esme.accountId, content, destinations);
  const first = unsuccess[0];
  if (messages.length === 0 && first) {
    // submit_sm answers its one destination's refusal; submit_multi lists them all as well.
    const outcome = refused(
      multi ? STATUS.ESME_RSUBMITFAIL : first.error_status_code,
      first.reason,
    );
    return multi ? { ...outcome, unsuccess: unsuccess.map(withoutReason) } : outcome;
  }
  const sessionNo = deps.newSessionNo();
  const receiptTo = receiptTarget(esme.systemId, Number(pdu.registered_delivery) || 0);
  const stored = await storeSms(deps, {
    accountId: esme.accountId,
    sessionNo,
    messages,
    ...(receiptTo === undefined ? {} : { receiptTo }),
    ...(content.concat ? { concat: content.concat } : {}),
    ...timing,
  });
  // An SMPP submit carries no Idempotency-Key: no twin can have won a race.
  const policy = 'refused' in stored ? stored.refused : [];
  unsuccess.push(...policy.map((r) => policyUnsuccess(messages, r)));
  const refusal = policy[0];
  if (refusal && policy.length === messages.length) {
    const outcome = refused(POLICY_STATUS[refusal.rule], refusal.reason);
    return multi ? { ...outcome, unsuccess: unsuccess.map(withoutReason) } : outcome;
  }
  return {
    status: STATUS.ESME_ROK,
    messageId: sessionNo,
    ...(multi ? { unsuccess: unsuccess.map(withoutReason) } : {}),
  };
}

/**
 * What each rule of an account's policy answers (docs/smpp-server.md): a limit that frees up with
 * time is ESME_RTHROTTLED, which ESMEs retry later; a country not enabled or credit run out is
 * ESME_RSUBMITFAIL, which they do not.
 */
const POLICY_STATUS: Record<PolicyRule, number> = {
  countries: STATUS.ESME_RSUBMITFAIL,
  daily_limit: STATUS.ESME_RTHROTTLED,
  recipient_hourly_limit: STATUS.ESME_RTHROTTLED,
  prepaid: STATUS.ESME_RSUBMITFAIL,
};

function policyUnsuccess(
  messages: readonly AcceptedSms[],
  r: PolicyRefusal,
): UnsuccessSme & { reason: string } {
  // The store refuses by index into the messages it was given.
  const m = messages[r.index] as AcceptedSms;
  return {
    dest_addr_ton: 1,
    dest_addr_npi: 1,
    destination_addr: m.e164.slice(1),
    error_status_code: POLICY_STATUS[r.rule],
    reason: r.reason,
  };
}

function withoutReason(u: UnsuccessSme & { reason: string }): UnsuccessSme {
  const { reason: _reason, ...sme } = u;
  return sme;
}

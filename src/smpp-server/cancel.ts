/**
 * cancel_sm: withdraws what an ESME submitted and Wirebird has not yet submitted upstream — the
 * messages of a message_id (a SessionNo) still queued, or the one to destination_addr among
 * them. Each ends as a SubmitFail with code CANCELLED; a receipt asked for says stat:DELETED.
 */
import type { Clock, Store } from '../domain/ports.js';
import { COMMAND_STATUS as STATUS } from '../domain/smpp/tables.js';
import { destinationPhone } from './submit.js';
import { textOf } from '../util/unknown-values.js';
import { regionOfAccount } from '../core/sms-rules.js';

export interface CancelDeps {
  store: Pick<Store, 'cancelQueued' | 'accountRegion'>;
  clock: Clock;
  /** The region national numbers are read in when the account names none. */
  gatewayRegion: string;
}

export async function cancelSubmit(
  deps: CancelDeps,
  accountId: number,
  pdu: Record<string, unknown>,
): Promise<{ status: number; reason?: string }> {
  const messageId = textOf(pdu.message_id).trim();
  // Without a message_id SMPP cancels by source and destination; Wirebird keeps no such index.
  if (messageId === '')
    return { status: STATUS.ESME_RCANCELFAIL, reason: 'message_id is required' };
  let e164: string | undefined;
  if (textOf(pdu.destination_addr).trim() !== '') {
    const region = await regionOfAccount(deps.store, accountId, deps.gatewayRegion);
    const phone = destinationPhone(pdu, region);
    if (!phone.ok) return { status: STATUS.ESME_RINVDSTADR, reason: phone.reason };
    e164 = phone.e164;
  }
  const n = await deps.store.cancelQueued(accountId, messageId, e164, deps.clock.now());
  if (n === 0) {
    return {
      status: STATUS.ESME_RCANCELFAIL,
      reason: 'nothing left to cancel: submitted upstream already, final, or unknown',
    };
  }
  return { status: STATUS.ESME_ROK };
}

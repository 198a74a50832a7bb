import { COMMAND_STATUS, commandStatusName, hexStatus } from '../../domain/smpp/tables.js';

/** The command_status values the client channel acts on (the table: domain/smpp/tables.ts). */
export const { ESME_ROK, ESME_RINVCMDID, ESME_RSYSERR, ESME_RMSGQFUL, ESME_RTHROTTLED } =
  COMMAND_STATUS;
export const { ESME_RX_T_APPN } = COMMAND_STATUS;
export { commandStatusName, hexStatus as hex };

/**
 * What a submit_sm_resp status means for the message: throttling answers slow the bind and are
 * retried there; a system error may pass and goes back to the dispatcher's backoff; anything else
 * is the SMSC refusing this message for good.
 */
export function submitStatusKind(status: number): 'ok' | 'throttled' | 'transient' | 'permanent' {
  if (status === ESME_ROK) return 'ok';
  if (status === ESME_RTHROTTLED || status === ESME_RMSGQFUL) return 'throttled';
  if (status === ESME_RSYSERR || status === ESME_RX_T_APPN) return 'transient';
  return 'permanent';
}

import smpp from 'smpp';

/** SMPP command_status values Wirebird acts on (SMPP 3.4 §5.1.3). */
export const ESME_ROK = 0x00;
export const ESME_RINVCMDID = 0x03;
export const ESME_RSYSERR = 0x08;
export const ESME_RMSGQFUL = 0x14;
export const ESME_RTHROTTLED = 0x58;
export const ESME_RX_T_APPN = 0x64;

const NAMES = new Map<number, string>(Object.entries(smpp.errors).map(([name, v]) => [v, name]));

/** "ESME_RINVDSTADR", or "command_status 0x…" for a vendor-specific value. */
export function commandStatusName(status: number): string {
  return NAMES.get(status) ?? `command_status ${hex(status)}`;
}

export function hex(status: number): string {
  return `0x${status.toString(16).toUpperCase().padStart(8, '0')}`;
}

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

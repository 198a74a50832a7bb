/**
 * What `wirebird smsc-sim` can do wrong on purpose, to test a client against it. Every field can
 * be changed while it runs; 0 or false turns a fault off.
 */
export interface SmscFaults {
  /** Every Nth submit_sm is answered ESME_RTHROTTLED. */
  throttleEvery: number;
  /** Every submit_sm_resp waits this long. */
  ackDelayMs: number;
  /** The connection is dropped (without answering) at the Nth submit_sm after this is set. */
  dropAfter: number;
  /** Every Nth accepted message gets a failed receipt (UNDELIV) whatever its number. */
  failEvery: number;
  /** Every receipt is sent twice. */
  duplicateReceipts: boolean;
  /** The receipt goes out before the submit_sm_resp that gives the message its id. */
  receiptsBeforeAnswer: boolean;
}

export const NO_FAULTS: SmscFaults = {
  throttleEvery: 0,
  ackDelayMs: 0,
  dropAfter: 0,
  failEvery: 0,
  duplicateReceipts: false,
  receiptsBeforeAnswer: false,
};

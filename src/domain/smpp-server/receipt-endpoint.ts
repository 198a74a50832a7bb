/**
 * Receipts for messages an ESME submitted with registered_delivery go back to its binds through
 * the outbox, as deliveries to an endpoint named after its system_id. That endpoint is no row of
 * webhook_endpoints: the HTTP deliverer never sees it; the SMPP server's deliverer claims it.
 */
export const SMPP_ENDPOINT_PREFIX = 'smpp:';
export const SMPP_ACCOUNT_ENDPOINT_PREFIX = 'smpp-account:';

/** What a message keeps in receipt_to: the system_id, and ` failures` when only those are asked. */
const FAILURES_ONLY = ' failures';

export function smppEndpointId(systemId: string): string {
  return `${SMPP_ENDPOINT_PREFIX}${systemId}`;
}

/**
 * Replies (MO) to an account's SMS numbers go to any receiving bind of the account, whichever
 * system_id it bound with: one endpoint per account.
 */
export function smppAccountEndpointId(accountId: number): string {
  return `${SMPP_ACCOUNT_ENDPOINT_PREFIX}${accountId}`;
}

/**
 * The prefixes of the outbox's endpoints that are SMPP binds, not webhook endpoints: their
 * deliveries are kept out of the webhook listings (ListWebhookDeliveries, the console, the CLI).
 */
export const BIND_ENDPOINT_PREFIXES = [SMPP_ENDPOINT_PREFIX, SMPP_ACCOUNT_ENDPOINT_PREFIX];

/**
 * receipt_to for a submit: registered_delivery 1 asks for every final receipt, 2 for failures
 * only (SMPP 3.4 §5.2.17); 0 for none. A space never occurs in a system_id.
 */
export function receiptTarget(systemId: string, registeredDelivery: number): string | undefined {
  const asked = registeredDelivery & 0x03;
  if (asked === 0) return undefined;
  return asked === 2 ? `${systemId}${FAILURES_ONLY}` : systemId;
}

/** The bind endpoint a final receipt in `status` goes to, when its message asked for one. */
export function receiptEndpoint(
  receiptTo: string | null | undefined,
  status: string,
): string | undefined {
  if (!receiptTo) return undefined;
  if (!receiptTo.endsWith(FAILURES_ONLY)) return smppEndpointId(receiptTo);
  return status === 'delivered'
    ? undefined
    : smppEndpointId(receiptTo.slice(0, -FAILURES_ONLY.length));
}

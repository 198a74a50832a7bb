/** An SMPP address: type of number, numbering plan, digits or name (SMPP 3.4 §5.2.5–5.2.6). */
export interface SmppAddress {
  ton: number;
  npi: number;
  addr: string;
}

const TON_INTERNATIONAL = 1;
const TON_NETWORK_SPECIFIC = 3;
const TON_ALPHANUMERIC = 5;
const NPI_UNKNOWN = 0;
const NPI_ISDN = 1;
/** Numeric senders this short or shorter are short codes, not subscriber numbers. */
const SHORT_CODE_MAX_DIGITS = 8;

/**
 * The source address for a SenderId: a name goes as alphanumeric, a short code as
 * network-specific, a number as international E.164 (no "+"). ExtendCode is appended to a
 * numeric sender, as carriers route replies on it; a name cannot carry one.
 */
export function sourceAddress(senderId: string, extendCode: string): SmppAddress {
  const digits = senderId.startsWith('+') ? senderId.slice(1) : senderId;
  if (!/^[0-9]+$/.test(digits)) return { ton: TON_ALPHANUMERIC, npi: NPI_UNKNOWN, addr: senderId };
  const addr = digits + extendCode;
  if (!senderId.startsWith('+') && digits.length <= SHORT_CODE_MAX_DIGITS)
    return { ton: TON_NETWORK_SPECIFIC, npi: NPI_UNKNOWN, addr };
  return { ton: TON_INTERNATIONAL, npi: NPI_ISDN, addr };
}

/** The recipient: its E.164 number without the "+". */
export function destinationAddress(e164: string): SmppAddress {
  return { ton: TON_INTERNATIONAL, npi: NPI_ISDN, addr: e164.replace(/^\+/, '') };
}

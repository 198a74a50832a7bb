import { senderIdKind } from '../accounts/sender-id.js';

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

/**
 * The source address for a SenderId, by the kinds the admin API registers: a name goes as
 * alphanumeric, a short code as network-specific, a number as international E.164 without "+".
 * ExtendCode is appended to a numeric sender (carriers route replies on it); a name cannot
 * carry one.
 */
export function sourceAddress(senderId: string, extendCode: string): SmppAddress {
  switch (senderIdKind(senderId)) {
    case 'shortcode':
      return { ton: TON_NETWORK_SPECIFIC, npi: NPI_UNKNOWN, addr: senderId + extendCode };
    case 'international':
      return {
        ton: TON_INTERNATIONAL,
        npi: NPI_ISDN,
        addr: senderId.replace(/^\+/, '') + extendCode,
      };
    default:
      return { ton: TON_ALPHANUMERIC, npi: NPI_UNKNOWN, addr: senderId };
  }
}

/** The recipient: its E.164 number without the "+". */
export function destinationAddress(e164: string): SmppAddress {
  return { ton: TON_INTERNATIONAL, npi: NPI_ISDN, addr: e164.replace(/^\+/, '') };
}

import { invalid } from '../errors.js';

export type SenderIdKind = 'alphanumeric' | 'shortcode' | 'international';

/**
 * What can stand in an SMS's source address: up to 11 letters, digits and spaces with at least
 * one letter (TON 5), a short code of 3 to 8 digits (TON 3), or a number of 9 to 15 digits
 * with an optional + (TON 1).
 */
export function senderIdKind(senderId: string): SenderIdKind | undefined {
  if (
    /^[A-Za-z0-9 ]{1,11}$/.test(senderId) &&
    /[A-Za-z]/.test(senderId) &&
    senderId.trim() === senderId
  ) {
    return 'alphanumeric';
  }
  if (/^\d{3,8}$/.test(senderId)) return 'shortcode';
  if (/^\+?\d{9,15}$/.test(senderId)) return 'international';
  return undefined;
}

export function checkSenderId(senderId: string, field = 'SenderId'): string {
  if (!senderIdKind(senderId)) {
    throw invalid(
      field,
      'must be 1-11 letters, digits or inner spaces with a letter, a 3-8 digit short code, or a 9-15 digit number',
    );
  }
  return senderId;
}

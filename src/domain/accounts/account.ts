/** Accounts, their API keys, sender ids and business phones. Keys are only ever held hashed. */
export interface Account {
  accountId: number;
  createdAt: number;
}

export interface BusinessPhone {
  accountId: number;
  businessPhone: string;
  /** The channel that delivers this phone's messages: 'simulator' until a real one is set. */
  channel: string;
  createdAt: number;
  /** The Cloud API phone number id, for the whatsapp channel. */
  phoneNumberId?: string;
  /** The Cloud API access token: sent to Meta only, never logged nor answered. */
  accessToken?: string;
  /** Free-form messages only within the 24-hour window; absent: the channel's default. */
  windowGuard?: boolean;
}

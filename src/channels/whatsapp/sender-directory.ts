import type { AccountStore } from '../../domain/ports.js';

/** What sending as one business phone over the Cloud API takes. */
export interface WhatsAppSender {
  accountId: number;
  phoneNumberId: string;
  accessToken: string;
}

const TTL_MS = 5000;

/**
 * The Cloud API credentials of a business phone, read from the store and kept for a few seconds:
 * a window goes out without a query per message, and a token replaced through the admin API is
 * in use within TTL_MS on every node.
 */
export class SenderDirectory {
  private readonly cache = new Map<string, { sender: WhatsAppSender | undefined; until: number }>();

  constructor(
    private readonly store: Pick<AccountStore, 'getBusinessPhone'>,
    private readonly now: () => number,
  ) {}

  async lookup(accountId: number, businessPhone: string): Promise<WhatsAppSender | undefined> {
    const key = `${accountId}:${businessPhone}`;
    const hit = this.cache.get(key);
    if (hit && hit.until > this.now()) return hit.sender;
    const phone = await this.store.getBusinessPhone(accountId, businessPhone);
    const sender =
      phone?.channel === 'whatsapp' && phone.phoneNumberId && phone.accessToken
        ? { accountId, phoneNumberId: phone.phoneNumberId, accessToken: phone.accessToken }
        : undefined;
    if (this.cache.size > 10000) this.cache.clear();
    this.cache.set(key, { sender, until: this.now() + TTL_MS });
    return sender;
  }
}

import type { UcloudKey } from '../../domain/accounts/ucloud-key.js';

export interface UcloudKeyRow {
  public_key: string;
  account_id: number;
  sealed_private_key: string;
  created_at: number;
}

export const UCLOUD_KEY_COLUMNS = 'public_key, account_id, sealed_private_key, created_at';

export function toUcloudKey(r: UcloudKeyRow): UcloudKey {
  return {
    publicKey: r.public_key,
    accountId: r.account_id,
    sealedPrivateKey: r.sealed_private_key,
    createdAt: r.created_at,
  };
}

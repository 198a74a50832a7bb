/**
 * A UCloud-style key pair of an account (the UCloud dialect's credential, docs/ucloud-sdk.md).
 * The private key is needed to check each request's signature, so the store keeps it sealed
 * under the gateway secret; it is shown once, when created, and never again.
 */
export interface UcloudKey {
  publicKey: string;
  accountId: number;
  sealedPrivateKey: string;
  createdAt: number;
}

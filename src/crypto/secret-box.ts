import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Secrets the gateway must read back (a UCloud private key is needed to check signatures, so it
 * cannot be hashed) are sealed with AES-256-GCM under a key derived from the gateway secret.
 * Sealed form: `v1.<iv>.<tag>.<ciphertext>`, each part base64url.
 */
export interface SecretBox {
  seal(plain: string): string;
  /** The plain text, or undefined when the sealed text was not sealed under this secret. */
  open(sealed: string): string | undefined;
}

export function secretBox(gatewaySecret: string): SecretBox {
  // A distinct derivation per purpose, so the same secret never keys two things.
  const key = createHash('sha256').update(`wirebird secret-box v1\0${gatewaySecret}`).digest();
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      const parts = [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url'));
      return ['v1', ...parts].join('.');
    },
    open(sealed) {
      const [version, iv, tag, data] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || data === undefined) return undefined;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        const plain = Buffer.concat([
          decipher.update(Buffer.from(data, 'base64url')),
          decipher.final(),
        ]);
        return plain.toString('utf8');
      } catch {
        return undefined;
      }
    },
  };
}

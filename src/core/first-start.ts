import { saveCredential } from './smpp-credentials.js';
import { newSmppPassword } from '../crypto/password.js';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeSecret } from '../crypto/secret-files.js';
import { createApiKey } from './api-keys.js';
import { hashKey, newApiKey } from './auth.js';
import type { SecretBox } from '../crypto/secret-box.js';
import { ConfigError, type Config } from '../config/config.js';
import { normalizePhone } from '../domain/phones/phones.js';
import type { Store } from '../domain/ports.js';
import { credentialHash, type KeyKind } from '../domain/keys/key-record.js';
import { createKeyPair } from './ucloud-key-pairs.js';
import { errorText } from '../util/unknown-values.js';

export const DEV_ACCOUNT_ID = 1;
/** The development account's SMS number: replies the simulator sends to it are the account's. */
export const DEV_SMS_NUMBER = '10690001';

/**
 * Keys configured in the environment are accepted from the first request on; a key that was
 * configured before and is no longer (source `env`) is revoked now, not left working.
 */
export async function importConfiguredKeys(
  store: Store,
  config: Config,
  now: number,
): Promise<{ revoked: string[] }> {
  const seen = new Set<string>();
  for (const { accountId, key } of config.apiKeys) {
    if (seen.has(key)) throw new ConfigError('WIREBIRD_API_KEYS names the same key twice');
    seen.add(key);
    await importConfiguredKey(store, { accountId, key }, now);
  }
  const keep = [...seen].map(hashKey);
  const revoked = await revokeRemovedEnvKeys(store, { kind: 'api', keep, now });
  return { revoked };
}

/** Where each kind of credential is configured in the environment. */
const ENV_VARIABLES = {
  api: 'WIREBIRD_API_KEYS',
  smpp: 'WIREBIRD_SMPP_ESMES',
  ucloud: 'WIREBIRD_UCLOUD_KEYS',
} as const;

/**
 * Revokes the `env` credentials of a kind that the environment no longer names (their hashes
 * are not in `keep`), and writes each in the audit log; answers their KeyIds.
 */
async function revokeRemovedEnvKeys(
  store: Store,
  o: { kind: KeyKind; keep: readonly string[]; now: number },
): Promise<string[]> {
  const reason = `removed from ${ENV_VARIABLES[o.kind]}`;
  const revoked = await store.revokeEnvKeysExcept(o.kind, o.keep, o.now, reason);
  if (revoked.length === 0) return revoked;
  const gone = (await store.listApiKeys(undefined)).filter((k) => revoked.includes(k.keyId));
  await store.appendAudit(
    gone.map((k) => ({
      at: o.now,
      accountId: k.accountId,
      actor: 'config',
      action: 'key.revoked',
      target: k.keyId,
      detail: { Reason: reason },
    })),
  );
  return revoked;
}

async function importConfiguredKey(
  store: Store,
  k: { accountId: number; key: string },
  now: number,
): Promise<void> {
  const existing = await store.apiKeyByHash(hashKey(k.key));
  if (existing === undefined) {
    // Nodes sharing a database start together: another may store the same key first.
    await createApiKey(store, { ...k, name: 'WIREBIRD_API_KEYS', source: 'env' }, now).catch(
      async (err: unknown) => {
        if ((await store.apiKeyByHash(hashKey(k.key)))?.accountId !== k.accountId) throw err;
      },
    );
  } else if (existing.accountId !== k.accountId) {
    // Moving a key between accounts silently would hand one account's data to another.
    throw new ConfigError(
      `a key configured for AccountId ${k.accountId} already belongs to AccountId ${existing.accountId}`,
    );
  } else if (existing.revokedAt !== undefined) {
    throw new ConfigError(
      `a key configured for AccountId ${k.accountId} (${existing.keyId}) was revoked; remove it from WIREBIRD_API_KEYS`,
    );
  }
}

/**
 * Cloud API phone numbers declared in the config file are registered at every start, so the file
 * stays the source of truth for them (a token rotated there takes effect on restart).
 */
export async function importConfiguredPhones(
  store: Store,
  config: Config,
  now: number,
): Promise<void> {
  for (const [i, p] of config.whatsapp.phones.entries()) {
    const phone = normalizePhone(p.businessPhone, config.defaultRegion);
    if (!phone.ok) {
      throw new ConfigError(`whatsapp.phones[${i}].businessPhone: ${phone.reason}`);
    }
    await store.ensureAccount(p.accountId, now);
    await store.addBusinessPhone({
      accountId: p.accountId,
      businessPhone: phone.e164,
      channel: 'whatsapp',
      phoneNumberId: p.phoneNumberId,
      accessToken: p.accessToken,
      ...(p.windowGuard === undefined ? {} : { windowGuard: p.windowGuard }),
      createdAt: now,
    });
  }
}

/**
 * A first start with no keys anywhere creates a development account and prints its key once;
 * the key is also written, readable by its owner only, to <dataDir>/dev-account.key.
 */
export async function createDevAccountIfNone(
  store: Store,
  config: Config,
  now: number,
): Promise<{ accountId: number; key: string; smsNumber?: string } | undefined> {
  if ((await store.countApiKeys()) > 0) return undefined;
  const key = newApiKey();
  // The file first: a crash between the two leaves a stale file, never a key nobody can read.
  writeSecret(join(config.dataDir, 'dev-account.key'), `${DEV_ACCOUNT_ID}:${key}\n`);
  const dev = { accountId: DEV_ACCOUNT_ID, key, name: 'development', source: 'dev' as const };
  await createApiKey(store, dev, now);
  // Unless the configuration gave that number to another account already.
  if ((await store.numberOwner('sms', DEV_SMS_NUMBER)) !== undefined) {
    return { accountId: DEV_ACCOUNT_ID, key };
  }
  await store.addBusinessPhone({
    accountId: DEV_ACCOUNT_ID,
    businessPhone: DEV_SMS_NUMBER,
    channel: 'sms',
    createdAt: now,
  });
  return { accountId: DEV_ACCOUNT_ID, key, smsNumber: DEV_SMS_NUMBER };
}

/** The admin key: WIREBIRD_ADMIN_KEY, else the one kept in <dataDir>/admin.key, else a new one. */
export function resolveAdminKey(config: Config): { key: string; created: boolean } {
  if (config.adminKey) return { key: config.adminKey, created: false };
  const file = join(config.dataDir, 'admin.key');
  if (existsSync(file)) return { key: readFileSync(file, 'utf8').trim(), created: false };
  const key = newApiKey().replace(/^wb_/, 'wba_');
  writeSecret(file, `${key}\n`);
  return { key, created: true };
}

/**
 * UCloud key pairs configured in the environment: stored at every start, so the environment
 * stays their source of truth (a private key changed there takes effect on restart, as a new
 * record); a pair it no longer names is revoked.
 */
export async function importConfiguredUcloudKeys(
  store: Store,
  config: Config,
  box: SecretBox,
  now: number,
): Promise<void> {
  for (const { accountId, publicKey, privateKey } of config.ucloudKeys) {
    const existing = await store.getUcloudKey(publicKey);
    if (existing && existing.accountId !== accountId) {
      throw new ConfigError(
        `the UCloud PublicKey configured for AccountId ${accountId} already belongs to AccountId ${existing.accountId}`,
      );
    }
    const record = await store.apiKeyByHash(credentialHash('ucloud', publicKey));
    if (record?.revokedAt !== undefined) {
      throw new ConfigError(
        `the UCloud PublicKey ${publicKey} (${record.keyId}) was revoked; remove it from WIREBIRD_UCLOUD_KEYS`,
      );
    }
    if (existing && box.open(existing.sealedPrivateKey) === privateKey) continue;
    if (existing) await store.deleteUcloudKey(accountId, publicKey);
    const made = { accountId, pair: { publicKey, privateKey } };
    // Nodes sharing a database start together: another may store the same pair first.
    await createKeyPair(store, box, { ...made, terms: ENV_TERMS.ucloud }, now).catch(
      async (err: unknown) => {
        if ((await store.getUcloudKey(publicKey))?.accountId !== accountId) throw err;
      },
    );
  }
  const keep = config.ucloudKeys.map((k) => credentialHash('ucloud', k.publicKey));
  await revokeRemovedEnvKeys(store, { kind: 'ucloud', keep, now });
}

/** The records of credentials the environment configures. */
const ENV_TERMS = {
  smpp: { name: ENV_VARIABLES.smpp, source: 'env' },
  ucloud: { name: ENV_VARIABLES.ucloud, source: 'env' },
} as const;

/**
 * SMPP server credentials configured in the environment (WIREBIRD_SMPP_ESMES): saved at every
 * start, so the environment stays their source of truth (a password changed there takes effect
 * on restart); one it no longer names is revoked.
 */
export async function importConfiguredEsmes(store: Store, config: Config, now: number) {
  for (const { accountId, ...request } of config.smppServer.esmes) {
    const systemId = request.systemId;
    const terms = ENV_TERMS.smpp;
    await saveCredential(store, accountId, { ...request, terms }, now).catch((err: unknown) => {
      throw new ConfigError(
        `WIREBIRD_SMPP_ESMES: ${systemId} for AccountId ${accountId}: ${errorText(err)}`,
      );
    });
  }
  const keep = config.smppServer.esmes.map((e) => credentialHash('smpp', e.systemId));
  await revokeRemovedEnvKeys(store, { kind: 'smpp', keep, now });
}

/**
 * With the SMPP server on and no credential anywhere, the development account gets one: printed
 * once and kept, readable by its owner only, in <dataDir>/dev-smpp.credential.
 */
export async function createDevSmppCredentialIfNone(
  store: Store,
  config: Config,
  now: number,
): Promise<{ systemId: string; password: string } | undefined> {
  if (!config.smppServer.listen) return undefined;
  if ((await store.listSmppCredentials(undefined)).length > 0) return undefined;
  if (!(await store.accountExists(DEV_ACCOUNT_ID))) return undefined;
  const password = newSmppPassword();
  writeSecret(join(config.dataDir, 'dev-smpp.credential'), `${DEV_ACCOUNT_ID}:dev:${password}\n`);
  const terms = { name: 'development', source: 'dev' } as const;
  await saveCredential(store, DEV_ACCOUNT_ID, { systemId: 'dev', password, terms }, now);
  return { systemId: 'dev', password };
}

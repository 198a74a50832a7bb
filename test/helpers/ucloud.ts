import { ucloudSignature } from '../../src/api/ucloud/signature.js';
import { flatten } from '../../src/domain/ucloud/flattened.js';
import type { Answer, TestGateway } from './gateway.js';

export interface KeyPair {
  publicKey: string;
  privateKey: string;
}

/** Creates a key pair for the account through the admin API. */
export async function keyPair(gw: TestGateway, accountId = 1): Promise<KeyPair> {
  const { status, json } = await gw.admin('POST', `/admin/accounts/${accountId}/ucloud-keys`);
  if (status !== 201) throw new Error(`ucloud-keys: ${status} ${json.Message}`);
  return { publicKey: json.PublicKey as string, privateKey: json.PrivateKey as string };
}

/**
 * The parameters as a UCloud SDK sends them: flattened, with ProjectId and Region, PublicKey
 * and a Signature (the signing rule itself is checked against the SDK's own values elsewhere).
 */
export function signedForm(
  params: Record<string, unknown>,
  pair: KeyPair,
  tamper: (p: Record<string, string>) => void = () => undefined,
): Record<string, string> {
  const flat = flatten({
    ProjectId: 'org-1',
    Region: 'cn-bj2',
    ...params,
    PublicKey: pair.publicKey,
  });
  const signed = { ...flat, Signature: ucloudSignature(flat, pair.privateKey) };
  tamper(signed);
  return signed;
}

/** POSTs a form body as the SDKs do (to /api unless a path is given). */
export async function postForm(
  gw: TestGateway,
  form: Record<string, string> | string,
  options: { path?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const res = await fetch(gw.url + (options.path ?? '/api'), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...options.headers },
    body: typeof form === 'string' ? form : new URLSearchParams(form).toString(),
  });
  return { status: res.status, json: (await res.json()) as Answer['json'] };
}

export const base64Json = (value: unknown): string =>
  Buffer.from(JSON.stringify(value), 'utf8').toString('base64');

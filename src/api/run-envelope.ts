import type { FastifyBaseLogger } from 'fastify';
import { WirebirdError } from '../domain/errors.js';
import { actions } from './actions/index.js';
import { KIND_NAMES, keyAllows } from '../domain/keys/key-record.js';
import { authenticate, type KeyHolder } from '../core/auth.js';
import { audit } from '../core/audit.js';
import type { ActionDeps } from './context.js';
import { accountIdOf, actionOf, asBody } from './envelope.js';
import { unknownActionMessage } from './nearest-action.js';
import { checkText } from './text-check.js';
import { regionOfAccount } from '../core/sms-rules.js';

/** The headers an Action reads, and what the request's reading already established. */
export interface ApiHeaders {
  authorization: string | undefined;
  idempotencyKey: string | undefined;
  /** 'ucloud' for the UCloud SDKs' dialect (docs/ucloud-sdk.md); JSON otherwise. */
  dialect?: 'json' | 'ucloud';
  /** The key pair a UCloud signature was checked for: no API key is then asked for. */
  signer?: KeyHolder | undefined;
}

/**
 * A parsed /api body, envelope to answer: key → Action → AccountId → the Action's own schema →
 * its handler. Returns the Action's name and the fields of its answer; refusals are thrown.
 */
export async function runEnvelope(
  parsed: unknown,
  headers: ApiHeaders,
  deps: ActionDeps,
  log: FastifyBaseLogger,
): Promise<{ name: string; fields: Record<string, unknown> }> {
  const body = asBody(parsed);
  checkText(body);
  // A UCloud signature speaks for its key pair's record: its account and its scopes.
  const holder = headers.signer ?? (await authenticate(deps, headers.authorization));
  const keyAccount = holder.accountId;
  const name = actionOf(body);
  const def = actions.get(name);
  if (!def) throw new WirebirdError('UnknownAction', unknownActionMessage(name));
  if (!keyAllows(holder.key, def.scope)) throw outOfScope(holder, name, def.scope);
  const dialect = headers.dialect ?? 'json';
  // The UCloud dialect sends no AccountId: its account is the key's (ProjectId is not an account).
  const named = body.AccountId !== undefined || body.accountId !== undefined;
  const accountId = dialect === 'ucloud' && !named ? keyAccount : accountIdOf(body);
  if (accountId !== keyAccount) {
    throw new WirebirdError(
      'PermissionDenied',
      `the API key does not belong to AccountId ${accountId}`,
    );
  }
  const { idempotencyKey } = headers;
  const defaultRegion = async () =>
    regionOfAccount(deps.store, accountId, deps.config.defaultRegion);
  const actor = `key:${holder.key.keyId}`;
  const ctx = { accountId, deps, log, idempotencyKey, dialect, defaultRegion, actor };
  const input = def.validate(body);
  const fields = await def.handle(ctx, input);
  const fact = def.audit?.(input, fields);
  if (fact) await audit(deps, { actor, accountId }, fact);
  return { name, fields };
}

function outOfScope(holder: KeyHolder, action: string, scope: string | undefined): WirebirdError {
  const has = holder.key.scopes.join(', ');
  const needs = scope ? `the ${scope} scope` : 'a key without scopes';
  return new WirebirdError(
    'OutOfScope',
    `the ${KIND_NAMES[holder.key.kind]} ${holder.key.keyId} may only ${has}; ${action} needs ${needs}`,
  );
}

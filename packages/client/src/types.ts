import type { components, operations } from './generated/openapi.js';
import type { ACTIONS, ADMIN_OPERATIONS } from './generated/operations.js';

type Schemas = components['schemas'];

/** An Action of POST /api (SendBatchUSMSMessage, GetUSMSSendReceipt, …). */
export type ActionName = (typeof ACTIONS)[number];

/**
 * An Action's request without the envelope: the client sets Action, and AccountId unless given.
 */
export type ActionRequest<A extends ActionName> = Omit<
  Schemas[`${A}Request` & keyof Schemas],
  'Action' | 'AccountId'
> & { AccountId?: Schemas['AccountId'] };

/** An Action's success answer (RetCode 0); refusals are thrown as WirebirdApiError. */
export type ActionResponse<A extends ActionName> = Schemas[`${A}Response` & keyof Schemas];

/** An answer of any kind, as POST /api sends it. */
export type ErrorResponse = Schemas['ErrorResponse'];

/** Options of one call. */
export interface CallOptions {
  /**
   * The Idempotency-Key of a send: the same key with the same request is answered, not sent,
   * again. Sends without one get a fresh key per call, so that the client's own retries are safe.
   */
  idempotencyKey?: string;
  /** Retries of this call (default: the client's). */
  retries?: number;
  signal?: AbortSignal;
}

/** An operation of the admin API (its operationId in docs/openapi.json). */
export type AdminOperation = (typeof ADMIN_OPERATIONS)[number] & keyof operations;

type PathOf<Op extends keyof operations> = operations[Op]['parameters'] extends {
  path: infer P;
}
  ? P
  : never;
type QueryOf<Op extends keyof operations> = operations[Op]['parameters'] extends {
  query?: infer Q;
}
  ? Q
  : never;
type BodyOf<Op extends keyof operations> = operations[Op] extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;

/** What an admin operation takes: its path parameters, query and body, where it has them. */
export type AdminInput<Op extends keyof operations> = ([PathOf<Op>] extends [never]
  ? { params?: undefined }
  : { params: { [K in keyof PathOf<Op>]: string | number } }) &
  ([QueryOf<Op>] extends [never] ? { query?: undefined } : { query?: QueryOf<Op> }) &
  ([BodyOf<Op>] extends [never] ? { body?: undefined } : { body?: BodyOf<Op> });

/** An admin operation's success answer (RetCode 0). */
export type AdminAnswer<Op extends keyof operations> = operations[Op]['responses'] extends infer R
  ? R extends { 200: { content: { 'application/json': infer A } } }
    ? A
    : R extends { 201: { content: { 'application/json': infer A } } }
      ? A
      : never
  : never;

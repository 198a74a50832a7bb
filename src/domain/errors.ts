/**
 * The one error class of Wirebird and the RetCode table. docs/errors.md mirrors this module;
 * only api/ turns a WirebirdError into a response.
 */
export const RetCode = {
  Success: 0,
  MissingAction: 160,
  UnknownAction: 161,
  /** A UCloud SDK Action Wirebird knows but does not offer (docs/ucloud-sdk.md). */
  NotSupported: 162,
  Unauthenticated: 170,
  PermissionDenied: 171,
  /** UCloud dialect: the Signature is not the one the parameters and the key pair give. */
  SignatureMismatch: 172,
  /** UCloud dialect: no key pair has this PublicKey. */
  UnknownPublicKey: 174,
  RateLimited: 153,
  MalformedRequest: 18000,
  MissingParameter: 18001,
  InvalidParameter: 18003,
  Internal: 18004,
  NotFound: 18010,
  LimitExceeded: 18019,
  StateConflict: 18020,
  /** A rendered SMS longer than the configured number of segments (maxSegments). */
  MessageTooLong: 18021,
  /** The recipient opted out of the account's messages (docs/opt-out.md). */
  OptedOut: 18022,
  NothingAccepted: 18046,
} as const;

export type RetCodeName = keyof typeof RetCode;
export type RetCodeValue = (typeof RetCode)[RetCodeName];

export class WirebirdError extends Error {
  readonly retCode: RetCodeValue;
  /** Extra fields an Action may put in its error answer (FailContent of a refused batch). */
  readonly details: Record<string, unknown> | undefined;

  constructor(code: RetCodeName, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'WirebirdError';
    this.retCode = RetCode[code];
    this.details = details;
  }
}

export const missing = (field: string): WirebirdError =>
  new WirebirdError('MissingParameter', `${field} is required`);

export const invalid = (field: string, why: string): WirebirdError =>
  new WirebirdError('InvalidParameter', `${field} ${why}`);

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
  /** The API key's scopes do not include the Action (docs/security.md). */
  OutOfScope: 173,
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
  /** A free-form business message outside the contact's 24-hour window (docs/whatsapp.md). */
  WindowClosed: 18023,
  /** Account policy (docs/accounts.md): the number's country is not in the account's Countries. */
  CountryNotEnabled: 18024,
  /** Account policy: the account's DailyLimit of CostCount for the UTC day is reached. */
  DailyLimitReached: 18025,
  /** Account policy: the number had RecipientHourlyLimit messages in the last hour. */
  RecipientLimitReached: 18026,
  /** Account policy: a prepaid account's balance does not cover the message. */
  InsufficientCredit: 18027,
  NothingAccepted: 18046,
} as const;

export type RetCodeName = keyof typeof RetCode;

/** What each RetCode means, in a line: published in docs/openapi.json (docs/errors.md has more). */
export const RET_CODE_MEANINGS: Record<RetCodeName, string> = {
  Success: 'The Action succeeded (SendBatchUSMSMessage: at least one number was accepted).',
  MissingAction: 'The body names no Action, or Action is not a string.',
  UnknownAction: 'Action is not one Wirebird knows; the Message suggests the nearest.',
  NotSupported: 'A UCloud SDK Action that Wirebird does not offer.',
  Unauthenticated: 'No API key (or admin key), or one that is not known.',
  PermissionDenied: 'AccountId is not the account of the API key.',
  SignatureMismatch: 'UCloud dialect: the Signature does not match the parameters and key pair.',
  UnknownPublicKey: 'UCloud dialect: no key pair has this PublicKey.',
  OutOfScope: "The API key's scopes do not include this Action; use a key that has them.",
  RateLimited: 'Too many connections or requests from this address; retry later.',
  MalformedRequest: 'The body is not a JSON object in UTF-8 (or not the form the route takes).',
  MissingParameter: 'A required field is absent; the Message names it.',
  InvalidParameter: 'A field has the wrong type, length, format or value; the Message names it.',
  Internal: 'A fault of the gateway; the request was logged. Retry.',
  NotFound: 'The thing named (template, signature, session, endpoint, path) does not exist here.',
  LimitExceeded: 'More than a request may hold (1000 numbers, the body size, a file size).',
  StateConflict: "The thing's state does not allow it, or it changed meanwhile (retry).",
  MessageTooLong: 'A rendered SMS needs more segments than maxSegments.',
  OptedOut: "The number opted out of the account's messages.",
  WindowClosed:
    "SendMessage: the contact's 24-hour window is closed; send a template, or give a Fallback.",
  CountryNotEnabled:
    "Sending to the number's country is not enabled for this account (its policy's Countries).",
  DailyLimitReached: "The account's DailyLimit of CostCount for today (UTC) is reached.",
  RecipientLimitReached:
    'The number already had RecipientHourlyLimit messages from this account in the last hour.',
  InsufficientCredit: "The prepaid account's balance does not cover the message; add credit.",
  NothingAccepted: 'SendBatchUSMSMessage accepted no number; FailContent says why for each.',
};
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

/** RetCodes a client may retry as they are (with backoff): the same request may succeed later. */
export const RETRYABLE_RET_CODES: readonly RetCodeName[] = ['RateLimited', 'Internal'];

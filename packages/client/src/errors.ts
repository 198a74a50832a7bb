import { RET_CODES, RETRYABLE_RET_CODES } from './generated/operations.js';

export type RetCodeName = keyof typeof RET_CODES;

const NAMES = new Map<number, RetCodeName>(
  Object.entries(RET_CODES).map(([name, code]) => [code, name as RetCodeName]),
);

/**
 * A refusal the gateway answered: its RetCode (and name), its Message, which names the field and
 * says what to do, and the whole answer (FailContent of a batch nobody was accepted from).
 */
export class WirebirdApiError extends Error {
  readonly retCode: number;
  /** The RetCode's name (InvalidParameter, NotFound, …); undefined for a code this client does not know. */
  readonly code: RetCodeName | undefined;
  readonly status: number;
  readonly answer: Record<string, unknown>;

  constructor(answer: Record<string, unknown>, status: number) {
    const retCode = typeof answer.RetCode === 'number' ? answer.RetCode : -1;
    const message = typeof answer.Message === 'string' ? answer.Message : 'no Message';
    super(`RetCode ${retCode}: ${message}`);
    this.name = 'WirebirdApiError';
    this.retCode = retCode;
    this.code = NAMES.get(retCode);
    this.status = status;
    this.answer = answer;
  }

  /** Whether the same request may succeed later (rate limited, a fault of the gateway). */
  get retryable(): boolean {
    return RETRYABLE_RET_CODES.includes(this.retCode);
  }
}

/** The gateway could not be reached, or did not answer with JSON. */
export class WirebirdTransportError extends Error {
  /** The HTTP status, when an answer came that was not the gateway's JSON. */
  readonly status: number | undefined;
  /** True when the request surely never reached the gateway (connection refused, no such host). */
  readonly unreached: boolean;

  constructor(message: string, o: { status?: number; unreached?: boolean; cause?: unknown } = {}) {
    super(message, { cause: o.cause });
    this.name = 'WirebirdTransportError';
    this.status = o.status;
    this.unreached = o.unreached ?? false;
  }
}

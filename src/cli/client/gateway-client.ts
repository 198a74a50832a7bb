import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { CliError } from '../cli-error.js';

export interface Credentials {
  url: string;
  accountId: number;
  key: string;
}

export interface ApiAnswer {
  RetCode: number;
  Message: string;
  [field: string]: unknown;
}

/** Failures worth the same request again: the network, a restart, throttling. */
const RETRYABLE_STATUS = new Set([429, 500, 502, 503, 504]);
const ATTEMPTS = 6;

/**
 * POST /api over HTTP. A request that failed in transit is retried (at most ATTEMPTS times, with
 * a growing pause); callers that send give an Idempotency-Key, so a retry never sends twice.
 */
export class GatewayClient {
  constructor(private readonly credentials: Credentials) {}

  async call(
    action: string,
    fields: Record<string, unknown>,
    idempotencyKey?: string,
  ): Promise<ApiAnswer> {
    const body = JSON.stringify({
      Action: action,
      AccountId: this.credentials.accountId,
      ...fields,
    });
    let lastProblem = '';
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      if (attempt > 1) await sleep(Math.min(5000, 200 * 2 ** (attempt - 2)));
      try {
        const res = await request(`${this.credentials.url}/api`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${this.credentials.key}`,
            ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
          },
          body,
          headersTimeout: 60_000,
          bodyTimeout: 60_000,
        });
        const text = await res.body.text();
        if (RETRYABLE_STATUS.has(res.statusCode)) {
          lastProblem = `HTTP ${res.statusCode}`;
          continue;
        }
        return parseAnswer(text, res.statusCode);
      } catch (err) {
        if (err instanceof CliError) throw err;
        lastProblem = (err as Error).message;
      }
    }
    throw new CliError(
      `the gateway at ${this.credentials.url} did not answer ${action} after ${ATTEMPTS} attempts (${lastProblem})`,
    );
  }
}

function parseAnswer(text: string, status: number): ApiAnswer {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new CliError(`the gateway answered HTTP ${status} with something other than JSON`);
  }
  const answer = json as Partial<ApiAnswer>;
  if (typeof answer.RetCode !== 'number')
    throw new CliError(`the gateway answered HTTP ${status} without a RetCode`);
  if (answer.RetCode === 170 || answer.RetCode === 171)
    throw new CliError(`${answer.Message} (RetCode ${answer.RetCode}); check --key and --account`);
  return answer as ApiAnswer;
}

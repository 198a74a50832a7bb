import { Pool } from 'undici';
import type { Gateway } from './gateway.js';

export type Json = Record<string, unknown>;

export interface Answer {
  status: number;
  json: Json;
}

/** A 2-variable verification template: ~41 characters once rendered, one GSM-7 segment. */
export const BENCH_TEMPLATE = 'Your Wirebird code is {1}, valid {2} min.';

/** The gateway's /api and /admin, over one undici Pool with a connection per client. */
export class Api {
  readonly pool: Pool;

  constructor(
    readonly gw: Gateway,
    connections: number,
  ) {
    this.pool = new Pool(gw.origin, { connections, pipelining: 1 });
  }

  /** POST /api with the account's key; `body` may be pre-serialised JSON. */
  async call(body: string | Json): Promise<Answer> {
    return this.post('/api', this.gw.apiKey, body);
  }

  /** POST a form body as the UCloud SDKs do: signed in the body, no Authorization header. */
  async postForm(path: string, body: string): Promise<Answer> {
    const res = await this.pool.request({
      path,
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
      headersTimeout: 120_000,
      bodyTimeout: 120_000,
    });
    return { status: res.statusCode, json: (await res.body.json()) as Json };
  }

  async admin(path: string, body: Json = {}, method: 'POST' | 'PUT' = 'POST'): Promise<Answer> {
    return this.post(path, this.gw.adminKey, body, method);
  }

  async close(): Promise<void> {
    await this.pool.close();
  }

  private async post(
    path: string,
    key: string,
    body: string | Json,
    method: 'POST' | 'PUT' = 'POST',
  ): Promise<Answer> {
    const res = await this.pool.request({
      path,
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
      headersTimeout: 120_000,
      bodyTimeout: 120_000,
    });
    return { status: res.statusCode, json: (await res.body.json()) as Json };
  }
}

function check(answer: Answer, what: string): Json {
  if (answer.json.RetCode !== 0) {
    throw new Error(`${what} failed (${answer.status}): ${JSON.stringify(answer.json)}`);
  }
  return answer.json;
}

/** Creates the bench template and approves it through the admin API; returns its TemplateId. */
export async function approvedTemplate(api: Api, template = BENCH_TEMPLATE): Promise<string> {
  const created = check(
    await api.call({
      Action: 'CreateUSMSTemplate',
      AccountId: api.gw.accountId,
      Purpose: 1,
      TemplateName: 'bench-otp',
      Template: template,
      Remark: 'benchmark verification code',
    }),
    'CreateUSMSTemplate',
  );
  const id = String(created.TemplateId);
  check(await api.admin(`/admin/templates/${id}/approve`), 'approve');
  return id;
}

/** Params of the realistic kind: a 6-digit code that varies per number, and a validity. */
export function paramsFor(n: number): [string, string] {
  return [String(100000 + ((n * 7919) % 900000)), String(5 + (n % 3) * 5)];
}

/**
 * A SendBatchUSMSMessage body, serialised ahead of the load so the client's cost stays out;
 * `fields` go beside TaskContent (SendAt, say).
 */
export function batchBody(
  accountId: number,
  templateId: string,
  phones: readonly string[],
  fields: Record<string, unknown> = {},
) {
  return JSON.stringify({
    Action: 'SendBatchUSMSMessage',
    AccountId: accountId,
    ...fields,
    TaskContent: [
      {
        TemplateId: templateId,
        Target: phones.map((Phone) => ({
          Phone,
          TemplateParams: paramsFor(Number(Phone.slice(-7))),
        })),
      },
    ],
  });
}

/** The gateway's acceptance threads running now, from /metrics (0 without them, or on PostgreSQL). */
export async function acceptThreads(api: Api): Promise<number> {
  const res = await api.pool.request({
    path: '/metrics',
    method: 'GET',
    headers: { authorization: `Bearer ${api.gw.adminKey}` },
  });
  const line = /^wirebird_accept_threads (\d+)$/m.exec(await res.body.text());
  return Number(line?.[1] ?? 0);
}

/**
 * Starts the acceptance threads before a run measures: they start with the first batch, which
 * the main thread answers meanwhile. The batch sent names no number, so nothing is stored; the
 * wait ends when they run, or after `limitMs` (a gateway with none never starts any).
 */
export async function startAcceptThreads(api: Api, limitMs = 10_000): Promise<void> {
  await api.call(batchBody(api.gw.accountId, 'UTA-NONE', []));
  const until = Date.now() + limitMs;
  while ((await acceptThreads(api)) === 0 && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Helpers for the sending tests: templates, sender ids, batches, receipts and business messages. */
import assert from 'node:assert/strict';
import type { BatchInfo } from '../../src/domain/batches/batch.js';
import type { ReceiptPerPhone } from '../../src/domain/receipts/receipt.js';
import { eventually } from './eventually.js';
import type { Answer, TestGateway } from './gateway.js';
import { testOutcomeOf } from '../../src/channels/simulator/test-numbers.js';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A UUID ordered by time (version 7): what rows are keyed by (SessionNo, MessageId). */
export const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
export const BUSINESS_PHONE = '+8613900000000';

/** A valid CN mobile in E.164 whose last digits are `n`: cn(1) is +8613800000001 (test number 0001). */
export function cn(n: number): string {
  return `+86138${String(n).padStart(8, '0')}`;
}

/** `count` distinct ordinary (non-test) numbers, starting at +8613800001000 + from. */
export function numbers(count: number, from = 0): string[] {
  const list = Array.from({ length: count }, (_, i) => cn(1000 + from + i));
  // From +8613800010001 on, a range would take in the simulator's test numbers (…0001 – …0003).
  const test = list.find((phone) => testOutcomeOf(phone) !== 'deliver');
  if (test) throw new Error(`numbers(${count}, ${from}) reaches the test number ${test}`);
  return list;
}

/** Who calls: account 1 with the dev key unless another account and its key are given. */
export interface Caller {
  accountId?: number;
  key?: string;
  headers?: Record<string, string>;
}

function callOptions(caller: Caller): { key?: string; headers?: Record<string, string> } {
  return {
    ...(caller.key === undefined ? {} : { key: caller.key }),
    ...(caller.headers === undefined ? {} : { headers: caller.headers }),
  };
}

/** Creates a template (Status 0 under manual review) and returns its id. */
export async function createTemplate(
  gw: TestGateway,
  template: string,
  caller: Caller = {},
): Promise<string> {
  const { json } = await gw.api(
    {
      Action: 'CreateUSMSTemplate',
      AccountId: caller.accountId ?? 1,
      Purpose: 2,
      TemplateName: 'sending test',
      Template: template,
    },
    callOptions(caller),
  );
  assert.equal(json.RetCode, 0, json.Message);
  return json.TemplateId as string;
}

async function adminOk(gw: TestGateway, path: string, body?: unknown): Promise<void> {
  const { json } = await gw.admin('POST', path, body);
  assert.equal(json.RetCode, 0, `${path}: ${json.Message}`);
}

/** A template driven to Status 2 (approved), 0 (pending), 3 (rejected) or 4 (disabled). */
export async function templateAt(
  gw: TestGateway,
  status: 0 | 2 | 3 | 4,
  template = 'Hello {1}, your code is {2}',
  caller: Caller = {},
): Promise<string> {
  const id = await createTemplate(gw, template, caller);
  if (status === 2) await adminOk(gw, `/admin/templates/${id}/approve`);
  if (status >= 3) await adminOk(gw, `/admin/templates/${id}/reject`, { ErrDesc: 'too vague' });
  if (status === 4) await adminOk(gw, `/admin/templates/${id}/disable`);
  assert.equal((await gw.store.getTemplateById(id))?.status, status);
  return id;
}

export const approvedTemplate = (gw: TestGateway, template?: string, caller?: Caller) =>
  templateAt(gw, 2, template, caller);

export function registerSenderId(gw: TestGateway, senderId: string, accountId = 1) {
  return adminOk(gw, `/admin/accounts/${accountId}/sender-ids`, { SenderId: senderId });
}

export function registerBusinessPhone(gw: TestGateway, phone = BUSINESS_PHONE, accountId = 1) {
  return adminOk(gw, `/admin/accounts/${accountId}/business-phones`, { BusinessPhone: phone });
}

/** Gives account `accountId` an API key (creating the account) and returns the key. */
export async function accountKey(gw: TestGateway, accountId: number): Promise<string> {
  const { status, json } = await gw.admin('POST', `/admin/accounts/${accountId}/keys`);
  assert.equal(status, 201, json.Message);
  return json.Key as string;
}

export interface Target {
  Phone?: string;
  TemplateParams?: unknown[];
  SenderId?: string;
  ExtendCode?: string;
  UserId?: string;
}

export interface Group {
  TemplateId: string;
  SenderId?: string;
  Target: Target[];
}

/** The fields of a SendBatchUSMSMessage answer the tests read. */
export type BatchAnswer = Answer['json'] & {
  SessionNo?: string;
  ReqUuid?: string;
  SuccessCount?: number;
  FailContent?: BatchInfo[];
};

export function batchBody(taskContent: unknown, accountId = 1): Record<string, unknown> {
  return { Action: 'SendBatchUSMSMessage', AccountId: accountId, TaskContent: taskContent };
}

export async function sendBatch(
  gw: TestGateway,
  taskContent: unknown,
  caller: Caller = {},
): Promise<BatchAnswer> {
  const { status, json } = await gw.api(
    batchBody(taskContent, caller.accountId),
    callOptions(caller),
  );
  assert.equal(status, 200, json.Message);
  assert.equal(json.Action, 'SendBatchUSMSMessageResponse');
  return json;
}

/** A batch that must be accepted in full; returns its SessionNo. */
export async function sendAll(gw: TestGateway, groups: Group[], caller?: Caller): Promise<string> {
  const json = await sendBatch(gw, groups, caller);
  assert.equal(json.RetCode, 0, json.Message);
  assert.deepEqual(json.FailContent, []);
  return json.SessionNo as string;
}

/** Messages stored in every state, to check that a request stored all or nothing. */
export async function storedMessages(gw: TestGateway): Promise<number> {
  const byState = await gw.store.countByState();
  return Object.values(byState).reduce((n, c) => n + c, 0);
}

export type ReceiptSession = { SessionNo: string; ReceiptSet: ReceiptPerPhone[] };

/** GetUSMSSendReceipt with the dev key, the raw Response: for its headers or a cut body. */
export function fetchReceipts(gw: TestGateway, sessionNoSet: readonly string[]): Promise<Response> {
  return fetch(`${gw.url}/api`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${gw.key}` },
    body: JSON.stringify({
      Action: 'GetUSMSSendReceipt',
      AccountId: 1,
      SessionNoSet: sessionNoSet,
    }),
  });
}

export async function getReceipts(
  gw: TestGateway,
  sessionNoSet: unknown,
  caller: Caller = {},
): Promise<Answer['json'] & { Data?: ReceiptSession[] }> {
  const { json } = await gw.api(
    { Action: 'GetUSMSSendReceipt', AccountId: caller.accountId ?? 1, SessionNoSet: sessionNoSet },
    callOptions(caller),
  );
  assert.equal(json.Action, 'GetUSMSSendReceiptResponse');
  return json;
}

/** The ReceiptSet of a session once `count` of its messages reached a final state. */
export function finalReceipts(
  gw: TestGateway,
  sessionNo: string,
  count: number,
): Promise<ReceiptPerPhone[]> {
  return eventually(async () => {
    const json = await getReceipts(gw, [sessionNo]);
    assert.equal(json.RetCode, 0, json.Message);
    const set = json.Data?.[0]?.ReceiptSet ?? [];
    return set.length >= count ? set : undefined;
  }, `${count} receipts for session ${sessionNo}`);
}

/** The receipt of `phone` (as written) in a ReceiptSet. */
export function receiptOf(set: readonly ReceiptPerPhone[], phone: string): ReceiptPerPhone {
  const found = set.filter((r) => r.Phone === phone);
  assert.equal(found.length, 1, `one receipt for ${phone} in ${JSON.stringify(set)}`);
  return found[0] as ReceiptPerPhone;
}

export interface InboxItem {
  kind: string;
  from: string;
  to: string;
  body: string;
  segments: number;
  encoding: string;
}

export async function inbox(gw: TestGateway, phone: string): Promise<InboxItem[]> {
  const { status, json } = await gw.admin('GET', `/admin/inbox?phone=${encodeURIComponent(phone)}`);
  assert.equal(status, 200, json.Message);
  const set = json.DataSet as Record<string, unknown>[];
  return set.map((e) => ({
    kind: e.Kind as string,
    from: e.From as string,
    to: e.To as string,
    body: typeof e.Body === 'string' ? e.Body : JSON.stringify(e.Body),
    segments: e.Segments as number,
    encoding: e.Encoding as string,
  }));
}

/** A SendMessage request from the registered business phone; `fields` override the defaults. */
export function messageBody(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    Action: 'SendMessage',
    AccountId: 1,
    To: cn(0),
    Type: 'text',
    Content: JSON.stringify({ body: 'hello from wirebird' }),
    BusinessPhone: BUSINESS_PHONE,
    ...fields,
  };
}

export async function sendMessage(
  gw: TestGateway,
  fields: Record<string, unknown> = {},
  caller: Caller = {},
): Promise<Answer['json']> {
  const { status, json } = await gw.api(messageBody(fields), callOptions(caller));
  assert.equal(status, 200, json.Message);
  assert.equal(json.Action, 'SendMessageResponse');
  return json;
}

/** The MessageId of a SendMessage that must be accepted. */
export async function sentMessageId(
  gw: TestGateway,
  fields: Record<string, unknown> = {},
): Promise<string> {
  const json = await sendMessage(gw, fields);
  assert.equal(json.RetCode, 0, json.Message);
  return (json.Data as { MessageId: string }).MessageId;
}

export interface MessageView {
  MessageId: string;
  AccountId: number;
  BusinessPhone: string;
  To: string;
  Type: string;
  Content: unknown;
  Status: string;
  History: { Status: string; Time: number; Code: string; Desc: string }[];
}

export async function messageView(gw: TestGateway, messageId: string): Promise<MessageView> {
  const { status, json } = await gw.admin('GET', `/admin/messages/${messageId}`);
  assert.equal(status, 200, json.Message);
  return json.Data as MessageView;
}

/** The message once it reached `status`. */
export function messageWhen(
  gw: TestGateway,
  messageId: string,
  status: string,
): Promise<MessageView> {
  return eventually(async () => {
    const view = await messageView(gw, messageId);
    return view.Status === status ? view : undefined;
  }, `message ${messageId} to be ${status}`);
}

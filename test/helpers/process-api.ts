/** Calls on gateways in their own processes (kill -9 and cluster tests), over HTTP only. */
import { WirebirdClient } from '@wirebird/client';
import { checkApiAnswer } from './openapi.js';
import type { GatewayProcess } from './process-gateway.js';

/** A gateway reached over HTTP: in its own process, or in the test's. */
type Reached = Pick<GatewayProcess, 'url' | 'key' | 'adminKey'>;

export async function call(
  gw: Reached,
  body: object,
  key = gw.key,
): Promise<Record<string, unknown>> {
  const { answer } = await new WirebirdClient({ baseUrl: gw.url }).post(
    { AccountId: 1, ...body },
    { key },
  );
  checkApiAnswer(answer);
  return answer;
}

/** A template created on one gateway and approved through the admin API of `approver`. */
export async function approvedTemplate(gw: Reached, approver: Reached = gw): Promise<string> {
  const created = await call(gw, {
    Action: 'CreateUSMSTemplate',
    Purpose: 2,
    TemplateName: 'crash',
    Template: 'Crash test {1}',
  });
  const id = created.TemplateId as string;
  await fetch(`${approver.url}/admin/templates/${id}/approve`, {
    method: 'POST',
    headers: { authorization: `Bearer ${approver.adminKey}` },
  });
  return id;
}

/** Batch b of `size` distinct numbers; every one ends in 05, clear of the test numbers. */
export function batch(templateId: string, b: number, size: number) {
  const Target = Array.from({ length: size }, (_, i) => ({
    Phone: `+86139${String(b).padStart(2, '0')}${String(i).padStart(4, '0')}05`,
    TemplateParams: [`${b}-${i}`],
  }));
  return { Action: 'SendBatchUSMSMessage', TaskContent: [{ TemplateId: templateId, Target }] };
}

export type Receipts = Map<string, { Phone: string; ReceiptResult: string }[]>;

export async function receipts(gw: GatewayProcess, sessions: string[]): Promise<Receipts> {
  const answer = await call(gw, { Action: 'GetUSMSSendReceipt', SessionNoSet: sessions });
  const data = answer.Data as {
    SessionNo: string;
    ReceiptSet: { Phone: string; ReceiptResult: string }[];
  }[];
  return new Map(data.map((d) => [d.SessionNo, d.ReceiptSet]));
}

export const count = (r: Receipts): number => [...r.values()].reduce((n, set) => n + set.length, 0);

/**
 * How many of the sessions' messages are final, from GetSessionSummary: what a wait polls (the
 * receipts themselves, thousands of them, once at its end).
 */
export async function finalCount(gw: GatewayProcess, sessions: string[]): Promise<number> {
  const answer = await call(gw, { Action: 'GetSessionSummary', SessionNoSet: sessions });
  const data = answer.Data as Record<'Success' | 'Fail' | 'SubmitFail' | 'Unknow', number>[];
  return data.reduce((n, d) => n + d.Success + d.Fail + d.SubmitFail + d.Unknow, 0);
}

export const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

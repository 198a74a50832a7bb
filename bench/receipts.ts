import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Api } from './api.js';
import type { Session } from './load.js';

const PER_CALL = 100; // GetUSMSSendReceipt's limit on SessionNoSet

export interface Drain {
  /** performance.now() when every accepted message was seen with a final receipt. */
  doneMs: number;
  /** performance.now() when the confirming pass over every session finished. */
  confirmedMs: number;
  finals: number;
  byResult: Record<string, number>;
  complete: boolean;
}

type Counted = Map<string, Map<string, number>>;

/** GetUSMSSendReceipt for up to 100 sessions: the final receipts of each, counted by result. */
async function receiptsOf(api: Api, sessions: readonly Session[]): Promise<Counted> {
  const { json } = await api.call({
    Action: 'GetUSMSSendReceipt',
    AccountId: api.gw.accountId,
    SessionNoSet: sessions.map((s) => s.sessionNo),
  });
  if (json.RetCode !== 0) throw new Error(`GetUSMSSendReceipt: ${JSON.stringify(json)}`);
  const out: Counted = new Map();
  type Data = { SessionNo: string; ReceiptSet: { ReceiptResult: string }[] }[];
  for (const s of json.Data as Data) {
    const byResult = new Map<string, number>();
    for (const r of s.ReceiptSet) {
      byResult.set(r.ReceiptResult, (byResult.get(r.ReceiptResult) ?? 0) + 1);
    }
    out.set(s.SessionNo, byResult);
  }
  return out;
}

const total = (m: Map<string, number> | undefined) =>
  m ? [...m.values()].reduce((a, b) => a + b, 0) : 0;

/**
 * Dispatch claims the oldest due messages first, so the session answered last finishes last:
 * poll that one alone (cheap) until it is complete, then confirm every session, 100 per call,
 * polling again only those still incomplete. Bounded by `deadlineMs`.
 */
export async function waitForReceipts(
  api: Api,
  sessions: readonly Session[],
  deadlineMs: number,
  onLastDone: () => void = () => undefined,
  pollMs = 100,
): Promise<Drain> {
  const last = sessions.at(-1);
  let doneMs = performance.now();
  while (last && performance.now() < deadlineMs) {
    const counted = await receiptsOf(api, [last]);
    doneMs = performance.now();
    if (total(counted.get(last.sessionNo)) >= last.accepted) break;
    await sleep(pollMs);
  }
  onLastDone();
  const byResult: Record<string, number> = {};
  let finals = 0;
  let pending = [...sessions];
  let passes = 0;
  let lagged = false;
  while (pending.length > 0 && performance.now() < deadlineMs) {
    if (passes++ > 0) await sleep(pollMs);
    const still: Session[] = [];
    for (let i = 0; i < pending.length; i += PER_CALL) {
      const chunk = pending.slice(i, i + PER_CALL);
      const counted = await receiptsOf(api, chunk);
      for (const s of chunk) {
        const c = counted.get(s.sessionNo);
        if (total(c) < s.accepted) {
          still.push(s);
          continue;
        }
        finals += total(c);
        for (const [k, n] of c ?? []) byResult[k] = (byResult[k] ?? 0) + n;
      }
    }
    // A session found incomplete here finished after the last one did: the end is this pass.
    if (still.length > 0) lagged = true;
    pending = still;
  }
  const confirmedMs = performance.now();
  return {
    doneMs: lagged ? confirmedMs : doneMs,
    confirmedMs,
    finals,
    byResult,
    complete: pending.length === 0,
  };
}

import { performance } from 'node:perf_hooks';
import type { Api } from './api.js';

export interface Session {
  sessionNo: string;
  accepted: number;
}

export interface LoadResult {
  /** Requests answered (including refusals). */
  sent: number;
  accepted: number;
  latenciesMs: number[];
  /** performance.now() when the answer to body i came in (undefined: not answered). */
  answeredAt: number[];
  sessions: Session[];
  failed: number;
  firstError: string | undefined;
  /** performance.now() when the first request went out and when the last answer came in. */
  startMs: number;
  endMs: number;
  timedOut: boolean;
}

interface Shared {
  bodies: readonly string[];
  next: number;
  deadline: number;
  result: LoadResult;
}

async function client(api: Pick<Api, 'call'>, s: Shared): Promise<void> {
  for (;;) {
    const i = s.next++;
    if (i >= s.bodies.length) return;
    if (performance.now() > s.deadline) {
      s.result.timedOut = true;
      return;
    }
    const t0 = performance.now();
    let answer;
    try {
      answer = await api.call(s.bodies[i] as string);
    } catch (err) {
      s.result.failed++;
      s.result.firstError ??= String(err);
      continue;
    }
    const t1 = performance.now();
    s.result.answeredAt[i] = t1;
    record(s.result, answer.json, t1 - t0, t1);
  }
}

function record(r: LoadResult, json: Record<string, unknown>, ms: number, at: number): void {
  r.sent++;
  r.latenciesMs.push(ms);
  r.endMs = Math.max(r.endMs, at);
  const n = typeof json.SuccessCount === 'number' ? json.SuccessCount : 0;
  if (json.RetCode !== 0 || n === 0) {
    r.failed++;
    r.firstError ??= JSON.stringify(json).slice(0, 300);
    return;
  }
  r.accepted += n;
  r.sessions.push({ sessionNo: String(json.SessionNo), accepted: n });
}

/**
 * Sends every body once from `clients` concurrent loops (each waits for its answer before the
 * next), stopping early when the time limit passes. Bounded in count and in time.
 */
export async function runLoad(
  api: Pick<Api, 'call'>,
  bodies: readonly string[],
  clients: number,
  timeLimitMs: number,
): Promise<LoadResult> {
  const startMs = performance.now();
  const result: LoadResult = {
    sent: 0,
    accepted: 0,
    latenciesMs: [],
    answeredAt: [],
    sessions: [],
    failed: 0,
    firstError: undefined,
    startMs,
    endMs: startMs,
    timedOut: false,
  };
  const shared: Shared = { bodies, next: 0, deadline: startMs + timeLimitMs, result };
  await Promise.all(Array.from({ length: clients }, () => client(api, shared)));
  return result;
}

import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { SENDSMS_USER } from './kannel-conf.js';
import { textFor, type MessageKind } from './messages.js';

/** One sendsms request: its recipients (digits, no '+') and its query string. */
export interface SendsmsRequest {
  to: string[];
  path: string;
}

export interface Acceptance {
  accepted: number;
  failed: number;
  firstError: string | undefined;
  /** Epoch ms (performance clock) of the first request out and of the last answer in. */
  startAt: number;
  endAt: number;
  /** Destination → epoch ms its acceptance was answered. */
  acceptedAt: Map<string, number>;
  timedOut: boolean;
}

/**
 * The sendsms requests for `phones`, `perRequest` recipients each (Kannel's `to` takes numbers
 * separated by spaces; they then share one text, that of the first number), with a dlr-url that
 * reports every final receipt to the bench's counter. Built before the clock starts.
 */
export function sendsmsRequests(
  kind: MessageKind,
  phones: readonly string[],
  perRequest: number,
  dlrPort: number,
): SendsmsRequest[] {
  const dlrUrl = `http://127.0.0.1:${dlrPort}/dlr?type=%d&to=%p`;
  const out: SendsmsRequest[] = [];
  for (let i = 0; i < phones.length; i += perRequest) {
    const to = phones.slice(i, i + perRequest).map((p) => p.replace(/^\+/, ''));
    const q = new URLSearchParams({
      ...SENDSMS_USER,
      from: 'WIREBIRD',
      to: to.join(' '),
      text: textFor(kind, to[0] as string),
      charset: 'UTF-8',
      ...(kind.ucs2 ? { coding: '2' } : {}),
      'dlr-mask': '3',
      'dlr-url': dlrUrl,
    });
    out.push({ to, path: `/cgi-bin/sendsms?${q.toString()}` });
  }
  return out;
}

function emptyAcceptance(): Acceptance {
  const now = performance.timeOrigin + performance.now();
  const acceptedAt = new Map<string, number>();
  return {
    accepted: 0,
    failed: 0,
    firstError: undefined,
    startAt: now,
    endAt: now,
    acceptedAt,
    timedOut: false,
  };
}

async function send(pool: Pool, r: SendsmsRequest, a: Acceptance): Promise<void> {
  try {
    const res = await pool.request({ path: r.path, method: 'GET', headersTimeout: 60_000 });
    const body = await res.body.text();
    const at = performance.timeOrigin + performance.now();
    a.endAt = Math.max(a.endAt, at);
    if (res.statusCode >= 300) throw new Error(`${res.statusCode} ${body.slice(0, 200)}`);
    a.accepted += r.to.length;
    for (const to of r.to) a.acceptedAt.set(to, at);
  } catch (err) {
    a.failed++;
    a.firstError ??= String(err);
  }
}

/**
 * Sends every request once from `clients` concurrent loops over keep-alive connections to
 * smsbox's sendsms port (each loop waits for its answer before the next), bounded in time.
 */
export async function runSendsms(
  port: number,
  requests: readonly SendsmsRequest[],
  clients: number,
  timeLimitMs: number,
): Promise<Acceptance> {
  const pool = new Pool(`http://127.0.0.1:${port}`, { connections: clients, pipelining: 1 });
  const a = emptyAcceptance();
  const deadline = Date.now() + timeLimitMs;
  let next = 0;
  const loop = async () => {
    for (let i = next++; i < requests.length; i = next++) {
      if (Date.now() > deadline) {
        a.timedOut = true;
        return;
      }
      await send(pool, requests[i] as SendsmsRequest, a);
    }
  };
  try {
    await Promise.all(Array.from({ length: clients }, loop));
  } finally {
    await pool.close();
  }
  return a;
}

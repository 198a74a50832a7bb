// Fakes for the dispatcher's tests: an in-memory DispatchStorage, scripted channels, a manual clock.
import { setImmediate as tick } from 'node:timers/promises';
import { pino } from 'pino';
import type { Channel, ChannelStatus, SubmitResult } from '../../src/channels/channel.js';
import type { ClaimedMessage, SubmitOutcome } from '../../src/domain/messages/message.js';
import {
  Dispatcher,
  type DispatchOptions,
  type DispatchStorage,
} from '../../src/dispatch/dispatcher.js';
import { until } from './eventually.js';
import type { RecordGate } from '../../src/dispatch/record-gate.js';

export const log = pino({ level: 'silent' });
export const random = () => 0.5;
export const T0 = 1_700_000_000_000;

export function message(id: number, over: Partial<ClaimedMessage> = {}): ClaimedMessage {
  const base = { id, kind: 'sms' as const, accountId: 1, route: 'a', attempts: 1 };
  const text = { e164: `+8613800${String(id).padStart(6, '0')}`, body: `hello ${id}` };
  const rest = { senderId: '', extendCode: '', messageId: undefined, businessPhone: '', type: '' };
  return { ...base, ...text, ...rest, ...over };
}

/** In-memory storage: claim hands out queued messages, record collects the outcomes. */
export class FakeStorage implements DispatchStorage {
  claims = 0;
  readonly claimArgs: { now: number; limit: number; leaseMs: number }[] = [];
  readonly recorded: SubmitOutcome[] = [];
  readonly recordNows: number[] = [];
  /** Set by holdNextClaim(): the next claim waits until the test releases it. */
  gate: ((ms: ClaimedMessage[]) => void) | undefined;
  private hold = false;

  constructor(public queue: ClaimedMessage[] = []) {}

  holdNextClaim(): void {
    this.hold = true;
  }

  async claim(now: number, limit: number, leaseMs: number): Promise<ClaimedMessage[]> {
    this.claims++;
    this.claimArgs.push({ now, limit, leaseMs });
    if (!this.hold) return this.queue.splice(0, limit);
    this.hold = false;
    return new Promise((resolve) => (this.gate = resolve));
  }

  readonly extensions: { claims: { id: number; attempt: number }[]; until: number }[] = [];

  async extend(claims: readonly { id: number; attempt: number }[], until: number): Promise<void> {
    this.extensions.push({ claims: [...claims], until });
  }

  async record(outcomes: readonly SubmitOutcome[], now: number): Promise<void> {
    this.recorded.push(...outcomes);
    this.recordNows.push(now);
  }

  outcome(id: number): SubmitOutcome | undefined {
    return this.recorded.find((o) => o.id === id);
  }

  sorted(): SubmitOutcome[] {
    return [...this.recorded].sort((a, b) => a.id - b.id);
  }
}

export type Answer = (m: ClaimedMessage) => SubmitResult;
export const accept: Answer = (m) => ({ kind: 'accepted', upstreamId: `up-${m.id}` });

/** A channel that records every chunk it was given and answers as scripted. */
export class FakeChannel implements Channel {
  readonly seen: ClaimedMessage[][] = [];
  constructor(
    readonly name: string,
    private readonly answer: Answer = accept,
    private readonly throwOnCall: (call: number) => boolean = () => false,
  ) {}
  async start(): Promise<void> {}
  async stop(): Promise<void> {}
  status(): ChannelStatus {
    return { name: this.name, state: 'up', binds: [] };
  }
  async submit(messages: readonly ClaimedMessage[]): Promise<SubmitResult[]> {
    this.seen.push([...messages]);
    if (this.throwOnCall(this.seen.length - 1)) throw new Error('upstream connection dropped');
    return messages.map(this.answer);
  }
  get sizes(): number[] {
    return this.seen.map((c) => c.length);
  }
  get ids(): number[] {
    return this.seen.flat().map((m) => m.id);
  }
}

// pollMs is so long that only a nudge (or stop) can explain a prompt second claim.
export const LIMITS = { batchSize: 100, leaseMs: 30_000, maxAttempts: 5, window: 1000, loops: 1 };
export const OPTIONS: DispatchOptions = { ...LIMITS, pollMs: 60_000, routeTps: 1_000_000 };

export { until };

export function track(p: Promise<unknown>): () => boolean {
  let settled = false;
  const done = () => (settled = true);
  void p.then(done, done);
  return () => settled;
}

export async function turns(n = 20): Promise<void> {
  for (let i = 0; i < n; i++) await tick();
}

export function setup(
  msgs: ClaimedMessage[],
  channels: Channel[],
  opts: Partial<DispatchOptions> = {},
  gate?: RecordGate,
) {
  const storage = new FakeStorage([...msgs]);
  const clock: { t: number; now(): number } = { t: T0, now: () => clock.t };
  const byName = new Map(channels.map((c) => [c.name, c]));
  const options = { ...OPTIONS, ...opts };
  const parts = { storage, channels: byName, clock, options, log, random };
  const dispatcher = new Dispatcher(gate ? { ...parts, gate } : parts);
  return { storage, clock, dispatcher };
}

/** Runs the loop until every given message has an outcome, then stops it. */
export async function dispatchAll(
  msgs: ClaimedMessage[],
  channels: Channel[],
  opts: Partial<DispatchOptions> = {},
) {
  const s = setup(msgs, channels, opts);
  await running(s, () => until(() => s.storage.recorded.length >= msgs.length, 'every outcome'));
  return s;
}

/** Expected outcomes; `attempt` is the claim's attempt number. */
export function submitted(id: number, route = 'a', upstreamId = `up-${id}`): SubmitOutcome {
  return { id, attempt: 1, kind: 'submitted', route, upstream: '', upstreamId };
}
export function retry(id: number, attempt: number, dueAt: number, code: string, desc: string) {
  return { id, attempt, kind: 'retry', dueAt, code, desc };
}
export function failed(id: number, attempt: number, code: string, desc: string) {
  return { id, attempt, kind: 'failed', code, desc };
}

/** A channel from just its submit function. */
export function channelOf(name: string, submit: Channel['submit']): Channel {
  const status = (): ChannelStatus => ({ name, state: 'up', binds: [] });
  return { name, submit, start: async () => {}, stop: async () => {}, status };
}

/** Starts the loop, runs fn, and stops the loop whatever happened. */
export async function running(s: ReturnType<typeof setup>, fn: () => Promise<void>): Promise<void> {
  s.dispatcher.start();
  try {
    await fn();
  } finally {
    await s.dispatcher.stop();
  }
}

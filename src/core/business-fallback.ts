/**
 * A business message's SMS fallback (docs/whatsapp.md, "SMS fallback"): checked when SendMessage
 * takes it, fired when the message fails, ends unknown, or is not delivered within After, and sent
 * at most once, through every rule an SMS meets (the account's template, sender, opt-outs, routes).
 */
import type { Logger } from 'pino';
import type { TaskCountModal } from '../domain/batches/batch.js';
import {
  DELIVERED_STATUSES,
  type DueFallback,
  type FallbackOutcome,
  type FallbackSpec,
} from '../domain/business-messages/conversation.js';
import { invalid } from '../domain/errors.js';
import type { Scheduler, Store } from '../domain/ports.js';
import { Passes } from '../util/passes.js';
import { planGroups, type SmsIntake } from './accept-sms.js';

/** The SMS a fallback sends to `phone`, as one group of a batch. */
function fallbackGroup(phone: string, f: FallbackSpec): TaskCountModal {
  const senderId = f.senderId === '' ? undefined : f.senderId;
  return {
    TemplateId: f.templateId,
    SenderId: senderId,
    Target: [{ Phone: phone, TemplateParams: [...f.params] }],
  };
}

/** The first reason an SMS to `phone` would be refused, or undefined when it would be accepted. */
async function refusalOf(sms: SmsIntake, accountId: number, phone: string, f: FallbackSpec) {
  const plan = await planGroups(sms, accountId, [fallbackGroup(phone, f)]);
  if (plan.accepted.length > 0) return { plan, reason: undefined };
  const info = plan.failContent[0];
  const reason = info?.FailureDetails ?? info?.Target[0]?.FailureDetails ?? 'refused';
  return { plan, reason };
}

/**
 * Refuses, naming the field, a Fallback whose SMS would not be accepted now (an unknown or
 * unapproved TemplateId, TemplateParams that do not fit it, an unregistered SenderId).
 */
export async function checkFallback(
  sms: SmsIntake,
  accountId: number,
  phone: string,
  f: FallbackSpec,
): Promise<void> {
  const { reason } = await refusalOf(sms, accountId, phone, f);
  if (reason === undefined) return;
  // planBatch's reasons start with the field they are about.
  const field = /^(TemplateId|SenderId|TemplateParams)\b/.exec(reason)?.[1];
  if (field) throw invalid(`Fallback.${field}`, reason.slice(field.length).trim());
  throw invalid('Fallback', `its SMS would be refused: ${reason}`);
}

export interface FallbackDeps {
  sms: SmsIntake;
  store: Pick<Store, 'dueFallbacks' | 'settleFallback'>;
  newSessionNo: () => string;
  log: Logger;
  /** Told of each fallback settled here (metrics). */
  onSettled?: (state: FallbackOutcome['state']) => void;
}

const PASS_LIMIT = 500;

/** Settles the fallbacks due now; answers how many were looked at. */
export async function settleDueFallbacks(deps: FallbackDeps): Promise<number> {
  const now = deps.sms.clock.now();
  const due = await deps.store.dueFallbacks(now, PASS_LIMIT);
  for (const d of due) await settleOne(deps, d, now);
  return due.length;
}

function firedBecause(d: DueFallback): string {
  if (d.status === 'failed') return 'the business message failed';
  if (d.status === 'unknown') return 'the business message ended with no status (unknown)';
  return `the business message was not delivered by its Fallback.After (status ${d.status})`;
}

async function settleOne(deps: FallbackDeps, d: DueFallback, now: number): Promise<void> {
  const { sms, store, log } = deps;
  let outcome: FallbackOutcome;
  if (DELIVERED_STATUSES.includes(d.status)) {
    outcome = { state: 'unneeded', reason: `the business message was ${d.status} first` };
  } else {
    const because = firedBecause(d);
    // To as the SendMessage wrote it: the SMS's receipt answers with it, as any SMS's does.
    const { plan, reason } = await refusalOf(sms, d.accountId, d.to, d);
    const batch = { accountId: d.accountId, sessionNo: deps.newSessionNo(), acceptedAt: now };
    outcome =
      reason === undefined
        ? { state: 'sent', batch: { ...batch, messages: plan.accepted }, reason: because }
        : { state: 'failed', reason: `${because}; no SMS was sent: ${reason}` };
  }
  const settled = await store.settleFallback(d, outcome, now);
  if (!settled) return;
  deps.onSettled?.(settled.state);
  if (settled.state === 'failed' && settled.rule) sms.refused(d.accountId, settled.rule, 1);
  if (settled.state === 'sent')
    sms.accepted(
      settled.batch.messages.map((m) => m.route),
      false,
    );
  log.info({ messageId: d.messageId, state: settled.state, reason: settled.reason }, 'fallback');
}

/** Settles due fallbacks every second, and at once when nudged (a message accepted failed). */
export class FallbackSender {
  private timer: { cancel(): void } | undefined;
  private readonly passes = new Passes(() => this.pass());

  constructor(
    private readonly deps: FallbackDeps & { scheduler: Scheduler; mayRun?: () => Promise<boolean> },
  ) {}

  start(): void {
    this.timer = this.deps.scheduler.every(1000, () => this.nudge());
  }

  nudge(): void {
    this.passes.nudge();
  }

  async stop(): Promise<void> {
    this.timer?.cancel();
    await this.passes.stop();
  }

  /** One batch; true when it was full, so that another follows at once. */
  private async pass(): Promise<boolean> {
    try {
      if (this.deps.mayRun && !(await this.deps.mayRun())) return false;
      return (await settleDueFallbacks(this.deps)) === PASS_LIMIT;
    } catch (err) {
      this.deps.log.error({ err }, 'fallback pass failed');
      return false;
    }
  }
}

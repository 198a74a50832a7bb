import type { Logger } from 'pino';
import { templateReviewedEvent } from '../domain/events/payloads.js';
import type { Clock, Scheduler, Store } from '../domain/ports.js';
import { autoReviewVerdict, type ReviewRules } from '../domain/templates/auto-review.js';
import { reviewTemplate, type ReviewAction } from '../domain/templates/template-review.js';
import { TemplateStatus, type Template } from '../domain/templates/template.js';
import type { Signature } from '../domain/signatures/signature.js';
import { reviewSignature, signatureVerdict } from '../domain/signatures/signature-review.js';

/**
 * With WIREBIRD_TEMPLATE_REVIEW=auto, moves pending templates and signatures 0 → 1 → 2, or 3
 * with an ErrDesc,
 * by the rules in domain/templates/auto-review.ts. A pass runs when nudged and on a slow timer
 * (for templates a crash left pending or under review).
 */
export interface AutoReviewerOptions {
  store: Store;
  clock: Clock;
  scheduler: Scheduler;
  rules: ReviewRules;
  log: Logger;
  /** Between passes that pick up what a crash left pending or under review (5 s). */
  intervalMs?: number;
  /** Whether this node reviews now: of nodes sharing a store, one at a time does. */
  mayRun?: () => Promise<boolean>;
}

export class AutoReviewer {
  private timer: { cancel(): void } | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private readonly store: Store;
  private readonly clock: Clock;
  private readonly rules: ReviewRules;
  private readonly log: Logger;

  constructor(private readonly options: AutoReviewerOptions) {
    ({ store: this.store, clock: this.clock, rules: this.rules, log: this.log } = options);
  }

  start(): void {
    this.timer = this.options.scheduler.every(this.options.intervalMs ?? 5000, () => this.nudge());
    this.nudge();
  }

  nudge(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.pass()
      .catch((err: unknown) => this.log.error({ err }, 'auto-review pass failed'))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.nudge();
        }
      });
  }

  async stop(): Promise<void> {
    this.timer?.cancel();
    await this.running;
  }

  private async pass(): Promise<void> {
    if (this.options.mayRun && !(await this.options.mayRun())) return;
    const { store, rules } = this;
    const templates: Reviewed<Template> = {
      list: (status) => store.listTemplates({ status }),
      step: reviewTemplate,
      verdict: (t) => autoReviewVerdict(t, rules),
      save: (t) => store.replaceTemplate(t, templateReviewedEvent(t, t.updatedAt)),
      logged: (t) => ({ templateId: t.templateId, status: t.status, msg: 'template reviewed' }),
    };
    const signatures: Reviewed<Signature> = {
      list: (status) => store.listSignatures({ status }),
      step: reviewSignature,
      verdict: (s) => signatureVerdict(s, rules),
      save: (s) => store.replaceSignature(s),
      logged: (s) => ({ sigId: s.sigId, status: s.status, msg: 'signature reviewed' }),
    };
    await this.reviewAll(templates);
    await this.reviewAll(signatures);
  }

  private async reviewAll<T extends { status: TemplateStatus }>(kind: Reviewed<T>): Promise<void> {
    const waiting = [
      ...(await kind.list(TemplateStatus.Pending)),
      ...(await kind.list(TemplateStatus.UnderReview)),
    ];
    for (const item of waiting) await this.review(kind, item);
  }

  /** Pending → under review → approved or failed, each step saved only if nobody saved since. */
  private async review<T extends { status: TemplateStatus }>(kind: Reviewed<T>, item: T) {
    let current = item;
    if (current.status === TemplateStatus.Pending) {
      const saved = await kind.save(kind.step(current, 'startReview', this.clock.now()));
      if (!saved) return; // changed meanwhile: the next pass sees the new version
      current = saved;
    }
    const verdict = kind.verdict(current);
    const decided = verdict.approve
      ? kind.step(current, 'approve', this.clock.now())
      : kind.step(current, 'reject', this.clock.now(), verdict.errDesc);
    if (await kind.save(decided)) {
      const { msg, ...fields } = kind.logged(decided);
      this.log.info(fields, msg);
    }
  }
}

/** What the reviewer needs of one kind of reviewed thing (templates, signatures). */
interface Reviewed<T> {
  list(status: TemplateStatus): Promise<T[]>;
  step(current: T, action: ReviewAction, now: number, errDesc?: string): T;
  verdict(item: T): { approve: true } | { approve: false; errDesc: string };
  save(next: T): Promise<T | undefined>;
  logged(saved: T): Record<string, unknown> & { msg: string };
}

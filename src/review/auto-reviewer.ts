import type { Logger } from 'pino';
import type { Clock, Store } from '../domain/ports.js';
import { autoReviewVerdict, type ReviewRules } from '../domain/templates/auto-review.js';
import { reviewTemplate } from '../domain/templates/template-review.js';
import { TemplateStatus, type Template } from '../domain/templates/template.js';

/**
 * With WIREBIRD_TEMPLATE_REVIEW=auto, moves pending templates 0 → 1 → 2, or 3 with an ErrDesc,
 * by the rules in domain/templates/auto-review.ts. A pass runs when nudged and on a slow timer
 * (for templates a crash left pending or under review).
 */
export class AutoReviewer {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly rules: ReviewRules,
    private readonly log: Logger,
    private readonly intervalMs = 5000,
    /** Whether this node reviews now: of nodes sharing a store, one at a time does. */
    private readonly mayRun: () => Promise<boolean> = async () => true,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.nudge(), this.intervalMs);
    this.timer.unref();
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
    clearInterval(this.timer);
    await this.running;
  }

  private async pass(): Promise<void> {
    if (!(await this.mayRun())) return;
    const waiting = [
      ...(await this.store.listTemplates({ status: TemplateStatus.Pending })),
      ...(await this.store.listTemplates({ status: TemplateStatus.UnderReview })),
    ];
    for (const t of waiting) await this.review(t);
  }

  private async review(t: Template): Promise<void> {
    let current = t;
    if (current.status === TemplateStatus.Pending) {
      const saved = await this.store.replaceTemplate(
        reviewTemplate(current, 'startReview', this.clock.now()),
      );
      if (!saved) return; // changed meanwhile: the next pass sees the new version
      current = saved;
    }
    const verdict = autoReviewVerdict(current, this.rules);
    const decided = verdict.approve
      ? reviewTemplate(current, 'approve', this.clock.now())
      : reviewTemplate(current, 'reject', this.clock.now(), verdict.errDesc);
    if (await this.store.replaceTemplate(decided)) {
      this.log.info({ templateId: t.templateId, status: decided.status }, 'template reviewed');
    }
  }
}

/**
 * How the faces tell what an account's policy refused (docs/accounts.md): the numbers in a batch's
 * FailContent with the rule and its limit, a request refused whole with the rule's own RetCode,
 * a submit_sm with the rule's command_status.
 */
import type { PolicyRefusal, PolicyRule } from '../domain/accounts/policy.js';
import type { BatchInfo } from '../domain/batches/batch.js';
import type { RetCodeName } from '../domain/errors.js';
import type { AcceptedSms } from '../domain/messages/message.js';

/** The RetCode a request refused whole for one rule answers. */
export const RULE_RET_CODES: Record<PolicyRule, RetCodeName> = {
  countries: 'CountryNotEnabled',
  daily_limit: 'DailyLimitReached',
  recipient_hourly_limit: 'RecipientLimitReached',
  prepaid: 'InsufficientCredit',
};

/** The refused messages as FailContent groups, one per template and sender, in request order. */
export function refusedContent(
  messages: readonly AcceptedSms[],
  refused: readonly PolicyRefusal[],
): BatchInfo[] {
  const groups = new Map<string, BatchInfo>();
  for (const r of refused) {
    // The store refuses by index into the messages it was given.
    const m = messages[r.index] as AcceptedSms;
    const key = `${m.templateId}\u0000${m.senderId}`;
    let group = groups.get(key);
    if (!group) {
      group = { TemplateId: m.templateId, SenderId: m.senderId, Target: [] };
      groups.set(key, group);
    }
    group.Target.push({
      TemplateParams: [...m.params],
      Phone: m.phone,
      ExtendCode: m.extendCode,
      UserId: m.userId,
      FailureDetails: r.reason,
    });
  }
  return [...groups.values()];
}

/** The one rule every refusal names, when there is one: its RetCode answers the request. */
export function soleRule(refused: readonly PolicyRefusal[]): PolicyRule | undefined {
  const rules = new Set(refused.map((r) => r.rule));
  return rules.size === 1 ? refused[0]?.rule : undefined;
}

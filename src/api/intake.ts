import type { BusinessIntake } from '../core/accept-business-message.js';
import type { SmsIntake } from '../core/accept-sms.js';
import type { ActionDeps } from './context.js';

/** What the core's SMS acceptance needs, from an Action's dependencies. */
export function smsIntakeOf(deps: ActionDeps): SmsIntake {
  return {
    store: deps.store,
    clock: deps.clock,
    routing: deps.routing,
    gatewayRegion: deps.config.defaultRegion,
    maxSegments: deps.config.maxSegments,
    maxScheduleDays: deps.config.maxScheduleDays,
    newSessionNo: deps.ids.orderedId,
    accepted: (routes, held) => {
      deps.metrics.messagesAccepted('sms', routes);
      if (!held) deps.nudges.dispatch();
    },
    refused: (accountId, rule, n) => deps.metrics.policyRefused(accountId, rule, n),
  };
}

/** What the core's business message acceptance needs, from an Action's dependencies. */
export function businessIntakeOf(deps: ActionDeps): BusinessIntake {
  return {
    store: deps.store,
    clock: deps.clock,
    accepted: (routes, held) => {
      deps.metrics.messagesAccepted('business', routes);
      if (!held) deps.nudges.dispatch();
    },
    fallbackDue: () => deps.nudges.fallbacks(),
  };
}

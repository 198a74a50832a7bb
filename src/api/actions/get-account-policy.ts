import { Type } from '@sinclair/typebox';
import { policyAnswer } from '../../core/account-policy.js';
import { defineAction } from '../context.js';
import { Obj } from '../answer-schemas.js';
import { PolicyAnswer } from '../admin/policy.js';

/**
 * Wirebird's own Action (docs/accounts.md): the calling account's policy as the operator set it,
 * its prepaid balance and the CostCount it used today (UTC), so that an application can see a
 * limit coming before it is refused.
 */
export const getAccountPolicy = defineAction(
  {
    scope: 'read',
    repeatable: 'safe',
    summary: "The account's sending policy, its balance and today's CostCount.",
    request: Type.Object({}),
    answer: Obj(PolicyAnswer),
  },
  async ({ accountId, deps }) => policyAnswer(deps, accountId),
);

import { Type } from '@sinclair/typebox';
import { invalid } from '../domain/errors.js';
import { VALIDITY_RULE, scheduleOf, type Schedule } from '../domain/messages/schedule.js';
import type { ActionContext } from './context.js';

/** SendAt and ValidityPeriod, top-level fields of the Actions that send (docs/api.md). */
export const ScheduleParams = {
  SendAt: Type.Optional(
    Type.Union([Type.Integer(), Type.String(), Type.Null()], {
      description: 'when to send: Unix seconds, a whole number (a time passed sends now)',
    }),
  ),
  ValidityPeriod: Type.Optional(
    Type.Union([Type.Integer(), Type.String(), Type.Null()], { description: VALIDITY_RULE }),
  ),
};

interface Given {
  SendAt?: number | string | null;
  ValidityPeriod?: number | string | null;
}

/**
 * A whole number as the request gave it: a JSON number in the JSON API; in the UCloud dialect,
 * whose form values are all text, its digits.
 */
function wholeOf(ctx: ActionContext, field: string, v: number | string, rule: string): number {
  if (typeof v === 'number') return v;
  if (ctx.dialect === 'ucloud' && /^\d{1,15}$/.test(v)) return Number(v);
  throw invalid(field, `must be ${rule} as a JSON number, not a string`);
}

/** When the request's messages are due and when they expire, or a refusal naming the field. */
export function scheduleIn(ctx: ActionContext, input: Given): Schedule {
  const fields: { SendAt?: number; ValidityPeriod?: number } = {};
  if (input.SendAt !== undefined && input.SendAt !== null) {
    const at = wholeOf(ctx, 'SendAt', input.SendAt, 'Unix seconds');
    if (at < 0) throw invalid('SendAt', 'must be Unix seconds, 0 or more');
    fields.SendAt = at;
  }
  if (input.ValidityPeriod !== undefined && input.ValidityPeriod !== null) {
    // The range is the domain's rule (scheduleOf), the same for the SMPP face.
    fields.ValidityPeriod = wholeOf(ctx, 'ValidityPeriod', input.ValidityPeriod, VALIDITY_RULE);
  }
  return scheduleOf(fields, ctx.deps.clock.now(), ctx.deps.config.maxScheduleDays);
}

import { Type } from '@sinclair/typebox';
import { defineAction } from '../context.js';
import { StringList, toList } from './schema-types.js';
import { Obj } from '../answer-schemas.js';

const Count = Type.Integer({ minimum: 0 });
const Answer = Obj({
  Data: Type.Array(
    Obj({
      SessionNo: Type.String(),
      AcceptedCount: Count,
      CreateTime: Type.Integer({ minimum: 0, description: 'Unix seconds' }),
      Success: Count,
      Fail: Count,
      SubmitFail: Count,
      Unknow: Count,
      Pending: Count,
    }),
  ),
});
const Input = Type.Object({ SessionNoSet: StringList({ minItems: 1, maxItems: 100 }) });

/**
 * Wirebird's own Action (docs/api.md): how many of each session's messages ended each way and
 * how many are still on their way, which GetUSMSSendReceipt cannot say (it lists final messages
 * only). Sessions of other accounts, or unknown ones, are left out as GetUSMSSendReceipt does.
 */
export const getSessionSummary = defineAction(
  {
    scope: 'read',
    repeatable: 'safe',
    summary: "How many of each session's messages ended each way and how many are pending.",
    request: Input,
    answer: Answer,
  },
  async ({ accountId, deps }, input) => {
    const Data = [];
    for (const sessionNo of new Set(toList(input.SessionNoSet))) {
      const view = await deps.store.sessionView(sessionNo, accountId, 0);
      if (!view) continue;
      const { results } = view;
      Data.push({
        SessionNo: sessionNo,
        AcceptedCount: view.acceptedCount,
        CreateTime: Math.floor(view.createdAt / 1000),
        Success: results.Success,
        Fail: results.Fail,
        SubmitFail: results.SubmitFail,
        Unknow: results.Unknow,
        Pending: results.pending,
      });
    }
    return { Data };
  },
);

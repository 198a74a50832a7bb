import { Type } from '@sinclair/typebox';
import { defineAction } from '../context.js';
import { StreamedArray } from '../streamed.js';
import { StringList, toList } from './schema-types.js';
import { Obj, ReceiptPerSession } from '../answer-schemas.js';
import { scheduledView } from './list-scheduled-messages.js';

const Input = Type.Object({ SessionNoSet: StringList({ minItems: 1, maxItems: 100 }) });

/**
 * One ReceiptPerSession per session of the account, in the order asked; a session of another
 * account, or one that does not exist, is left out. ReceiptSet lists messages in a final state;
 * HeldSet, only when there are any, those held for a later SendAt.
 * Data is written one session at a time (docs/api.md, "Large receipt answers").
 */
export const getUsmsSendReceipt = defineAction(
  {
    scope: 'read',
    repeatable: 'safe',
    summary: 'The receipts of final messages, per session of the account, in the order asked.',
    request: Input,
    answer: Obj({ Data: Type.Array(ReceiptPerSession) }),
  },
  async ({ accountId, deps }, input) => {
    const { store } = deps;
    const sessions = await store.accountSessions(accountId, toList(input.SessionNoSet));
    const now = deps.clock.now();
    async function* perSession() {
      for (const s of sessions) {
        // Held for a later SendAt: no receipt yet, shown apart so that the session does not
        // read as unknown (Wirebird's own field; the spec's ReceiptSet keeps its four results).
        const { receipts, held } = await store.sessionReport(accountId, s, now);
        yield {
          SessionNo: s,
          ReceiptSet: receipts,
          ...(held.length > 0 ? { HeldSet: held.map(scheduledView) } : {}),
        };
      }
    }
    return { Data: new StreamedArray(perSession) };
  },
);

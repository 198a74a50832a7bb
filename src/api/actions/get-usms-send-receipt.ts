import { Type } from '@sinclair/typebox';
import { defineAction } from '../context.js';
import { StringList, toList } from './schema-types.js';

const Input = Type.Object({ SessionNoSet: StringList({ minItems: 1, maxItems: 100 }) });

/**
 * One ReceiptPerSession per session of the account, in the order asked; a session of another
 * account, or one that does not exist, is left out. ReceiptSet lists messages in a final state.
 */
export const getUsmsSendReceipt = defineAction(Input, async ({ accountId, deps }, input) => {
  const sessions = [...new Set(toList(input.SessionNoSet))];
  const receipts = await deps.store.receiptsForSessions(accountId, sessions);
  const data = sessions.flatMap((s) => {
    const set = receipts.get(s);
    return set ? [{ SessionNo: s, ReceiptSet: set }] : [];
  });
  return { Data: data };
});

import { Type } from '@sinclair/typebox';
import { WirebirdError } from '../../domain/errors.js';
import { defineAction } from '../context.js';
import { BusinessMessageData, Obj } from '../answer-schemas.js';
import { businessMessageData } from '../business-message-data.js';

const Input = Type.Object({ MessageId: Type.String({ minLength: 1, maxLength: 64 }) });

/**
 * A business message of the account, with its status history: what an application holding an API
 * key reads instead of waiting for the event. Another account's message is answered as unknown,
 * exactly as one that does not exist, so that ids cannot be probed.
 */
export const getMessage = defineAction(
  {
    scope: 'read',
    repeatable: 'safe',
    summary: 'A business message SendMessage accepted, with its status and history.',
    request: Input,
    answer: Obj({ Data: BusinessMessageData }),
  },
  async ({ accountId, deps }, input) => {
    // The account is part of the read: another's message costs what an unknown one does.
    const m = await deps.store.getBusinessMessage(input.MessageId, accountId);
    if (!m) {
      throw new WirebirdError('NotFound', `MessageId ${input.MessageId} not found in this account`);
    }
    return { Data: businessMessageData(m) };
  },
);

import { Type } from '@sinclair/typebox';
import { WirebirdError } from '../../domain/errors.js';
import { defineAction } from '../context.js';
import { StringList, toList } from './schema-types.js';
import { Obj } from '../answer-schemas.js';

const Input = Type.Object({ SigIds: StringList({ minItems: 1, maxItems: 100 }) });

/**
 * Deletes the account's signatures; from then on a send naming one as its sender is refused.
 * Ids that are not the account's are refused together, so a failing request deletes nothing.
 */
export const deleteUsmsSignature = defineAction(
  {
    audit: (input) => ({ action: 'signature.deleted', target: toList(input.SigIds).join(',') }),
    scope: 'templates',
    summary: 'Deletes signatures of the account (all or none).',
    request: Input,
    answer: Obj({}),
  },
  async ({ accountId, deps }, input) => {
    const ids = [...new Set(toList(input.SigIds))];
    const found = new Set((await deps.store.getSignatures(accountId, ids)).map((s) => s.sigId));
    const unknown = ids.filter((id) => !found.has(id));
    if (unknown.length > 0)
      throw new WirebirdError('NotFound', `SigIds ${unknown.join(', ')} not found`);
    await deps.store.deleteSignatures(accountId, ids);
    return {};
  },
);

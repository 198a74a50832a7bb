import { Type } from '@sinclair/typebox';
import { WirebirdError } from '../../domain/errors.js';
import { defineAction } from '../context.js';
import { StringList, toList } from './schema-types.js';
import { Obj } from '../answer-schemas.js';

const Input = Type.Object({ TemplateIds: StringList({ minItems: 1, maxItems: 100 }) });

/**
 * Deletes the account's templates. Messages already accepted keep their rendered text and are
 * still delivered; a send naming a deleted template is refused as for an unknown one. Ids that
 * are not the account's are refused together, so nothing is deleted by a request that fails.
 */
export const deleteUsmsTemplate = defineAction(
  {
    audit: (input) => ({ action: 'template.deleted', target: toList(input.TemplateIds).join(',') }),
    scope: 'templates',
    summary: 'Deletes templates of the account (all or none).',
    request: Input,
    answer: Obj({}),
  },
  async ({ accountId, deps }, input) => {
    const ids = [...new Set(toList(input.TemplateIds))];
    const found = new Set((await deps.store.getTemplates(accountId, ids)).map((t) => t.templateId));
    const unknown = ids.filter((id) => !found.has(id));
    if (unknown.length > 0) {
      throw new WirebirdError('NotFound', `TemplateIds ${unknown.join(', ')} not found`);
    }
    await deps.store.deleteTemplates(accountId, ids);
    return {};
  },
);

import { Type } from '@sinclair/typebox';
import { WirebirdError } from '../../domain/errors.js';
import { defineAction } from '../context.js';
import { outTemplate } from '../../domain/templates/out-template.js';
import { StringList, toList } from './schema-types.js';
import { Obj, OutTemplate } from '../answer-schemas.js';

const Input = Type.Object({ TemplateId: StringList({ minItems: 1, maxItems: 100 }) });

/**
 * The spec's Data is one OutTemplate while TemplateId is an array: Data answers the first id
 * asked for that exists, and DataSet every one found, in the order asked (docs/api.md).
 */
export const queryUsmsTemplate = defineAction(
  {
    scope: 'templates',
    repeatable: 'safe',
    summary:
      'Reads templates of the account: Data is the first found, DataSet every one in the order asked.',
    request: Input,
    answer: Obj({ Data: OutTemplate, DataSet: Type.Array(OutTemplate) }),
  },
  async ({ accountId, deps, dialect }, input) => {
    const ids = [...new Set(toList(input.TemplateId))];
    const found = await deps.store.getTemplates(accountId, ids);
    const byId = new Map(found.map((t) => [t.templateId, t]));
    const ordered = ids.flatMap((id) => {
      const t = byId.get(id);
      return t ? [outTemplate(t, dialect)] : [];
    });
    if (ordered.length === 0) {
      throw new WirebirdError('NotFound', `TemplateId ${ids.join(', ')} not found`);
    }
    return { Data: ordered[0], DataSet: ordered };
  },
);

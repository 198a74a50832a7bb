import { Type } from '@sinclair/typebox';
import { WirebirdError } from '../../domain/errors.js';
import { updateTemplate } from '../../domain/templates/template-rules.js';
import { defineAction } from '../context.js';
import { Obj } from '../answer-schemas.js';
import { definedFields } from './audit-facts.js';

const Input = Type.Object({
  TemplateId: Type.String({ minLength: 1 }),
  Template: Type.Optional(Type.String()),
  TemplateName: Type.Optional(Type.String()),
  Remark: Type.Optional(Type.String()),
  Instruction: Type.Optional(Type.String()),
  UnsubscribeInfo: Type.Optional(Type.String()),
});

export const updateUsmsTemplate = defineAction(
  {
    audit: (input) => ({
      action: 'template.updated',
      target: input.TemplateId,
      detail: {
        Fields: definedFields(input, [
          'Template',
          'TemplateName',
          'Remark',
          'Instruction',
          'UnsubscribeInfo',
        ]),
      },
    }),
    scope: 'templates',
    summary: 'Changes a template that is not approved; new content goes back to review.',
    request: Input,
    answer: Obj({}),
  },
  async ({ accountId, deps }, input) => {
    const [current] = await deps.store.getTemplates(accountId, [input.TemplateId]);
    if (!current) throw new WirebirdError('NotFound', `TemplateId ${input.TemplateId} not found`);
    const next = updateTemplate(
      current,
      {
        template: input.Template,
        templateName: input.TemplateName,
        remark: input.Remark,
        instruction: input.Instruction,
        unsubscribeInfo: input.UnsubscribeInfo,
      },
      deps.clock.now(),
    );
    if (!(await deps.store.replaceTemplate(next))) {
      throw new WirebirdError(
        'StateConflict',
        `TemplateId ${input.TemplateId} changed meanwhile; retry`,
      );
    }
    if (next.status === 0) deps.nudges.reviewTemplates();
    return {};
  },
);

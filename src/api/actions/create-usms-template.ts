import { Type } from '@sinclair/typebox';
import { newTemplate } from '../../domain/templates/template-rules.js';
import { defineAction } from '../context.js';
import { BooleanLike, IntegerLike, toBoolean } from './schema-types.js';
import { Obj } from '../answer-schemas.js';

const Input = Type.Object({
  Purpose: IntegerLike,
  TemplateName: Type.String(),
  Template: Type.String(),
  Remark: Type.Optional(Type.String()),
  Instruction: Type.Optional(Type.String()),
  International: Type.Optional(BooleanLike),
  UnsubscribeInfo: Type.Optional(Type.String()),
});

export const createUsmsTemplate = defineAction(
  {
    audit: (input, answer) => ({
      action: 'template.created',
      target: String(answer.TemplateId),
      detail: { TemplateName: input.TemplateName, Purpose: Number(input.Purpose) },
    }),
    scope: 'templates',
    summary: 'Applies for a new SMS template; it starts pending review (Status 0).',
    request: Input,
    answer: Obj({ TemplateId: Type.String() }),
  },
  async ({ accountId, deps, dialect }, input) => {
    const template = newTemplate(
      {
        purpose: Number(input.Purpose),
        templateName: input.TemplateName,
        template: input.Template,
        remark: input.Remark,
        instruction: input.Instruction,
        international: toBoolean(input.International),
        unsubscribeInfo: input.UnsubscribeInfo,
        requireUnsubscribeInfo: dialect === 'ucloud',
      },
      { templateId: deps.ids.templateId(), accountId },
      deps.clock.now(),
    );
    await deps.store.insertTemplate(template);
    deps.nudges.reviewTemplates();
    return { TemplateId: template.templateId };
  },
);

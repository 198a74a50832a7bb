import type { Template } from '../../domain/templates/template.js';

/** The spec's OutTemplate; CreateTime in Unix seconds like every time the API answers. */
export function outTemplate(t: Template): Record<string, unknown> {
  return {
    TemplateId: t.templateId,
    Purpose: t.purpose,
    TemplateName: t.templateName,
    Template: t.template,
    Status: t.status,
    Remark: t.remark,
    ErrDesc: t.errDesc,
    CreateTime: Math.floor(t.createdAt / 1000),
    Instruction: t.instruction,
  };
}

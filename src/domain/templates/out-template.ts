import type { Template } from './template.js';

/**
 * The spec's OutTemplate; CreateTime in Unix seconds like every time the API answers. The UCloud
 * dialect's OutTemplate has International and UnsubscribeInfo besides (its SDKs require them);
 * the JSON API keeps exactly the spec's fields.
 */
export function outTemplate(
  t: Template,
  dialect: 'json' | 'ucloud' = 'json',
): Record<string, unknown> {
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
    ...(dialect === 'ucloud'
      ? { International: t.international, UnsubscribeInfo: t.unsubscribeInfo }
      : {}),
  };
}

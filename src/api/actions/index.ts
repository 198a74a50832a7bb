import type { ActionDef } from '../context.js';
import { createUsmsTemplate } from './create-usms-template.js';
import { queryUsmsTemplate } from './query-usms-template.js';
import { updateUsmsTemplate } from './update-usms-template.js';

/** The Actions of the spec, by name. */
export const actions: ReadonlyMap<string, ActionDef> = new Map<string, ActionDef>([
  ['CreateUSMSTemplate', createUsmsTemplate],
  ['QueryUSMSTemplate', queryUsmsTemplate],
  ['UpdateUSMSTemplate', updateUsmsTemplate],
]);

import type { ActionDef } from '../context.js';
import { createUsmsTemplate } from './create-usms-template.js';
import { getUsmsSendReceipt } from './get-usms-send-receipt.js';
import { sendBatchUsmsMessage } from './send-batch-usms-message.js';
import { sendMessage } from './send-message.js';
import { queryUsmsTemplate } from './query-usms-template.js';
import { updateUsmsTemplate } from './update-usms-template.js';

/** The Actions of the spec, by name. */
export const actions: ReadonlyMap<string, ActionDef> = new Map<string, ActionDef>([
  ['SendMessage', sendMessage],
  ['SendBatchUSMSMessage', sendBatchUsmsMessage],
  ['GetUSMSSendReceipt', getUsmsSendReceipt],
  ['CreateUSMSTemplate', createUsmsTemplate],
  ['QueryUSMSTemplate', queryUsmsTemplate],
  ['UpdateUSMSTemplate', updateUsmsTemplate],
]);

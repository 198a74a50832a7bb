import type { ActionDef } from '../context.js';
import { createUsmsTemplate } from './create-usms-template.js';
import { getUsmsSendReceipt } from './get-usms-send-receipt.js';
import { getSessionSummary } from './get-session-summary.js';
import { getAccountPolicy } from './get-account-policy.js';
import { getMessage } from './get-message.js';
import { cancelScheduledMessages } from './cancel-scheduled-messages.js';
import { listScheduledMessages } from './list-scheduled-messages.js';
import { listInboundMessages } from './list-inbound-messages.js';
import { sendBatchUsmsMessage } from './send-batch-usms-message.js';
import { sendMessage } from './send-message.js';
import { queryUsmsTemplate } from './query-usms-template.js';
import { updateUsmsTemplate } from './update-usms-template.js';
import { createUsmsSignature } from './create-usms-signature.js';
import { deleteUsmsSignature } from './delete-usms-signature.js';
import { deleteUsmsTemplate } from './delete-usms-template.js';
import { getUsmsSendStatistics } from './get-usms-send-statistics.js';
import { NOT_SUPPORTED, notSupported } from './not-supported.js';
import { querySignature } from './query-usms-signature.js';
import { sendUsmsMessage } from './send-usms-message.js';
import { updateUsmsSignature } from './update-usms-signature.js';
import { uploadUsmsFile } from './upload-usms-file.js';
import {
  createOptOut,
  deleteOptOut,
  getOptOutSettings,
  queryOptOut,
  updateOptOutSettings,
} from './opt-outs.js';
import { listWebhookDeliveries, replayWebhookEvents } from './webhook-deliveries.js';
import { listApiKeys, revokeApiKeyAction } from './api-keys.js';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookEndpoints,
  rotateWebhookSecret,
  sendWebhookTestEvent,
  updateWebhookEndpoint,
} from './webhook-endpoints.js';

/**
 * The Actions, by name: the spec's six, then the UCloud SDKs' other USMS Actions, which both the
 * JSON API and the UCloud dialect answer (docs/ucloud-sdk.md), then Wirebird's own.
 */
export const actions: ReadonlyMap<string, ActionDef> = new Map<string, ActionDef>([
  ['SendMessage', sendMessage],
  ['SendBatchUSMSMessage', sendBatchUsmsMessage],
  ['GetUSMSSendReceipt', getUsmsSendReceipt],
  ['CreateUSMSTemplate', createUsmsTemplate],
  ['QueryUSMSTemplate', queryUsmsTemplate],
  ['UpdateUSMSTemplate', updateUsmsTemplate],
  ['SendUSMSMessage', sendUsmsMessage],
  ['DeleteUSMSTemplate', deleteUsmsTemplate],
  ['CreateUSMSSignature', createUsmsSignature],
  ['QueryUSMSSignature', querySignature],
  ['UpdateUSMSSignature', updateUsmsSignature],
  ['DeleteUSMSSignature', deleteUsmsSignature],
  ['GetUSMSSendStatistics', getUsmsSendStatistics],
  ['UploadUSMSFile', uploadUsmsFile],
  // Wirebird's own, named in its own style (docs/api.md).
  ['GetSessionSummary', getSessionSummary],
  ['GetMessage', getMessage],
  ['CancelScheduledMessages', cancelScheduledMessages],
  ['ListScheduledMessages', listScheduledMessages],
  ['GetAccountPolicy', getAccountPolicy],
  ['ListInboundMessages', listInboundMessages],
  ['CreateWebhookEndpoint', createWebhookEndpoint],
  ['ListWebhookEndpoints', listWebhookEndpoints],
  ['UpdateWebhookEndpoint', updateWebhookEndpoint],
  ['DeleteWebhookEndpoint', deleteWebhookEndpoint],
  ['RotateWebhookSecret', rotateWebhookSecret],
  ['SendWebhookTestEvent', sendWebhookTestEvent],
  ['ListWebhookDeliveries', listWebhookDeliveries],
  ['ReplayWebhookEvents', replayWebhookEvents],
  ['CreateOptOut', createOptOut],
  ['DeleteOptOut', deleteOptOut],
  ['QueryOptOut', queryOptOut],
  ['GetOptOutSettings', getOptOutSettings],
  ['UpdateOptOutSettings', updateOptOutSettings],
  ['ListApiKeys', listApiKeys],
  ['RevokeApiKey', revokeApiKeyAction],
  ...NOT_SUPPORTED.map((name): [string, ActionDef] => [name, notSupported(name)]),
]);

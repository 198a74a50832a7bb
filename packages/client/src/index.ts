export {
  WirebirdClient,
  type ClientOptions,
  type MediaUploaded,
  type RawAnswer,
  type RawOptions,
} from './client.js';
export { WirebirdApiError, WirebirdTransportError, type RetCodeName } from './errors.js';
export {
  verifyWebhook,
  WebhookVerificationError,
  type EventType,
  type WebhookEvent,
} from './webhooks.js';
export {
  ACTIONS,
  ADMIN_OPERATIONS,
  EVENT_TYPES,
  RET_CODES,
  RETRYABLE_RET_CODES,
} from './generated/operations.js';
export type * from './types.js';
export type { components, operations } from './generated/openapi.js';

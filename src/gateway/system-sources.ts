import { randomBytes, randomUUID } from 'node:crypto';
import { v7 as uuidV7 } from 'uuid';
import { INBOUND_ID_PREFIX } from '../domain/inbound/inbound.js';
import { MEDIA_ID_PREFIX } from '../domain/media/media-file.js';
import type { Clock, Scheduler } from '../domain/ports.js';
import { ENDPOINT_ID_PREFIX } from '../domain/events/endpoint.js';
import type { IdSource } from '../api/context.js';

export const systemClock: Clock = { now: () => Date.now() };

/** Timers that never keep the process alive: stopping is the owner's business. */
export const systemScheduler: Scheduler = {
  every(ms, run) {
    const timer = setInterval(run, ms);
    timer.unref();
    return { cancel: () => clearInterval(timer) };
  },
};

const TEMPLATE_ID_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const workOrderId = (prefix: string) =>
  prefix + [...randomBytes(10)].map((b) => TEMPLATE_ID_ALPHABET[b % 32]).join('');
export const randomIds: IdSource = {
  templateId: () => workOrderId('UTA'),
  sigId: () => workOrderId('USA'),
  uuid: () => randomUUID(),
  orderedId: () => uuidV7(),
  mediaId: () => MEDIA_ID_PREFIX + randomBytes(16).toString('base64url'),
  inboundId: () => INBOUND_ID_PREFIX + randomBytes(12).toString('base64url'),
  endpointId: () => ENDPOINT_ID_PREFIX + randomBytes(12).toString('base64url'),
};

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

/**
 * 16 random bytes at a time from a pool filled 4 KB at once, as node's randomUUID does: the uuid
 * package asks the system for each id's bytes alone, which cost 4 % of the SMPP server's intake.
 */
function pooledRandom16(): () => Uint8Array {
  let pool = Buffer.alloc(0);
  let at = 0;
  return () => {
    if (at + 16 > pool.length) {
      pool = randomBytes(4096);
      at = 0;
    }
    at += 16;
    return pool.subarray(at - 16, at);
  };
}

const random16 = pooledRandom16();

const TEMPLATE_ID_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const workOrderId = (prefix: string) =>
  prefix + [...randomBytes(10)].map((b) => TEMPLATE_ID_ALPHABET[b % 32]).join('');
export const randomIds: IdSource = {
  templateId: () => workOrderId('UTA'),
  sigId: () => workOrderId('USA'),
  uuid: () => randomUUID(),
  orderedId: () => uuidV7({ rng: random16 }),
  mediaId: () => MEDIA_ID_PREFIX + randomBytes(16).toString('base64url'),
  inboundId: () => INBOUND_ID_PREFIX + randomBytes(12).toString('base64url'),
  endpointId: () => ENDPOINT_ID_PREFIX + randomBytes(12).toString('base64url'),
};

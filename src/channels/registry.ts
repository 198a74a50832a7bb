import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import type { Clock, Routing, Store } from '../domain/ports.js';
import type { Channel } from './channel.js';
import { SIMULATOR, SMPP, smsRouting } from './sms-routing.js';
import { SimulatorChannel } from './simulator/simulator-channel.js';
import { SmppChannel } from './smpp/smpp-channel.js';
import { WhatsAppMedia } from './whatsapp/media-upload.js';
import { WHATSAPP, WhatsAppChannel } from './whatsapp/whatsapp-channel.js';

export interface Channels {
  byName: ReadonlyMap<string, Channel>;
  routing: Routing;
  simulator: SimulatorChannel;
}

/**
 * The channels the config declares, and the routing over them. The simulator and the WhatsApp
 * channel are always there: a business phone names its channel when it is registered.
 */
export function createChannels(config: Config, store: Store, clock: Clock, log: Logger): Channels {
  const simulator = new SimulatorChannel(
    store,
    clock,
    config.simDelayMs,
    log.child({ channel: SIMULATOR }),
  );
  const whatsappLog = log.child({ channel: WHATSAPP });
  const { apiUrl, timeoutMs } = config.whatsapp;
  const whatsapp = new WhatsAppChannel(
    store,
    config.whatsapp,
    clock,
    whatsappLog,
    new WhatsAppMedia(store, { apiUrl, timeoutMs }, clock, whatsappLog),
    store.cluster?.takeRouteTokens.bind(store.cluster),
  );
  const byName = new Map<string, Channel>([
    [SIMULATOR, simulator],
    [WHATSAPP, whatsapp],
  ]);
  if (config.smpp.smscs.length > 0) {
    byName.set(SMPP, new SmppChannel(config.smpp, clock, log.child({ channel: SMPP })));
  }
  return { byName, routing: smsRouting(config), simulator };
}

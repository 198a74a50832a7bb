import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import type { Clock, Routing, Store } from '../domain/ports.js';
import type { Channel, InboundHandoff } from './channel.js';
import { SIMULATOR, SMPP, smsRouting } from './sms-routing.js';
import { SimulatorChannel, type SimulatorOptions } from './simulator/simulator-channel.js';
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
export interface ChannelsOptions {
  config: Config;
  store: Store;
  clock: Clock;
  log: Logger;
  /** The simulator's inbox changes, for the console's live inbox. */
  onInboxChange?: SimulatorOptions['onInboxChange'];
  /** Where SMS replies arriving over SMPP go. */
  inbound?: InboundHandoff;
}

export function createChannels(options: ChannelsOptions): Channels {
  const { config, store, clock, log, onInboxChange, inbound } = options;
  const simulator = new SimulatorChannel({
    inbox: store,
    clock,
    delayMs: config.simDelayMs,
    log: log.child({ channel: SIMULATOR }),
    onInboxChange,
  });
  const whatsappLog = log.child({ channel: WHATSAPP });
  const { apiUrl, timeoutMs } = config.whatsapp;
  const whatsapp = new WhatsAppChannel({
    store,
    config: config.whatsapp,
    clock,
    log: whatsappLog,
    media: new WhatsAppMedia(store, { apiUrl, timeoutMs }, clock, whatsappLog),
    takeTokens: store.cluster?.takeRouteTokens.bind(store.cluster),
  });
  const byName = new Map<string, Channel>([
    [SIMULATOR, simulator],
    [WHATSAPP, whatsapp],
  ]);
  if (config.smpp.smscs.length > 0) {
    const smppLog = log.child({ channel: SMPP });
    byName.set(SMPP, new SmppChannel({ config: config.smpp, clock, log: smppLog, inbound }));
  }
  return { byName, routing: smsRouting(config), simulator };
}

import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import type { Clock, Routing, Store } from '../domain/ports.js';
import type { Channel } from './channel.js';
import { SIMULATOR, SimulatorChannel } from './simulator/simulator-channel.js';

export interface Channels {
  byName: ReadonlyMap<string, Channel>;
  routing: Routing;
  simulator: SimulatorChannel;
}

/** The channels the config declares, and the routing over them; the simulator is always there. */
export function createChannels(config: Config, store: Store, clock: Clock, log: Logger): Channels {
  const simulator = new SimulatorChannel(
    store,
    clock,
    config.simDelayMs,
    log.child({ channel: SIMULATOR }),
  );
  return {
    byName: new Map<string, Channel>([[SIMULATOR, simulator]]),
    routing: { smsRoute: () => SIMULATOR },
    simulator,
  };
}

import type { Config } from '../config/config.js';
import type { Routing } from '../domain/ports.js';

export const SIMULATOR = 'simulator';
export const SMPP = 'smpp';

/**
 * Where SMS go: with SMSCs declared every SMS goes to them (a number no route covers is refused
 * there, SubmitFail NOROUTE, rather than quietly delivered to the simulator); else the simulator.
 */
export function smsRouting(config: Pick<Config, 'smpp'>): Routing {
  const route = config.smpp.smscs.length === 0 ? SIMULATOR : SMPP;
  return { smsRoute: () => route };
}

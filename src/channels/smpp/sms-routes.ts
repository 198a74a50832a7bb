import type { SmsRouteConfig } from '../../config/smpp-config.js';

/**
 * The SMSCs for a number: the route with the longest matching E.164 prefix wins, a route that
 * also names the SenderId beats one that does not at the same length, and "" or "+" is the
 * default. Answers SMSC names in failover order, or [] when no route matches.
 */
export class SmsRoutes {
  private readonly routes: { digits: string; senderId?: string; smscs: readonly string[] }[];

  constructor(routes: readonly SmsRouteConfig[]) {
    this.routes = routes
      .map((r) => ({ digits: r.prefix.replace(/^\+/, ''), senderId: r.senderId, smscs: r.smscs }))
      .sort((a, b) => b.digits.length - a.digits.length || rankSender(b) - rankSender(a));
  }

  smscsFor(e164: string, senderId: string): readonly string[] {
    const digits = e164.replace(/^\+/, '');
    for (const r of this.routes) {
      if (!digits.startsWith(r.digits)) continue;
      if (r.senderId !== undefined && r.senderId !== senderId) continue;
      return r.smscs;
    }
    return [];
  }
}

function rankSender(r: { senderId?: string }): number {
  return r.senderId === undefined ? 0 : 1;
}

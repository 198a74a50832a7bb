import { lookup as dnsLookup } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * The SSRF guard of webhook delivery (docs/events.md): an application's URL may not reach the
 * gateway's own host or network. Checked when an endpoint is saved and again on the address each
 * connection actually resolves to, so a name that resolves elsewhere later (DNS rebinding) is
 * refused where it matters.
 */
const BLOCKED = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  BLOCKED.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128], // unspecified
  ['::1', 128],
  ['fc00::', 7], // unique local (AWS metadata fd00:ec2::254 among them)
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
  ['100::', 64], // discard
] as const) {
  BLOCKED.addSubnet(net, bits, 'ipv6');
}

/** The IPv4 address an IPv6 one carries (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::), if any. */
function embeddedIpv4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return undefined;
  // The pattern matched, so both groups took part.
  const [hi, lo] = [parseInt(hex[1] as string, 16), parseInt(hex[2] as string, 16)];
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

/** True when the address is one a webhook may not reach. */
export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return BLOCKED.check(address, 'ipv4');
  if (family !== 6) return true;
  const v4 = embeddedIpv4(address);
  if (v4 !== undefined) return BLOCKED.check(v4, 'ipv4');
  return BLOCKED.check(address, 'ipv6');
}

export type Resolve = (host: string) => Promise<string[]>;

const systemResolve: Resolve = (host) =>
  new Promise((resolve, reject) => {
    dnsLookup(host, { all: true }, (err, addresses) => {
      if (err) reject(err);
      else resolve(addresses.map((a) => a.address));
    });
  });

/**
 * Why a URL may not be an endpoint, or undefined when it may: http(s) only, no credentials in
 * it, and (unless private networks are allowed) a host whose every address is public.
 */
export async function urlProblem(
  raw: string,
  opts: { allowPrivate: boolean; resolve?: Resolve },
): Promise<string | undefined> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'is not a URL; write it as https://host/path';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an http or https URL';
  if (url.username || url.password) return 'must not carry a user name or password';
  if (opts.allowPrivate) return undefined;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await (opts.resolve ?? systemResolve)(host);
  } catch {
    return `names a host (${host}) that does not resolve`;
  }
  const blocked = addresses.find(isBlockedAddress);
  if (blocked !== undefined || addresses.length === 0) {
    return `resolves to ${blocked ?? 'no address'}, a loopback, private, link-local or otherwise internal address; webhooks go to public addresses only (for a receiver on this machine or your own network, start the gateway with WIREBIRD_WEBHOOK_ALLOW_PRIVATE=1)`;
  }
  return undefined;
}

/**
 * A `lookup` for outgoing connections that refuses internal addresses after resolving, so the
 * address checked is the address connected to.
 */
export function guardedLookup(resolve: Resolve = systemResolve): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const usable = addresses.filter((a) => !isBlockedAddress(a));
        const first = usable[0];
        if (first === undefined) {
          const err = Object.assign(
            new Error(
              `${hostname} resolves to an internal address; webhooks go to public addresses only`,
            ),
            { code: 'EBLOCKED' },
          );
          callback(err, '', 0);
          return;
        }
        // dns.lookup's options: `all` asks for every address.
        if ((options as { all?: boolean }).all) {
          const all = usable.map((address) => ({ address, family: isIP(address) }));
          // lookup's callback has an overload for `all`; TypeScript cannot pick it from the union.
          (callback as unknown as (e: null, a: typeof all) => void)(null, all);
        } else {
          callback(null, first, isIP(first));
        }
      },
      // The resolver rejects with the ErrnoException a lookup callback expects.
      (err: unknown) => callback(err as NodeJS.ErrnoException, '', 0),
    );
  };
}

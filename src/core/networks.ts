import { BlockList, isIP } from 'node:net';

/** `10.0.0.0/8`, `2001:db8::/32`, or one address (a /32 or /128): normalised, or undefined. */
export function parseCidr(raw: string): string | undefined {
  const [address = '', prefix, ...rest] = raw.trim().split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return undefined;
  const max = family === 4 ? 32 : 128;
  const bits = prefix === undefined ? max : Number(prefix);
  if (!/^\d{1,3}$/.test(prefix ?? String(max)) || bits > max) return undefined;
  return `${address}/${bits}`;
}

/**
 * Whether a connection from `address` may bind: any address when no network is given. An IPv4
 * peer seen as `::ffff:a.b.c.d` is matched as a.b.c.d.
 */
export function allowedBy(networks: readonly string[], address: string): boolean {
  if (networks.length === 0) return true;
  const plain =
    address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
  const family = isIP(plain);
  if (family === 0) return false;
  const list = new BlockList();
  for (const n of networks) {
    const [net = '', bits = ''] = n.split('/');
    const type = isIP(net) === 4 ? 'ipv4' : 'ipv6';
    list.addSubnet(net, Number(bits), type);
  }
  return list.check(plain, family === 4 ? 'ipv4' : 'ipv6');
}

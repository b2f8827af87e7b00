// One client address as every limit counts it, so the device calls and the logins agree on who is one client.
import ipaddr from 'ipaddr.js';

/**
 * What a limit counts as one client (the device calls' rate limit, the login buckets): an IPv4 address as it is
 * (also when it comes IPv4-mapped, `::ffff:192.0.2.1`), an IPv6 address by its /64 (`2001:db8:1:2::/64`); text that
 * is no address counts as itself. ipaddr.js (already under Fastify's proxy-addr) parses every IPv6 spelling: `::` anywhere, zones, embedded IPv4.
 */
export function addressKey(ip: string): string {
  if (!ip.includes(':')) return ip;
  if (ip.startsWith('::ffff:') && ip.includes('.')) return ip.slice(7);
  let address: ipaddr.IPv6;
  try {
    address = ipaddr.IPv6.parse(ip);
  } catch {
    return ip;
  }
  if (address.isIPv4MappedAddress()) return address.toIPv4Address().toString();
  return `${new ipaddr.IPv6([...address.parts.slice(0, 4), 0, 0, 0, 0]).toString()}/64`;
}

const CLIENT_IP = Symbol('client address');

/**
 * The request's client address (request.ip), worked out once per request: behind TRUSTED_PROXIES each read of
 * request.ip parses every X-Forwarded-For hop again, and a device call read it in its gate and in its handler.
 */
export function clientIp(request: { readonly ip: string }): string {
  const kept = request as { readonly ip: string; [CLIENT_IP]?: string };
  return (kept[CLIENT_IP] ??= request.ip);
}

// The one reading of a request's Host (or of a trusted proxy's X-Forwarded-Host) and of the panel's host names:
// strict, so `localhost:@evil.example`, `localhost/x` or `localhost, evil` never pass for localhost, and canonical
// (lower case, IPv6 in brackets and compressed), so the check and the URLs built from it see the same name.
import { isIPv6 } from 'node:net';
import type { FastifyRequest } from 'fastify';

export interface RequestHost {
  /** Lower case; an IPv6 literal in brackets (`[::1]`); a trailing dot kept (`panel.example.` is another origin). */
  hostname: string;
  port?: number;
  /** `hostname[:port]`, fit for a URL. */
  host: string;
}

/** DNS labels (letters, digits, hyphen, underscore), dot separated, one trailing dot allowed; IPv4 fits too. */
const NAME = /^(?:[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?\.)*[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?\.?$/;

/**
 * A Host header value as `hostname[:port]`, or undefined when it is anything else: userinfo (`@`), a path, a
 * list, spaces, percent escapes, an empty or out-of-range port, an IPv6 literal without brackets.
 * @example parseHost('LOCALHOST:8080') // { hostname: 'localhost', port: 8080, host: 'localhost:8080' }
 * @example parseHost('localhost:@evil.example') // undefined
 */
export function parseHost(value: string | undefined): RequestHost | undefined {
  if (!value || value.length > 260) return undefined;
  const text = value.toLowerCase();
  const match = /^(?:\[([0-9a-f:.]+)\]|([^:[\]]+))(?::(\d{1,5}))?$/.exec(text);
  if (!match) return undefined;
  let hostname: string;
  if (match[1] !== undefined) {
    if (!isIPv6(match[1])) return undefined;
    hostname = new URL(`http://[${match[1]}]`).hostname;
  } else {
    if (!NAME.test(match[2]) || match[2].length > 254) return undefined;
    hostname = match[2];
  }
  const port = match[3] === undefined ? undefined : Number(match[3]);
  if (port !== undefined && (port < 1 || port > 65535)) return undefined;
  return { hostname, port, host: port === undefined ? hostname : `${hostname}:${port}` };
}

/**
 * A configured host name (PANEL_HOSTS, PUBLIC_URL's host) in the form parseHost gives: `::1` and `[::1]` alike;
 * throws on anything that is not a bare host name, naming the setting.
 */
export function canonicalHostName(name: string, setting: string): string {
  const bare = isIPv6(name) ? `[${name}]` : name;
  const parsed = parseHost(bare);
  if (!parsed || parsed.port !== undefined) throw new Error(`${setting}: "${name}" is not a host name (no port, no scheme, no path)`);
  return parsed.hostname;
}

/** The request's host, parsed (request.host is Host, or X-Forwarded-Host through a trusted proxy). */
export const requestHost = (request: FastifyRequest): RequestHost | undefined => parseHost(request.host);

/**
 * The request's host when it is one of `hosts` (canonical names), else undefined: the only way a host named by a
 * request gets into an answer.
 */
export function configuredRequestHost(request: FastifyRequest, hosts: ReadonlySet<string>): RequestHost | undefined {
  const parsed = requestHost(request);
  return parsed && hosts.has(parsed.hostname) ? parsed : undefined;
}

/**
 * `protocol://host` of a request (an action's `client.origin`) when its host is one of `hosts`, else undefined.
 * @example configuredOrigin('http://localhost:@evil.example', new Set(['localhost'])) // undefined
 */
export function configuredOrigin(origin: string | undefined, hosts: ReadonlySet<string>): string | undefined {
  const match = /^(https?):\/\/(.*)$/.exec(origin ?? '');
  const parsed = match ? parseHost(match[2]) : undefined;
  return parsed && hosts.has(parsed.hostname) ? `${match![1]}://${parsed.host}` : undefined;
}

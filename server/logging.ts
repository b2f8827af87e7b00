// The server's request log (LOG_REQUESTS=1): Fastify's pino logger, with every secret a request can carry kept
// out of it. Tokens travel in the Authorization header (never logged) or, from old live-socket clients, in a
// `token` query parameter, which is masked like any other credential-looking parameter.
import type { FastifyServerOptions } from 'fastify';

/** Where a test sends the log lines instead of stdout. */
export interface LogDestination {
  stream: NodeJS.WritableStream;
}

const SECRET_PARAMS = /^(token|access_token|auth|authorization|password|secret)$/i;

/**
 * A URL with the values of its secret query parameters masked.
 * @example maskUrl('/socket.io/?EIO=4&token=abc') // '/socket.io/?EIO=4&token=[masked]'
 */
export function maskUrl(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const query = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      let name = eq < 0 ? pair : pair.slice(0, eq);
      try {
        name = decodeURIComponent(name);
      } catch {
        // a malformed name is kept as sent
      }
      return eq >= 0 && SECRET_PARAMS.test(name) ? `${pair.slice(0, eq)}=[masked]` : pair;
    });
  return `${url.slice(0, at)}?${query.join('&')}`;
}

export function loggerOptions(option: boolean | LogDestination | undefined): FastifyServerOptions['logger'] {
  if (!option) return false;
  return {
    ...(option === true ? {} : { stream: option.stream }),
    // Nothing logs headers today; should anyone add them, the credentials stay out.
    redact: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization', 'headers.cookie'],
    serializers: {
      req: (req: { method: string; url: string; host?: string; ip?: string; socket?: { remotePort?: number } }) => ({
        method: req.method,
        url: maskUrl(req.url),
        host: req.host,
        remoteAddress: req.ip,
        remotePort: req.socket?.remotePort,
      }),
    },
  };
}

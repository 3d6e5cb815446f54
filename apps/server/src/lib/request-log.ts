import type { FastifyRequest } from 'fastify';

/**
 * The URL as the request log writes it: the path, and of the query string only the names, each
 * value replaced by `[redacted]`. Query strings carry secrets: the e-mailed reset link
 * (`/Reset_password?token=…`) is a page load of the web app, logged like any request.
 */
export function loggedUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      return eq < 0 ? '[redacted]' : `${part.slice(0, eq)}=[redacted]`;
    })
    .join('&');
  return `${url.slice(0, q)}?${query}`;
}

/**
 * Fastify's own `req` log serializer (method, url, version, host, remote address and port), with
 * the URL's query values redacted (`loggedUrl`). It serializes every `req` the server logs: the
 * "incoming request" line and the errors.
 */
export function serializeRequest(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: loggedUrl(request.url),
    version: request.headers?.['accept-version'],
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import {
  ALL_ROUTE_PATHS,
  type AppRuntimeConfig,
  DECODED_LENGTH,
  SERVER_MESSAGES,
} from '@diagrodl/contracts';

const API_PREFIXES = ['/api/', '/diagrodl/', '/media/'];

/** Whether a path (a query string allowed) is one the server answers itself (calls, media), never with the app's page. */
export function isServerPath(url: string): boolean {
  const path = url.split('?')[0] ?? '/';
  return API_PREFIXES.some((p) => path.startsWith(p) || `${path}/` === p);
}

/** JSON for a <script type="application/json"> block: '<' escaped so it cannot close the tag. */
function inlineJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/**
 * Serves the built single-page app: hashed assets with long caching (compressed at build time
 * where it helps), and index.html
 * (with the runtime configuration written into it) for every route of the specification.
 * Unknown paths get the same page with status 404 so the app shows its 404 screen.
 */
export async function registerSpa(
  app: FastifyInstance,
  opts: { webDist: string; runtime: AppRuntimeConfig },
): Promise<void> {
  // The built files do not change while the server runs: each size is read once.
  const sizes = new Map<string, number | null>();
  const decodedSize = (file: string): number | null => {
    if (!sizes.has(file))
      sizes.set(file, fs.statSync(file, { throwIfNoEntry: false })?.size ?? null);
    return sizes.get(file)!;
  };
  const indexFile = path.join(opts.webDist, 'index.html');
  let indexHtml: string | null = null;
  if (fs.existsSync(indexFile)) {
    indexHtml = fs
      .readFileSync(indexFile, 'utf8')
      .replace(
        '</head>',
        `<script id="app-config" type="application/json">${inlineJson(opts.runtime)}</script></head>`,
      );
    await app.register(fastifyStatic, {
      root: opts.webDist,
      wildcard: false,
      index: false,
      // The build writes a brotli and a gzip copy beside each text and WebAssembly file
      // (scripts/precompress.mjs): sent to a browser that accepts them, with Vary: Accept-Encoding.
      preCompressed: true,
      setHeaders(res, filePath) {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          res.header('Cache-Control', 'public, max-age=31536000, immutable');
        } else {
          res.header('Cache-Control', 'public, max-age=300');
        }
        // A compressed copy: the size of the file it decodes to, for a download's progress
        // (Content-Length counts the bytes on the wire).
        if (/\.(br|gz)$/.test(filePath)) {
          const size = decodedSize(filePath.slice(0, -3));
          if (size !== null) res.header(DECODED_LENGTH, String(size));
        }
      },
    });
  } else {
    app.log.warn(`No built web app at ${opts.webDist}: run \`npm run build\` (npm start does it).`);
  }

  const knownRoutes = new Set(ALL_ROUTE_PATHS.map((r) => r.toLowerCase()));
  app.setNotFoundHandler(async (request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    if (isServerPath(url) || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return reply.code(404).send({ status: 'ERROR', detail: SERVER_MESSAGES.notFound });
    }
    if (!indexHtml) {
      return reply.code(503).send({ status: 'ERROR', detail: SERVER_MESSAGES.webNotBuilt });
    }
    const normalised = (url.length > 1 ? url.replace(/\/+$/, '') : url).toLowerCase();
    const known = knownRoutes.has(normalised);
    return reply
      .code(known ? 200 : 404)
      .header('Cache-Control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(indexHtml);
  });
}

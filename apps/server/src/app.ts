import fs from 'node:fs';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import { SERVER_MESSAGES } from '@diagrodl/contracts';
import type { Config } from './config.ts';
import { type Db, openDatabase } from './db/database.ts';
import { HttpError } from './lib/errors.ts';
import { resolveSessionSecret } from './lib/secret.ts';
import { AuthService } from './modules/auth/auth.service.ts';
import { authRoutes, sessionRoutes } from './modules/auth/auth.routes.ts';
import { UserRepository } from './modules/auth/user.repository.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { SessionRepository } from './modules/session/session.repository.ts';
import { Sessions } from './modules/session/sessions.ts';
import { registerCsrf } from './plugins/csrf.ts';
import { registerSpa } from './plugins/spa.ts';

export interface App {
  server: FastifyInstance;
  db: Db;
  config: Config;
  /** Stops accepting requests, lets in-flight ones finish, then closes the database. */
  close(): Promise<void>;
}

/** The composition root: everything the server is, built from one Config. */
export async function buildApp(config: Config): Promise<App> {
  for (const dir of [config.dataDir, config.mediaDir, config.outboxDir]) {
    fs.mkdirSync(dir, { recursive: true });
  }
  const db = await openDatabase(config.database);
  const secret = resolveSessionSecret(config.sessionSecret, config.dataDir);

  const server = Fastify({
    logger: { level: config.logLevel },
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
  });
  server.addHook('onClose', async () => {
    await db.close();
  });

  // One error handler: JSON {status: 'ERROR', detail}, never a stack trace.
  server.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) {
      return reply
        .code(error.statusCode)
        .headers(error.headers)
        .send({ status: 'ERROR', detail: error.detail });
    }
    const code = error.statusCode ?? 500;
    if (code >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.code(code).send({ status: 'ERROR', detail: SERVER_MESSAGES.internal });
    }
    const detail =
      code === 413
        ? SERVER_MESSAGES.payloadTooLarge
        : code === 429
          ? error.message
          : code === 404
            ? SERVER_MESSAGES.notFound
            : SERVER_MESSAGES.badRequest;
    return reply.code(code).send({ status: 'ERROR', detail });
  });

  await server.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        'img-src': ["'self'", 'data:', 'blob:'],
        'media-src': ["'self'", 'blob:'],
        'script-src': ["'self'", "'wasm-unsafe-eval'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        'connect-src': ["'self'"],
        'upgrade-insecure-requests': null,
      },
    },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: false,
  });
  await server.register(cookie);

  if (config.maintenance) {
    server.addHook('onRequest', async (request, reply) => {
      const url = request.url;
      if (url.startsWith('/api/') || url.startsWith('/diagrodl/')) {
        return reply
          .code(503)
          .header('Retry-After', '3600')
          .send({ status: 'ERROR', detail: SERVER_MESSAGES.maintenance });
      }
    });
  }

  const users = new UserRepository(db.kysely);
  const sessions = new Sessions(new SessionRepository(db.kysely));
  sessions.register(server);
  registerCsrf(server, secret);

  healthRoutes(server, { db, maintenance: config.maintenance, models: () => [] });
  sessionRoutes(server, { users });
  authRoutes(server, { auth: new AuthService(users), sessions });

  await registerSpa(server, {
    webDist: config.webDist,
    runtime: {
      maintenance: config.maintenance,
      providerName: config.providerName,
      providerKey: config.providerKey,
    },
  });

  // Expired sessions are swept at start and hourly.
  await sessions.purgeExpired();
  const sweep = setInterval(() => void sessions.purgeExpired().catch(() => undefined), 3600_000);
  sweep.unref();
  server.addHook('onClose', async () => clearInterval(sweep));

  await server.ready();
  return {
    server,
    db,
    config,
    close: () => server.close(),
  };
}

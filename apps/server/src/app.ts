import fs from 'node:fs';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { SERVER_MESSAGES } from '@diagrodl/contracts';
import type { Config } from './config.ts';
import { type Db, openDatabase } from './db/database.ts';
import { RateLimitRepository } from './lib/rate-limit/rate-limit.repository.ts';
import { RateLimiter } from './lib/rate-limit/rate-limiter.ts';
import { serializeRequest } from './lib/request-log.ts';
import { resolveSessionSecret } from './lib/secret.ts';
import { createMailer } from './mail/mailer.ts';
import { ModelWorker } from './worker/model-worker.ts';
import { accountsModule } from './modules/accounts/index.ts';
import { authModule } from './modules/auth/index.ts';
import { contactModule } from './modules/contact/index.ts';
import type { ContactRetry } from './modules/contact/contact.service.ts';
import { diagnosisModule } from './modules/diagnosis/index.ts';
import type { RunnerOptions } from './modules/diagnosis/identification-runner.ts';
import { healthModule } from './modules/health/index.ts';
import { SessionRepository } from './modules/session/session.repository.ts';
import { Sessions } from './modules/session/sessions.ts';
import { UserDataParts } from './modules/users/user-data.ts';
import { UserRepository } from './modules/users/user.repository.ts';
import type { Platform } from './platform.ts';
import { registerCsrf } from './plugins/csrf.ts';
import { localizeReply, setErrorReplies } from './plugins/errors.ts';
import { isServerPath, registerSpa } from './plugins/spa.ts';

export interface App {
  server: FastifyInstance;
  db: Db;
  config: Config;
  /** The models, in their worker thread. */
  models: ModelWorker;
  /** Stops accepting requests, lets in-flight ones finish, then closes the database. */
  close(): Promise<void>;
}

/** A request URL's path with its %-escapes decoded (as it was when one is broken). */
function decodedPath(url: string): string {
  const pathOnly = url.split('?')[0] ?? url;
  try {
    return decodeURIComponent(pathOnly);
  } catch {
    return pathOnly;
  }
}

/** The composition root: everything the server is, built from one Config. */
export interface AppOptions {
  /** Diagnosis tuning (tests shorten the claim lifetime and pause runs between chunks). */
  diagnosis?: RunnerOptions;
  /** Where the log goes instead of stdout (tests read it). */
  logStream?: NodeJS.WritableStream;
  /** How often contact messages whose mail failed are tried again (tests shorten it). */
  contactRetry?: ContactRetry;
}

export async function buildApp(config: Config, options: AppOptions = {}): Promise<App> {
  for (const dir of [config.dataDir, config.mediaDir]) {
    fs.mkdirSync(dir, { recursive: true });
  }
  // The mails hold generated passwords and live reset links: for the server's user only.
  fs.mkdirSync(config.outboxDir, { recursive: true, mode: 0o700 });
  const db = await openDatabase(config.database);
  const secret = resolveSessionSecret(config.sessionSecret, config.dataDir);

  const server = Fastify({
    logger: {
      level: config.logLevel,
      // query strings' values never reach the log (the e-mailed reset link holds its token)
      serializers: { req: serializeRequest },
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    // a URL the router cannot read (a broken %-escape): the product's reply, not the framework's
    // (no route, so no hooks: it is put in the request's language here)
    frameworkErrors: (_error, request, reply) => {
      const r = reply as unknown as FastifyReply;
      void r.code(400).send(
        localizeReply(request, r, {
          status: 'ERROR',
          detail: SERVER_MESSAGES.badRequest,
        }),
      );
    },
  });
  server.addHook('onClose', async () => {
    await db.close();
  });

  setErrorReplies(server);

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
      // the route the router matched (it decodes %-escapes: /%61pi/ is /api/), else the path
      const target = request.routeOptions.url ?? decodedPath(request.url);
      if (isServerPath(target)) {
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

  // Models loaded once (a model whose card does not match is refused), in a worker thread off
  // the event loop (src/worker/model-worker.ts).
  const models = await ModelWorker.start(config.modelsDir, {
    info: (m) => server.log.info(m),
    warn: (m) => server.log.warn(m),
  });
  server.addHook('onClose', async () => models.close());
  const mailer = createMailer(
    { smtpUrl: config.smtpUrl, from: config.mailFrom, outboxDir: config.outboxDir },
    server.log,
  );
  if (!config.publicUrl && !config.maintenance) {
    server.log.warn(
      'PUBLIC_URL is not set: links in e-mails (login, password reset) use the Host header of ' +
        'each request. Set PUBLIC_URL in production so that nobody can point them elsewhere.',
    );
  }
  const platform: Platform = {
    db,
    config,
    log: server.log,
    users,
    sessions,
    limiter: new RateLimiter(new RateLimitRepository(db.kysely)),
    mailer,
    userData: new UserDataParts(),
  };

  // The modules, each a Fastify plugin (src/modules/<name>/index.ts).
  await server.register(healthModule, { ...platform, models: () => models.health() });
  await server.register(diagnosisModule, { ...platform, models, runner: options.diagnosis });
  await server.register(authModule, platform);
  await server.register(accountsModule, platform);
  await server.register(contactModule, { ...platform, retry: options.contactRetry });

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
    models,
    close: () => server.close(),
  };
}
